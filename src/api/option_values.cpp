#include "api/option_values.h"
#include "api/api_internal.h"

namespace gaugefix {

void require(bool ok, const std::string& message) {
  if (!ok) throw gf::Error(message);
}

void require_at_least(const char* option, long long value, long long least) {
  require(value >= least, std::string(option) + " must be at least " + std::to_string(least) +
                              " (got " + std::to_string(value) + ")");
}

gf::Storage storage_option(int reals, int nc) {
  require(reals == 8 || reals == 12 || reals == 18,
          "storage must be 8, 12 or 18 reals per SU(3) link (got " + std::to_string(reals) + ")");
  const gf::Storage s = gf::parse_storage(reals);
  require(s != gf::Storage::params8 || nc == 3, "storage 8 holds SU(3) links only; SU(" +
                                                    std::to_string(nc) +
                                                    ") links take storage 12 or 18");
  return s;
}

} // namespace gaugefix
