// engine.h: what the driver needs from a backend holding one field in the device layout.
// An Engine owns the links (and, optionally, the gauge transformation g(x)) of one
// rank's slab in the chosen precision and storage, and offers the four operations of
// Alg. 1: a sweep (even then odd half-sweep) of one update kind, the measurement of F and
// theta, reprojection to SU(N), and the download back to natural order.
// make_engine picks the backend, precision, group and gauge at run time; everything
// below it is compiled per combination (engine_impl.h).
#pragma once
#include "gauge/gauge_kind.h"
#include "lattice/host_field.h"
#include "update/update_kind.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gf {

enum class Precision { single, mixed, double_ };
Precision parse_precision(const std::string& name); // throws Error naming the bad value
const char* precision_name(Precision p);

enum class Backend { cpu, cuda };
Backend parse_backend(const std::string& name);
const char* backend_name(Backend b);
bool cuda_available(); // built with CUDA and a device present

struct EngineOptions {
  GaugeKind gauge = GaugeKind::landau;
  Precision precision = Precision::double_;
  Backend backend = Backend::cpu;
  bool compressed = true;        // 12 reals for SU(3), 4 for SU(2)
  bool track_transform = false;  // keep g(x)
  std::uint64_t seed = 1;
};

// Per-slice sums (local slices of this rank) in double; normalised by the driver.
struct SliceSums {
  std::vector<double> functional;
  std::vector<double> theta;
};

class Engine {
public:
  virtual ~Engine() = default;
  virtual void sweep(const UpdateParams& p, std::uint32_t sweep_index) = 0;
  virtual SliceSums measure() = 0;
  virtual void reproject() = 0;
  // Waits until all work issued so far is done (for timing).
  virtual void synchronize() = 0;
  // Writes the links (and g(x), if tracked and transform != nullptr) back in natural order.
  virtual void download(HostField& links, HostField* transform) const = 0;
};

std::unique_ptr<Engine> make_engine(const HostField& links, const EngineOptions& opt);

} // namespace gf
