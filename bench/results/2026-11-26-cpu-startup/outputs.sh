#!/bin/bash
# outputs.sh GAUGEFIX DIR: the files and standard output of one-process commands
set -eu
g=$1; d=$2; mkdir -p "$d"; cd "$d"
export OMP_NUM_THREADS=2 GAUGEFIX_TUNING=off
"$g" generate --lattice 4,4,4,8 --beta 5.7 --configs 2 --separation 2 --seed 7 -q -o e > generate.out
for f in nersc ildg scidac milc openqcd hdf5; do
  "$g" convert e.0000 conv.$f -f $f -q > convert.$f.out
done
for f in nersc nersc-2row ildg scidac milc openqcd hdf5; do
  "$g" fix -i conv.nersc --random-transform 3 --algorithm facg --tolerance 1e-10 -q -o fix.$f --output-format $f --summary fix.$f.yaml > fix.$f.out
done
for f in ildg scidac milc openqcd hdf5; do
  "$g" fix -i conv.$f --tolerance 1e-8 -q -o fixin_$f.nersc > fixin.$f.out
done
for t in binary hdf5 lime; do
  "$g" fix --lattice 4,4,4,8 --random-transform 5 --gauge coulomb --tolerance 1e-9 -q -o fixg.$t --transform-output g.$t --transform-format $t > fixg.$t.out
  "$g" transform conv.nersc tr.$t --transform g.$t -q > transform.$t.out
  "$g" convert g.$t gconv.$t.h5 -f hdf5 -q > gconvert.$t.out
done
"$g" info --check landau fix.nersc fix.hdf5 fix.ildg e.0001 > info.out
"$g" info --format json fix.hdf5 conv.openqcd > info.json
