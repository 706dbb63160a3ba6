// options.h: the typed option values of libgaugefix (gaugefix.h, docs/api.md) and their
// names, included by gaugefix.h; gaugefix::Error, which every function of the API throws.
//
// Each enum has one name table (src/core/option_names.cpp), shared by the `gaugefix` command,
// the C++ API, the C API and the Python module: to_string gives the name an option spells
// ("landau", "double", "auto"), parse_<enum>(name, option) the value a name spells, and for
// any other name throws gaugefix::Error naming the option, the value and the names accepted:
// "gauge: unknown gauge 'landua' (expected landau, coulomb or mag; did you mean landau?)".
#pragma once
#include <stdexcept>
#include <string>

#define GAUGEFIX_API __attribute__((visibility("default")))

namespace gaugefix {

class GAUGEFIX_API Error : public std::runtime_error {
public:
  explicit Error(const std::string& what);
  ~Error() override;
};

enum class Gauge { landau, coulomb, mag };
// relaxation | overrelaxation | stochastic, or Fourier-accelerated fasd | facg (docs/fourier.md)
enum class Algorithm { relaxation, overrelaxation, stochastic, fasd, facg };
enum class Precision { single, mixed, double_ }; // double_: "double"
enum class Backend { cpu, cuda };
// from_environment (""): $GAUGEFIX_TUNING, else on (docs/tuning.md)
enum class Tuning { from_environment, off, cached, on, force };
enum class Exchange {
  automatic,
  staged,
  direct,
  peer
}; // halo path between GPUs; automatic: "auto"
// The real type of the Fourier preconditioner's transforms (fasd, facg): automatic ("auto"),
// the fix's own (single in a single fix, else double); single in a double or mixed fix holds
// the transforms and their transposes in float (docs/fourier.md).
enum class PreconditionerPrecision { automatic, single, double_ };
enum class Group { su2, su3 };
enum class Start { cold, hot, smooth };       // of a generated field
enum class Cut { psq, hypercubic, cylinder }; // momentum cut of a propagator

GAUGEFIX_API const char* to_string(Gauge value);
GAUGEFIX_API const char* to_string(Algorithm value);
GAUGEFIX_API const char* to_string(Precision value);
GAUGEFIX_API const char* to_string(Backend value);
GAUGEFIX_API const char* to_string(Tuning value);
GAUGEFIX_API const char* to_string(Exchange value);
GAUGEFIX_API const char* to_string(PreconditionerPrecision value);
GAUGEFIX_API const char* to_string(Group value);
GAUGEFIX_API const char* to_string(Start value);
GAUGEFIX_API const char* to_string(Cut value);

GAUGEFIX_API Gauge parse_gauge(const std::string& name, const std::string& option = "gauge");
GAUGEFIX_API Algorithm parse_algorithm(const std::string& name,
                                       const std::string& option = "algorithm");
GAUGEFIX_API Precision parse_precision(const std::string& name,
                                       const std::string& option = "precision");
GAUGEFIX_API Backend parse_backend(const std::string& name, const std::string& option = "backend");
GAUGEFIX_API Tuning parse_tuning(const std::string& name, const std::string& option = "tuning");
GAUGEFIX_API Exchange parse_exchange(const std::string& name,
                                     const std::string& option = "exchange");
GAUGEFIX_API PreconditionerPrecision parse_preconditioner_precision(
    const std::string& name, const std::string& option = "preconditioner_precision");
GAUGEFIX_API Group parse_group(const std::string& name, const std::string& option = "group");
GAUGEFIX_API Start parse_start(const std::string& name, const std::string& option = "start");
GAUGEFIX_API Cut parse_cut(const std::string& name, const std::string& option = "cut");

} // namespace gaugefix
