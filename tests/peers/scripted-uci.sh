#!/usr/bin/env bash
# A scripted UCI engine for the board's tests (tests/gui_browser.rs, the
# GUI session's tests): it plays the moves of one chess game, the Ruy
# Lopez, for whichever side is to move, choosing by how many moves the
# `position` command holds. It reports its "thinking" in an info line
# (depth, score, nodes and the rest of the game as its PV) so the board
# can show an engine's thinking, and it plays nothing beyond its script.
# usage: scripted-uci.sh [SECONDS]   (how long it "thinks" before each
# move, after its info line, unless told to `stop`; default 0)
think=${1:-0}
game=(e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8)
n=0
while IFS= read -r line; do
  case $line in
    uci)
      echo "id name Scripted"
      echo "id author Chimera tests"
      echo "uciok"
      ;;
    isready) echo "readyok" ;;
    position*)
      set -- $line
      n=0
      seen=0
      for w in "$@"; do
        if [ $seen = 1 ]; then n=$((n + 1)); fi
        if [ "$w" = moves ]; then seen=1; fi
      done
      ;;
    go*)
      if [ $n -lt ${#game[@]} ]; then
        echo "info depth 7 score cp 23 nodes 4242 pv ${game[*]:$n:3}"
        # thinks until its time is up or it is told to stop
        deadline=$((SECONDS + think))
        while [ "$SECONDS" -lt "$deadline" ]; do
          if IFS= read -r -t 1 l && [ "$l" = stop ]; then break; fi
        done
        echo "bestmove ${game[$n]}"
      else
        echo "bestmove 0000"
      fi
      ;;
    quit) exit 0 ;;
  esac
done
