#!/usr/bin/env bash
# Four-player move-generation speed in one run on one machine: Chimera's
# perft 5 and 6 from the 4PC start (3,452,310 and 77,430,383 nodes) against
# 4pchess's own move generation (scripts/perft4p.cc, compiled here against
# a 4pchess checkout: its pseudo-legal generator, make/unmake and its
# King-in-check test, as its `get_num_legal_moves` counts).
#
# usage: scripts/bench-fourplayer.sh [PATH-TO-4PCHESS-CHECKOUT]
#   without a path, github.com/obryanlouis/4pchess is cloned into a
#   temporary folder (commit a3c7b61, the one ../shared/engines/4pchess is
#   built from). Uses hyperfine where installed, else bash's time.
# Run it on a quiet machine: nothing else heavy beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $src ]]; then
    git clone -q https://github.com/obryanlouis/4pchess "$tmp/4pchess"
    git -C "$tmp/4pchess" checkout -q a3c7b61
    src=$tmp/4pchess
fi
g++ -O3 -std=c++20 -pthread -I"$src" scripts/perft4p.cc "$src/board.cc" "$src/utils.cc" \
    -o "$tmp/perft4p"
cargo build --release -q
chimera=target/release/chimera
run() {
    if command -v hyperfine > /dev/null; then
        hyperfine -N -w 1 -r 5 "$@"
    else
        for c in "$@"; do echo "$c"; time $c; done
    fi
}
for d in 5 6; do
    echo "== perft $d from the 4PC start"
    "$tmp/perft4p" "$d"
    $chimera perft "$d" --variant fourplayer-teams --fen4 4PC | tail -1
    run "$tmp/perft4p $d" "$chimera perft $d --variant fourplayer-teams --fen4 4PC"
done
