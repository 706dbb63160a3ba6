# packed_session.sh: sourced by the GPU session scripts that run from packed binaries
# (bench/README.md: .gpupack/bin.tar.xz unpacked into .gpubin, .gpupack/libs.tar.xz holding
# .gpulibs). Sets `bin` (the binaries), `out` (a scratch folder for the logs, packed at the end
# into $dest/logs.tar.gz, since the device tool returns at most 8 files) and `dest` ($OUT),
# points GAUGEFIX_TUNE_CACHE into the scratch folder and writes $out/device.txt (date, GPU).
dest=${OUT:-out}
out=$(mktemp -d)
mkdir -p "$dest" .gpubin
tar -xJf .gpupack/bin.tar.xz -C .gpubin && tar -xJf .gpupack/libs.tar.xz || exit 1
export LD_LIBRARY_PATH=$PWD/.gpulibs:${LD_LIBRARY_PATH:-}
export GAUGEFIX_TUNE_CACHE=$out/tunecache
bin=.gpubin
{ echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader; } | tee "$out/device.txt"
