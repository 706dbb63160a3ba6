#include "app/history_file.h"
#include "io/atomic_file.h"
#include <fmt/format.h>

namespace gf {

const char history_columns[] = "iteration,phase,temperature,functional,theta,theta_max_slice,"
                               "det_deviation_mean,det_deviation_max,unitary_deviation_max,seconds";

void write_history(const std::string& path, const std::vector<HistoryRow>& rows) {
  write_file_atomically(path, [&](std::ostream& os) {
    os << history_columns << '\n';
    for (const HistoryRow& r : rows) // reals in the shortest form that reads back exactly
      os << fmt::format("{},{},{},{},{},{},{},{},{},{:.6f}\n", r.iteration, r.phase, r.temperature,
                        r.functional, r.theta, r.theta_max_slice, r.links.det_mean,
                        r.links.det_max, r.links.unitary_max, r.seconds);
  });
}

} // namespace gf
