#!/usr/bin/env python3
"""Cross-checks Chimera's move generation against Sjaak II on positions
neither test suite holds: random games from the start position, and at
every few plies the perft of both engines, which must agree. A
disagreement is printed with the moves that reach it (feed them to
scripts/perft-diff.py to find the move).

usage: random-crosscheck.py VARIANT [--games N] [--plies N] [--every K]
                            [--depth D] [--seed S] [--sjaak-args ARGS]
e.g.   random-crosscheck.py omega --games 20
       random-crosscheck.py cwda-nutty-clobberers --sjaak-args ../shared/refdata/sjaak-cwda.txt
Needs sjaakii (/usr/games) and a release build of chimera. Promotions are
not played (the letters differ between the engines' CwDA definitions), so
the walks stay in promotion-free lines; promotions are still counted by
both perfts. Exit status 1 if any position disagrees."""
import argparse
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHIMERA = os.path.join(ROOT, 'target', 'release', 'chimera')
ENV = dict(os.environ, PATH='/usr/games:' + os.environ.get('PATH', ''))


def chimera(variant, moves, depth, divide):
    args = [CHIMERA, 'perft', str(depth), '--variant', variant]
    if moves:
        args += ['--moves', ' '.join(moves)]
    if divide:
        args.append('--divide')
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit('chimera: ' + out.stderr.strip())
    div = re.findall(r'^(\S+): (\d+)$', out.stdout, re.M)
    total = int(re.search(r'^Nodes searched: (\d+)$', out.stdout, re.M).group(1))
    return total, [m for m, _ in div]


def sjaak(variant, moves, depth, sjaak_args):
    cmds = ['variant ' + variant, 'new', 'force'] + moves + ['perft %d' % depth, 'quit']
    out = subprocess.run(['sjaakii'] + sjaak_args, input='\n'.join(cmds) + '\n',
                         capture_output=True, text=True, env=ENV).stdout
    out = re.sub(r'\x1b\[[0-9;]*m', '', out)
    if re.search(r'Illegal move', out):
        return None
    m = re.search(r'(?:^|>)\s*%d\s+(\d+)\s+[\d.]+\s+[\d.]+nps' % depth, out, re.M)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('variant')
    ap.add_argument('--games', type=int, default=10)
    ap.add_argument('--plies', type=int, default=60)
    ap.add_argument('--every', type=int, default=7)
    ap.add_argument('--depth', type=int, default=3)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--sjaak-args', default='')
    a = ap.parse_args()
    rng = random.Random(a.seed)
    sargs = a.sjaak_args.split()
    checked = bad = skipped = 0
    for g in range(a.games):
        moves = []
        for ply in range(a.plies):
            total, legal = chimera(a.variant, moves, 1, True)
            if ply % a.every == a.every - 1 or not legal:
                ours, _ = chimera(a.variant, moves, a.depth, False)
                theirs = sjaak(a.variant, moves, a.depth, sargs)
                if theirs is None:
                    skipped += 1
                elif ours != theirs:
                    bad += 1
                    print('DIFFER game %d: chimera %d sjaak %d after: %s'
                          % (g, ours, theirs, ' '.join(moves)))
                else:
                    checked += 1
            # no promotions: their letters differ between the engines
            legal = [m for m in legal if not re.search(r'\d[a-z]$', m)]
            if not legal:
                break
            moves.append(rng.choice(legal))
    print('%s: %d positions agree, %d differ, %d skipped (Sjaak II could not '
          'replay the moves)' % (a.variant, checked, bad, skipped))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
