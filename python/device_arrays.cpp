#include "device_arrays.h"
#include "gaugefix/device_memory.h"
#include "python_arrays.h"
#include <complex>
#include <cstdint>
#include <pybind11/stl.h>
#include <string>
#include <vector>

namespace py = pybind11;

namespace gaugefix_python {

namespace {

constexpr const char* interface = "__cuda_array_interface__";

[[noreturn]] void refuse(const char* what, const std::string& why) {
  throw gaugefix::Error(std::string(what) + ": " + why);
}

py::dict interface_of(const py::handle& object, const char* what) {
  if (!gaugefix::built_with_cuda())
    refuse(what, "an array in CUDA device memory (__cuda_array_interface__), but this gaugefix "
                 "was built without CUDA (-Dcuda=enabled): pass a numpy array (cupy.asnumpy(a), "
                 "tensor.cpu().numpy())");
  const py::object d = object.attr(interface);
  if (!py::isinstance<py::dict>(d)) refuse(what, "__cuda_array_interface__ is not a dict");
  const py::dict cai = d.cast<py::dict>();
  for (const char* key : {"shape", "typestr", "data", "version"})
    if (!cai.contains(key))
      refuse(what, std::string("__cuda_array_interface__ has no '") + key + "'");
  const int version = cai["version"].cast<int>();
  if (version != 2 && version != 3)
    refuse(what, "__cuda_array_interface__ version " + std::to_string(version) +
                     " (versions 2 and 3 are read)");
  if (cai.contains("mask") && !cai["mask"].is_none())
    refuse(what, "a masked device array (__cuda_array_interface__ mask) is not accepted");
  return cai;
}

// The stream to wait for: 0 for none.
std::uintptr_t stream_of(const py::dict& cai, const char* what) {
  if (!cai.contains("stream") || cai["stream"].is_none()) return 0;
  const auto stream = cai["stream"].cast<std::uintptr_t>();
  if (stream == 0)
    refuse(what, "__cuda_array_interface__ stream 0 is not allowed by the interface (None: no "
                 "synchronisation; 1: the legacy default stream; 2: the per-thread one)");
  return stream;
}

class DeviceArray {
public:
  DeviceArray(const gaugefix::Field& field, int device)
      : shape_(array_shape(field)), device_(device),
        bytes_(field.size() * sizeof(std::complex<double>)),
        data_(gaugefix::device_allocate(bytes_, device)) {
    try {
      gaugefix::copy_to_device(data_, field.data(), bytes_);
    } catch (...) {
      gaugefix::device_free(data_);
      throw;
    }
  }
  ~DeviceArray() { gaugefix::device_free(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  py::dict cuda_array_interface() const {
    py::dict d;
    d["shape"] = shape();
    d["typestr"] = "<c16";
    d["descr"] = py::list(py::make_tuple(py::make_tuple("", "<c16")));
    d["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(data_), false);
    d["strides"] = py::none();
    d["stream"] = py::none();
    d["version"] = 3;
    return d;
  }
  py::tuple shape() const { return py::tuple(py::cast(shape_)); }
  int device() const { return device_; }
  py::array copy_to_host() const {
    py::array_t<std::complex<double>> host(shape_);
    gaugefix::copy_from_device(host.mutable_data(), data_, bytes_, 0);
    return host;
  }

private:
  std::vector<py::ssize_t> shape_;
  int device_;
  std::size_t bytes_;
  void* data_;
};

} // namespace

bool is_device_array(const py::handle& object) {
  return py::hasattr(object, interface);
}

py::array host_copy(const py::handle& object, const char* what) {
  const py::dict cai = interface_of(object, what);
  const auto shape = cai["shape"].cast<std::vector<py::ssize_t>>();
  const auto typestr = cai["typestr"].cast<std::string>();
  check_layout(shape, typestr, typestr == "<c16" || typestr == "<c8", what);
  const py::dtype dtype(typestr);
  const auto item = static_cast<py::ssize_t>(dtype.itemsize());
  std::vector<py::ssize_t> strides(shape.size());
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    strides = cai["strides"].cast<std::vector<py::ssize_t>>();
    if (strides.size() != shape.size())
      refuse(what, "__cuda_array_interface__ has " + std::to_string(strides.size()) +
                       " strides for " + std::to_string(shape.size()) + " dimensions");
  } else {
    py::ssize_t step = item;
    for (std::size_t d = shape.size(); d-- > 0;) {
      strides[d] = step;
      step *= shape[d];
    }
  }
  // The bytes the array spans: from its lowest to its highest element.
  py::ssize_t low = 0, high = 0, elements = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    elements *= shape[d];
    (strides[d] < 0 ? low : high) += (shape[d] - 1) * strides[d];
  }
  const py::tuple data = cai["data"].cast<py::tuple>();
  const auto pointer = data[0].cast<std::uintptr_t>();
  const std::uintptr_t stream = stream_of(cai, what);
  const py::ssize_t span = elements == 0 ? 0 : high - low + item;
  py::array_t<std::uint8_t> bytes(span);
  if (span > 0) {
    if (pointer == 0) refuse(what, "__cuda_array_interface__ data pointer is null");
    try {
      gaugefix::copy_from_device(bytes.mutable_data(), reinterpret_cast<const void*>(pointer + low),
                                 span, stream);
    } catch (const gaugefix::Error& e) {
      refuse(what, e.what());
    }
  }
  return py::array(dtype, shape, strides, bytes.data() - low, bytes);
}

int output_device(bool device_output, const py::handle& input, const char* function) {
  if (!device_output) return -1;
  if (!gaugefix::built_with_cuda())
    refuse(function, "device_output=True, but this gaugefix was built without CUDA "
                     "(-Dcuda=enabled)");
  if (input.is_none() || !is_device_array(input)) return 0;
  const py::tuple data = input.attr(interface)["data"].cast<py::tuple>();
  try {
    return gaugefix::device_of(reinterpret_cast<const void*>(data[0].cast<std::uintptr_t>()));
  } catch (const gaugefix::Error& e) {
    refuse(function, std::string("links: ") + e.what());
  }
}

py::object returned(gaugefix::Field&& field, int device) {
  if (device < 0) return array_from_field(std::move(field));
  return py::cast(std::make_unique<DeviceArray>(field, device));
}

void register_device_array(py::module_& m) {
  py::class_<DeviceArray>(m, "DeviceArray",
                          "a field in CUDA device memory that this object owns (device_output="
                          "True): __cuda_array_interface__ for cupy.asarray, torch.as_tensor, ...")
      .def_property_readonly("__cuda_array_interface__", &DeviceArray::cuda_array_interface)
      .def_property_readonly("shape", &DeviceArray::shape)
      .def_property_readonly(
          "dtype", [](const DeviceArray&) { return py::dtype::of<std::complex<double>>(); })
      .def_property_readonly("device", &DeviceArray::device)
      .def("copy_to_host", &DeviceArray::copy_to_host, "the matrices as a numpy array")
      .def("__repr__", [](const DeviceArray& a) {
        return "DeviceArray(shape=" + py::str(a.shape()).cast<std::string>() +
               ", dtype=complex128, device=" + std::to_string(a.device()) + ")";
      });
}

} // namespace gaugefix_python
