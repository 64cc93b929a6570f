#!/usr/bin/env python3
"""SPSA tuning of Chimera's weights by self-play, or against an engine.

Each iteration perturbs every chosen weight by +-c_k at random, plays a few
game pairs, and moves the weights along the estimated gradient. The games:
- `--runner selfplay` (default): the two perturbed settings against each
  other inside one process (`chimera selfplay`, colours swapped per pair);
- `--runner match`: through `chimera match`, each setting a Chimera process
  of its own (the weights as UCI options, CHIMERA_TUNE=1); without
  `--opponent` the two settings play each other, with `--opponent` each
  plays the same games against that engine (an engines.toml name, e.g.
  `sjaakii`, or cutechess-style options, e.g. 'cmd=/usr/games/fairymax
  proto=xboard'), and the difference of their scores is the gradient's
  sign. XBoard has no node limit: against an XBoard engine use
  `--nodes 0 --tc ...`.
With `--nnue` naming a network for chess/CwDA, the search's eval margins
are the `nnue_*` weights (rfp_margin's is nnue_rfp_margin, and so on):
tune those names there.
The weights and their ranges come from `chimera params` (src/params.rs),
the one place where they are declared.

usage: scripts/tune.py [--variant omega] [--params rfp_margin,fp_base,...]
                       [--iterations 200] [--pairs 4] [--nodes 6000 | --tc 2+0.05]
                       [--runner selfplay|match] [--opponent ENGINE] [--concurrency 2]
                       [--nnue on|off|NET]
                       [--out tune-result.txt] [--binary target/release/chimera]

Prints the running values; at the end writes `name=value` lines that
`chimera selfplay --a` (comma-joined) or the engine's options accept.
"""
import argparse
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_params(binary):
    out = subprocess.run([binary, 'params'], capture_output=True, text=True, check=True).stdout
    params = {}
    for line in out.splitlines():
        name, default, lo, hi = line.split()
        params[name] = (int(default), int(lo), int(hi))
    return params


def play(binary, variant, a, b, pairs, nodes, tc, seed, nnue, concurrency):
    fmt = lambda d: ','.join('%s=%d' % kv for kv in sorted(d.items()))
    cmd = [binary, 'selfplay', '--variant', variant, '--games', str(2 * pairs),
           '--a', fmt(a), '--b', fmt(b), '--seed', str(seed), '--quiet',
           '--concurrency', str(concurrency), '--nnue-a', nnue, '--nnue-b', nnue]
    cmd += ['--nodes', str(nodes)] if nodes else ['--tc', tc]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit('selfplay failed: ' + out.stderr.strip())
    m = re.search(r'games (\d+) \+(\d+) -(\d+) =(\d+)', out.stdout)
    games, w, l, d = map(int, m.groups())
    return w, l, d


def match_score(binary, variant, a, b, pairs, nodes, tc, seed, concurrency):
    """Games of engine options `a` against `b` through `chimera match`:
    each is a list of cutechess-style engine options. Returns A's W, L, D."""
    limit = ['nodes=%d' % nodes, 'tc=inf'] if nodes else ['tc=%s' % tc]
    cmd = [binary, 'match', '-engine'] + a + ['-engine'] + b + ['-each'] + limit + [
        '-variant', variant, '-games', str(2 * pairs), '-repeat',
        '-concurrency', str(concurrency), '-srand', str(seed),
        # the shipped openings, in random order
        '-openings', 'order=random', '-ratinginterval', '1000000',
    ]
    env = dict(os.environ, CHIMERA_TUNE='1')
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
    if out.returncode != 0:
        sys.exit('chimera match failed: ' + out.stderr.strip().splitlines()[-1])
    scores = re.findall(r'^Score of .* vs .*: (\d+) - (\d+) - (\d+)', out.stdout, re.M)
    w, l, d = map(int, scores[-1])
    return w, l, d


def chimera_engine(binary, name, weights):
    return ['cmd=' + binary, 'proto=uci', 'name=' + name] + [
        'option.%s=%d' % kv for kv in sorted(weights.items())]


def opponent_engine(spec):
    if '=' in spec:
        return spec.split()
    return ['conf=' + spec]


