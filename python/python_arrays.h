// python_arrays.h: numpy arrays and gaugefix::Field. An array of a gauge field has the shape
// [t, z, y, x, mu, a, b] = (nt, Lz, Ly, Lx, 4, N, N), of a gauge transformation g(x)
// (nt, Lz, Ly, Lx, N, N), complex128, C order: the memory order of Field (gaugefix.h), so
// that a Field becomes an array without a copy. nt is L_t, or with a communicator the time
// slices of this rank (L_t = nt times the number of ranks). An object with
// __cuda_array_interface__ (device_arrays.h) is copied to the host first, then read as a numpy
// array of the same shape, dtype and strides.
#pragma once
#include "gaugefix/gaugefix.h"
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <string>
#include <vector>

namespace gaugefix_python {

// None, an mpi4py communicator (its py2f()) or a Fortran handle (int).
gaugefix::Communicator communicator(const pybind11::object& comm);

// Throws gaugefix.Error naming `what`, the shape and the dtype unless `shape` is a gauge field's
// or a g(x)'s with N = 2 or 3 and the dtype is complex.
void check_layout(const std::vector<pybind11::ssize_t>& shape, const std::string& dtype,
                  bool complex, const char* what);

// A copy of `array` (a complex array, converted to complex128, or a device array) as a Field;
// `what` names the argument in the message of a gaugefix.Error for a shape that is neither or
// a dtype that is not complex (naming both). Whether the matrices are in SU(N) the library
// checks.
gaugefix::Field field_from_array(const pybind11::handle& array, const char* what,
                                 const gaugefix::Communicator& comm);

// The shape of the field's array.
std::vector<pybind11::ssize_t> array_shape(const gaugefix::Field& field);

// The field's memory as an array that owns it.
pybind11::array array_from_field(gaugefix::Field&& field);

} // namespace gaugefix_python
