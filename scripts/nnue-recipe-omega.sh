#!/usr/bin/env bash
# The recipe of Chimera's Omega Chess network omega-a (nets/README.md,
# "Omega Chess"): self-play data -> training -> the quantized network
# checked against the float one -> an SPRT against the classical
# evaluation. Seeds and budgets are here, so it can be made again.
#
# usage: scripts/nnue-recipe-omega.sh [WORKDIR]   (default nnue-work/)
# budgets (environment): GAMES_OMEGA (games at 2000 nodes a move from 2-6
# random plies, seed 30, default 20822: 2,616,075 positions, ~126 a game,
# ~810 positions/s on 2 cores, 54 minutes), SPRT_GAMES, SPRT_TC.
source "$(dirname "$0")/nnue-recipe-common.sh"

# 1. data: Omega games, one per core; stopped at any time, the same
# command resumes
"$BIN" datagen --out "$W/omega.bin" --variants omega --nodes 2000 --seed 30 \
    --plies 2-6 --games "${GAMES_OMEGA:-20822}" --concurrency 2 --nnue off --quiet
# 2. a residual network; Omega scores predict the results best at
# --wdl-scale 300 (nets/README.md)
"$BIN" train --data "$W/omega.bin" --out "$W/omega.nnue" --residual \
    --weight-decay 1000 --lr 0.001 --batch 8192 --epochs 12 --lambda 0.7 --wdl-scale 300 \
    --seed 1 --families omega --check "$W/omega.check"
# 3. the quantized network agrees with the trainer's float network
check_net "$W/omega.nnue" "$W/omega.check"
# 4. adopted only if it wins: SPRT (elo0 0, elo1 10), the network against
# the classical evaluation from 2 random plies, 2 games at a time
"$BIN" selfplay --variant omega --games "${SPRT_GAMES:-4000}" --tc "${SPRT_TC:-2+0.02}" \
    --plies 2 --concurrency 2 --nnue-a "$W/omega.nnue" --nnue-b off --sprt 0,10 --seed 31
