// hold_temporary FINAL: creates the temporary file of the output FINAL (io/temporary_file.h),
// writes into it, prints its path on stdout and waits for a signal. tests/cli_safety.sh stops
// it with SIGTERM or SIGINT (the file must be gone) or SIGKILL (the next writer of FINAL must
// remove the stale file).
#include "core/error.h"
#include "io/temporary_file.h"
#include <cstdio>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: hold_temporary FINAL\n");
    return 1;
  }
  try {
    gf::TemporaryFile tmp(argv[1]);
    if (::write(tmp.fd(), "partial output", 14) != 14) throw gf::Error("write failed");
    std::printf("%s\n", tmp.path().c_str());
    std::fflush(stdout);
    for (;;)
      ::pause();
  } catch (const gf::Error& e) {
    std::fprintf(stderr, "hold_temporary: %s\n", e.what());
    return 1;
  }
}
