/* fix_field.c: libgaugefix called from C (docs/api.md, "The C API"). Generates a 4^4 SU(3)
 * field (5 heatbath sweeps at beta = 6), writes it as an ILDG file into DIR and reads it
 * back, moves it to a random point of its gauge orbit, fixes Landau gauge with g(x) and
 * prints the result, the gauge condition measured again on the fixed field and the plaquette
 * before and after (gauge invariant). Then an error: an option that does not exist, whose
 * message is printed. Exit status 0 when theta < tolerance, 3 when not, 1 on an error.
 * Built against an installed gaugefix with pkg-config alone:
 *   cc fix_field.c $(pkg-config --cflags --libs gaugefix) -o fix_field */
#include <gaugefix/gaugefix_c.h>
#include <stdio.h>

static int failed(const char* what) {
  fprintf(stderr, "fix_field: %s: %s\n", what, gaugefix_last_error());
  return 1;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fix_field DIR\n");
    return 1;
  }
  const int lattice[4] = {4, 4, 4, 4}; /* Lx, Ly, Lz, Lt */
  char path[4096];
  snprintf(path, sizeof path, "%s/field.lime", argv[1]);

  gaugefix_field* generated = NULL;
  if (gaugefix_generate(lattice, 3, 6.0, 5, 1, &generated) != GAUGEFIX_OK)
    return failed("generate");
  gaugefix_status s = gaugefix_write(path, generated, NULL, 64); /* ILDG, from the extension */
  gaugefix_field_free(generated);
  if (s != GAUGEFIX_OK) return failed("write");

  gaugefix_field* links = NULL;
  if (gaugefix_read(path, &links) != GAUGEFIX_OK) return failed("read");
  int l[4];
  gaugefix_field_lattice(links, l);
  printf("read %s: %dx%dx%dx%d, SU(%d), %zu complex numbers\n", path, l[0], l[1], l[2], l[3],
         gaugefix_field_nc(links), gaugefix_field_size(links));
  double plaquette_before = 0, plaquette_after = 0;
  if (gaugefix_random_transform(links, 7) != GAUGEFIX_OK ||
      gaugefix_plaquette(links, &plaquette_before) != GAUGEFIX_OK)
    return failed("random transform");

  gaugefix_fix_options* options = NULL;
  if (gaugefix_fix_options_create(&options) != GAUGEFIX_OK ||
      gaugefix_fix_options_set_gauge(options, GAUGEFIX_LANDAU) != GAUGEFIX_OK ||
      gaugefix_fix_options_set(options, "tolerance", "1e-12") != GAUGEFIX_OK)
    return failed("options");
  gaugefix_fix_result r;
  gaugefix_field* g = NULL;
  if (gaugefix_fix(links, options, &r, &g) != GAUGEFIX_OK) return failed("fix");
  double theta = 1;
  if (gaugefix_measure(links, GAUGEFIX_LANDAU, NULL, &theta, NULL) != GAUGEFIX_OK ||
      gaugefix_plaquette(links, &plaquette_after) != GAUGEFIX_OK)
    return failed("measure");

  printf("converged: %s\n", r.converged ? "true" : "false");
  printf("iterations: %ld\n", r.iterations);
  printf("functional: %.15f\n", r.functional);
  printf("theta: %.6e\n", r.theta);
  printf("theta measured: %.6e\n", theta);
  printf("plaquette before: %.15f\n", plaquette_before);
  printf("plaquette after: %.15f\n", plaquette_after);
  printf("g(x): %zu complex numbers\n", gaugefix_field_size(g));

  /* an error: the status, and the message naming the function and the option */
  s = gaugefix_fix_options_set(options, "tolerence", "1e-12");
  printf("misspelled option: status %d: %s\n", (int)s, gaugefix_last_error());

  gaugefix_field_free(g);
  gaugefix_field_free(links);
  gaugefix_fix_options_free(options);
  return r.converged && theta < 1e-12 && s == GAUGEFIX_ERROR ? 0 : 3;
}
