#!/bin/bash
# convert_cpu.sh A B [ROUNDS]: CPU seconds (user + sys) and wall seconds of one process
# (OMP_NUM_THREADS=1) reading a 32^3x64 field (info) and reading and writing it (convert to the
# same format), binaries A and B in turn each round, for NERSC, ILDG and HDF5 in /dev/shm.
# CPU time is what the shared machine's load does not inflate; convert - info is the write.
set -u
a=$1; b=$2; rounds=${3:-3}
d=$(mktemp -d -p /dev/shm); trap 'rm -rf "$d"' EXIT
export OMP_NUM_THREADS=1
"$b" generate --backend cpu --tuning off --lattice 32,32,32,64 --beta 6 --start hot --configs 1 -o "$d/n" -q
for f in ildg hdf5; do "$b" convert -q "$d/n.0000" "$d/in.$f" -f $f; done
mv "$d/n.0000" "$d/in.nersc"
echo "# $(date -u) $(uptime)"
cpu() { /usr/bin/time -f "%e %U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "wall %.2f cpu %.2f", $1, $2 + $3 }'; }
for r in $(seq "$rounds"); do
  for f in nersc ildg hdf5; do
    for who in A B; do
      g=$a; [ $who = B ] && g=$b
      rm -f "$d/out.$f"
      echo "round $r $f $who info: $(cpu "$g" info "$d/in.$f")  convert: $(cpu "$g" convert -q "$d/in.$f" "$d/out.$f" -f $f)"
    done
  done
done
echo "# $(date -u) $(uptime)"
