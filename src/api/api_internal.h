// api_internal.h: what the files of the public API (include/gaugefix/gaugefix.h) share:
// the HostField inside a gaugefix::Field, the World of a Communicator (one rank without MPI
// for none; MPI initialised on first use of a communicator), the checks of a field handed to the
// API (its layout, its matrices in SU(N)), and `guarded`, which turns the internal gf::Error into
// gaugefix::Error prefixed with the API function's name.
#pragma once
#include "comm/world.h"
#include "core/error.h"
#include "gaugefix/gaugefix.h"
#include "lattice/host_field.h"
#include <string>

namespace gaugefix {

struct Field::Impl {
  gf::HostField host{};
};

struct FieldAccess {
  static gf::HostField& host(Field& f) { return f.impl_->host; }
  static const gf::HostField& host(const Field& f) { return f.impl_->host; }
  static Field wrap(gf::HostField&& host);
};

// One rank without MPI for none (World::alone(): no MPI call), else the communicator;
// initialises MPI where nobody has.
gf::World world_of(const Communicator& c);

// Throws gf::Error naming `what` unless `field` is a non-empty field of `ndir` matrices per
// site holding the slab `world`'s rank holds of its lattice (comm/decomposition.h).
const gf::HostField& checked_layout(const Field& field, const char* what, int ndir,
                                    const gf::World& world);

// checked_layout, then every matrix in SU(N) within the tolerance of 64-bit data (the check of
// the file readers, check_in_su_n in io/field_checks.h): gf::Error "<what>: unitarity: links
// are not in SU(N): max deviation D > 1e-10 allowed for 64-bit data" otherwise. Collective.
const gf::HostField& checked_field(const Field& field, const char* what, int ndir,
                                   const gf::World& world);

// Throws gf::Error "option: <message of parse>" where parse throws one.
template <class F>
auto parse_option(const char* option, F parse) -> decltype(parse()) {
  try {
    return parse();
  } catch (const gf::Error& e) {
    throw gf::Error(std::string(option) + ": " + e.what());
  }
}

// Runs body; a gf::Error becomes gaugefix::Error "function: message".
template <class F>
auto guarded(const char* function, F body) -> decltype(body()) {
  try {
    return body();
  } catch (const gf::Error& e) {
    throw Error(std::string(function) + ": " + e.what());
  }
}

} // namespace gaugefix
