#include "python_arrays.h"
#include "device_arrays.h"
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

std::string shape_text(const std::vector<py::ssize_t>& shape) {
  std::string s = "(";
  for (std::size_t d = 0; d < shape.size(); ++d)
    s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

void check_layout(const std::vector<py::ssize_t>& shape, const std::string& dtype, bool complex,
                  const char* what) {
  const std::size_t nd = shape.size();
  const bool shaped =
      (nd == 7 && shape[4] == 4 && shape[5] == shape[6]) || (nd == 6 && shape[4] == shape[5]);
  const py::ssize_t nc = shaped ? shape[nd - 1] : 0;
  if (!shaped || (nc != 2 && nc != 3))
    throw gaugefix::Error(std::string(what) + ": shape " + shape_text(shape) +
                          " is neither a gauge field (nt, Lz, Ly, Lx, 4, N, N) nor a gauge "
                          "transformation (nt, Lz, Ly, Lx, N, N) with N = 2 or 3 (dtype " +
                          dtype + ")");
  if (!complex)
    throw gaugefix::Error(std::string(what) + ": dtype " + dtype + " of shape " +
                          shape_text(shape) +
                          " is not complex (SU(N) matrices need complex128 or complex64)");
}

gaugefix::Field field_from_array(const py::handle& array, const char* what,
                                 const gaugefix::Communicator& comm) {
  using carray = py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast>;
  const py::array given =
      is_device_array(array) ? host_copy(array, what) : py::array::ensure(array);
  if (!given) throw gaugefix::Error(std::string(what) + ": not convertible to an array");
  const std::vector<py::ssize_t> shape(given.shape(), given.shape() + given.ndim());
  check_layout(shape, py::str(given.dtype()).cast<std::string>(), given.dtype().kind() == 'c',
               what);
  const int nc = static_cast<int>(shape.back());
  const carray a = carray::ensure(given);
  const std::array<int, 4> lattice = {static_cast<int>(a.shape(3)), static_cast<int>(a.shape(2)),
                                      static_cast<int>(a.shape(1)),
                                      static_cast<int>(a.shape(0)) * comm.size()};
  gaugefix::Field f(lattice, nc, a.ndim() == 7 ? 4 : 1, comm);
  if (f.nt() != a.shape(0))
    throw gaugefix::Error(std::string(what) + ": " + std::to_string(a.shape(0)) +
                          " time slices, but this rank holds " + std::to_string(f.nt()));
  std::memcpy(f.data(), a.data(), f.size() * sizeof(std::complex<double>));
  return f;
}

std::vector<py::ssize_t> array_shape(const gaugefix::Field& field) {
  const std::array<int, 4> L = field.lattice();
  std::vector<py::ssize_t> shape = {field.nt(), L[2], L[1], L[0]};
  if (field.ndir() == 4) shape.push_back(4);
  shape.push_back(field.nc());
  shape.push_back(field.nc());
  return shape;
}

py::array array_from_field(gaugefix::Field&& field) {
  auto* owner = new gaugefix::Field(std::move(field));
  py::capsule free_owner(owner, [](void* p) { delete static_cast<gaugefix::Field*>(p); });
  return py::array_t<std::complex<double>>(array_shape(*owner), owner->data(), free_owner);
}

} // namespace gaugefix_python
