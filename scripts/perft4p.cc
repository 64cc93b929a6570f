// perft over 4pchess's own move generation, to compare move-generator
// speed with `chimera perft --variant fourplayer-teams` (Teams rules, the
// 4PC start). Not part of the build: scripts/bench-fourplayer.sh compiles
// it against a 4pchess checkout (github.com/obryanlouis/4pchess).
//
// Counts the moves of the side to move that do not leave its own King in
// check, as 4pchess's `get_num_legal_moves` does, recursively.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "board.h"

using namespace chess;

namespace {

constexpr size_t kMaxMoves = 300;

uint64_t Perft(Board& board, int depth, Move* buffer) {
  size_t n = board.GetPseudoLegalMoves2(buffer, kMaxMoves);
  Player mover = board.GetTurn();
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) {
    board.MakeMove(buffer[i]);
    if (!board.IsKingInCheck(mover)) {
      total += depth <= 1 ? 1 : Perft(board, depth - 1, buffer + kMaxMoves);
    }
    board.UndoMove();
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  int depth = argc > 1 ? std::atoi(argv[1]) : 5;
  if (depth < 1 || depth > 8) {
    std::fprintf(stderr, "usage: perft4p DEPTH (1..8)\n");
    return 2;
  }
  auto board = Board::CreateStandardSetup();
  static Move buffer[kMaxMoves * 10];
  auto start = std::chrono::steady_clock::now();
  uint64_t nodes = Perft(*board, depth, buffer);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("perft %d: %llu nodes in %.3f s (%.2f M nodes/s)\n", depth,
              (unsigned long long)nodes, secs, nodes / secs / 1e6);
  return 0;
}
