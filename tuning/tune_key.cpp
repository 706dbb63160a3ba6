#include "tuning/tune_key.h"
#include "core/error.h"
#include "gaugefix_build.h"

namespace gf {

void check_tune_key(const TuneKey& key) {
  const std::pair<const char*, const std::string*> fields[] = {{"kernel", &key.kernel},
                                                               {"aux", &key.aux},
                                                               {"extents", &key.extents},
                                                               {"region", &key.region}};
  for (const auto& [name, value] : fields)
    if (value->find_first_of("\t\r\n") != std::string::npos)
      throw Error(std::string("tune key: the ") + name + " '" + *value +
                  "' holds a tab or a line break");
  if (key.kernel.empty() || key.extents.empty())
    throw Error("tune key: the kernel and the extents must not be empty");
  if (key.region != "whole" && key.region != "interior" && key.region != "boundary")
    throw Error("tune key: region '" + key.region + "' (expected whole, interior or boundary)");
}

std::string full_key(const TuneContext& context, const TuneKey& key) {
  return "device " + context.device.to_string() + "\nversion " + context.version + "\nbuild " +
         context.build_options + "\nkernel " + key.kernel + "\naux " + key.aux + "\nextents " +
         key.extents + "\nregion " + key.region + "\n";
}

std::string build_options(bool cuda, const std::string& gpu_arch, const std::string& buildtype,
                          const std::string& cpu_arch) {
  return std::string("cuda=") + (cuda ? "on" : "off") + " gpu_arch=" + (cuda ? gpu_arch : "-") +
         " buildtype=" + buildtype + (cpu_arch.empty() ? "" : " cpu_arch=" + cpu_arch);
}

std::string compiled_build_options() {
  return build_options(GAUGEFIX_BUILD_CUDA, GAUGEFIX_BUILD_GPU_ARCH, GAUGEFIX_BUILD_TYPE,
                       GAUGEFIX_BUILD_CPU_ARCH);
}

} // namespace gf
