#!/usr/bin/env python3
"""How each engine in a PGN file spent its clock: mean seconds a move over
moves 1-10, 11-20, 21-40 and 41 on, the mean depth, and the mean time left
on the clock when a game ended (an estimate: base + increments - time
spent over the moves with a time, so book moves count as neither). It reads the `{score/depth time}` comments
that `chimera match` (and cutechess-cli) write, and the TimeControl tag
(`base+inc` in seconds); book moves are skipped.

usage: scripts/pgn-time.py GAMES.pgn [MORE.pgn ...]
"""
import re
import sys
from collections import defaultdict

PHASES = ((1, 10), (11, 20), (21, 40), (41, 10**9))


def phase(move):
    for lo, hi in PHASES:
        if lo <= move <= hi:
            return f'{lo}-{hi}' if hi < 10**9 else f'{lo}+'
    raise ValueError(move)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    spent = defaultdict(lambda: defaultdict(list))
    depths = defaultdict(list)
    left = defaultdict(list)
    for path in sys.argv[1:]:
        text = open(path, encoding='utf-8', errors='replace').read()
        for block in re.split(r'\n(?=\[Event )', text):
            tags = dict(re.findall(r'^\[(\w+) "(.*)"\]', block, re.M))
            if 'White' not in tags or 'Black' not in tags:
                continue
            tc = re.match(r'([\d.]+)(?:\+([\d.]+))?$', tags.get('TimeControl', ''))
            base, inc = (float(tc.group(1)), float(tc.group(2) or 0)) if tc else (None, 0.0)
            players = (tags['White'], tags['Black'])
            clock = {p: base for p in players}
            body = block[block.find('\n\n'):]
            # one comment per half-move; the last may be the termination
            for i, c in enumerate(re.findall(r'\{([^}]*)\}', body)):
                m = re.match(r'\s*\S+/(\d+) ([\d.]+)s', c)
                if not m:
                    continue
                who, move = players[i % 2], i // 2 + 1
                s = float(m.group(2))
                spent[who][phase(move)].append(s)
                depths[who].append(int(m.group(1)))
                if clock[who] is not None:
                    clock[who] += inc - s
            for p in players:
                if clock[p] is not None:
                    left[p].append(clock[p])
    mean = lambda xs: sum(xs) / len(xs) if xs else float('nan')
    for who in sorted(spent):
        phases = '  '.join(
            f'moves {k}: {mean(v):.3f} s ({len(v)})' for k, v in spent[who].items()
        )
        print(f'{who}: {phases}  depth {mean(depths[who]):.1f}  '
              f'left at the end {mean(left[who]):.2f} s ({len(left[who])} games)')


if __name__ == '__main__':
    main()
