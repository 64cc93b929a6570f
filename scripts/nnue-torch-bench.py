#!/usr/bin/env python3
"""How fast PyTorch (on the CPU) trains a network of the shape `chimera
train` trains, on the same `chimera datagen` files: the measurement behind
the choice of the Rust trainer (README, "Evaluation network").

The network: per perspective a sum of feature rows (EmbeddingBag) plus the
factoriser's rows (one per piece kind and side), 128 hidden units clipped
to [0, 1], both perspectives (side to move first) into one output; loss as
`chimera train` (squared distance in win-probability space to lambda *
sigmoid(score / K) + (1 - lambda) * result), Adam. The features are
(army's piece type, own/theirs, square with Black's ranks mirrored), an
index per army and type in place of Chimera's kind names (same count of
active features per position; a piece two armies share, the FIDE Rook of
the Nutty Knights, counts twice: a few more features than Chimera's).

usage: scripts/nnue-torch-bench.py FILE[,FILE...] [--epochs N] [--batch N]
       [--threads N] [--lambda X] [--wdl-scale K]
needs: pip install torch numpy (pin: torch==2.9.1, numpy==2.4.6)
"""
import argparse
import struct
import time

import numpy as np
import torch

H = 128
SQUARES = 64
WIDTH = 8


def read(path):
    """(variant, side, score, result for the side to move, pieces)."""
    b = open(path, "rb").read()
    i, out = 0, []
    while i < len(b):
        if b[i:i + 8] == b"CHMRDATA":
            i += 12
            continue
        i += 8
        n = b[i]
        variant = b[i + 1:i + 1 + n].decode()
        i += 1 + n
        white = b[i] / 2
        i += 1
        (count,) = struct.unpack_from("<H", b, i)
        i += 2
        for _ in range(count):
            side = b[i]
            score, _ply = struct.unpack_from("<hH", b, i + 1)
            i += 5
            k = b[i]
            pieces = [(b[i + 1 + 2 * j], b[i + 2 + 2 * j]) for j in range(k)]
            i += 1 + 2 * k
            result = white if side == 0 else 1 - white
            out.append((variant, side, score, result, pieces))
        i += 4  # checksum
    return out


def army(variant, owner):
    """The army of `owner` in `variant` (chess: the FIDEs)."""
    parts = variant.split("-")
    return parts[1 + owner] if parts[0] == "cwda" and len(parts) == 3 else "fide"


def features(samples):
    """Flat feature indices and offsets per perspective (stm, other)."""
    kinds = {}
    flat, offsets = [[], []], [[], []]
    for variant, side, _score, _result, pieces in samples:
        for half, persp in enumerate((side, side ^ 1)):
            offsets[half].append(len(flat[half]))
            for sq, code in pieces:
                owner, typ = code >> 4, code & 15
                kind = kinds.setdefault((army(variant, owner), typ), len(kinds))
                theirs = int(owner != persp)
                rank, file = divmod(sq, WIDTH)
                if persp == 1:
                    rank = SQUARES // WIDTH - 1 - rank
                flat[half].append((kind * 2 + theirs) * SQUARES + rank * WIDTH + file)
    return kinds, [torch.tensor(f) for f in flat], [torch.tensor(o) for o in offsets]


class Net(torch.nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.ft = torch.nn.EmbeddingBag(n_features, H, mode="sum")
        self.fac = torch.nn.EmbeddingBag(n_features // SQUARES, H, mode="sum")
        self.bias = torch.nn.Parameter(torch.full((H,), 0.2))
        self.out = torch.nn.Linear(2 * H, 1)
        torch.nn.init.uniform_(self.ft.weight, -0.01, 0.01)
        torch.nn.init.uniform_(self.fac.weight, -0.1, 0.1)

    def forward(self, idx, offs):
        halves = [
            (self.ft(i, o) + self.fac(torch.div(i, SQUARES, rounding_mode="floor"), o)
             + self.bias).clamp(0, 1)
            for i, o in zip(idx, offs)
        ]
        return self.out(torch.cat(halves, dim=1)).squeeze(1)


def batches(idx, offs, n, order, size):
    """(feature slices, offsets, rows) of each batch in `order`."""
    ends = [torch.cat([o[1:], torch.tensor([len(i)])]) for i, o in zip(idx, offs)]
    for start in range(0, n, size):
        rows = order[start:start + size]
        bi, bo = [], []
        for i, o, e in zip(idx, offs, ends):
            lens = e[rows] - o[rows]
            gather = torch.repeat_interleave(o[rows] - torch.cumsum(lens, 0) + lens, lens)
            bi.append(i[gather + torch.arange(int(lens.sum()))])
            bo.append(torch.cumsum(lens, 0) - lens)
        yield bi, bo, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--batch", type=int, default=2048)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--lambda", dest="lam", type=float, default=0.7)
    ap.add_argument("--wdl-scale", type=float, default=200.0)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    t0 = time.time()
    samples = [s for f in a.files.split(",") for s in read(f)]
    kinds, idx, offs = features(samples)
    score = torch.tensor([s[2] for s in samples], dtype=torch.float32)
    result = torch.tensor([s[3] for s in samples], dtype=torch.float32)
    target = a.lam * torch.sigmoid(score / a.wdl_scale) + (1 - a.lam) * result
    n = len(samples)
    print(f"{n} positions, {len(kinds)} (army, type) kinds; read in {time.time() - t0:.0f} s")
    net = Net(len(kinds) * 2 * SQUARES)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    gain = 400.0 / a.wdl_scale
    for epoch in range(1, a.epochs + 1):
        start, total = time.time(), 0.0
        order = torch.from_numpy(np.random.default_rng(epoch).permutation(n))
        for bi, bo, rows in batches(idx, offs, n, order, a.batch):
            opt.zero_grad()
            p = torch.sigmoid(net(bi, bo) * gain)
            loss = ((p - target[rows]) ** 2).mean()
            loss.backward()
            opt.step()
            total += loss.item() * len(rows)
        secs = time.time() - start
        print(f"epoch {epoch}: train loss {total / n:.6f}, {secs:.1f} s, {n / secs:.0f} positions/s "
              f"({a.threads} threads, batch {a.batch})")


if __name__ == "__main__":
    main()
