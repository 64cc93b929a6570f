#!/usr/bin/env bash
# Makes the balanced opening sets shipped in openings/ (used by `chimera
# match` by default): for each variant family, short random playouts from
# the start position (8 plies; Omega 10), each searched by Chimera to a
# fixed depth and kept only where the score is within MARGIN centipawns of
# equality (from White's view). Deterministic for a given seed and build.
#
# usage: scripts/make-openings.sh [COUNT (200)] [DEPTH (10)] [MARGIN (50)]
# Each EPD line: the position, `moves "..."` (the way there from the start),
# and `c0 "cp <score> depth <depth>"`.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-200}
depth=${2:-10}
margin=${3:-50}
bin=target/release/chimera
[ -x "$bin" ] || cargo build --release
mkdir -p openings
variants="chess omega"
for w in fide clobberers nutty rookies; do
  for b in fide clobberers nutty rookies; do
    # FIDE against FIDE is chess
    [ "$w-$b" = fide-fide ] || variants="$variants cwda-$w-$b"
  done
done
for v in $variants; do
  n=$count
  # one file per pairing: half as many as for a whole game family
  case $v in cwda-*) n=$((count / 2)) ;; esac
  "$bin" match -make-openings "$v" count="$n" depth="$depth" margin="$margin" seed=1 \
    > "openings/$v.epd"
  echo "$v: $(wc -l < "openings/$v.epd") positions"
done
