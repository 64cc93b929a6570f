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
    """Each game's tags, with its termination comment as `_end` and its
    move text (after the tags) as `_moves`."""
    for block in re.split(r'\n(?=\[Event )', text):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]', block, re.M))
        if 'Result' not in tags:
            continue
        tags['_moves'] = block[block.find('\n\n'):]
        # the termination comment at the end of the move text
        m = re.findall(r'\{([^}]*)\}\s*(?:1-0|0-1|1/2-1/2|\*)\s*$', block.strip())
        # cutechess puts the last move's eval and time first: drop them,
        # so that games ending the same way count together
        end = m[-1] if m else ''
        tags['_end'] = re.sub(r'^[+-]?M?[\d.]+/\d+ [\d.]+s, ', '', end)
        yield tags


def elo(score):
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def wilson(p, n, z=1.96):
    """95% interval of a proportion; unlike the normal approximation it stays
    honest at a 0% or 100% score (20/20 gives a lower bound, not +-0)."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


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
    if 0 < s < 1:
        # standard error of the mean score per game (trinomial)
        sd = math.sqrt((w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n / n)
        lo, hi = max(s - 1.96 * sd, 0.0), min(s + 1.96 * sd, 1.0)
    else:
        lo, hi = wilson(s, n)
    print('%s: games %d  +%d -%d =%d  score %.1f%%  Elo %+.0f (95%%: %+.0f .. %+.0f)' % (
        name, n, w, l, d, 100 * s, elo(s), elo(lo), elo(hi)))
    for end, c in ends.most_common():
        print('  %3d  %s' % (c, end))


if __name__ == '__main__':
    main()
