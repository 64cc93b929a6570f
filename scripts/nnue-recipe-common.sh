# Sourced by the scripts/nnue-recipe*.sh (not run by itself): from the
# repository's folder, the work folder W (the recipe's first argument,
# default nnue-work/), the release binary BIN built, check_net, the test
# that a quantized network agrees with the trainer's float one, and
# sprt_four_player, the four-player recipes' SPRT.
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-nnue-work}
BIN=target/release/chimera
cargo build --release --quiet
mkdir -p "$W"

# check_net NET CHECKFILE
check_net() {
    CHIMERA_CHECK="$1,$2" \
        cargo test --release --quiet --lib a_trained_networks_check_file_agrees -- --nocapture
}

# sprt_four_player NET VARIANT SRAND PGN: the four-player SPRT (elo0 0,
# elo1 10), the network against the classical evaluation from the 4PC
# start inside `chimera match`, two games at a time (four engine processes
# each; four-player matches may share the 2 cores so); SPRT_GAMES and
# SPRT_ST (seconds a move) from the environment
sprt_four_player() {
    "$BIN" match -engine conf=chimera-uci name=network "option.EvalFile=$1" \
        -engine conf=chimera-uci name=classical "option.Use NNUE=false" \
        -each "st=${SPRT_ST:-0.1}" timemargin=100 -variant "$2" \
        -games "${SPRT_GAMES:-3000}" -concurrency 2 -srand "$3" \
        -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -pgnout "$4"
}
