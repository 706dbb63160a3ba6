#include "tuning/tune_report.h"
#include <cstdio>
#include <ostream>

namespace gf {

void print_tune_report(std::ostream& out, const TuneReport& r) {
  out << "tuning " << r.key.kernel << " [" << r.key.aux << "] " << r.key.extents << " "
      << r.key.region << ": " << r.bytes << " bytes, " << r.flops << " flop per call\n";
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    const CandidateTiming& c = r.candidates[i];
    char line[160];
    std::snprintf(line, sizeof line, "  %c %-58s %11.3f us %9.1f GB/s", c.finalist ? '*' : ' ',
                  format_launch_params(c.params).c_str(), c.seconds * 1e6, c.gb_per_s);
    out << line;
    if (c.stream_fraction >= 0) {
      std::snprintf(line, sizeof line, " %6.3f of stream", c.stream_fraction);
      out << line;
    }
    out << (i == r.winner ? "  <- winner\n" : "\n");
  }
}

} // namespace gf
