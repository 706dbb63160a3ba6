#!/bin/bash
# before_after.sh A B [ROUNDS]: whole-process wall and CPU seconds of a 2-rank write
# (generate --start hot --thermalisation 0, 32^3x64, which also makes the field) and read
# (info) in /dev/shm for NERSC, ILDG and HDF5, binaries A and B in turn each round.
set -u
a=$1; b=$2; rounds=${3:-2}
d=$(mktemp -d -p /dev/shm); trap 'rm -rf "$d"' EXIT
mpi=(mpirun --allow-run-as-root --bind-to none -np 2 -x OMP_NUM_THREADS=1)
echo "# $(date -u) $(uptime)"
for r in $(seq "$rounds"); do
  for f in nersc ildg hdf5; do
    for who in A B; do
      g=$a; [ $who = B ] && g=$b
      rm -f "$d"/c.*
      w=$( { /usr/bin/time -f "%e %U %S" "${mpi[@]}" "$g" generate --backend cpu --tuning off --lattice 32,32,32,64 \
        --beta 6 --start hot --configs 1 --output-format $f -o "$d/c" -q > /dev/null; } 2>&1 | tail -1)
      i=$( { /usr/bin/time -f "%e %U %S" "${mpi[@]}" "$g" info "$d/c.0000" > /dev/null; } 2>&1 | tail -1)
      echo "round $r $f $who generate wall/user/sys: $w  info wall/user/sys: $i"
    done
  done
done
echo "# $(date -u) $(uptime)"
