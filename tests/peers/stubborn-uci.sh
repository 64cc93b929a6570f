#!/usr/bin/env bash
# A UCI engine that will not die (tests/hostile.rs): it writes its process
# id to the file given as $1, answers `uci` and `isready`, never answers
# `go`, ignores SIGINT, SIGTERM and SIGHUP and, like 4pchess, keeps running
# after its input ends. Only SIGKILL stops it.
trap '' INT TERM HUP
echo $$ > "$1"
while IFS= read -r line; do
  case $line in
    uci) echo "id name Stubborn"; echo "uciok" ;;
    isready) echo "readyok" ;;
    quit) ;;
  esac
done
while :; do sleep 0.2; done
