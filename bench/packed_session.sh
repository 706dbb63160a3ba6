# packed_session.sh: sourced by the GPU session scripts that run from packed binaries
# (bench/README.md: .gpupack/bin.tar.xz unpacked into .gpubin, .gpupack/libs.tar.xz holding
# .gpulibs). Sets `bin` (the binaries), `out` (a scratch folder for the logs, packed at the end
# into $dest/logs.tar.gz, since the device tool returns at most 8 files) and `dest` ($OUT),
# points GAUGEFIX_TUNE_CACHE into the scratch folder and writes $out/device.txt (date, GPU).
# cuFFT (libcufft.so.12 of the CUDA toolkit, too large to carry) comes from the node: the
# programs look in the building machine's toolkit (rpath /usr/local/cuda/lib64) and the
# loader's path; where ldd finds it in neither, the node's toolkit or Python wheels' copy is
# added to LD_LIBRARY_PATH (device.txt names what was used).
dest=${OUT:-out}
out=$(mktemp -d)
mkdir -p "$dest" .gpubin
tar -xJf .gpupack/bin.tar.xz -C .gpubin && tar -xJf .gpupack/libs.tar.xz || exit 1
export LD_LIBRARY_PATH=$PWD/.gpulibs:${LD_LIBRARY_PATH:-}
cufft_note=$(ldd .gpubin/gaugefix 2>/dev/null | grep -m 1 'libcufft')
if [ -z "$cufft_note" ] || echo "$cufft_note" | grep -q 'not found'; then
  cufft_lib=$(find /usr/local/cuda/lib64 /usr/local/cuda*/lib64 /usr/local/cuda*/targets/*/lib /opt /usr/lib \
    -maxdepth 9 -name 'libcufft.so.12' 2>/dev/null | head -n 1)
  if [ -n "$cufft_lib" ]; then
    export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$(dirname "$cufft_lib")
    cufft_note=$(dirname "$cufft_lib")
  else
    cufft_note="NOT FOUND: programs of a CUDA build with cuFFT cannot start"
  fi
fi
export GAUGEFIX_TUNE_CACHE=$out/tunecache
export GAUGEFIX_TEST_DATA=$PWD/tests/data # the sample files of the tests (tests/test_data.cpp)
bin=.gpubin
{ echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
  echo "# cuFFT (libcufft.so.12): $cufft_note"; } | tee "$out/device.txt"
