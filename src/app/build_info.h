// build_info.h: what this gaugefix is and where it runs, for `gaugefix --version` and the
// run header of the log (docs/logs.md).
// - version_text: the version, the commit (git describe at build time), the build type and CPU
//   target, CUDA (its architectures) or not, the versions of MPI, HDF5 and FFTW, one per line,
//   and whether this process initialised MPI ("MPI start: not initialised (one process)", or
//   the launcher that made it, comm/mpi_launch.h);
// - build_line: the same on one line (the run header);
// - host_line: this node's host name and the number of OpenMP threads;
// - log_run_header: the header lines every command's log starts with: the command line, the
//   build, and one line per rank (host, device and its number on the node, the rank's part
//   of the lattice where given). Collective.
#pragma once
#include "comm/world.h"
#include "tuning/device_identity.h"
#include <string>

namespace gf {

std::string version_text();
std::string build_line();
std::string host_name();

// The device of a rank on its node: "GPU 1: NVIDIA H100 80GB HBM3 (compute capability 9.0, 132
// SMs, 79.1 GiB)" or "CPU: <model>".
std::string device_text(const DeviceIdentity& device, int node_rank);

// `device`: this rank's device ("cuda 0: NVIDIA H100 ...", "cpu: <model>, 16 threads", or ""
// for none); `part`: this rank's part of the lattice ("" for none).
void log_run_header(const World& world, const std::string& command_line, const std::string& device,
                    const std::string& part);

} // namespace gf
