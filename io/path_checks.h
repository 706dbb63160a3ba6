// path_checks.h: the checks that keep a run from writing over a file it must not touch,
// made before anything is read or computed.
// - same_file(a, b): a and b name one file: the same device and inode where both exist
//   (symbolic and hard links), else the same path after resolving ".", ".." and symbolic
//   links as far as the path exists.
// - check_replaceable(what, path): path is absent or a regular file (also through symbolic
//   links); a directory, device, FIFO or socket is never replaced. `what` (an option name
//   or "output file") starts the message.
// - check_output_path(output, inputs): check_replaceable, check_name_lengths (the name and
//   its temporary name fit the system's limits: temporary_name.h), and output is none of
//   the inputs.
// - check_run_paths(inputs, outputs): every output is non-empty, replaceable, within the
//   length limits (check_name_lengths), in an existing directory this process may write to,
//   and is neither an input nor another output. Inputs with an empty path are skipped (an
//   absent optional input).
// Every failure throws gf::Error naming the option(s) and the file(s).
#pragma once
#include <string>
#include <vector>

namespace gf {

struct NamedPath {
  std::string option; // "--output", "--summary", ...
  std::string path;
};

bool same_file(const std::string& a, const std::string& b);
void check_replaceable(const std::string& what, const std::string& path);
void check_output_path(const std::string& output, const std::vector<std::string>& inputs);
void check_run_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

} // namespace gf
