#!/usr/bin/env bash
# A scripted engine for the match runner's tests: it speaks just enough of
# protocol.md and answers each `go` with the script entry for the current
# turn. The arguments are the script: one entry per engine answer of the
# whole game, both colours, in the order the referee asks (a draw is two
# answers: `@`, then the placement). The entry is picked by counting the
# answers already in the `position` line (N@x,y counts two, a last N@ one),
# so the same script serves both colours and both games of a pair.
#
# Entries:  a move token      answered as it is (`*@x,y` puts the drawn
#                             tile's letter in place of `*`)
#           CRASH             exit at once with status 3
#           SILENT            never answer (and ignore `stop`)
#           SLEEP:MS:ENTRY    wait MS milliseconds, then answer ENTRY
#           TWICE:ENTRY       answer ENTRY, then print the same bestmove again
#           FLOOD:BYTES:ENTRY answer ENTRY, then print BYTES of info lines
#           INFO:BYTES:ENTRY  print BYTES of info lines, then answer ENTRY
# Flood lines are 220 bytes, or FAKE_LINE_BYTES (at most 131000: `yes`
# takes the line as one argument).
# With FAKE_CHILD_PIDS set to a file, the engine starts a child process
# (a long sleep) and appends its pid there, and `quit` appends `quit`:
# the child must not outlive the match.
# `setoption name Fail ...` is refused with an error line, to test that
# the runner stops on a refused option.
set -f
script=("$@")
if [ -n "${FAKE_CHILD_PIDS:-}" ]; then
  sleep 600 </dev/null >/dev/null 2>&1 &
  echo $! >> "$FAKE_CHILD_PIDS"
fi
# Prints about $1 bytes of info lines, as fast as `yes` can.
flood() {
  local line
  line="info string flood $(printf "%0$((${FAKE_LINE_BYTES:-220} - 20))d" 0)"
  yes "$line" | head -n $(($1 / (${#line} + 1)))
}
position=""
while IFS= read -r line; do
  set -- $line
  case "${1:-}" in
    uci) echo "id name fake"; echo "uciok" ;;
    isready) echo "readyok" ;;
    setoption)
      if [ "${3:-}" = "Fail" ]; then echo "info string error: unknown option 'Fail'"; fi ;;
    position) position="$line" ;;
    quit) [ -n "${FAKE_CHILD_PIDS:-}" ] && echo quit >> "$FAKE_CHILD_PIDS"; exit 0 ;;
    go)
      words=($position)
      ply=0 seen=0 drawn=""
      for w in "${words[@]}"; do
        if [ "$seen" = 1 ]; then
          case "$w" in
            *@) ply=$((ply + 1)); drawn=${w%@} ;;
            *@*) ply=$((ply + 2)) ;;
            *) ply=$((ply + 1)) ;;
          esac
        fi
        [ "$w" = "moves" ] && seen=1
      done
      entry=${script[$ply]:-"(none)"}
      if [[ "$entry" == SLEEP:* ]]; then
        rest=${entry#SLEEP:}
        ms=${rest%%:*}
        entry=${rest#*:}
        sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
      fi
      if [[ "$entry" == INFO:* ]]; then
        rest=${entry#INFO:}
        entry=${rest#*:}
        flood "${rest%%:*}"
      fi
      after=""
      if [[ "$entry" == TWICE:* ]]; then
        entry=${entry#TWICE:}
        after=twice
      elif [[ "$entry" == FLOOD:* ]]; then
        rest=${entry#FLOOD:}
        after=${rest%%:*}
        entry=${rest#*:}
      fi
      case "$entry" in
        CRASH) exit 3 ;;
        SILENT) ;;
        \*@*) echo "bestmove ${drawn}${entry#\*}" ;;
        *) echo "bestmove $entry" ;;
      esac
      case "$after" in
        "") ;;
        twice) case "$entry" in
                 \*@*) echo "bestmove ${drawn}${entry#\*}" ;;
                 *) echo "bestmove $entry" ;;
               esac ;;
        *) flood "$after" ;;
      esac ;;
  esac
done
