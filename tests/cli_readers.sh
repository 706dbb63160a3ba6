#!/bin/bash
# cli_readers.sh GAUGEFIX HOLD_TEMPORARY SOURCE_ROOT CASE [MAKE_MALFORMED [FUZZ_READERS]]: malformed files
# and impossible lattices must be refused with exit status exactly 1 (never a crash, never
# "internal error", never std::bad_alloc) and a message naming the file (or option) and the
# check; the g(x) files of `fix --transform-output` in every format, through info, convert and
# transform. Case sanitized_readers reads the malformed files once more with the readers built
# under AddressSanitizer and UBSan (FUZZ_READERS --refuse, tests/fuzz_readers.cpp). Run by meson,
# one test per CASE.
set -euo pipefail
# shellcheck source=tests/cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"
make_malformed=${5:-}
fuzz_readers=${6:-}
fix=("$g" fix --tolerance 1e-10 --check-interval 10)

# refused_file FILE WORD...: `gaugefix info FILE` exits 1, naming FILE and every WORD, with no
# internal error.
refused_file() {
  local file=$1
  shift
  expect 1 "'$file'" "$@" -- "$g" info "$file"
  ! grep -q "internal error" "$d/stderr" || fail "internal error for $file: $(cat "$d/stderr")"
}

# offset_of_record FILE TYPE: the byte offset of the first LIME record of that type.
offset_of_record() {
  local at
  at=$(grep -obUaF "$2" "$1" | head -n 1 | cut -d: -f1)
  [ -n "$at" ] || fail "no record $2 in $1"
  echo $((at - 16))
}

case $case in
header_overflow)
  # dims whose product wraps past 2^64 (2^24 and 2^16 per direction), or exceeds the file
  "$make_malformed" milc "$d/m24" 16777216 16777216 16777216 16777216
  refused_file "$d/m24" "MILC file" "size:" overflows
  "$make_malformed" milc "$d/m16" 65536 65536 65536 65536
  refused_file "$d/m16" "MILC file" "size:" overflows
  "$make_malformed" milc "$d/m10" 1024 1024 1024 1024
  refused_file "$d/m10" "MILC file" "size:" "truncated file"
  "$make_malformed" milc "$d/m0" 0 4 4 4
  refused_file "$d/m0" "MILC file" dims
  expect 1 "'$d/m24'" "size:" -- "${fix[@]}" --input "$d/m24"
  # openQCD 2^22 x 2^22 x 2^22 x 2: not even taken for openQCD (size does not match)
  "$make_malformed" openqcd "$d/o22" 2 4194304 4194304 4194304
  refused_file "$d/o22" "unknown format"
  ;;
hdf5_unstored)
  for n in 4096 128; do
    "$make_malformed" hdf5 "$d/h$n.h5" $n $n $n $n
    refused_file "$d/h$n.h5" "HDF5 file" "storage:" "never written"
  done
  ;;
sparse_nersc)
  # 128^4 SU(3) sites in 64 bits: 154 GB, a sparse file of the size the header claims
  printf 'BEGIN_HEADER\nDATATYPE = 4D_SU3_GAUGE_3x3\nDIMENSION_1 = 128\nDIMENSION_2 = 128\nDIMENSION_3 = 128\nDIMENSION_4 = 128\nFLOATING_POINT = IEEE64BIG\nEND_HEADER\n' > "$d/sparse"
  header=$(wc -c < "$d/sparse")
  if ! truncate -s $((header + 128 * 128 * 128 * 128 * 4 * 18 * 8)) "$d/sparse" 2> /dev/null; then
    echo "skipped: this file system holds no sparse file of 154 GB"
    exit 77
  fi
  refused_file "$d/sparse" "NERSC file" "memory:" "available"
  ;;
lattice_too_large)
  expect 1 memory: 4096x4096x4096x4096 available -- "${fix[@]}" --lattice 4096,4096,4096,4096
  expect 1 memory: available -- "$g" generate --lattice 4096,4096,4096,4096 --beta 6 --configs 1 \
    -o "$d/big"
  absent "$d/big.0000"
  expect 1 "overflows 64 bits" -- "${fix[@]}" --lattice 1073741824,1073741824,1073741824,2
  ;;
lime_cut_before_checksum)
  for f in ildg scidac; do
    "$g" convert "$d/cfg" "$d/$f.lime" --format $f > /dev/null
    head -c "$(offset_of_record "$d/$f.lime" scidac-checksum)" "$d/$f.lime" > "$d/$f.cut"
    refused_file "$d/$f.cut" "truncated file" "message-end flag"
    # the checksum record's payload cut short
    head -c $(($(wc -c < "$d/$f.lime") - 20)) "$d/$f.lime" > "$d/$f.short"
    refused_file "$d/$f.short" "scidac-checksum" "truncated file"
  done
  ;;
