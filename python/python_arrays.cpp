#include "python_arrays.h"
#include <complex>
#include <cstring>
#include <string>
#include <vector>

namespace py = pybind11;

namespace gaugefix_python {

gaugefix::Communicator communicator(const py::object& comm) {
  if (comm.is_none()) return {};
  if (py::isinstance<py::int_>(comm)) return gaugefix::Communicator::from_fortran(comm.cast<int>());
  if (py::hasattr(comm, "py2f"))
    return gaugefix::Communicator::from_fortran(comm.attr("py2f")().cast<int>());
  throw py::type_error("comm must be None, an mpi4py communicator or a Fortran handle (int)");
}

namespace {

std::string shape_text(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t d = 0; d < a.ndim(); ++d)
    s += (d ? ", " : "") + std::to_string(a.shape(d));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

} // namespace

gaugefix::Field field_from_array(const py::handle& array, const char* what,
                                 const gaugefix::Communicator& comm) {
  using carray = py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast>;
  const py::array given = py::array::ensure(array);
  if (!given) throw gaugefix::Error(std::string(what) + ": not convertible to an array");
  const std::string dtype = py::str(given.dtype()).cast<std::string>();
  const py::ssize_t nd = given.ndim();
  const bool shaped = (nd == 7 && given.shape(4) == 4 && given.shape(5) == given.shape(6)) ||
                      (nd == 6 && given.shape(4) == given.shape(5));
  const int nc = shaped ? static_cast<int>(given.shape(nd - 1)) : 0;
  if (!shaped || (nc != 2 && nc != 3))
    throw gaugefix::Error(std::string(what) + ": shape " + shape_text(given) +
                          " is neither a gauge field (nt, Lz, Ly, Lx, 4, N, N) nor a gauge "
                          "transformation (nt, Lz, Ly, Lx, N, N) with N = 2 or 3 (dtype " +
                          dtype + ")");
  if (given.dtype().kind() != 'c')
    throw gaugefix::Error(std::string(what) + ": dtype " + dtype + " of shape " +
                          shape_text(given) +
                          " is not complex (SU(N) matrices need complex128 or complex64)");
  const carray a = carray::ensure(given);
  const std::array<int, 4> lattice = {static_cast<int>(a.shape(3)), static_cast<int>(a.shape(2)),
                                      static_cast<int>(a.shape(1)),
                                      static_cast<int>(a.shape(0)) * comm.size()};
  gaugefix::Field f(lattice, nc, nd == 7 ? 4 : 1, comm);
  if (f.nt() != a.shape(0))
    throw gaugefix::Error(std::string(what) + ": " + std::to_string(a.shape(0)) +
                          " time slices, but this rank holds " + std::to_string(f.nt()));
  std::memcpy(f.data(), a.data(), f.size() * sizeof(std::complex<double>));
  return f;
}

py::array array_from_field(gaugefix::Field&& field) {
  auto* owner = new gaugefix::Field(std::move(field));
  py::capsule free_owner(owner, [](void* p) { delete static_cast<gaugefix::Field*>(p); });
  const std::array<int, 4> L = owner->lattice();
  std::vector<py::ssize_t> shape = {owner->nt(), L[2], L[1], L[0]};
  if (owner->ndir() == 4) shape.push_back(4);
  shape.push_back(owner->nc());
  shape.push_back(owner->nc());
  return py::array_t<std::complex<double>>(shape, owner->data(), free_owner);
}

} // namespace gaugefix_python
