// ghost_cg_cuda.cu: the ghost propagator's conjugate gradient on the GPU (ghost_cg.h,
// GhostCg<CudaExec>) and its timing, on the GPU of this rank's node rank.
#include "backend/cuda_exec.cuh"
#include "fix/engine_instances.h"
#include "measure/chunk_sums_cuda.cuh"
#include "measure/ghost_cg.h"

namespace gf {

std::vector<GhostPoint> ghost_points_cuda(const FaddeevPopov& m,
                                          const std::vector<Momentum>& momenta, double tolerance,
                                          int max_iterations, const GhostProgress& progress,
                                          int solvers) {
  select_cuda_device(m.world().node_rank());
  return ghost_points<CudaExec>(m, momenta, tolerance, max_iterations, progress, solvers);
}

std::vector<double> time_ghost_cg_cuda(const FaddeevPopov& m, const std::vector<double>& b,
                                       int iterations, int repetitions, int solvers) {
  select_cuda_device(m.world().node_rank());
  return time_ghost_cg<CudaExec>(m, b, iterations, repetitions, solvers);
}

} // namespace gf
