#!/bin/bash
# exp_engine_cpu.sh BUILD EXTRA NAME: engine_cpu.cpp of BUILD compiled once more with EXTRA flags appended, bench_cpu_sweep linked with it as /tmp/bench_NAME
set -e
cd /work/wt-cpusimd/$1
CMD=$(python3 -c "
import json
for e in json.load(open('compile_commands.json')):
    if e['file'].endswith('src/fix/engine_cpu.cpp'): print(e['command'])
")
CMD2=$(echo "$CMD" | sed "s| -o libgaugefix.a.p/src_fix_engine_cpu.cpp.o| $2 -o /tmp/engine_cpu_$3.o|; s| -MD -MQ [^ ]* -MF [^ ]*||")
nice bash -c "$CMD2" 2>/dev/null
objs=$(ar t libgaugefix.a | sed "s|^|$PWD/|; s|.*src_fix_engine_cpu.cpp.o|/tmp/engine_cpu_$3.o|")
rm -f /tmp/lib_$3.a && ar rcsT /tmp/lib_$3.a $objs
g++ -o /tmp/bench_$3 bench/bench_cpu_sweep.p/bench_cpu_sweep.cpp.o -Wl,--as-needed -Wl,-rpath,/usr/lib/x86_64-linux-gnu/openmpi/lib:/usr/lib/x86_64-linux-gnu/hdf5/openmpi -Wl,--start-group /tmp/lib_$3.a -fopenmp /usr/lib/x86_64-linux-gnu/libyaml-cpp.so /usr/lib/x86_64-linux-gnu/openmpi/lib/libmpi_cxx.so /usr/lib/x86_64-linux-gnu/openmpi/lib/libmpi.so /usr/lib/x86_64-linux-gnu/libz.so /usr/lib/x86_64-linux-gnu/libxml2.so /usr/lib/x86_64-linux-gnu/hdf5/openmpi/libhdf5.so -Wl,--end-group
echo "/tmp/bench_$3: engine_cpu.cpp of $1 with '$2' appended; vfm* instructions in it: $(objdump -d /tmp/engine_cpu_$3.o | grep -c 'vfm')"
