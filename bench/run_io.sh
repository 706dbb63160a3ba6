#!/usr/bin/env bash
# run_io.sh: gauge-field I/O against the file system's streaming rate, in one run (issue 25:
# "I/O at bandwidth"). On RANKS ranks (default 4), a LATTICE field (default
# 96,96,96,192: 98 GB in 64 bits) in DIR (default /dev/shm), for each of FORMATS (default
# "nersc ildg hdf5"):
#   dd write   one stream of the gaugefix file's size (bs 64 MiB, conv=fsync) to DIR;
#   dd read    that file back to /dev/null; then it is removed;
#   write      the field in the format itself, made by gaugefix generate --start hot
#              --thermalisation 0 --configs 1 --output-format FORMAT (BACKEND, default cpu;
#              cuda on a GPU node is faster) under mpirun, timed by its "# saved" line: the
#              write alone (checksum, plaquette and link trace for the header or attributes,
#              encoding, the writes, fsync, rename). The seed is the same for every format, so
#              every format holds the same field (the plaquettes in the logs agree);
#   read       gaugefix info FILE under mpirun, the process's wall time (MPI start-up
#              included): the reader with every check (checksum, NaN/Inf, SU(N), plaquette and
#              link trace against the stored values where the format stores them).
# Rates in GB/s (1e9 bytes), and the fraction of dd's rate. DD_STREAMS=1 adds dd with RANKS
# streams at once (each its 1/RANKS of one file, as the ranks write it) to the table.
# Page cache: /dev/shm (tmpfs) is memory, so there is no cache between a file and its reader
# and nothing to drop; dd and gaugefix read the same memory. On a disk or network file system
# a file just written may be read from the page cache: DROP_CACHES=1 drops it before every read
# (echo 3 > /proc/sys/vm/drop_caches, needs root; otherwise the table says "cache not dropped").
# Cost of the default on a 64-core node: per format the field's generation (about 2 minutes
# on the CPU, seconds with BACKEND=cuda), a write, a read and two dd passes of 98 GB at 1.5-3
# GB/s, about 3 minutes; DIR needs room for one file (98 GB; each is removed after its read),
# the ranks about 2.5 times one in memory.
# Binaries: packed as for run_gpu_ranks.sh (.gpupack, packed_session.sh, bench/README.md), else
# GAUGEFIX (default build/src/app/gaugefix). Writes $OUT/table.md and every step's log under
# $OUT (packed into $OUT/logs.tar.gz in a packed session). A failed step is FAILED, exit 1.
# Small test here: LATTICE=16,16,16,32 RANKS=2 DIR=/tmp/x OUT=/tmp/x/out bench/run_io.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -f "$root/.gpupack/bin.tar.xz" ]; then
  cd "$root" && source bench/packed_session.sh # sets bin, out (scratch) and dest ($OUT)
  g=$PWD/$bin/gaugefix
else
  g=${GAUGEFIX:-$root/build/src/app/gaugefix}
  out=${OUT:-$root/bench/results/$(date -u +%Y-%m-%d)-io}
  dest=$out
  mkdir -p "$out"
  { echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"; uname -srm
    lscpu | grep -E '^(CPU\(s\)|Model name)'; } > "$out/device.txt"
fi
ranks=${RANKS:-4}
lattice=${LATTICE:-96,96,96,192}
dir=$(mktemp -d -p "${DIR:-/dev/shm}" gaugefix_io.XXXXXX) || exit 1
trap 'rm -rf "$dir"; [ "$out" = "$dest" ] || tar -czf "$dest/logs.tar.gz" -C "$out" .' EXIT # also at a timeout
threads=$(($(nproc) / ranks))
[ "$threads" -ge 1 ] || threads=1
mpirun=(mpirun --allow-run-as-root --bind-to none -np "$ranks" -x OMP_NUM_THREADS="$threads"
  -x LD_LIBRARY_PATH)
{ echo "# commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "# $ranks ranks x $threads OpenMP threads; lattice $lattice; DIR $dir ($(df -T "$dir" | awk 'NR == 2 { print $2 }'))"
  echo "# command: RANKS=$ranks LATTICE=$lattice DIR=${DIR:-/dev/shm} FORMATS=\"${FORMATS:-nersc ildg hdf5}\" bench/run_io.sh"
} | tee -a "$out/device.txt"
failed=()

