#!/usr/bin/env bash
# The whole recipe of Chimera's chess/CwDA evaluation network, from nothing:
# self-play data -> training -> the quantized network checked against the
# float one -> an SPRT against the classical evaluation. Every step has its
# seed and budget here, so the network can be made again.
#
# usage: scripts/nnue-recipe.sh [WORKDIR]     (default nnue-work/)
# budgets (environment): GAMES_3000, GAMES_1000, GAMES_1000_4, GAMES_1000_6,
# GAMES_1000_7, GAMES_1000_8, GAMES_1000_9 (games at 3000 and 1000 nodes a
# move, seeds 1, 2, 4, 6, 7, 8, 9; each game gives about 62 positions; the
# defaults remake cwda-r5 of nets/README.md, 4,850,654 positions),
# GAMES_10000 (seed 10 at 10,000 nodes: cwda-f4's data), GAMES_OWN and
# GAMES_10000_12 (cwda-f5's data: seed 13 played by the network, seed 12 by
# the classical evaluation), SPRT_GAMES, SPRT_TC.
# On 2 cores: about 1360 positions/s at 1000 nodes (the data in ~60
# minutes); training ~12 s an epoch for the 4.6 million positions.
source "$(dirname "$0")/nnue-recipe-common.sh"

# 1. data: chess and every pairing of the built-in armies (cwda-all), one
# game per core; stopped at any time, the same command resumes
"$BIN" datagen --out "$W/d3000.bin" --variants chess,cwda-all --nodes 3000 \
    --seed 1 --games "${GAMES_3000:-2297}" --concurrency 2 --nnue off --quiet
"$BIN" datagen --out "$W/d1000.bin" --variants chess,cwda-all --nodes 1000 \
    --seed 2 --games "${GAMES_1000:-4166}" --concurrency 2 --nnue off --quiet
"$BIN" datagen --out "$W/d1000-4.bin" --variants chess,cwda-all --nodes 1000 \
    --seed 4 --games "${GAMES_1000_4:-6671}" --concurrency 2 --nnue off --quiet
"$BIN" datagen --out "$W/d1000-6.bin" --variants chess,cwda-all --nodes 1000 \
    --seed 6 --games "${GAMES_1000_6:-7901}" --concurrency 2 --nnue off --quiet
"$BIN" datagen --out "$W/d1000-7.bin" --variants chess,cwda-all --nodes 1000 \
    --seed 7 --games "${GAMES_1000_7:-11272}" --concurrency 2 --nnue off --quiet
"$BIN" datagen --out "$W/d1000-8.bin" --variants chess,cwda-all --nodes 1000 \
    --seed 8 --games "${GAMES_1000_8:-30000}" --concurrency 2 --nnue off --quiet
"$BIN" datagen --out "$W/d1000-9.bin" --variants chess,cwda-all --nodes 1000 \
    --seed 9 --games "${GAMES_1000_9:-16313}" --concurrency 2 --nnue off --quiet

# 2. the network: a correction of the classical evaluation (--residual),
# feature weights held back by weight decay; win probability
# sigmoid(cp / 200), the scale of Chimera's own scores (--wdl-scale, the
# default); the epoch with the best validation loss is kept
D="$W/d3000.bin,$W/d1000.bin,$W/d1000-4.bin,$W/d1000-6.bin,$W/d1000-7.bin"
"$BIN" train --data "$D,$W/d1000-8.bin,$W/d1000-9.bin" \
    --out "$W/cwda.nnue" --residual --weight-decay 1000 --lr 0.0003 --batch 8192 \
    --epochs 6 --lambda 0.7 --seed 1 --families chess,cwda --check "$W/cwda.check"

# 2b. trained further on positions scored by 10,000-node searches, on the
# scores alone (cwda-f4 of nets/README.md; ~165 positions/s on 2 cores, the
# default ~63 minutes; f4 itself left the file's first 1381 games out, as a
# probe set)
"$BIN" datagen --out "$W/d10000.bin" --variants chess,cwda-all --nodes 10000 \
    --seed 10 --games "${GAMES_10000:-8853}" --concurrency 2 --nnue off --quiet
