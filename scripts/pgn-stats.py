#!/usr/bin/env python3
"""Score of one engine in a PGN file: W-L-D, score, Elo with a 95% error bar,
and how the games ended.

usage: scripts/pgn-stats.py GAMES.pgn [ENGINE_NAME_SUBSTRING (default Chimera)]
"""
import math
import re
import sys
from collections import Counter


def games(text):
    for block in re.split(r'\n(?=\[Event )', text):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]', block, re.M))
        if 'Result' not in tags:
            continue
        # the termination comment at the end of the move text
        m = re.findall(r'\{([^}]*)\}\s*(?:1-0|0-1|1/2-1/2|\*)\s*$', block.strip())
        tags['_end'] = m[-1] if m else ''
        yield tags


def elo(score):
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    name = sys.argv[2] if len(sys.argv) > 2 else 'Chimera'
    w = l = d = 0
    ends = Counter()
    for g in games(open(sys.argv[1], encoding='utf-8', errors='replace').read()):
        res = g['Result']
        if res == '*':
            ends['unfinished'] += 1
            continue
        white = name.lower() in g.get('White', '').lower()
        if res == '1/2-1/2':
            d += 1
        elif (res == '1-0') == white:
            w += 1
        else:
            l += 1
        ends[g['_end'] or 'no comment'] += 1
    n = w + l + d
    if n == 0:
        sys.exit('no finished games')
    s = (w + 0.5 * d) / n
    # standard error of the mean score per game (trinomial)
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n / n
    sd = math.sqrt(var)
    lo, hi = elo(s - 1.96 * sd), elo(s + 1.96 * sd)
    print('%s: games %d  +%d -%d =%d  score %.1f%%  Elo %+.0f (95%%: %+.0f .. %+.0f, +- %.0f)' % (
        name, n, w, l, d, 100 * s, elo(s), lo, hi, (hi - lo) / 2))
    for end, c in ends.most_common():
        print('  %3d  %s' % (c, end))


if __name__ == '__main__':
    main()
