// field_codec.h: what the binary gauge-file readers and writers (ILDG/SciDAC, MILC, openQCD)
// share: reals and 32-bit words in either byte order, hexadecimal checksums, and the checks
// every reader runs on the links it decoded.
//
// check_links (collective: every rank calls it with its slab) throws gf::Error, on every
// rank, naming `source` (e.g. "ILDG file 'cfg.lime'") and the check:
//   finite   every number finite ("unitarity: links are not in SU(N): the data holds NaN
//            or Inf");
//   SU(N)    max unitarity_deviation (su_n.h) at most 1e-5.
// 32-bit data is then reunitarised. 64-bit data within 1e-10 of SU(N) is returned exactly
// as stored; 64-bit data between 1e-10 and 1e-5 holds links of single-precision accuracy
// (e.g. QDP++'s t_dprec_ildg.lime, converted from a 32-bit file) and is reunitarised, with a
// warning in the log (core/log.h). info (where given) gets nc, bytes_per_real, unitarity_deviation
// (before reunitarisation), reunitarised, and plaquette and link_trace of the returned field.
#pragma once
#include "comm/world.h"
#include "io/gauge_file_types.h"
#include "lattice/host_field.h"
#include <cstdint>
#include <string>

namespace gf {

double load_real(const unsigned char* p, int bytes, bool big_endian);
void store_real(double v, unsigned char* p, int bytes, bool big_endian);
std::uint32_t load_u32(const unsigned char* p, bool big_endian);
void store_u32(std::uint32_t v, unsigned char* p, bool big_endian);
std::uint32_t rotate_left(std::uint32_t v, int n);
std::string hex32(std::uint32_t v); // "%x"
// The current time as "Sun Nov 22 04:56:19 2026 UTC" (file headers).
std::string utc_date();

// The checks above; finite: this rank decoded no NaN or Inf.
void check_links(const std::string& source, HostField& u, int bytes_per_real, bool finite,
                 const World& world, FileInfo* info);

} // namespace gf
