#!/usr/bin/env python3
"""How each engine in a PGN file spent its clock: mean seconds a move over
moves 1-10, 11-20, 21-40 and 41 on, the median depth (a mean would be
pulled up by the depth an engine reports for a mate it sees), and the
mean time left on the clock when a game ended. It reads the
`{score/depth time}` comments that `chimera match` (and cutechess-cli)
write, the TimeControl tag (`base+inc` in seconds) and a FEN tag's side
to move and move number, where a game has one. Book moves, which
have no such comment, are skipped: the time left is base + increments -
time spent over the moves that have one (an estimate).

usage: scripts/pgn-time.py GAMES.pgn [MORE.pgn ...]
"""
import importlib.util
import os
import re
import sys
from collections import defaultdict
from statistics import median

# the game splitter of pgn-stats.py (its name is not importable as is)
_spec = importlib.util.spec_from_file_location(
    'pgn_stats', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'pgn-stats.py'))
pgn_stats = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pgn_stats)


def phase(move):
    if move <= 10:
        return '1-10'
    if move <= 20:
        return '11-20'
    return '21-40' if move <= 40 else '41+'


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    spent = defaultdict(lambda: defaultdict(list))
    depths = defaultdict(list)
    left = defaultdict(list)
    for path in sys.argv[1:]:
        text = open(path, encoding='utf-8', errors='replace').read()
        for g in pgn_stats.games(text):
            if 'White' not in g or 'Black' not in g:
                continue
            tc = re.match(r'([\d.]+)(?:\+([\d.]+))?$', g.get('TimeControl', ''))
            base, inc = (float(tc.group(1)), float(tc.group(2) or 0)) if tc else (None, 0.0)
            players = (g['White'], g['Black'])
            clock = {p: base for p in players}
            # the half-moves before the first one here (a FEN tag may start
            # the game later, or with Black to move)
            fen = g.get('FEN', '').split()
            first = 0
            if len(fen) >= 2:
                full = int(fen[-1]) if fen[-1].isdigit() else 1
                first = 2 * (max(full, 1) - 1) + (fen[1] == 'b')
            # one comment per half-move (a book move's says `book`)
            for i, c in enumerate(re.findall(r'\{([^}]*)\}', g['_moves'])):
                m = re.match(r'\s*\S+/(\d+) ([\d.]+)s', c)
                if not m:
                    continue
                h = first + i
                who = players[h % 2]
                s = float(m.group(2))
                spent[who][phase(h // 2 + 1)].append(s)
                depths[who].append(int(m.group(1)))
                if base is not None:
                    clock[who] += inc - s
            if base is not None:
                for p in players:
                    left[p].append(clock[p])
    mean = lambda xs: sum(xs) / len(xs) if xs else float('nan')
    for who in sorted(spent):
        phases = '  '.join(
            f'moves {k}: {mean(v):.3f} s ({len(v)})' for k, v in spent[who].items()
        )
        print(f'{who}: {phases}  median depth {median(depths[who]):g}  '
              f'left at the end {mean(left[who]):.2f} s ({len(left[who])} games)')


if __name__ == '__main__':
    main()