def play_match(args, plus, minus, seed):
    """Through `chimera match`: plus against minus, or each against the
    opponent. Returns (W, L, D) of plus as if against minus."""
    if not args.opponent:
        return match_score(args.binary, args.variant, chimera_engine(args.binary, 'plus', plus),
                           chimera_engine(args.binary, 'minus', minus), args.pairs, args.nodes,
                           args.tc, seed, args.concurrency)
    opp = opponent_engine(args.opponent)
    wp, lp, dp = match_score(args.binary, args.variant, chimera_engine(args.binary, 'plus', plus),
                             opp, args.pairs, args.nodes, args.tc, seed, args.concurrency)
    wm, lm, dm = match_score(args.binary, args.variant, chimera_engine(args.binary, 'minus', minus),
                             opp, args.pairs, args.nodes, args.tc, seed, args.concurrency)
    # the same openings for both: their score difference, in game units
    diff = (wp + 0.5 * dp) - (wm + 0.5 * dm)
    n = wp + lp + dp
    w = max(0, round(diff)) if diff > 0 else 0
    l = max(0, round(-diff)) if diff < 0 else 0
    return w, l, n - w - l


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--variant', default='chess')
    ap.add_argument('--params', default='', help='comma-separated names (default: all)')
    ap.add_argument('--iterations', type=int, default=200)
    ap.add_argument('--pairs', type=int, default=4, help='game pairs per iteration')
    ap.add_argument('--nodes', type=int, default=6000, help='nodes per move (0: use --tc)')
    ap.add_argument('--tc', default='2+0.05')
    ap.add_argument('--out', default='tune-result.txt')
    ap.add_argument('--binary', default=os.path.join(ROOT, 'target', 'release', 'chimera'))
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--runner', choices=('selfplay', 'match'), default='selfplay')
    ap.add_argument('--opponent', default='', help='with --runner match: an engine to play against')
    ap.add_argument('--concurrency', type=int, default=2)
    ap.add_argument('--nnue', default='on',
                    help='with --runner selfplay: both sides\' evaluation (on, off or a net file)')
    args = ap.parse_args()

    params = read_params(args.binary)
    names = [n for n in args.params.split(',') if n] or list(params)
    for n in names:
        if n not in params:
            sys.exit('unknown parameter %s (see `chimera params`)' % n)
    theta = {n: float(params[n][0]) for n in names}
    rng = random.Random(args.seed)
    # SPSA gains (Spall's recommended exponents)
    big_a = args.iterations / 10
    alpha, gamma = 0.602, 0.101
    for k in range(1, args.iterations + 1):
        ck = {n: max(1.0, (params[n][2] - params[n][1]) / 20.0) / k ** gamma for n in names}
        ak = 1.0 / (big_a + k) ** alpha
        delta = {n: rng.choice((-1, 1)) for n in names}

        def clamp(n, v):
            return int(round(min(params[n][2], max(params[n][1], v))))
        plus = {n: clamp(n, theta[n] + ck[n] * delta[n]) for n in names}
        minus = {n: clamp(n, theta[n] - ck[n] * delta[n]) for n in names}
        seed = rng.randrange(1 << 30)
        if args.runner == 'match':
            w, l, d = play_match(args, plus, minus, seed)
        else:
            w, l, d = play(args.binary, args.variant, plus, minus, args.pairs, args.nodes, args.tc,
                           seed, args.nnue, args.concurrency)
        result = (w - l) / max(1, w + l + d)
        for n in names:
            # step scaled to the parameter's range
            span = (params[n][2] - params[n][1]) / 20.0
            theta[n] += ak * span * 4 * result * delta[n]
            theta[n] = min(params[n][2], max(params[n][1], theta[n]))
        print('iter %d  +%d -%d =%d  %s' % (k, w, l, d,
              ' '.join('%s=%.1f' % (n, theta[n]) for n in names)), flush=True)
    with open(args.out, 'w') as f:
        for n in names:
            f.write('%s=%d\n' % (n, round(theta[n])))
    print('wrote', args.out)


if __name__ == '__main__':
    main()
