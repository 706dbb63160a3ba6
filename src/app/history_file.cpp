#include "app/history_file.h"
#include "io/atomic_file.h"
#include <cstdio>

namespace gf {

const char history_columns[] = "iteration,phase,temperature,functional,theta,theta_max_slice,"
                               "det_deviation_mean,det_deviation_max,unitary_deviation_max,seconds";

void write_history(const std::string& path, const std::vector<HistoryRow>& rows) {
  write_file_atomically(path, [&](std::ostream& os) {
    os << history_columns << '\n';
    char line[512];
    for (const HistoryRow& r : rows) {
      std::snprintf(line, sizeof line, "%ld,%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.6f\n",
                    r.iteration, r.phase.c_str(), r.temperature, r.functional, r.theta,
                    r.theta_max_slice, r.links.det_mean, r.links.det_max, r.links.unitary_max,
                    r.seconds);
      os << line;
    }
  });
}

} // namespace gf
