// error.h: the exception type gaugefix throws for user-facing failures (bad input,
// bad options, non-convergence). The command line catches it, prints what() and exits
// with a non-zero status; what() always names the file, option or check that failed.
#pragma once
#include <stdexcept>
#include <string>

namespace gf {

class Error : public std::runtime_error {
public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

} // namespace gf
