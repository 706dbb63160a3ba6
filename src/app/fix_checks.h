// fix_checks.h: what `gaugefix fix` checks before any sweep, so that a run that cannot
// complete is refused (gf::Error naming the option and file: exit status 1) before it has
// spent any time. The output paths themselves are checked by check_run_paths (path_checks.h).
// check_fix_options, before anything is read (opt.given: the options given):
// - --copies at least 1, --copy-tolerance not negative;
// - options that cannot both apply: --input with --generate, --lattice or --group (the
//   field, its lattice and group are the file's); --output-format or --output-bits without
//   --output; --transform-format without --transform-output; --checkpoint-interval or
//   --stop-after-iterations without --output (the checkpoint is named after it);
// - the output format: --output's extension against --output-format (output_format.h:
//   .h5 and .hdf5 mean hdf5, .lime ildg or scidac, ...); without --output-format the
//   extension's format (else nersc) is taken. --output-bits defaults to 32 for milc, else 64.
//   Likewise --transform-output's .h5/.hdf5 means --transform-format hdf5, .lime/.ildg/.scidac
//   lime (else binary).
// Resolves opt.output_format, opt.output_bits and opt.transform_format accordingly.
// check_output_holds, once the field exists (read or generated), before the engine is built:
// the output format holds the field's group SU(nc) in opt.output_bits (format_limit); `input`
// ("" for a generated field) names the field in the message.
#pragma once
#include "app/fix_options.h"

namespace gf {

void check_fix_options(FixCommandOptions& opt);
void check_output_holds(const FixCommandOptions& opt, int nc, const std::string& input);

} // namespace gf
