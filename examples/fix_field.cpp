// fix_field.cpp: libgaugefix called from a program of one's own (docs/api.md). Generates a
// 4^4 SU(3) field (5 heatbath sweeps at beta = 6), writes it as an ILDG file into DIR and
// reads it back, moves it to a random point of its gauge orbit, fixes Landau gauge with
// g(x), and prints the result, the gauge condition measured again on the fixed field and the
// plaquette before and after (gauge invariant). Exit status 0 when theta < tolerance, 3 when
// not, 1 on an error (its message names the function and the file or option).
// Built against an installed gaugefix with pkg-config alone:
//   c++ -std=c++17 fix_field.cpp $(pkg-config --cflags --libs gaugefix) -o fix_field
#include <cstdio>
#include <gaugefix/gaugefix.h>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fix_field DIR\n");
    return 1;
  }
  try {
    gaugefix::GenerateOptions gen;
    gen.lattice = {4, 4, 4, 4}; // Lx, Ly, Lz, Lt
    gen.beta = 6.0;
    gen.sweeps = 5;
    const std::string path = std::string(argv[1]) + "/field.lime";
    gaugefix::write(path, gaugefix::generate(gen)); // ILDG, from the extension

    gaugefix::FileInfo info;
    gaugefix::Field links = gaugefix::read(path, {}, &info);
    std::printf("read %s: %s, SU(%d), %d bits\n", path.c_str(), info.format.c_str(), info.nc,
                info.bits);
    gaugefix::random_transform(links, 7);
    const double plaquette_before = gaugefix::plaquette(links);

    gaugefix::FixOptions opt;
    opt.gauge = gaugefix::Gauge::landau;
    opt.tolerance = 1e-12;
    opt.transform = true; // g(x) in r.transform
    const gaugefix::FixResult r = gaugefix::fix(links, opt);
    const gaugefix::GaugeCondition check = gaugefix::measure(links, gaugefix::Gauge::landau);

    std::printf("converged: %s\n", r.converged ? "true" : "false");
    std::printf("iterations: %ld\n", r.iterations);
    std::printf("functional: %.15f\n", r.final.functional);
    std::printf("theta: %.6e\n", r.final.theta);
    std::printf("theta measured: %.6e\n", check.theta);
    std::printf("plaquette before: %.15f\n", plaquette_before);
    std::printf("plaquette after: %.15f\n", gaugefix::plaquette(links));
    std::printf("g(x): %zu complex numbers\n", r.transform.size());
    return r.converged && check.theta < opt.tolerance ? 0 : 3;
  } catch (const gaugefix::Error& e) {
    std::fprintf(stderr, "fix_field: %s\n", e.what());
    return 1;
  }
}
