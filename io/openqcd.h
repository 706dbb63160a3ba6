// openqcd.h: openQCD gauge configuration files (export_cnfg / import_cnfg of openQCD's
// archive module), read and written by time slab.
//
// Layout, little-endian: int32 N0, N1, N2, N3 (N0 is time: N0 = L_t, N1..N3 = L_x, L_y,
// L_z), double plaq, then for every ODD site (x0 + x1 + x2 + x3 odd) in the order of the
// lexicographic index x3 + N3 (x2 + N2 (x1 + N1 x0)) (time slowest, x3 = z fastest) the 8
// links U(x, 0), U(x - 0, 0), U(x, 1), U(x - 1, 1), ..., U(x - 3, 3), where openQCD's
// direction 0 is time and 1, 2, 3 are x, y, z; each link 3x3 complex doubles, row-major,
// (re, im). Every link of the lattice appears once: that of an even site y in direction
// mu as U(x - mu, mu) of the odd site x = y + mu.
// plaq is openQCD's average plaquette: the sum of Re tr U(p) over all 6 V plaquettes
// divided by 6 V, i.e. N_c = 3 times the plaquette of observables.h.
//
// read_openqcd: each rank reads the odd sites of its slab's time slices and of the next
// slice (t0 + nt) mod L_t, which holds the temporal links of the slab's last even sites.
// It throws gf::Error naming the file and the check, in this order: header present (24
// bytes), positive and even N0..N3, file size = 24 + 576 V (truncated, too long or wrong
// dims), then check_links (field_codec.h: finite, SU(3); open boundary
// conditions' zero links fail here), then plaq against 3 x plaquette within 1e-10.
// info: stored and computed PLAQUETTE in openQCD's normalisation.
// write_openqcd (SU(3), double precision only): each rank writes the odd sites of the
// slices t0 + 1, ..., t0 + nt (mod L_t), whose links all lie in its slab and in the next
// slice (host_halo.h), through SlabFileWriter.
#pragma once
#include "comm/world.h"
#include "io/gauge_file_types.h"
#include "lattice/host_field.h"
#include <string>
#include <vector>

namespace gf {

constexpr std::int64_t openqcd_header_bytes = 24;

HostField read_openqcd(const std::string& path, const World& world, const ReadOptions& opt,
                       FileInfo* info);
void write_openqcd(const std::string& path, const HostField& slab, const WriteOptions& opt,
                   const World& world, const std::vector<std::string>& inputs);

} // namespace gf
