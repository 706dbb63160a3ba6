#include "tuning/default_params.h"
#include <sstream>
#include <vector>

namespace gf {

namespace {

// Regenerated from the default_table_row lines of `gaugefix tune` runs, one block per
// architecture (bench/run_tuning_suite.sh; the 32^4, 12-real Landau, Coulomb and maximally
// Abelian runs). Kernels without a row get generic_launch_params().
// clang-format off
const std::vector<DefaultParamsRow> table = {
    // cc 9.0: NVIDIA H100 80GB HBM3, every row of 8, 12 and 18 reals tuned again on 2026-12-07
    // with the code of the 16-byte groups, g(x) in Coulomb's transform slot and the -rows kernels
    // for overrelaxation alone (bench/results/2026-12-07-h100-tables/; first taken 2026-11-23,
    // bench/results/2026-11-23-h100-kernels/); an H200 takes its own rows (below) first
    {90, "measure.coulomb", "double", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.coulomb", "double", "18", "variant=site1 block=128 minb=0 carveout=-1 loads=cache"},
    {90, "measure.coulomb", "double", "8", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "measure.coulomb", "mixed", "12", "variant=site1 block=64 minb=0 carveout=0 loads=cache"},
    {90, "measure.coulomb", "mixed", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.coulomb", "mixed", "8", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "measure.coulomb", "single", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.coulomb", "single", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.coulomb", "single", "8", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "measure.landau", "double", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.landau", "double", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.landau", "double", "8", "variant=site1 block=256 minb=0 carveout=0 loads=cache"},
    {90, "measure.landau", "mixed", "12", "variant=site1 block=64 minb=0 carveout=0 loads=cache"},
    {90, "measure.landau", "mixed", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.landau", "mixed", "8", "variant=site1 block=64 minb=0 carveout=0 loads=cache"},
    {90, "measure.landau", "single", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.landau", "single", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.landau", "single", "8", "variant=site1 block=64 minb=0 carveout=0 loads=cache"},
    {90, "measure.mag", "double", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.mag", "double", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.mag", "double", "8", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "measure.mag", "mixed", "12", "variant=site1 block=64 minb=0 carveout=0 loads=cache"},
    {90, "measure.mag", "mixed", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.mag", "mixed", "8", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "measure.mag", "single", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.mag", "single", "18", "variant=site1 block=64 minb=0 carveout=0 loads=cache"},
    {90, "measure.mag", "single", "8", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "reproject.links", "double", "12", "variant=site1 block=512 minb=0 carveout=0 loads=cache"},
    {90, "reproject.links", "double", "12", "variant=site1 block=512 minb=0 carveout=0 loads=cache"},
    {90, "reproject.links", "double", "18", "variant=site1 block=512 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.links", "double", "18", "variant=site1 block=512 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.links", "double", "18", "variant=site1 block=512 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.links", "double", "8", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "reproject.links", "double", "8", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "reproject.links", "mixed", "12", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "reproject.links", "mixed", "12", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "reproject.links", "mixed", "18", "variant=site1 block=512 minb=0 carveout=0 loads=cache"},
    {90, "reproject.links", "mixed", "18", "variant=site1 block=512 minb=0 carveout=0 loads=cache"},
    {90, "reproject.links", "mixed", "8", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.links", "mixed", "8", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.links", "single", "12", "variant=site1 block=256 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.links", "single", "12", "variant=site1 block=256 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.links", "single", "18", "variant=site1 block=512 minb=0 carveout=0 loads=cache"},
    {90, "reproject.links", "single", "18", "variant=site1 block=512 minb=0 carveout=0 loads=cache"},
    {90, "reproject.links", "single", "18", "variant=site1 block=512 minb=0 carveout=0 loads=cache"},
    {90, "reproject.links", "single", "8", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.transform", "double", "12", "variant=site1 block=128 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.transform", "double", "18", "variant=site1 block=512 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.transform", "double", "8", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.transform", "mixed", "12", "variant=site1 block=64 minb=0 carveout=0 loads=cache"},
    {90, "reproject.transform", "mixed", "18", "variant=site1 block=512 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.transform", "mixed", "8", "variant=site1 block=64 minb=0 carveout=0 loads=cache"},
    {90, "reproject.transform", "single", "12", "variant=site1 block=256 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.transform", "single", "18", "variant=site1 block=256 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.transform", "single", "8", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.coulomb.local", "double", "12", "variant=site4-rows block=64 minb=2 carveout=0 loads=cache"},
    {90, "sweep.coulomb.local", "double", "18", "variant=site4 block=64 minb=2 carveout=0 loads=cache"},
    {90, "sweep.coulomb.local", "double", "8", "variant=site4 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.coulomb.local", "mixed", "12", "variant=site4-rows block=64 minb=0 carveout=0 loads=cache"},
    {90, "sweep.coulomb.local", "mixed", "18", "variant=site4 block=128 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.coulomb.local", "mixed", "8", "variant=site4 block=64 minb=2 carveout=0 loads=cache"},
    {90, "sweep.coulomb.local", "single", "12", "variant=site4-rows block=64 minb=0 carveout=0 loads=cache"},
    {90, "sweep.coulomb.local", "single", "18", "variant=site4 block=256 minb=3 carveout=-1 loads=cache"},
    {90, "sweep.coulomb.local", "single", "8", "variant=site4 block=256 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.coulomb.thermal", "double", "12", "variant=site1 block=256 minb=0 carveout=0 loads=cache"},
    {90, "sweep.coulomb.thermal", "double", "18", "variant=site1 block=256 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.coulomb.thermal", "double", "8", "variant=site2 block=256 minb=0 carveout=0 loads=cache"},
    {90, "sweep.coulomb.thermal", "mixed", "12", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "sweep.coulomb.thermal", "mixed", "18", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "sweep.coulomb.thermal", "mixed", "8", "variant=site2 block=256 minb=2 carveout=0 loads=cache"},
    {90, "sweep.coulomb.thermal", "single", "12", "variant=site2 block=256 minb=2 carveout=0 loads=cache"},
    {90, "sweep.coulomb.thermal", "single", "18", "variant=site1 block=128 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.coulomb.thermal", "single", "8", "variant=site2 block=256 minb=2 carveout=-1 loads=cache"},
    {90, "sweep.landau.local", "double", "12", "variant=site4-rows block=64 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.landau.local", "double", "18", "variant=site4 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.landau.local", "double", "8", "variant=site4 block=128 minb=2 carveout=0 loads=cache"},
    {90, "sweep.landau.local", "mixed", "12", "variant=site4-rows block=64 minb=0 carveout=0 loads=cache"},
    {90, "sweep.landau.local", "mixed", "18", "variant=site4 block=128 minb=2 carveout=0 loads=cache"},
    {90, "sweep.landau.local", "mixed", "8", "variant=site4 block=64 minb=2 carveout=0 loads=cache"},
    {90, "sweep.landau.local", "single", "12", "variant=site4-rows block=128 minb=3 carveout=-1 loads=cache"},
    {90, "sweep.landau.local", "single", "18", "variant=site4 block=64 minb=0 carveout=0 loads=cache"},
    {90, "sweep.landau.local", "single", "8", "variant=site4 block=64 minb=3 carveout=-1 loads=cache"},
    {90, "sweep.landau.thermal", "double", "12", "variant=site2 block=128 minb=0 carveout=0 loads=cache"},
    {90, "sweep.landau.thermal", "double", "18", "variant=site4 block=256 minb=2 carveout=-1 loads=cache"},
    {90, "sweep.landau.thermal", "double", "8", "variant=site2 block=256 minb=0 carveout=0 loads=cache"},
    {90, "sweep.landau.thermal", "mixed", "12", "variant=site1 block=256 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.landau.thermal", "mixed", "18", "variant=site1 block=256 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.landau.thermal", "mixed", "8", "variant=site2 block=256 minb=2 carveout=-1 loads=cache"},
    {90, "sweep.landau.thermal", "single", "12", "variant=site2 block=256 minb=2 carveout=0 loads=cache"},
    {90, "sweep.landau.thermal", "single", "18", "variant=site4 block=128 minb=3 carveout=0 loads=cache"},
    {90, "sweep.landau.thermal", "single", "8", "variant=site2 block=256 minb=2 carveout=0 loads=cache"},
    {90, "sweep.mag.local", "double", "12", "variant=site4-rows block=64 minb=2 carveout=0 loads=cache"},
    {90, "sweep.mag.local", "double", "18", "variant=site4 block=64 minb=0 carveout=0 loads=cache"},
    {90, "sweep.mag.local", "double", "8", "variant=site4 block=256 minb=2 carveout=0 loads=cache"},
    {90, "sweep.mag.local", "mixed", "12", "variant=site4-rows block=64 minb=2 carveout=-1 loads=cache"},
    {90, "sweep.mag.local", "mixed", "18", "variant=site4 block=128 minb=2 carveout=-1 loads=cache"},
    {90, "sweep.mag.local", "mixed", "8", "variant=site2 block=256 minb=2 carveout=-1 loads=cache"},
    {90, "sweep.mag.local", "single", "12", "variant=site4-rows block=64 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.mag.local", "single", "18", "variant=site4 block=128 minb=3 carveout=0 loads=cache"},
    {90, "sweep.mag.local", "single", "8", "variant=site4 block=64 minb=3 carveout=0 loads=cache"},
    {90, "sweep.mag.thermal", "double", "12", "variant=site4 block=256 minb=2 carveout=-1 loads=cache"},
    {90, "sweep.mag.thermal", "double", "18", "variant=site4 block=256 minb=2 carveout=0 loads=cache"},
    {90, "sweep.mag.thermal", "double", "8", "variant=site4 block=256 minb=2 carveout=0 loads=cache"},
    {90, "sweep.mag.thermal", "mixed", "12", "variant=site2 block=256 minb=2 carveout=0 loads=cache"},
    {90, "sweep.mag.thermal", "mixed", "18", "variant=site2 block=256 minb=2 carveout=0 loads=cache"},
    {90, "sweep.mag.thermal", "mixed", "8", "variant=site2 block=256 minb=2 carveout=-1 loads=cache"},
    {90, "sweep.mag.thermal", "single", "12", "variant=site4 block=64 minb=3 carveout=-1 loads=cache"},
    {90, "sweep.mag.thermal", "single", "18", "variant=site4 block=128 minb=3 carveout=-1 loads=cache"},
    {90, "sweep.mag.thermal", "single", "8", "variant=site2 block=256 minb=2 carveout=0 loads=cache"},
    // NVIDIA H200 (its own rows, taken before those of cc 9.0), 2026-11-26
    // (bench/results/2026-11-26-h200-tune-rows/; every row of 8, 12 and 18 reals again on
    // 2026-11-28 with the GPU layout's 16-byte groups, bench/results/2026-11-28-grouped-layout/;
    // the Coulomb and MAG sweeps' rows again later that day with g(x) in the transform slot and
    // MAG's fused rotations, bench/results/2026-11-28-transform-slot/, and every sweep's rows of
    // 12 reals after that with the -rows kernels for overrelaxation alone, its
    // h200_overrelaxation_rows/)
    {90, "measure.coulomb", "double", "12", "variant=site1 block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "measure.coulomb", "double", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.coulomb", "double", "8", "variant=site1 block=128 minb=0 carveout=0 loads=cache", "H200"},
    {90, "measure.coulomb", "mixed", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.coulomb", "mixed", "18", "variant=site1 block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "measure.coulomb", "mixed", "8", "variant=site1 block=128 minb=0 carveout=0 loads=cache", "H200"},
    {90, "measure.coulomb", "single", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.coulomb", "single", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.coulomb", "single", "8", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.landau", "double", "12", "variant=site1 block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "measure.landau", "double", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.landau", "double", "8", "variant=site1 block=128 minb=0 carveout=0 loads=cache", "H200"},
    {90, "measure.landau", "mixed", "12", "variant=site1 block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "measure.landau", "mixed", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.landau", "mixed", "8", "variant=site1 block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "measure.landau", "single", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.landau", "single", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.landau", "single", "8", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.mag", "double", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.mag", "double", "18", "variant=site1 block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "measure.mag", "double", "8", "variant=site1 block=128 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.mag", "mixed", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.mag", "mixed", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.mag", "mixed", "8", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.mag", "single", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.mag", "single", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "measure.mag", "single", "8", "variant=site1 block=128 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.links", "double", "12", "variant=site1 block=256 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.links", "double", "12", "variant=site1 block=256 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.links", "double", "18", "variant=site1 block=256 minb=0 carveout=0 loads=cache", "H200"},
    {90, "reproject.links", "double", "18", "variant=site1 block=256 minb=0 carveout=0 loads=cache", "H200"},
    {90, "reproject.links", "double", "18", "variant=site1 block=256 minb=0 carveout=0 loads=cache", "H200"},
    {90, "reproject.links", "double", "8", "variant=site1 block=128 minb=0 carveout=0 loads=cache", "H200"},
    {90, "reproject.links", "mixed", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.links", "mixed", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.links", "mixed", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.links", "mixed", "8", "variant=site1 block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "reproject.links", "single", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.links", "single", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.links", "single", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.links", "single", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.links", "single", "8", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.links", "single", "8", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.transform", "double", "12", "variant=site1 block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "reproject.transform", "double", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.transform", "double", "8", "variant=site1 block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "reproject.transform", "mixed", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.transform", "mixed", "18", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.transform", "mixed", "8", "variant=site1 block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "reproject.transform", "single", "12", "variant=site1 block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "reproject.transform", "single", "18", "variant=site1 block=256 minb=0 carveout=0 loads=cache", "H200"},
    {90, "reproject.transform", "single", "8", "variant=site1 block=128 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "sweep.coulomb.local", "double", "12", "variant=site4-rows block=64 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.coulomb.local", "double", "18", "variant=site4 block=64 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.coulomb.local", "double", "8", "variant=site4 block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.coulomb.local", "mixed", "12", "variant=site4-rows block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.coulomb.local", "mixed", "18", "variant=site4 block=64 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.coulomb.local", "mixed", "8", "variant=site4 block=128 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.coulomb.local", "single", "12", "variant=site4-rows block=128 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "sweep.coulomb.local", "single", "18", "variant=site4 block=256 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.coulomb.local", "single", "8", "variant=site4 block=256 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.coulomb.thermal", "double", "12", "variant=site1 block=256 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.coulomb.thermal", "double", "18", "variant=site1 block=256 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "sweep.coulomb.thermal", "double", "8", "variant=site2 block=256 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.coulomb.thermal", "mixed", "12", "variant=site1 block=256 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "sweep.coulomb.thermal", "mixed", "18", "variant=site1 block=128 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.coulomb.thermal", "mixed", "8", "variant=site2 block=256 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.coulomb.thermal", "single", "12", "variant=site2 block=256 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.coulomb.thermal", "single", "18", "variant=site2 block=128 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.coulomb.thermal", "single", "8", "variant=site2 block=256 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.landau.local", "double", "12", "variant=site4-rows block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.landau.local", "double", "18", "variant=site4 block=64 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.landau.local", "double", "8", "variant=site4 block=128 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.landau.local", "mixed", "12", "variant=site4-rows block=64 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.landau.local", "mixed", "18", "variant=site2 block=64 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.landau.local", "mixed", "8", "variant=site2 block=128 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.landau.local", "single", "12", "variant=site4-rows block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.landau.local", "single", "18", "variant=site4 block=64 minb=3 carveout=0 loads=cache", "H200"},
    {90, "sweep.landau.local", "single", "8", "variant=site4 block=128 minb=3 carveout=-1 loads=cache", "H200"},
    {90, "sweep.landau.thermal", "double", "12", "variant=site2 block=256 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.landau.thermal", "double", "18", "variant=site2 block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.landau.thermal", "double", "8", "variant=site2 block=256 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.landau.thermal", "mixed", "12", "variant=site1 block=256 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "sweep.landau.thermal", "mixed", "18", "variant=site1 block=256 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "sweep.landau.thermal", "mixed", "8", "variant=site2 block=256 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.landau.thermal", "single", "12", "variant=site2 block=256 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.landau.thermal", "single", "18", "variant=site2 block=256 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.landau.thermal", "single", "8", "variant=site2 block=256 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.mag.local", "double", "12", "variant=site4-rows block=64 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.mag.local", "double", "18", "variant=site4 block=64 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.mag.local", "double", "8", "variant=site4 block=256 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.mag.local", "mixed", "12", "variant=site2-rows block=64 minb=0 carveout=-1 loads=cache", "H200"},
    {90, "sweep.mag.local", "mixed", "18", "variant=site2 block=256 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.mag.local", "mixed", "8", "variant=site2 block=256 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.mag.local", "single", "12", "variant=site4-rows block=64 minb=0 carveout=0 loads=cache", "H200"},
    {90, "sweep.mag.local", "single", "18", "variant=site4 block=64 minb=3 carveout=0 loads=cache", "H200"},
    {90, "sweep.mag.local", "single", "8", "variant=site4 block=128 minb=3 carveout=0 loads=cache", "H200"},
    {90, "sweep.mag.thermal", "double", "12", "variant=site4 block=256 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.mag.thermal", "double", "18", "variant=site4 block=256 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.mag.thermal", "double", "8", "variant=site4 block=256 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.mag.thermal", "mixed", "12", "variant=site2 block=128 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.mag.thermal", "mixed", "18", "variant=site2 block=64 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.mag.thermal", "mixed", "8", "variant=site2 block=256 minb=2 carveout=-1 loads=cache", "H200"},
    {90, "sweep.mag.thermal", "single", "12", "variant=site2 block=64 minb=2 carveout=0 loads=cache", "H200"},
    {90, "sweep.mag.thermal", "single", "18", "variant=site4 block=128 minb=3 carveout=-1 loads=cache", "H200"},
    {90, "sweep.mag.thermal", "single", "8", "variant=site2 block=256 minb=2 carveout=0 loads=cache", "H200"},
};
// clang-format on

// The value of field `name` ("prec", "storage") of a key's aux text, "" if absent.
std::string aux_field(const std::string& aux, const std::string& name) {
  std::istringstream in(aux);
  for (std::string word; in >> word;)
    if (word.rfind(name + "=", 0) == 0) return word.substr(name.size() + 1);
  return "";
}

std::string family_of(const std::string& kernel) {
  return kernel.substr(0, kernel.find('.'));
}

} // namespace

std::span<const DefaultParamsRow> default_params_table() {
  return table;
}

LaunchParams generic_launch_params() {
  return LaunchParams{"site1", 128, 0, -1, false};
}

std::string device_model(const std::string& name) {
  std::istringstream words(name);
  std::string first, second;
  words >> first >> second;
  return (first == "NVIDIA" || first == "AMD") && !second.empty() ? second : first;
}

LaunchParams default_launch_params(std::span<const DefaultParamsRow> rows,
                                   const DeviceIdentity& device, const TuneKey& key) {
  const int cc = 10 * device.cc_major + device.cc_minor;
  const std::string precision = aux_field(key.aux, "prec"), storage = aux_field(key.aux, "storage");
  const std::string model = device_model(device.name);
  // the device's own rows first, then those of its compute capability
  for (const bool own_model : {true, false}) {
    const DefaultParamsRow* family_row = nullptr;
    for (const DefaultParamsRow& r : rows) {
      if (r.cc != cc || r.precision != precision || (*r.storage && r.storage != storage)) continue;
      if (own_model ? r.model != model : *r.model != 0) continue;
      if (r.kernel == key.kernel) return parse_launch_params(r.params);
      if (r.kernel == family_of(key.kernel) && !family_row) family_row = &r;
    }
    if (family_row) return parse_launch_params(family_row->params);
  }
  return generic_launch_params();
}

LaunchParams default_launch_params(const DeviceIdentity& device, const TuneKey& key) {
  return default_launch_params(default_params_table(), device, key);
}

std::string default_table_row(const DeviceIdentity& device, const TuneKey& key,
                              const LaunchParams& params) {
  return "    {" + std::to_string(10 * device.cc_major + device.cc_minor) + ", \"" + key.kernel +
         "\", \"" + aux_field(key.aux, "prec") + "\", \"" + aux_field(key.aux, "storage") +
         "\", \"" + format_launch_params(params) + "\", \"" + device_model(device.name) + "\"},";
}

} // namespace gf
