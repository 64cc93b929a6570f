#!/usr/bin/env bash
# A faulty UCI engine for tests/match.rs: relays between the match runner
# and the engine given as the other arguments, and misbehaves at its third
# `go` (counted since it started), as MODE says:
#   illegal  answers `bestmove a1a1`, a move no position allows
#   crash    kills the engine and dies by SIGSEGV
#   hang     kills the engine and stays alive, silent
#   slow     holds the `go` back 400 ms longer than the larger clock, so
#            the move comes after the flag fell (it still answers)
# usage: uci-faulty.sh MODE ENGINE [ARGS...]
mode=$1
shift
coproc ENG { exec "$@"; }
exec 3>&"${ENG[1]}" 4<&"${ENG[0]}"
# the engine's output goes through untouched, in the background (a
# background job reads /dev/null unless given <&4 explicitly)
cat <&4 &
n=0
while IFS= read -r line; do
  case $line in
    go*)
      n=$((n + 1))
      if [ $n = 3 ]; then
        case $mode in
          illegal)
            echo "bestmove a1a1"
            continue
            ;;
          crash)
            kill "$ENG_PID" 2>/dev/null
            kill -SEGV $$
            ;;
          hang)
            kill "$ENG_PID" 2>/dev/null
            exec sleep 3600
            ;;
          slow)
            set -- $line
            ms=0
            while [ $# -gt 1 ]; do
              case $1 in wtime | btime) [ "$2" -gt "$ms" ] && ms=$2 ;; esac
              shift
            done
            ms=$((ms + 400))
            sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
            ;;
        esac
      fi
      ;;
  esac
  printf '%s\n' "$line" >&3
done
