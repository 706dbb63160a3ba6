#!/bin/bash
# cli_common.sh, sourced by the command-line test scripts (cli_safety.sh, cli_checks.sh)
# with the arguments GAUGEFIX HOLD_TEMPORARY SOURCE_ROOT CASE: a temporary folder $d
# (removed at the end, with every background process in pids), the checks fail, expect,
# same, absent and temporaries, and a small smooth SU(3) configuration $d/cfg (the NERSC
# file of an ensemble $d/ens, sequence number 2) with a copy $d/cfg.orig to compare against.
g=$1 hold=$2 root=$3 case=$4
d=$(mktemp -d)
pids=()
cleanup() {
  # a stopped process ends only once continued
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null && kill -CONT "$p" 2> /dev/null || true; done
  rm -rf "$d"
}
trap cleanup EXIT
fail() {
  echo "FAIL ($case): $*" >&2
  exit 1
}

# expect STATUS WORD... -- COMMAND...: the exit status is STATUS and stderr holds every WORD.
expect() {
  local want=$1 words=() got=0
  shift
  while [ "$1" != -- ]; do
    words+=("$1")
    shift
  done
  shift
  "$@" > "$d/stdout" 2> "$d/stderr" || got=$?
  [ "$got" -eq "$want" ] || fail "exit status $got, expected $want: $* ($(cat "$d/stderr"))"
  for w in "${words[@]}"; do
    grep -qF -- "$w" "$d/stderr" || fail "'$w' not in the message of $*: $(cat "$d/stderr")"
  done
}
same() { cmp -s "$1" "$2" || fail "$1 was changed"; }
absent() { [ ! -e "$1" ] || fail "$1 exists"; }
temporaries() { find "$d" -name '*.gaugefix-tmp.*' | wc -l; }

# A small smooth SU(3) configuration, and copies to compare against.
"$g" generate --lattice 4,4,4,4 --beta 5.7 --thermalisation 2 --configs 1 --quiet -o "$d/ens" > /dev/null
cp "$d/ens.0000" "$d/cfg"
cp "$d/cfg" "$d/cfg.orig"
