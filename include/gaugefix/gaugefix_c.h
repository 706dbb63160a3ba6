/* gaugefix_c.h: the C API of libgaugefix (docs/api.md, "The C API"), for C, Fortran
 * (bind(c)) and other languages that call C. A thin layer over the C++ API of gaugefix.h:
 * the same functions, checks and results (a fix with the same options gives the same field,
 * bit for bit); the whole lattice in this process (no communicator).
 *
 * Handles are opaque: a gaugefix_field (gauge field or g(x)) and a gaugefix_fix_options are
 * made by the functions below and given back with their _free function (NULL is allowed).
 * Arrays: interleaved (re, im) doubles, natural order, slowest index first,
 * [t, z, y, x, mu, a, b] for a gauge field, [t, z, y, x, a, b] for g(x); extents
 * {Lx, Ly, Lz, Lt}.
 *
 * Errors: every function that can fail returns a gaugefix_status; GAUGEFIX_OK is 0. After a
 * failure gaugefix_last_error() gives the message of this thread's failed call, naming the
 * function, the option or file and the check that failed (as gaugefix::Error does); output
 * arguments are then left as they were. Fields must hold SU(N) matrices within 1e-10 (the
 * check of the file readers), unless the option reproject asks fix to project them. */
#ifndef GAUGEFIX_C_H
#define GAUGEFIX_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GAUGEFIX_C_API __attribute__((visibility("default")))

typedef enum gaugefix_status {
  GAUGEFIX_OK = 0,
  GAUGEFIX_ERROR = 1,         /* a bad argument, file or lattice, a missing device */
  GAUGEFIX_NULL_ARGUMENT = 2, /* a required handle or pointer is NULL */
  GAUGEFIX_OUT_OF_MEMORY = 3, /* an allocation failed */
} gaugefix_status;

/* The typed options of the C++ API (gaugefix/options.h), value for value. */
typedef enum gaugefix_gauge { GAUGEFIX_LANDAU, GAUGEFIX_COULOMB, GAUGEFIX_MAG } gaugefix_gauge;
typedef enum gaugefix_algorithm {
  GAUGEFIX_RELAXATION,
  GAUGEFIX_OVERRELAXATION,
  GAUGEFIX_STOCHASTIC,
  GAUGEFIX_FASD,
  GAUGEFIX_FACG
} gaugefix_algorithm;
typedef enum gaugefix_precision {
  GAUGEFIX_SINGLE,
  GAUGEFIX_MIXED,
  GAUGEFIX_DOUBLE
} gaugefix_precision;
typedef enum gaugefix_backend { GAUGEFIX_CPU, GAUGEFIX_CUDA } gaugefix_backend;
typedef enum gaugefix_tuning {
  GAUGEFIX_TUNING_FROM_ENVIRONMENT, /* $GAUGEFIX_TUNING, else on */
  GAUGEFIX_TUNING_OFF,
  GAUGEFIX_TUNING_CACHED,
  GAUGEFIX_TUNING_ON,
  GAUGEFIX_TUNING_FORCE
} gaugefix_tuning;
typedef enum gaugefix_exchange {
  GAUGEFIX_EXCHANGE_AUTO,
  GAUGEFIX_EXCHANGE_STAGED,
  GAUGEFIX_EXCHANGE_DIRECT,
  GAUGEFIX_EXCHANGE_PEER
} gaugefix_exchange;

typedef struct gaugefix_field gaugefix_field;
typedef struct gaugefix_fix_options gaugefix_fix_options;

/* The library's version, e.g. "0.1.0". */
GAUGEFIX_C_API const char* gaugefix_version(void);

/* The message of this thread's last failed call; "" when none failed. Valid until this
 * thread's next call of the API. */
GAUGEFIX_C_API const char* gaugefix_last_error(void);

/* Fields ------------------------------------------------------------------------------- */

/* Zeros: lattice {Lx, Ly, Lz, Lt}, SU(nc) (2 or 3), ndir = 4 (gauge field) or 1 (g(x)). */
GAUGEFIX_C_API gaugefix_status gaugefix_field_create(const int lattice[4], int nc, int ndir,
                                                     gaugefix_field** field);
GAUGEFIX_C_API void gaugefix_field_free(gaugefix_field* field);
GAUGEFIX_C_API void gaugefix_field_lattice(const gaugefix_field* field, int lattice[4]);
GAUGEFIX_C_API int gaugefix_field_nc(const gaugefix_field* field);
GAUGEFIX_C_API int gaugefix_field_ndir(const gaugefix_field* field);
/* Complex numbers held: Lt Lz Ly Lx ndir nc^2; the array has twice as many doubles. */
GAUGEFIX_C_API size_t gaugefix_field_size(const gaugefix_field* field);
GAUGEFIX_C_API double* gaugefix_field_data(gaugefix_field* field);

