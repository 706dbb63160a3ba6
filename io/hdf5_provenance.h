// hdf5_provenance.h: Provenance (provenance.h) as typed attributes of an HDF5 gauge field
// (hdf5_file.h), each where known:
//   ensemble_id, ensemble_label                       string
//   sequence_number                                   64-bit integer
//   gauge_fixing                                      string: landau, coulomb or mag
//   gauge_fixing_tolerance, gauge_fixing_theta, gauge_fixing_theta_max_slice,
//   gauge_fixing_functional                           64-bit float
//   gauge_fixing_iterations                           64-bit integer
//   gauge_fixing_converged                            boolean (hdf5_dataset.h)
//   gauge_fixing_precision, gauge_fixing_version, gauge_fixing_date   string
// add_provenance puts them into the attributes to write; hdf5_provenance reads them back
// (the gauge-fixing record where gauge_fixing exists) and throws gf::Error naming `file` and
// the attribute where one has another type.
#pragma once
#include "io/hdf5_dataset.h"
#include "io/provenance.h"
#include <string>

namespace gf {

void add_provenance(const Provenance& p, Hdf5Attributes& a);
Provenance hdf5_provenance(const Hdf5FieldData& d, const std::string& file);

} // namespace gf
