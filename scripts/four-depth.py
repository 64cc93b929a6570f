#!/usr/bin/env python3
"""Depth, nodes and time-to-depth of Chimera and 4pchess from the same
four-player positions, at several times per move: where is Chimera's tree
wider? One engine searches at a time (run it on a quiet machine).

usage: scripts/four-depth.py [--chimera PATH] [--4pchess PATH]
           [--times 0.1,0.5,1,3] [--fens FILE] [--count N] [--seed S]
           [--start] [--out FILE] [--only chimera|4pchess]
           [--option NAME=VALUE ...]

--option sets a Chimera option (with CHIMERA_TUNE=1, so the tunable
weights of `chimera params` are options too).

Positions: the 4PC start (--start, on by default when no --fens is given)
and N FEN4s of FILE (one a line, e.g. 4pchess's FENs_4PC_balanced.txt; or
the positions of lost games), chosen with the seed. Both engines get
`position fen <FEN4>` and `go movetime <ms>` (4pchess's dialect, which
Chimera reads too). Prints a Markdown table: for each time, the mean depth
reached, the mean nodes, and the median time (ms) to reach each depth from
6 to 14, per engine; with --out also every search as JSON lines.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

START_4PC = (
    "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/"
    "3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/"
    "bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/"
    "bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/"
    "3,rR,rN,rB,rQ,rK,rB,rN,rR,3"
)


class Engine:
    def __init__(self, cmd, chimera, options=()):
        env = dict(os.environ, CHIMERA_TUNE="1")
        self.p = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1, env=env)
        self.chimera = chimera
        if chimera:
            self.send("uci")
            self.wait_for("uciok")
            self.send("setoption name UCI_Variant value fourplayer-teams")
            for o in options:
                name, value = o.split("=", 1)
                self.send(f"setoption name {name} value {value}")
            self.send("isready")
            self.wait_for("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the engine ended")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def search(self, fen, ms):
        if self.chimera:
            self.send("ucinewgame")
        self.send(f"position fen {fen}")
        t = time.time()
        self.send(f"go movetime {ms}")
        lines = self.wait_for("bestmove")
        wall = (time.time() - t) * 1000
        by_depth = {}
        for line in lines:
            w = line.split()
            if not w or w[0] != "info" or "depth" not in w:
                continue
            try:
                d = int(w[w.index("depth") + 1])
                nodes = int(w[w.index("nodes") + 1]) if "nodes" in w else None
                t_ms = int(w[w.index("time") + 1]) if "time" in w else None
            except (ValueError, IndexError):
                continue
            if "multipv" in w and w[w.index("multipv") + 1] != "1":
                continue
            by_depth[d] = (t_ms, nodes)
        if not by_depth:
            return {"depth": 0, "nodes": 0, "wall_ms": wall, "ttd": {}}
        d = max(by_depth)
        return {
            "depth": d,
            "nodes": by_depth[d][1],
            "wall_ms": round(wall),
            "ttd": {k: v[0] for k, v in by_depth.items()},
        }

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser()
    ap.add_argument("--chimera", default=os.path.join(root, "target/release/chimera"))
    ap.add_argument("--4pchess", dest="fourp",
                    default=os.path.join(root, "../shared/engines/4pchess"))
    ap.add_argument("--times", default="0.1,0.5,1,3")
    ap.add_argument("--fens")
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", action="store_true")
    ap.add_argument("--out")
    ap.add_argument("--only", choices=["chimera", "4pchess"])
    ap.add_argument("--option", action="append", default=[])
    a = ap.parse_args()
    fens = []
    if a.start or not a.fens:
        fens.append(("start", START_4PC))
    if a.fens:
        with open(a.fens) as f:
            pool = [l.strip() for l in f if l.strip() and not l.startswith("#")]
        random.Random(a.seed).shuffle(pool)
        fens += [(f"{os.path.basename(a.fens)}#{i}", p) for i, p in enumerate(pool[: a.count])]
    times = [float(t) for t in a.times.split(",")]
    engines = {
        "Chimera": ([a.chimera], True),
        "4pchess": ([a.fourp], False),
    }
    if a.only:
        engines = {k: v for k, v in engines.items() if k.lower() == a.only}
    out = open(a.out, "a") if a.out else None
    results = {}
    for name, (cmd, chim) in engines.items():
        e = Engine(cmd, chim, a.option if chim else ())
        for t in times:
            for label, fen in fens:
                r = e.search(fen, int(t * 1000))
                r.update({"engine": name, "time": t, "position": label})
                results.setdefault((name, t), []).append(r)
                if out:
                    out.write(json.dumps(r) + "\n")
                    out.flush()
                print(f"{name} {t}s {label}: depth {r['depth']} nodes {r['nodes']}",
                      file=sys.stderr)
        e.close()
    depths = range(6, 15)
    print(f"{len(fens)} positions; mean depth, mean nodes, median ms to reach depth d\n")
    print("| engine | s/move | depth | nodes | " + " | ".join(f"d{d}" for d in depths) + " |")
    print("|---|---|---|---|" + "---|" * len(depths))
    for (name, t), rs in sorted(results.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        depth = statistics.mean(r["depth"] for r in rs)
        nodes = statistics.mean(r["nodes"] or 0 for r in rs)
        cells = []
        for d in depths:
            ts = [r["ttd"][str(d)] if str(d) in r["ttd"] else r["ttd"].get(d) for r in rs]
            ts = [x for x in ts if x is not None]
            cells.append(str(round(statistics.median(ts))) if len(ts) * 2 > len(rs) else "-")
        print(f"| {name} | {t} | {depth:.1f} | {nodes:,.0f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
