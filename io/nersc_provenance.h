// nersc_provenance.h: Provenance (provenance.h) as lines of a NERSC header.
//
// nersc_provenance_lines: the "KEY = VALUE\n" lines write_nersc puts in its header:
//   ENSEMBLE_ID                   ensemble_id, or "unspecified"
//   ENSEMBLE_LABEL                ensemble_label, where given
//   SEQUENCE_NUMBER               sequence_number, or 1 where there is none: other readers
//                                 need the key (Grid parses it with std::stol) and refuse 0
//                                 (GLU)
//   SEQUENCE_NUMBER_KNOWN         FALSE where there is none (the 1 above is no record)
// and, where gauge_fixing is given:
//   GAUGE_FIXING                  LANDAU, COULOMB or MAG
//   GAUGE_FIXING_TOLERANCE, GAUGE_FIXING_THETA, GAUGE_FIXING_THETA_MAX_SLICE,
//   GAUGE_FIXING_FUNCTIONAL       reals that read back exactly (provenance_text)
//   GAUGE_FIXING_ITERATIONS       integer
//   GAUGE_FIXING_CONVERGED        TRUE or FALSE
//   GAUGE_FIXING_PRECISION        SINGLE, MIXED or DOUBLE
//   GAUGE_FIXING_ALGORITHM        RELAXATION, OVERRELAXATION, STOCHASTIC, FASD or FACG, where
//                                 recorded
//   GAUGEFIX_VERSION, GAUGE_FIXING_DATE
// They are plain KEY = VALUE lines: readers that collect the header as a key/value map
// (read_nersc, Grid) ignore keys they do not use. A value holding a line break throws
// gf::Error naming `file` and the key.
//
// nersc_provenance: the same from a header's entries (NerscHeader::entries). ENSEMBLE_ID
// "unspecified" reads as none, SEQUENCE_NUMBER with SEQUENCE_NUMBER_KNOWN = FALSE too; the
// gauge-fixing record is read where GAUGE_FIXING exists. SEQUENCE_NUMBER,
// GAUGE_FIXING_ITERATIONS that are not integers, numbers that are not numbers and
// GAUGE_FIXING_CONVERGED or SEQUENCE_NUMBER_KNOWN other than TRUE/FALSE throw gf::Error
// naming `file` and the key.
#pragma once
#include "io/provenance.h"
#include <map>
#include <string>

namespace gf {

std::string nersc_provenance_lines(const Provenance& p, const std::string& file);
Provenance nersc_provenance(const std::map<std::string, std::string>& entries,
                            const std::string& file);

} // namespace gf
