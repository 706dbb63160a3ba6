// python_arrays.h: numpy arrays and gaugefix::Field. An array of a gauge field has the shape
// [t, z, y, x, mu, a, b] = (nt, Lz, Ly, Lx, 4, N, N), of a gauge transformation g(x)
// (nt, Lz, Ly, Lx, N, N), complex128, C order: the memory order of Field (gaugefix.h), so
// that a Field becomes an array without a copy. nt is L_t, or with a communicator the time
// slices of this rank (L_t = nt times the number of ranks).
#pragma once
#include "gaugefix/gaugefix.h"
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace gaugefix_python {

// None, an mpi4py communicator (its py2f()) or a Fortran handle (int).
gaugefix::Communicator communicator(const pybind11::object& comm);

// A copy of `array` (a complex array, converted to complex128) as a Field; `what` names the
// argument in the message of a gaugefix.Error for a shape that is neither or a dtype that is
// not complex (naming both). Whether the matrices are in SU(N) the library checks.
gaugefix::Field field_from_array(const pybind11::handle& array, const char* what,
                                 const gaugefix::Communicator& comm);

// The field's memory as an array that owns it.
pybind11::array array_from_field(gaugefix::Field&& field);

} // namespace gaugefix_python
