#!/usr/bin/env bash
# The recipe of Chimera's four-player Free-For-All network ffa-b
# (nets/README.md, "four-player Free-For-All"): self-play data ->
# training -> the quantized network checked against the float one -> an
# SPRT against the classical evaluation from the 4PC start, Free-For-All
# games inside `chimera match` (two engines on alternate seats). Seeds and
# budgets are here, so it can be made again.
#
# usage: scripts/nnue-recipe-ffa.sh [WORKDIR]   (default nnue-work/)
# budgets (environment): GAMES_FFA and GAMES_FFA2 (games at 2000 nodes a
# move from 2-5 random plies, seeds 40 and 41, defaults 9162 and 6504:
# 1,431,466 and 1,018,562 positions, ~156 a game, ~515 positions/s on 2
# cores, 47 and 33 minutes), SPRT_GAMES, SPRT_ST (seconds a move).
source "$(dirname "$0")/nnue-recipe-common.sh"
# 1. data: Free-For-All games from the 4PC or 4PCo layout and 2-5 random
# plies, searched paranoid as the protocols do by default, each position
# with the seats' points (data format 3); stopped at any time, the same
# command resumes
"$BIN" datagen --out "$W/ffa.bin" --variants fourplayer-ffa --nodes 2000 \
    --seed 40 --plies 2-5 --games "${GAMES_FFA:-9162}" --concurrency 2 --nnue off --quiet
"$BIN" datagen --out "$W/ffa2.bin" --variants fourplayer-ffa --nodes 2000 \
    --seed 41 --plies 2-5 --games "${GAMES_FFA2:-6504}" --concurrency 2 --nnue off --quiet
# 2. a residual network (a Free-For-All network must be: the points are
# the classical evaluation's). The scores alone (--lambda 1.0): a seat
# wins a quarter of the games from an even position, so results would
# pull every evaluation down; the scale at which the classical scores
# predict the results best, --wdl-scale 1600; weight decay 1 fits the
# held-out games best of 1000, 100, 10 and 1 (nets/README.md)
"$BIN" train --data "$W/ffa.bin,$W/ffa2.bin" --out "$W/ffa.nnue" --residual \
    --weight-decay 1 --lr 0.001 --batch 8192 --epochs 12 --lambda 1.0 --wdl-scale 1600 \
    --seed 1 --families fourplayer-ffa --check "$W/ffa.check"
# 3. the quantized network agrees with the trainer's float network
check_net "$W/ffa.nnue" "$W/ffa.check"
# 4. adopted only if it wins: SPRT (elo0 0, elo1 10), the network against
# the classical evaluation from the 4PC start, two games at a time (four
# engine processes each)
sprt_four_player "$W/ffa.nnue" fourplayer-ffa 43 "$W/ffa-sprt.pgn4"
