#!/usr/bin/env bash
# A misbehaving peer for tests/xboard_match.rs: relays between XBoard and the
# engine given as arguments, and dies by SIGSEGV (status 139) right after the
# engine's first move, as Fairy-Max 5.0b and Fairy-Stockfish have been seen
# to. With CRASH_MARKER set to a path it crashes only while that file does
# not exist (and creates it), so a rerun of the match plays normally.
if [ -n "${CRASH_MARKER:-}" ] && [ -e "$CRASH_MARKER" ]; then
  exec "$@"
fi
[ -n "${CRASH_MARKER:-}" ] && : >"$CRASH_MARKER"
coproc ENG { exec "$@"; }
exec 3>&"${ENG[1]}" 4<&"${ENG[0]}"
# a background job reads /dev/null unless told otherwise
cat <&0 >&3 &
relay=$!
while IFS= read -r line <&4; do
  printf '%s\n' "$line"
  case $line in
    move\ *)
      kill "$relay" "$ENG_PID" 2>/dev/null
      kill -SEGV $$
      ;;
  esac
done
