# Sourced by scripts/setup.sh and ./rst: a set-up or build step prints one line, and the tool it
# runs (apt-get, Maven, ...) writes into a log under the cache instead of the terminal. Only when
# the step fails are the log's last lines and its path printed; a log of a step that worked is
# removed. RST_VERBOSE=1 shows every tool's output as it runs instead.

RST_LOG_DIR=${RST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rst}/logs

# step_run WHO NAME WHAT CMD [ARG...]: prints "WHO: WHAT" on stderr and runs CMD; NAME names the
# log (NAME.XXXXXX.log). With STEP_SHOW_LOG set (long steps), the line also names the log, so
# that one can follow it. Returns CMD's exit status.
step_run() {
  local who=$1 name=$2 what=$3 log rc=0
  shift 3
  if [ -n "${RST_VERBOSE:-}" ]; then
    echo "$who: $what" >&2
    "$@" >&2 || return $?
    return 0
  fi
  mkdir -p "$RST_LOG_DIR"
  log=$(mktemp --suffix=.log "$RST_LOG_DIR/$name.XXXXXX")
  if [ -n "${STEP_SHOW_LOG:-}" ]; then
    echo "$who: $what (to follow it: tail -f $log)" >&2
  else
    echo "$who: $what" >&2
  fi
  "$@" < /dev/null > "$log" 2>&1 || rc=$?
  if [ $rc = 0 ]; then
    rm -f "$log"
    return 0
  fi
  {
    echo "$who: that failed (exit status $rc); the last lines of its output:"
    tail -n "${RST_LOG_TAIL:-30}" "$log" | sed 's/^/  | /'
    echo "$who: its whole output is in $log"
  } >&2
  return $rc
}