hdf5_no_space)
  # a device without room for an 8^4 field (2.4 MB) or its g(x) (590 KB) written as HDF5, and
  # one already full: a 256 KiB tmpfs, mounted here or in a user namespace (unshare -rm);
  # skipped where neither is allowed (a file size limit is no substitute: MPI_Init itself
  # fails under it)
  "$g" generate --lattice 8,8,8,8 --beta 5.7 --thermalisation 1 --configs 1 --quiet -o "$d/e8" \
    > /dev/null
  mkdir "$d/full"
  export g d OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  check='set -u
    for args in "--output $d/full/out.h5" "--transform-output $d/full/g.h5"; do
      got=0
      "$g" fix --input "$d/e8.0000" --quiet $args > "$d/stdout" 2> "$d/stderr" || got=$?
      file=${args#* }
      [ "$got" -eq 1 ] || { echo "exit status $got writing $file: $(cat "$d/stderr")"; exit 1; }
      grep -qF "no space left on the device" "$d/stderr" || { echo "no reason: $(cat "$d/stderr")"; exit 1; }
      grep -qF "$file" "$d/stderr" || { echo "$file not named: $(cat "$d/stderr")"; exit 1; }
      [ ! -e "$file" ] || { echo "$file exists"; exit 1; }
      [ -z "$(find "$d/full" -name "*.gaugefix-tmp.*")" ] || { echo "temporary file left"; exit 1; }
    done
    # a device full before the run: g(x) of 4^4 (37 KB) refused with status 1, not a crash
    # of HDF5 closing a file left open when MPI finalises (status 139)
    dd if=/dev/zero of="$d/full/filler" bs=4k 2> /dev/null
    got=0
    "$g" fix -q --lattice 4,4,4,4 --transform-output "$d/full/g.h5" --transform-format hdf5 \
      > "$d/stdout" 2> "$d/stderr" || got=$?
    [ "$got" -eq 1 ] || { echo "exit status $got on a full device: $(cat "$d/stderr")"; exit 1; }
    grep -qF "HDF5 file '"'"'$d/full/g.h5'"'"': writing the dataset /gauge/transform failed" "$d/stderr" &&
      grep -qF "no space left on the device" "$d/stderr" || { echo "message: $(cat "$d/stderr")"; exit 1; }
    [ "$(ls -A "$d/full")" = filler ] || { echo "left on the device: $(ls -A "$d/full")"; exit 1; }
    rm "$d/full/filler"'
  if mount -t tmpfs -o size=256k tmpfs "$d/full" 2> /dev/null; then
    status=0
    bash -c "$check" || status=$?
    umount "$d/full"
  elif unshare -rm true 2> /dev/null; then
    status=0
    unshare -rm bash -c 'mount -t tmpfs -o size=256k tmpfs "$d/full" && '"$check" || status=$?
  else
    echo "skipped: no tmpfs can be mounted here (no privilege, no user namespace)"
    exit 77
  fi
  [ "$status" -eq 0 ] || fail "a full device"
  ;;
info_every_file)
  cp "$d/cfg" "$d/bad1"
  printf x | dd of="$d/bad1" bs=1 seek=$(($(wc -c < "$d/cfg") - 1)) conv=notrunc 2> /dev/null
  printf 'not a gauge field' > "$d/bad2"
  expect 1 "'$d/bad1'" CHECKSUM "'$d/bad2'" "unknown format" "2 of 4 files" -- \
    "$g" info "$d/cfg" "$d/bad1" "$d/cfg.orig" "$d/bad2"
  [ "$(grep -c "^$d/cfg" "$d/stdout")" -eq 2 ] || fail "good files not described: $(cat "$d/stdout")"
  expect 1 "'$d/missing'" -- "$g" info "$d/missing" "$d/cfg"
  grep -q "^$d/cfg" "$d/stdout" || fail "the file after a missing one was not read"
  ;;
