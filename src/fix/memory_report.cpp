#include "fix/memory_report.h"
#include "core/log.h"

namespace gf {

void report_fourier_memory(std::int64_t own_bytes, std::int64_t device_used, std::int64_t sites) {
  const double own = double(own_bytes), n = double(sites);
  if (device_used < 0) {
    log::info("fourier: links, g(x) and the fix's arrays {:.3f} GB, {:.0f} bytes a site", own / 1e9,
              own / n);
    return;
  }
  log::info("fourier: links, g(x) and the fix's arrays {:.3f} GB, {:.0f} bytes a site; device "
            "memory in use {:.3f} GB, {:.0f} bytes a site",
            own / 1e9, own / n, double(device_used) / 1e9, double(device_used) / n);
}

} // namespace gf
