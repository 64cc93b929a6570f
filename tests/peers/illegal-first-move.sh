#!/usr/bin/env bash
# A faulty engine for tests/xboard_match.rs: relays between XBoard and the
# engine given as arguments, but replaces the engine's first move with a1a5
# (from the start position of chess: a rook jumping over its own pawn, or no
# piece at all), an illegal move that XBoard must forfeit.
coproc ENG { exec "$@"; }
exec 3>&"${ENG[1]}" 4<&"${ENG[0]}"
# a background job reads /dev/null unless told otherwise
cat <&0 >&3 &
first=1
while IFS= read -r line <&4; do
  case $line in
    move\ *)
      if [ $first = 1 ]; then
        first=0
        line="move a1a5"
      fi
      ;;
  esac
  printf '%s\n' "$line"
done