"$BIN" train --data "$W/d10000.bin" --init "$W/cwda.nnue" \
    --out "$W/cwda-deep.nnue" --residual --weight-decay 1000 --lr 0.0003 --batch 8192 \
    --epochs 6 --lambda 1.0 --seed 1 --families chess,cwda --check "$W/cwda-deep.check"
mv "$W/cwda-deep.nnue" "$W/cwda.nnue"
mv "$W/cwda-deep.check" "$W/cwda.check"

# 2c. trained on again on positions of the network's own games, scored by
# its own 10,000-node searches (cwda-f5; ~94 positions/s on 2 cores, the
# default ~45 minutes), with some of the classical evaluation's
"$BIN" datagen --out "$W/n10000-13.bin" --variants chess,cwda-all --nodes 10000 \
    --seed 13 --games "${GAMES_OWN:-3577}" --concurrency 2 --nnue "$W/cwda.nnue" --quiet
"$BIN" datagen --out "$W/d10000-12.bin" --variants chess,cwda-all --nodes 10000 \
    --seed 12 --games "${GAMES_10000_12:-926}" --concurrency 2 --nnue off --quiet
"$BIN" train --data "$W/n10000-13.bin,$W/d10000-12.bin" --init "$W/cwda.nnue" \
    --out "$W/cwda-own.nnue" --residual --weight-decay 1000 --lr 0.0003 --batch 8192 \
    --epochs 6 --lambda 1.0 --seed 1 --families chess,cwda --check "$W/cwda-own.check"
mv "$W/cwda-own.nnue" "$W/cwda.nnue"
mv "$W/cwda-own.check" "$W/cwda.check"

# 3. the quantized network agrees with the trainer's float network
check_net "$W/cwda.nnue" "$W/cwda.check"

# 3b. the search margins where the network evaluates: the nnue_* weights
# of src/params.rs came from this SPSA (the network on both sides, 16
# games an iteration at 12,000 nodes a move), stopped by hand after 219 of
# its 400 iterations (~35 minutes: the values it prints then); put them
# there before step 4
python3 scripts/tune.py --variant chess,cwda-fide-nutty,cwda-nutty-rookies,cwda-rookies-fide,cwda-fide-rookies \
    --params nnue_rfp_margin,nnue_fp_base,nnue_fp_factor,nnue_razor_margin,nnue_delta_margin,nnue_see_quiet,nnue_see_noisy \
    --iterations 400 --pairs 8 --nodes 12000 --nnue "$W/cwda.nnue" \
    --seed 7 --out "$W/margins.txt"

# 3c. the tree's shape where the network evaluates, with three of the
# margins again: the nnue_lmr_*, nnue_nmp_eval_div values and the new
# nnue_rfp_margin, nnue_delta_margin, nnue_see_quiet came from this SPSA
# (then on a binary where the plain names lmr_base, ... played that part
# and lmp_base was tuned too: it stayed at 3), stopped by hand after 264
# of its 400 iterations (~40 minutes); put them there before step 4
python3 scripts/tune.py --variant chess,cwda-fide-nutty,cwda-nutty-rookies,cwda-rookies-fide,cwda-fide-rookies \
    --params nnue_rfp_margin,nnue_delta_margin,nnue_see_quiet,nnue_lmr_base,nnue_lmr_div,nnue_lmr_history_div,nnue_nmp_eval_div,lmp_base \
    --iterations 400 --pairs 8 --nodes 12000 --nnue "$W/cwda.nnue" \
    --seed 31 --out "$W/shape.txt"

# 4. adopted only if it wins: SPRT (elo0 0, elo1 10), network against the
# classical evaluation, 2 games at a time
"$BIN" selfplay --variant chess,cwda-fide-nutty,cwda-nutty-rookies,cwda-rookies-fide,cwda-fide-rookies \
    --games "${SPRT_GAMES:-4000}" --tc "${SPRT_TC:-5+0.05}" --concurrency 2 \
    --nnue-a "$W/cwda.nnue" --nnue-b off --sprt 0,10
