// default_params.h: the launch parameters a kernel uses when it is not tuned (TuneMode off,
// or cached without an entry), per compute capability, kernel, precision and storage.
// default_params_table is plain data, regenerated from tuning runs: `gaugefix tune` prints
// one default_table_row line per tuned kernel, to be pasted into default_params.cpp.
// A row's kernel is either a full kernel name ("sweep.landau.overrelaxation") or its family,
// the part before the first '.' ("sweep"); precision is the value of the key's "prec=" aux
// field ("single", "mixed", "double"); storage that of its "storage=" field ("8", "12", "18"),
// or "" for any (some variants exist for one storage only). default_launch_params picks the
// row of the device's compute capability (10 * major + minor), the key's precision and
// storage whose kernel is the key's kernel, else its family, else returns
// generic_launch_params (one thread per site, blocks of 128: what the CUDA backend launches
// without a tuner). A row may name a device model (device_model: "H200" of "NVIDIA H200"):
// devices of that model take its rows before the rows of their compute capability that name
// none (GPUs of one architecture differ: the H200 has 1.4 times the H100's bandwidth and the
// same SMs, and other launches win on it).
#pragma once
#include "tuning/device_identity.h"
#include "tuning/launch_params.h"
#include "tuning/tune_key.h"
#include <span>
#include <string>

namespace gf {

struct DefaultParamsRow {
  int cc; // 10 * major + minor, e.g. 90
  const char* kernel;
  const char* precision;
  const char* storage;    // "" for any
  const char* params;     // format_launch_params
  const char* model = ""; // device_model of the device the row is for; "" for any of cc
};

// The model in a device's name: the word after the vendor ("NVIDIA H100 80GB HBM3": "H100"),
// else the name's first word.
std::string device_model(const std::string& name);

std::span<const DefaultParamsRow> default_params_table();
LaunchParams generic_launch_params();
LaunchParams default_launch_params(std::span<const DefaultParamsRow> table,
                                   const DeviceIdentity& device, const TuneKey& key);
LaunchParams default_launch_params(const DeviceIdentity& device, const TuneKey& key);
// "    {90, \"sweep.landau.overrelaxation\", \"single\", \"12\", \"variant=... loads=cache\",
// \"H200\"},"
std::string default_table_row(const DeviceIdentity& device, const TuneKey& key,
                              const LaunchParams& params);

} // namespace gf