/* Reads a gauge field or g(x) file of any supported format (detected from the content) with
 * every check of `gaugefix info`. */
GAUGEFIX_C_API gaugefix_status gaugefix_read(const char* path, gaugefix_field** field);

/* Writes through a temporary file renamed when complete. format: as `gaugefix fix
 * --output-format` (nersc, nersc-2row, ildg, scidac, milc, openqcd, hdf5; g(x): lime, hdf5,
 * binary), NULL or "": from the extension; bits: 32 or 64 per real, 0: the format's default. */
GAUGEFIX_C_API gaugefix_status gaugefix_write(const char* path, const gaugefix_field* field,
                                              const char* format, int bits);

/* A Wilson-action field: a cold start, then `sweeps` heatbath sweeps at beta (as
 * gaugefix::generate with these options and the others at their defaults). */
GAUGEFIX_C_API gaugefix_status gaugefix_generate(const int lattice[4], int nc, double beta,
                                                 int sweeps, uint64_t seed, gaugefix_field** field);

/* Fixing ------------------------------------------------------------------------------- */

/* The options of gaugefix::FixOptions, at their defaults. */
GAUGEFIX_C_API gaugefix_status gaugefix_fix_options_create(gaugefix_fix_options** options);
GAUGEFIX_C_API void gaugefix_fix_options_free(gaugefix_fix_options* options);

/* Sets one option by its gaugefix::FixOptions name (gauge, algorithm, tolerance,
 * max_iterations, ...; docs/api.md lists them) from its text ("coulomb", "1e-12", "true";
 * the typed options by the names of the C++ API's name tables). An unknown name or a value
 * that does not parse whole is an error naming it; the value's range is checked by
 * gaugefix_fix. */
GAUGEFIX_C_API gaugefix_status gaugefix_fix_options_set(gaugefix_fix_options* options,
                                                        const char* name, const char* value);
/* The typed options by value; a value outside its enum is an error naming the option. */
GAUGEFIX_C_API gaugefix_status gaugefix_fix_options_set_gauge(gaugefix_fix_options* options,
                                                              gaugefix_gauge gauge);
GAUGEFIX_C_API gaugefix_status gaugefix_fix_options_set_algorithm(gaugefix_fix_options* options,
                                                                  gaugefix_algorithm algorithm);
GAUGEFIX_C_API gaugefix_status gaugefix_fix_options_set_precision(gaugefix_fix_options* options,
                                                                  gaugefix_precision precision);
GAUGEFIX_C_API gaugefix_status gaugefix_fix_options_set_backend(gaugefix_fix_options* options,
                                                                gaugefix_backend backend);
GAUGEFIX_C_API gaugefix_status gaugefix_fix_options_set_tuning(gaugefix_fix_options* options,
                                                               gaugefix_tuning tuning);
GAUGEFIX_C_API gaugefix_status gaugefix_fix_options_set_exchange(gaugefix_fix_options* options,
                                                                 gaugefix_exchange exchange);

typedef struct gaugefix_fix_result {
  int converged;   /* 1: theta < tolerance (Coulomb: every time slice's) */
  long iterations; /* sweeps of every phase */
  double seconds;
  double functional; /* F */
  double theta;
  double theta_max_slice; /* max over time slices of theta_t */
} gaugefix_fix_result;

/* Fixes `links` in place (unchanged where it fails). transform: NULL, or where g(x) goes (a
 * new field, U'_mu(x) = g(x) U_mu(x) g(x + mu)^dagger). options: NULL for the defaults. */
GAUGEFIX_C_API gaugefix_status gaugefix_fix(gaugefix_field* links,
                                            const gaugefix_fix_options* options,
                                            gaugefix_fix_result* result,
                                            gaugefix_field** transform);

/* F, theta and max_t theta_t of `links` for the gauge. */
GAUGEFIX_C_API gaugefix_status gaugefix_measure(const gaugefix_field* links, gaugefix_gauge gauge,
                                                double* functional, double* theta,
                                                double* theta_max_slice);

/* (1/6V) sum_x sum_{mu<nu} Re tr P_mu,nu(x) / N. */
GAUGEFIX_C_API gaugefix_status gaugefix_plaquette(const gaugefix_field* links, double* plaquette);

/* U_mu(x) <- g(x) U_mu(x) g(x + mu)^dagger, g drawn from (seed, site) as `gaugefix fix
 * --random-transform seed` draws it. */
GAUGEFIX_C_API gaugefix_status gaugefix_random_transform(gaugefix_field* links, uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif /* GAUGEFIX_C_H */
