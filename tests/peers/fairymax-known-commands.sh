#!/usr/bin/env bash
# Fairy-Max 5.0b (Debian's fairymax 5.0b-1) reads a command it does not
# know as a move and then segfaults about half the time, even idle
# (`printf 'xboard\ncomputer\nquit\n' | fairymax`: 5 of 8 runs exit 139 on
# the machine where this was found; `name`, `rating` and `result` do the
# same). XBoard sends it `computer` and `result` in every game, so a match
# against it fails at random for no fault of either engine's play. This
# relays XBoard's commands to the engine given as arguments, less those
# four; everything the engine plays by is passed on unchanged.
grep --line-buffered -v -E '^(computer|name|rating|result)( |$)' | "$@"
