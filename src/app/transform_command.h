// transform_command.h: `gaugefix transform --transform G IN OUT [--format F] [--precision
// 32|64] [--checksum-warning-only]`: applies a stored gauge transformation g(x) (G: a g(x)
// file of any format, transform_file.h) to another gauge field IN of the same lattice and
// group (any format), U'_mu(x) = g(x) U_mu(x) g(x + mu)^dagger, and writes OUT, e.g. a
// smeared copy of a configuration rotated into the gauge found for the configuration.
// OUT's format and precision are chosen as by `convert` (convert_command.h); OUT carries
// IN's ensemble but no gauge-fixing record (the result's gauge condition is not known),
// and names G and IN (metadata transform, input) where the format has room. OUT must be
// neither G nor IN, and appears complete or not at all (path_checks.h, parallel_file.h).
// Every rank handles its slab (fix/random_transform.h: apply_gauge_transform).
// Bad options or files throw gf::Error naming them (exit status 1).
#pragma once
#include "app/log_options.h"
#include "comm/world.h"
#include "lattice/host_field.h"
#include <CLI/CLI.hpp>
#include <string>

namespace gf {

struct TransformCommandOptions {
  std::string transform; // g(x)
  std::string input;
  std::string output;
  std::string format;    // empty: from the output's extension
  int output_bits = 0;   // 32, 64 or 0: the input's where the format holds it
  std::string precision; // "32" or "64": the deprecated name of output_bits (output_bits.h)
  bool checksum_warning_only = false;
  bool force = false; // apply a g(x) recorded for an input of another checksum
  LogOptions log;
};

void add_transform_options(CLI::App& transform, TransformCommandOptions& opt);
int run_transform(const TransformCommandOptions& opt, const World& world);

} // namespace gf