sanitized_readers)
  # the malformed files of the cases above, through the readers under ASan/UBSan: each refused
  # with a gf::Error naming the file and the check, no sanitizer report
  [ -x "$fuzz_readers" ] || { echo "no sanitized readers (-Dreader_fuzz=false): skipped"; exit 77; }
  "$make_malformed" milc "$d/m24" 16777216 16777216 16777216 16777216
  "$make_malformed" milc "$d/m16" 65536 65536 65536 65536
  "$make_malformed" milc "$d/m10" 1024 1024 1024 1024
  "$make_malformed" openqcd "$d/o22" 2 4194304 4194304 4194304
  "$make_malformed" hdf5 "$d/h4096.h5" 4096 4096 4096 4096
  "$make_malformed" hdf5 "$d/h128.h5" 128 128 128 128
  files=("$d/m24" "$d/m16" "$d/m10" "$d/o22" "$d/h4096.h5" "$d/h128.h5")
  checks=("size:.*overflows" "size:.*overflows" "truncated file" "unknown format" "never written" "never written")
  for f in ildg scidac; do
    "$g" convert "$d/cfg" "$d/$f.lime" --format $f > /dev/null
    head -c "$(offset_of_record "$d/$f.lime" scidac-checksum)" "$d/$f.lime" > "$d/$f.cut"
    head -c $(($(wc -c < "$d/$f.lime") - 20)) "$d/$f.lime" > "$d/$f.short"
    files+=("$d/$f.cut" "$d/$f.short")
    checks+=("message-end flag" "scidac-checksum.*truncated file")
  done
  printf 'BEGIN_HEADER\nDATATYPE = 4D_SU3_GAUGE_3x3\nDIMENSION_1 = 128\nDIMENSION_2 = 128\nDIMENSION_3 = 128\nDIMENSION_4 = 128\nFLOATING_POINT = IEEE64BIG\nEND_HEADER\n' > "$d/sparse"
  if truncate -s $(($(wc -c < "$d/sparse") + 128 * 128 * 128 * 128 * 4 * 18 * 8)) "$d/sparse" 2> /dev/null; then
    files+=("$d/sparse")
    checks+=("memory:.*available")
  fi
  got=0
  "$fuzz_readers" --refuse "${files[@]}" > "$d/messages" 2> "$d/stderr" || got=$?
  [ "$got" -eq 0 ] || fail "sanitized readers: exit status $got: $(cat "$d/stderr")"
  [ "$(wc -l < "$d/messages")" -eq "${#files[@]}" ] || fail "one message per file: $(cat "$d/messages")"
  for i in "${!files[@]}"; do
    line=$(sed -n "$((i + 1))p" "$d/messages")
    [[ $line == *"'${files[$i]}'"* ]] || fail "${files[$i]} not named: $line"
    grep -Eq -- "${checks[$i]}" <<< "$line" || fail "${files[$i]}: no '${checks[$i]}' in: $line"
  done
  ;;
transform_files)
  # g(x) of one fix in every format: the same data (info's checksums), converted both ways
  "${fix[@]}" --quiet --input "$d/cfg" --output "$d/fixed" --transform-output "$d/g.lime" \
    > /dev/null
  "$g" info "$d/g.lime" > "$d/info.lime"
  grep -q "^  format: lime (gauge transformation g(x))" "$d/info.lime" || fail "$(cat "$d/info.lime")"
  grep -q "QDP_D3_ColorMatrix" "$d/g.lime" || fail "no QDP_D3_ColorMatrix record"
  "$g" convert "$d/g.lime" "$d/g.h5" > /dev/null
  "$g" convert "$d/g.h5" "$d/g.bin" > /dev/null
  "$g" convert "$d/g.bin" "$d/g2.lime" > /dev/null
  "$g" info "$d/g2.lime" > "$d/info.lime2"
  [ "$(sed -n 's/^  computed: //p' "$d/info.lime")" = "$(sed -n 's/^  computed: //p' "$d/info.lime2")" ] ||
    fail "g(x) changed through hdf5 and binary: $(cat "$d/info.lime" "$d/info.lime2")"
  for f in g.h5 g.bin; do
    "$g" info "$d/$f" | grep -q "gauge transformation g(x)" || fail "$f not described as g(x)"
  done
  expect 1 --check "g(x)" -- "$g" info --check landau "$d/g.lime"
  expect 1 "--format nersc" "binary, hdf5 or lime" -- "$g" convert "$d/g.lime" "$d/g.nersc" --format nersc
  absent "$d/g.nersc"
  expect 1 "--transform-format" lime -- "${fix[@]}" --input "$d/cfg" --transform-output "$d/x.lime" \
    --transform-format binary
  # transform: the fixed field again from g(x), any format of g; safety of the output
  for f in g.lime g.h5 g.bin; do
    expect 0 -- "$g" transform --transform "$d/$f" "$d/cfg" "$d/t.$f.h5"
    "$g" info "$d/t.$f.h5" | grep -q "^  format: hdf5" || fail "t.$f.h5 is no HDF5 gauge file"
  done
  expect 1 output input -- "$g" transform --transform "$d/g.lime" "$d/cfg" "$d/./cfg"
  expect 1 output --transform -- "$g" transform --transform "$d/g.lime" "$d/cfg" "$d/g.lime"
  same "$d/cfg" "$d/cfg.orig"
  "$g" generate --lattice 4,4,4,8 --beta 5.7 --thermalisation 1 --configs 1 --quiet -o "$d/e48" \
    > /dev/null
  expect 1 --transform "4x4x4x4" "4x4x4x8" -- "$g" transform --transform "$d/g.lime" \
    "$d/e48.0000" "$d/t48"
  absent "$d/t48"
  expect 1 datacount "g(x)" -- "$g" transform --transform "$d/g.lime" "$d/g.lime" "$d/t"
  absent "$d/t"
  expect 1 "--transform" "'$d/cfg'" -- "$g" transform --transform "$d/cfg" "$d/cfg" "$d/t"
  expect 1 "--transform" "'$d/missing'" -- "$g" transform --transform "$d/missing" "$d/cfg" "$d/t"
  expect 1 "--format" "unknown file format" -- "$g" transform --transform "$d/g.lime" "$d/cfg" \
    "$d/t" --format lime
  absent "$d/t"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok: $case"
