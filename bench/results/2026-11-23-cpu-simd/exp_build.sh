#!/bin/bash
# exp_build.sh NAME: compiles the native single SIMD TU from the worktree as it is now, links /tmp/bench_NAME
set -e
cd /work/wt-cpusimd/build-native
CMD=$(python3 -c "
import json
for e in json.load(open('compile_commands.json')):
    if e['file'].endswith('src/fix/engine_cpu_simd_single.cpp'): print(e['command'])
")
CMD2=$(echo "$CMD" | sed "s| -o libgaugefix.a.p/src_fix_engine_cpu_simd_single.cpp.o| -o /tmp/simd_single_$1.o|; s| -MD -MQ [^ ]* -MF [^ ]*||")
nice bash -c "$CMD2" 2>/dev/null
objs=$(ar t libgaugefix.a | sed "s|^|$PWD/|; s|.*src_fix_engine_cpu_simd_single.cpp.o|/tmp/simd_single_$1.o|")
rm -f /tmp/lib_$1.a && ar rcsT /tmp/lib_$1.a $objs
g++ -o /tmp/bench_$1 bench/bench_cpu_sweep.p/bench_cpu_sweep.cpp.o -Wl,--as-needed -Wl,-rpath,/usr/lib/x86_64-linux-gnu/openmpi/lib:/usr/lib/x86_64-linux-gnu/hdf5/openmpi -Wl,--start-group /tmp/lib_$1.a -fopenmp /usr/lib/x86_64-linux-gnu/libyaml-cpp.so /usr/lib/x86_64-linux-gnu/openmpi/lib/libmpi_cxx.so /usr/lib/x86_64-linux-gnu/openmpi/lib/libmpi.so /usr/lib/x86_64-linux-gnu/libz.so /usr/lib/x86_64-linux-gnu/libxml2.so /usr/lib/x86_64-linux-gnu/hdf5/openmpi/libhdf5.so -Wl,--end-group
echo built /tmp/bench_$1
