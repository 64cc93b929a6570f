#!/usr/bin/env bash
# The recipe of Chimera's four-player Teams network teams-b (nets/README.md,
# "four-player Teams"): self-play data -> training -> the quantized network
# checked against the float one -> an SPRT against the classical
# evaluation from the 4PC start, Teams games inside `chimera match` (each
# engine holds both seats of a team). Seeds and budgets are here, so it can
# be made again.
#
# usage: scripts/nnue-recipe-fourplayer.sh [WORKDIR]   (default nnue-work/)
# budgets (environment): GAMES_4P (games at 2000 nodes a move from 6-10
# random plies, seed 20, default 17016: 680,036 positions), GAMES_4P_EARLY
# (from 2-5 random plies, seed 21, default 14755: 662,000 positions; ~43
# positions a game, ~300-350 positions/s on 2 cores), SPRT_GAMES, SPRT_ST
# (seconds a move).
source "$(dirname "$0")/nnue-recipe-common.sh"
# 1. data: Teams games from the 4PC or 4PCo layout and random plies, one
# game per core; stopped at any time, the same command resumes. The first
# set alone (teams-a) lost from the 4PC start: its 6-10 random plies are
# wilder than a game's first moves, so the second set starts closer to it
"$BIN" datagen --out "$W/teams.bin" --variants fourplayer-teams --nodes 2000 \
    --seed 20 --games "${GAMES_4P:-17016}" --concurrency 2 --nnue off --quiet
"$BIN" datagen --out "$W/teams-early.bin" --variants fourplayer-teams --nodes 2000 \
    --seed 21 --plies 2-5 --games "${GAMES_4P_EARLY:-14755}" --concurrency 2 --nnue off --quiet
# 2. a residual network; Teams scores predict the results at a wider scale
# than two-player ones (--wdl-scale 1000, see README.md)
"$BIN" train --data "$W/teams.bin,$W/teams-early.bin" --out "$W/teams.nnue" --residual \
    --weight-decay 1000 --lr 0.001 --batch 8192 --epochs 12 --lambda 0.7 --wdl-scale 1000 \
    --seed 1 --families fourplayer-teams --check "$W/teams.check"
# 3. the quantized network agrees with the trainer's float network
check_net "$W/teams.nnue" "$W/teams.check"
# 4. adopted only if it wins: SPRT (elo0 0, elo1 10), the network against
# the classical evaluation from the 4PC start, two games at a time (four
# engine processes each; four-player matches may share the 2 cores so)
sprt_four_player "$W/teams.nnue" fourplayer-teams 12 "$W/teams-sprt.pgn4"
