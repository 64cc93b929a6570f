#!/usr/bin/env python3
"""Finds where Chimera's perft disagrees with Sjaak II's: compares the
per-move counts (divide) and descends into the first differing move until
the differing moves at depth 1 are found.

usage: perft-diff.py VARIANT DEPTH [--fen FEN] [--moves "m1 m2"] [--sjaak-args ARGS]
Needs sjaakii on PATH (/usr/games) and a release build of chimera."""
import argparse, re, subprocess, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHIMERA = os.path.join(ROOT, 'target', 'release', 'chimera')


def chimera_divide(variant, fen, moves, depth):
    args = [CHIMERA, 'perft', str(depth), '--variant', variant, '--divide']
    if fen:
        args += ['--fen', fen]
    if moves:
        args += ['--moves', ' '.join(moves)]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit('chimera: ' + out.stderr)
    res = {}
    for line in out.stdout.splitlines():
        m = re.match(r'^(\S+): (\d+)$', line)
        if m:
            res[m.group(1)] = int(m.group(2))
    return res


def sjaak_divide(variant, fen, moves, depth, sjaak_args, ours):
    cmds = ['variant ' + variant]
    if fen:
        cmds.append('setboard ' + fen)
    cmds.append('force')
    cmds += moves
    cmds += ['perft %d 1' % depth, 'quit']
    env = dict(os.environ, PATH='/usr/games:' + os.environ.get('PATH', ''))
    out = subprocess.run(['sjaakii'] + sjaak_args, input='\n'.join(cmds) + '\n',
                         capture_output=True, text=True, env=env).stdout
    res = {}
    kings = [m for m in ours if False]
    for line in out.splitlines():
        # the first move shares its line with Sjaak's prompt `#[Variant] 0w> `
        line = re.sub(r'^#\[.*?\].*?> ?', '', re.sub(r'\x1b\[[0-9;]*m', '', line))
        m = re.match(r'^\s*(\S+)\s+(\d+)\s+(\d+)\s*$', line)
        if not m:
            continue
        mv = m.group(1)
        if int(m.group(2)) == 0:
            continue  # Sjaak lists pseudo-legal moves; illegal ones count 0
        if mv in ('O-O', 'O-O-O'):
            # map to our King move of two or more files
            cand = [x for x in ours if castle_like(x)]
            key = 'castle:' + mv
            res[key] = int(m.group(2))
            continue
        mm = re.match(r'^[A-Z]?([a-z]\d+)[-x]([a-z]\d+)([A-Z]?)$', mv)
        if not mm:
            print('cannot read sjaak move', mv)
            continue
        res[mm.group(1) + mm.group(2) + mm.group(3).lower()] = int(m.group(2))
    return res


def castle_like(m):
    mm = re.match(r'^([a-z])(\d+)([a-z])(\d+)$', m)
    return mm and mm.group(2) == mm.group(4) and abs(ord(mm.group(1)) - ord(mm.group(3))) >= 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('variant')
    ap.add_argument('depth', type=int)
    ap.add_argument('--fen')
    ap.add_argument('--moves', default='')
    ap.add_argument('--sjaak-args', default='')
    a = ap.parse_args()
    moves = a.moves.split()
    sargs = a.sjaak_args.split()
    depth = a.depth
    while depth >= 1:
        ours = chimera_divide(a.variant, a.fen, moves, depth)
        theirs = sjaak_divide(a.variant, a.fen, moves, depth, sargs, ours)
        # resolve castling keys against our king moves by count when possible
        for k in [k for k in theirs if k.startswith('castle:')]:
            cands = [m for m in ours if castle_like(m) and m not in theirs]
            long_ = k.endswith('O-O-O')
            cands.sort(key=lambda m: ord(m[0]) - ord(m[len(m.rstrip('0123456789'))-0] if False else m[2]))
            pick = None
            for c in cands:
                f1, f2 = ord(c[0]), ord(re.match(r'^[a-z]\d+([a-z])', c).group(1))
                if (f2 < f1) == long_:
                    pick = c
            theirs[pick or k] = theirs.pop(k)
        only_ours = sorted(set(ours) - set(theirs))
        only_theirs = sorted(set(theirs) - set(ours))
        diff = sorted(m for m in set(ours) & set(theirs) if ours[m] != theirs[m])
        print('depth %d after [%s]: chimera %d, sjaak %d' % (depth, ' '.join(moves), sum(ours.values()), sum(theirs.values())))
        if only_ours or only_theirs:
            print('  only chimera:', only_ours)
            print('  only sjaak:  ', only_theirs)
            return
        if not diff:
            print('  no difference')
            return
        print('  differ:', [(m, ours[m], theirs[m]) for m in diff])
        moves.append(diff[0])
        depth -= 1


main()
