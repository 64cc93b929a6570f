#!/usr/bin/env python3
"""Four-player Teams rules against 4pchess on positions neither has seen.

Plays random games from the 4PC start (moves chosen by a seeded generator
among Chimera's legal moves, promotions favoured) and, every few plies, compares
the number of legal moves of the position and of every position one move
later: Chimera's `perft 2 --divide` against 4pchess's `get_num_legal_moves`
(Teams rules; 4pchess plays only the 4PC layout). A disagreement is printed
with the moves that reach it, to be walked down by hand.

One difference is known and expected: 4pchess lets a player capture an
enemy King that stands in check (a teammate may expose its partner's King,
and the check takes effect only on the partner's turn), while RULES.md says
Kings are never captured. Where 4pchess counts more moves and an enemy of
the side to move is in check, the difference is reported as such, apart.

usage: scripts/fourplayer-crosscheck.py [--games N] [--plies N] [--every K] [--seed S]
       [--chimera target/release/chimera] [--fourpchess ../shared/engines/4pchess]
"""
import argparse
import random
import subprocess
import sys


class FourPChess:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def legal(self, moves):
        cmd = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        self.p.stdin.write(cmd + "\nget_num_legal_moves\n")
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("4pchess exited")
            if line.startswith("info string n_legal"):
                return int(line.split()[-1])
            if "Invalid" in line:
                raise RuntimeError(f"4pchess: {line.strip()} after {' '.join(moves)}")

    def close(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.close()
        self.p.wait(timeout=5)


def chimera_divide(chimera, moves, depth):
    out = subprocess.run(
        [chimera, "perft", str(depth), "--divide", "--variant", "fourplayer-teams", "--fen4", "4PC", "--moves", " ".join(moves)],
        capture_output=True, text=True, check=True,
    ).stdout
    counts = {}
    for line in out.splitlines():
        if ": " in line and not line.startswith("Nodes"):
            m, n = line.split(": ")
            counts[m] = int(n)
    return counts


TEAM = {"Red": 0, "Yellow": 0, "Blue": 1, "Green": 1}


def enemy_king_in_check(chimera, moves):
    """Whether an enemy of the side to move is in check (from `chimera show`)."""
    out = subprocess.run(
        [chimera, "show", "--variant", "fourplayer-teams", "--fen4", "4PC", "--moves", " ".join(moves)],
        capture_output=True, text=True, check=True,
    ).stdout
    checked, mover = [], None
    for line in out.splitlines():
        if line.startswith("in check: "):
            checked = line[len("in check: "):].split(", ")
        if " to move " in line:
            mover = line.split()[0]
    return any(TEAM[c] != TEAM[mover] for c in checked)


def pick(rng, moves):
    # promotions are rare: favour them when they come
    weights = [6.0 if "=" in m else 1.0 for m in moves]
    return rng.choices(moves, weights=weights)[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--every", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chimera", default="target/release/chimera")
    ap.add_argument("--fourpchess", default="../shared/engines/4pchess")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    fp = FourPChess(a.fourpchess)
    checked = bad = king_captures = 0
    for g in range(a.games):
        moves = []
        for ply in range(a.plies):
            children = chimera_divide(a.chimera, moves, 1)
            if not children:
                break
            if ply % a.every == 0:
                counts = chimera_divide(a.chimera, moves, 2)
                want = fp.legal(moves)
                checked += 1
                if want != len(counts):
                    if want > len(counts) and enemy_king_in_check(a.chimera, moves):
                        king_captures += 1
                    else:
                        bad += 1
                        print(f"DIFF game {g} ply {ply}: chimera {len(counts)} moves, 4pchess {want}; moves: {' '.join(moves)}")
                else:
                    for m, n in counts.items():
                        checked += 1
                        w = fp.legal(moves + [m])
                        if w == n:
                            continue
                        if w > n and enemy_king_in_check(a.chimera, moves + [m]):
                            king_captures += 1
                        else:
                            bad += 1
                            print(f"DIFF game {g} ply {ply} after {m}: chimera {n}, 4pchess {w}; moves: {' '.join(moves + [m])}")
            moves.append(pick(rng, sorted(children)))
        print(f"game {g}: {len(moves)} plies", file=sys.stderr)
    fp.close()
    print(f"{checked} positions compared, {bad} differ; {king_captures} more differ only by 4pchess capturing a King in check")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
