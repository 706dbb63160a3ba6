#include "app/build_info.h"
#include "comm/mpi_launch.h"
#include "core/log.h"
#include "fix/engine_instances.h"
#include "gaugefix_build.h"
#include "gaugefix_commit.h"
#include "gaugefix_version.h"
#include <fftw3.h>
#include <hdf5.h>
#include <omp.h>
#include <unistd.h>

namespace gf {

namespace {

std::string mpi_library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string s(text, static_cast<std::size_t>(length));
  return s.substr(0, s.find_first_of(",\n")); // "Open MPI v4.1.4"
}

std::string mpi_start() {
  if (!mpi_initialised()) return "not initialised (one process)";
  return fmt::format("initialised (launcher: {}), {} rank(s)", mpi_launcher(), World().size());
}

std::string hdf5_library() {
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  return fmt::format("{}.{}.{}", major, minor, release);
}

std::string cuda_text() {
  if (!GAUGEFIX_BUILD_CUDA) return "no";
  return fmt::format("yes (architectures {})", GAUGEFIX_BUILD_GPU_ARCH);
}

std::string build_type() {
  const std::string arch = GAUGEFIX_BUILD_CPU_ARCH;
  return fmt::format("{}, CPU target {}", GAUGEFIX_BUILD_TYPE,
                     arch.empty() ? "the compiler's default" : "-march=" + arch);
}

} // namespace

std::string version_text() {
  return fmt::format("gaugefix {}\n"
                     "commit: {}\n"
                     "build: {}\n"
                     "CUDA: {}\n"
                     "MPI: {}\n"
                     "MPI start: {}\n"
                     "HDF5: {}\n"
                     "FFTW: {}\n",
                     GAUGEFIX_VERSION, GAUGEFIX_COMMIT, build_type(), cuda_text(), mpi_library(),
                     mpi_start(), hdf5_library(), fftw_version);
}

std::string build_line() {
  return fmt::format("gaugefix {} (commit {}), {}, CUDA {}, {}, HDF5 {}", GAUGEFIX_VERSION,
                     GAUGEFIX_COMMIT, build_type(), cuda_text(), mpi_library(), hdf5_library());
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string device_text(const DeviceIdentity& d, int node_rank) {
  if (d.backend != "cuda") return "CPU: " + d.name;
  int gpu = node_rank;
#ifdef GAUGEFIX_HAVE_CUDA
  if (const int n = cuda_device_count(); n > 0) gpu = node_rank % n;
#endif
  return fmt::format("GPU {}: {} (compute capability {}.{}, {} SMs, {:.1f} GiB)", gpu, d.name,
                     d.cc_major, d.cc_minor, d.sm_count, double(d.memory_bytes) / (1 << 30));
}

void log_run_header(const World& world, const std::string& command_line, const std::string& device,
                    const std::string& part) {
  std::string mine = fmt::format("host {}, {} OpenMP threads", host_name(), omp_get_max_threads());
  if (!device.empty()) mine += ", device " + device;
  if (!part.empty()) mine += ", " + part;
  const std::vector<std::string> ranks = world.gather_strings(mine);
  log::info("# {}", command_line);
  log::info("# build: {}", build_line());
  for (std::size_t r = 0; r < ranks.size(); ++r)
    log::info("# rank {} of {}: {}", r, ranks.size(), ranks[r]);
}

} // namespace gf
