#!/usr/bin/env python3
"""Score of one engine in four-player Teams games (PGN4 from `chimera
match`): W-L-D, score and Elo with a 95% error bar, over all games and over
the board (games that ended by the rules, not by a fault: an illegal move,
a time loss, a crash, a stall or a false claim, which are listed apart, by
the engine at fault), and how the games ended.

usage: scripts/pgn4-stats.py GAMES.pgn4 [ENGINE_NAME_SUBSTRING (default Chimera)]
"""
import importlib.util
import math
import os
import re
import sys
from collections import Counter

# the Elo of a score: one definition, in pgn-stats.py beside this script
_spec = importlib.util.spec_from_file_location(
    "pgn_stats", os.path.join(os.path.dirname(os.path.abspath(__file__)), "pgn-stats.py"))
_pgn_stats = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_pgn_stats)
elo = _pgn_stats.elo

SEATS = ["Red", "Blue", "Yellow", "Green"]
FAULTS = ("illegal", "on time", "time forfeit", "disconnect", "stall", "claim",
          "crash", "abandon", "timeout")


def games(text):
    for block in re.split(r"\n(?=\[Variant )", text):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]', block, re.M))
        if "Result" in tags:
            yield tags


def line(label, w, l, d):
    n = w + l + d
    if n == 0:
        return f"{label}: no games"
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + l * s ** 2 + d * (0.5 - s) ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = elo(max(s - 1.96 * se, 1e-9)), elo(min(s + 1.96 * se, 1 - 1e-9))
    e = elo(s)
    return (f"{label}: {w}-{l}-{d} in {n}, {100 * s:.1f}%, Elo {e:+.0f} "
            f"(95%: {lo:+.0f} to {hi:+.0f})")


def main():
    path = sys.argv[1]
    who = sys.argv[2] if len(sys.argv) > 2 else "Chimera"
    text = open(path, encoding="utf-8").read()
    total = [0, 0, 0]
    board = [0, 0, 0]
    faults = Counter()
    ends = Counter()
    for g in games(text):
        ours = [i for i, s in enumerate(SEATS) if who in g.get(s, "")]
        if not ours:
            continue
        team = ours[0] % 2  # 0: Red+Yellow, 1: Blue+Green
        res = g["Result"]
        term = g.get("Termination", "")
        ends[term.split(":")[0]] += 1
        if res == "1-0":
            k = 0 if team == 0 else 1
        elif res == "0-1":
            k = 1 if team == 0 else 0
        else:
            k = 2
        total[k] += 1
        if any(f in term.lower() for f in FAULTS):
            seat = next((s for s in SEATS if term.startswith(s)), None)
            at_fault = g.get(seat, "?") if seat else "?"
            faults[f"{at_fault}: {term.split(':')[0]}"] += 1
        else:
            board[k] += 1
    print(line(f"{who}, all games", *total))
    print(line(f"{who}, over the board", *board))
    for f, n in faults.most_common():
        print(f"  fault, not counted over the board: {f} x{n}")
    for e, n in ends.most_common():
        print(f"  ended: {e} x{n}")


if __name__ == "__main__":
    main()
