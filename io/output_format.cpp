#include "io/output_format.h"
#include "core/error.h"
#include <algorithm>
#include <cctype>
#include <filesystem>

namespace gf {

namespace {

struct Limits {
  FileFormat format;
  const char* name;
  bool su2, bits32, bits64;
};
constexpr Limits limits[] = {
    {FileFormat::nersc, "NERSC", true, true, true},
    {FileFormat::ildg, "ILDG", false, true, true},
    {FileFormat::scidac, "SciDAC", true, true, true},
    {FileFormat::milc, "MILC v5", false, true, false},
    {FileFormat::openqcd, "openQCD", false, false, true},
    {FileFormat::hdf5, "HDF5", true, true, true},
};

struct Extension {
  const char* ext;
  std::vector<FileFormat> formats;
};
const Extension extensions[] = {
    {".nersc", {FileFormat::nersc}},  {".lime", {FileFormat::ildg, FileFormat::scidac}},
    {".ildg", {FileFormat::ildg}},    {".scidac", {FileFormat::scidac}},
    {".milc", {FileFormat::milc}},    {".openqcd", {FileFormat::openqcd}},
    {".oqcd", {FileFormat::openqcd}}, {".h5", {FileFormat::hdf5}},
    {".hdf5", {FileFormat::hdf5}},
};

std::string extension_of(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ext;
}

} // namespace

std::string format_limit(FileFormat format, int nc, int bytes_per_real) {
  for (const Limits& l : limits) {
    if (l.format != format) continue;
    const std::string name = l.name;
    if (nc != 3 && !(nc == 2 && l.su2))
      return name + " files hold SU(" + (l.su2 ? "2) and SU(3" : "3") + ") fields only";
    if ((bytes_per_real == 4 && !l.bits32) || (bytes_per_real == 8 && !l.bits64))
      return name + " files hold " +
             (l.bits32 ? "single precision (32 bits)" : "double precision (64 bits)") + " only";
    return "";
  }
  return "unknown format";
}

std::vector<FileFormat> extension_formats(const std::string& path) {
  const std::string ext = extension_of(path);
  for (const Extension& e : extensions)
    if (ext == e.ext) return e.formats;
  return {};
}

FileFormat output_format(const std::string& option, const std::string& path,
                         const std::string& requested_option, std::optional<FileFormat> requested) {
  const std::vector<FileFormat> allowed = extension_formats(path);
  if (!requested) return allowed.empty() ? FileFormat::nersc : allowed.front();
  if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), *requested) == allowed.end()) {
    std::string names;
    for (const FileFormat a : allowed)
      names += std::string(names.empty() ? "" : " or ") + format_name(a);
    throw Error(option + " '" + path + "': the extension " + extension_of(path) + " means " +
                names + ", but " + requested_option + " asks for " + format_name(*requested) +
                ": rename the file or change " + requested_option);
  }
  return *requested;
}

} // namespace gf
