// device_arrays.h: arrays in CUDA device memory (CuPy, PyTorch, Numba) through
// __cuda_array_interface__, versions 2 and 3: a dict with shape, typestr ('<c16' complex128
// or '<c8' complex64 here), data (pointer, read-only flag), strides (bytes, or None for C
// order), optionally mask (None only) and stream (v3: None, 1 the legacy default stream,
// 2 the per-thread default stream, or a stream handle; 0 is not allowed). The copies go through
// libgaugefix's CUDA runtime (gaugefix/device_memory.h); a build without CUDA refuses a device
// array, and device_output=True, with gaugefix.Error.
//
// host_copy: waits for the array's stream, copies the bytes its shape and strides span (any
// strides, also negative) from the device, and returns a numpy array of the same shape, dtype
// and strides over them, which python_arrays.h then reads as it reads any numpy array. The
// layout is checked before anything is copied (the messages of python_arrays.h's check_layout,
// typestr in place of the dtype).
//
// DeviceArray (gaugefix.DeviceArray): a field's matrices in device memory that it owns (freed
// with the object), complex128, C order, exposing __cuda_array_interface__ version 3 (stream
// None: the copy is complete when the object is made), shape, dtype, device and copy_to_host().
#pragma once
#include "gaugefix/gaugefix.h"
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace gaugefix_python {

bool is_device_array(const pybind11::handle& object);

// `what` names the argument in error messages.
pybind11::array host_copy(const pybind11::handle& object, const char* what);

// Where a function's returned fields go: -1 (numpy arrays) unless device_output; then the
// device of `input` where it is a device array, else device 0 (the first visible GPU). A
// build without CUDA refuses device_output, naming `function`.
int output_device(bool device_output, const pybind11::handle& input, const char* function);

// The field as a numpy array (device -1) or a DeviceArray on `device`.
pybind11::object returned(gaugefix::Field&& field, int device);

void register_device_array(pybind11::module_& m);

} // namespace gaugefix_python
