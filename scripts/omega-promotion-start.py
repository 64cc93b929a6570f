#!/usr/bin/env python3
"""Wraps Chimera for an XBoard experiment: the Omega game starts from a
position where White promotes at once (or $PROMO_FEN). The FEN of the
`setup` line is replaced and Chimera gets the same position by `setboard`
after `variant omega`. $PARENT replaces the setup's parent variant
(`fairy`); $DROP_PAWN_PIECE=1 leaves out the pawn's `piece` line, so that
XBoard uses its built-in pawn.

    W="scripts/omega-promotion-start.py target/release/chimera"
    scripts/xboard-match.sh omega "$W" "$W" /tmp/promo.pgn 1 0:01
    XB_EXTRA="-testLegality false" scripts/xboard-match.sh omega "$W" "$W" /tmp/promo.pgn 1 0:01
"""
import os
import subprocess
import sys
import threading

FEN = os.environ.get(
    "PROMO_FEN",
    "w**********w/*c9*/*1p1P6*/*10*/*9k*/*10*/*10*/*10*/*10*/*10*/*5K4*/W**********W w - - 0 1",
)
engine = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def engine_to_xboard():
    for line in engine.stdout:
        if line.startswith("setup "):
            # setup (PIECETOCHAR) WxH+0_fairy FEN
            word = line.split(" ")
            size = word[2].replace("_fairy", "_" + os.environ.get("PARENT", "fairy"))
            line = " ".join([word[0], word[1], size, FEN]) + "\n"
        if line.startswith("piece P&") and os.environ.get("DROP_PAWN_PIECE"):
            continue
        sys.stdout.write(line)
        sys.stdout.flush()


threading.Thread(target=engine_to_xboard, daemon=True).start()
for line in sys.stdin:
    engine.stdin.write(line)
    if line.strip() == "variant omega":
        engine.stdin.write("setboard " + FEN + "\n")
    engine.stdin.flush()
    if line.strip() == "quit":
        break
engine.wait()
