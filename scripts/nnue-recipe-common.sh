# Sourced by the scripts/nnue-recipe*.sh (not run by itself): from the
# repository's folder, the work folder W (the recipe's first argument,
# default nnue-work/), the release binary BIN built, and check_net, the
# test that a quantized network agrees with the trainer's float one.
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
