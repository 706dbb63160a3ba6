// measure_output.h: the files of the measurements (gaugefix measure, gaugefix fix --measure):
// a table of numbers with the run record.
// - CSV (any name not ending in .h5): first the run record, one "# key: value" line each
//   (newlines in a value become spaces), then one line of comma-separated column names, then
//   one line per row; numbers in the shortest form that reads back exactly (std::to_chars;
//   integers without a decimal point, "nan" for NaN).
// - HDF5 (a name ending in .h5): one 1-D IEEE 64-bit float dataset per column, named after it,
//   in the root group; the record as string attributes of the root group, and the attribute
//   "columns" (the column names, comma-separated, in order).
// write_table is collective: rank 0 writes, into a temporary file beside the final name
// (io/temporary_file.h) that is renamed when complete, so the name holds the whole file or
// nothing; the other ranks wait for it. The caller checks the path first (io/path_checks.h:
// never an input or another output).
// The table_of functions give the observables' rows their columns:
//   landau gluon    nx,ny,nz,nt,p2,transverse,longitudinal
//   coulomb gluon   nx,ny,nz,p2,spatial,temporal
//   static potential r,t,correlator,potential
//   ghost propagator nx,ny,nz,nt,p2,ghost,iterations,residual (iterations: the total of the
//                    momentum's CG solves; residual: the largest final |r|/|b| of them)
//   lowest eigenvalue eigenvalue,lanczos_steps,residual (one row)
//   abelian          plaquette,polyakov_re,polyakov_im (the mean of the colours), then per
//                    colour i = 1 .. N polyakov_re_i,polyakov_im_i, then density_i, then
//                    unconserved (sites and colours where the currents' divergence is not 0)
//                    (one row)
#pragma once
#include "comm/world.h"
#include "measure/abelian_projection.h"
#include "measure/ghost_propagator.h"
#include "measure/gluon_propagator.h"
#include "measure/static_potential.h"
#include <string>
#include <utility>
#include <vector>

namespace gf {

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows; // each of columns.size() numbers
};

using RunRecord = std::vector<std::pair<std::string, std::string>>;

Table table_of(const std::vector<LandauGluonRow>& rows);
Table table_of(const std::vector<CoulombGluonRow>& rows);
Table table_of(const std::vector<StaticPotentialRow>& rows);
Table table_of(const std::vector<GhostPoint>& rows);
Table table_of(const EigenResult& eigen);
Table table_of(const AbelianMeasurement& a);

// Whether `path` names an HDF5 output (ends in .h5).
bool is_hdf5_output(const std::string& path);
// The CSV text of a table with its record (what write_table writes for a CSV name).
std::string csv_text(const Table& table, const RunRecord& record);
void write_table(const std::string& path, const Table& table, const RunRecord& record,
                 const World& world);

} // namespace gf
