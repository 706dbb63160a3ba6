// The fields of the C API (include/gaugefix/gaugefix_c.h): handles holding a gaugefix::Field,
// reading, writing and generating through the C++ API, and the last error message.
#include "api/c_fields.h"
#include "api/c_status.h"
#include <new>

using gaugefix::c_api::c_call;
using gaugefix::c_api::c_require_pointer;

namespace gaugefix::c_api {

namespace {
thread_local std::string last_error;
}

void set_last_error(const std::string& message) {
  last_error = message;
}

} // namespace gaugefix::c_api

extern "C" {

const char* gaugefix_version(void) {
  return gaugefix::version();
}

const char* gaugefix_last_error(void) {
  return gaugefix::c_api::last_error.c_str();
}

gaugefix_status gaugefix_field_create(const int lattice[4], int nc, int ndir,
                                      gaugefix_field** field) {
  return c_call("gaugefix_field_create", [&] {
    c_require_pointer(lattice, "gaugefix_field_create", "lattice");
    c_require_pointer(field, "gaugefix_field_create", "field");
    auto* f = new gaugefix_field{
        gaugefix::Field({lattice[0], lattice[1], lattice[2], lattice[3]}, nc, ndir)};
    *field = f;
  });
}

void gaugefix_field_free(gaugefix_field* field) {
  delete field;
}

void gaugefix_field_lattice(const gaugefix_field* field, int lattice[4]) {
  const auto l = field->field.lattice();
  for (int i = 0; i < 4; ++i)
    lattice[i] = l[i];
}

int gaugefix_field_nc(const gaugefix_field* field) {
  return field->field.nc();
}

int gaugefix_field_ndir(const gaugefix_field* field) {
  return field->field.ndir();
}

size_t gaugefix_field_size(const gaugefix_field* field) {
  return field->field.size();
}

double* gaugefix_field_data(gaugefix_field* field) {
  return reinterpret_cast<double*>(field->field.data()); // std::complex<double>: re, im
}

gaugefix_status gaugefix_read(const char* path, gaugefix_field** field) {
  return c_call("gaugefix_read", [&] {
    c_require_pointer(path, "gaugefix_read", "path");
    c_require_pointer(field, "gaugefix_read", "field");
    *field = new gaugefix_field{gaugefix::read(path)};
  });
}

gaugefix_status gaugefix_write(const char* path, const gaugefix_field* field, const char* format,
                               int bits) {
  return c_call("gaugefix_write", [&] {
    c_require_pointer(path, "gaugefix_write", "path");
    c_require_pointer(field, "gaugefix_write", "field");
    gaugefix::WriteOptions o;
    o.format = format != nullptr ? format : "";
    o.bits = bits;
    gaugefix::write(path, field->field, o);
  });
}

gaugefix_status gaugefix_generate(const int lattice[4], int nc, double beta, int sweeps,
                                  uint64_t seed, gaugefix_field** field) {
  return c_call("gaugefix_generate", [&] {
    c_require_pointer(lattice, "gaugefix_generate", "lattice");
    c_require_pointer(field, "gaugefix_generate", "field");
    gaugefix::GenerateOptions o;
    o.lattice = {lattice[0], lattice[1], lattice[2], lattice[3]};
    if (nc == 2)
      o.group = gaugefix::Group::su2;
    else if (nc != 3)
      throw gaugefix::Error("nc must be 2 or 3 (got " + std::to_string(nc) + ")");
    o.beta = beta;
    o.sweeps = sweeps;
    o.seed = seed;
    *field = new gaugefix_field{gaugefix::generate(o)};
  });
}

} // extern "C"