now() { date +%s.%N; }
rate() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.2f", (s > 0 ? b / s / 1e9 : 0) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f %%", (b > 0 ? 100 * a / b : 0) }'; }
drop_cache() { # drops the page cache where asked; says what was done
  [ "${DROP_CACHES:-0}" = 1 ] || { echo "cache not dropped"; return; }
  sync && echo 3 > /proc/sys/vm/drop_caches 2>/dev/null && echo "cache dropped" || echo "cache not dropped (no permission)"
}
timed() { # var, log, command...: runs it with its output in log; the seconds into var, rc in step_rc
  local var=$1 log=$2 t0
  shift 2
  echo "# command: $*" >> "$log"
  t0=$(now)
  "$@" >> "$log" 2>&1
  step_rc=$?
  printf -v "$var" '%s' "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')"
}
dd_write() { # file, bytes, streams: dd of `bytes` zero bytes, each stream its 1/streams part
  local file=$1 bytes=$2 n=$3 k part pids=()
  part=$(((bytes + n - 1) / n))
  for ((k = 0; k < n; k++)); do
    local start=$((k * part)) len=$(((k + 1) * part > bytes ? bytes - k * part : part))
    dd if=/dev/zero of="$file" bs=64M iflag=count_bytes count="$len" oflag=seek_bytes seek="$start" \
      conv=notrunc,fsync status=none &
    pids+=($!)
  done
  for k in "${pids[@]}"; do wait "$k" || return 1; done
}
dd_read() { # file, bytes, streams
  local file=$1 bytes=$2 n=$3 k part pids=()
  part=$(((bytes + n - 1) / n))
  for ((k = 0; k < n; k++)); do
    dd if="$file" of=/dev/null bs=64M iflag=skip_bytes,count_bytes skip=$((k * part)) count="$part" \
      status=none &
    pids+=($!)
  done
  for k in "${pids[@]}"; do wait "$k" || return 1; done
}

table="$dest/table.md" # in $OUT from the start: a run stopped by its limit keeps its rows
{ echo "## Field I/O, $lattice, $ranks ranks x $threads threads, $(df -T "$dir" | awk 'NR == 2 { print $2 }') ($dir)"
  echo
  echo "| format | bytes | dd write GB/s | gaugefix write s | GB/s | of dd | dd read GB/s | gaugefix read s | GB/s | of dd | cache |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"; } > "$table"
streams_table=
for f in ${FORMATS:-nersc ildg hdf5}; do
  log="$out/$f.log"
  : > "$log"
  prefix="$dir/cfg_$f"
  file="$prefix.0000"
  timed t_gen "$log" "${mpirun[@]}" "$g" generate --backend "${BACKEND:-cpu}" --tuning off \
    --lattice "$lattice" --beta 6.0 --start hot --thermalisation 0 --configs 1 --output-format "$f" \
    -o "$prefix"
  [ "$step_rc" -eq 0 ] && [ -f "$file" ] || { failed+=("generate $f"); echo "FAILED: generate $f"; tail -n 5 "$log"; continue; }
  w_s=$(grep -m 1 '# saved' "$log" | sed -n 's/.* written in \([0-9.]*\) s .*/\1/p')
  bytes=$(stat -c %s "$file")
  cache=$(drop_cache)
  timed t_read "$log" "${mpirun[@]}" "$g" info "$file"
  [ "$step_rc" -eq 0 ] || { failed+=("info $f"); echo "FAILED: info $f"; tail -n 5 "$log"; }
  rm -f "$file" "$prefix.lock"
  echo "# info process: $t_read s" >> "$log"

  ddfile="$dir/dd_$f"
  timed dd_w "$log" dd_write "$ddfile" "$bytes" 1
  [ "$step_rc" -eq 0 ] || failed+=("dd write $f")
  drop_cache > /dev/null
  timed dd_r "$log" dd_read "$ddfile" "$bytes" 1
  [ "$step_rc" -eq 0 ] || failed+=("dd read $f")
  rm -f "$ddfile"
  echo "| $f | $bytes | $(rate "$bytes" "$dd_w") | $w_s | $(rate "$bytes" "$w_s") | $(ratio "$dd_w" "$w_s") | $(rate "$bytes" "$dd_r") | $t_read | $(rate "$bytes" "$t_read") | $(ratio "$dd_r" "$t_read") | $cache |" >> "$table"
  if [ "${DD_STREAMS:-0}" = 1 ]; then
    timed dd_wn "$log" dd_write "$ddfile" "$bytes" "$ranks"
    drop_cache > /dev/null
    timed dd_rn "$log" dd_read "$ddfile" "$bytes" "$ranks"
    rm -f "$ddfile"
    streams_table+="| $f | $(rate "$bytes" "$dd_wn") | $(ratio "$dd_wn" "$w_s") | $(rate "$bytes" "$dd_rn") | $(ratio "$dd_rn" "$t_read") |"$'\n'
  fi
done
if [ -n "$streams_table" ]; then
  { echo
    echo "dd with $ranks streams at once (each its 1/$ranks of one file), and gaugefix's rate as a fraction of it:"
    echo
    echo "| format | dd write GB/s | gaugefix write of dd | dd read GB/s | gaugefix read of dd |"
    echo "|---|---|---|---|---|"
    printf '%s' "$streams_table"; } >> "$table"
fi
{ echo
  echo "write: the generate log's \"# saved\" time (the write alone); read: the wall time of \`gaugefix info\`"
  echo "under mpirun, start-up and every check included; dd: one stream, bs 64 MiB, write with conv=fsync."; } >> "$table"
cat "$table"
[ ${#failed[@]} -eq 0 ] || { printf 'FAILED: %s\n' "${failed[@]}"; exit 1; }
