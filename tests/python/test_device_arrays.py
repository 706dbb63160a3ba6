# test_device_arrays.py: arrays in CUDA device memory (__cuda_array_interface__, as CuPy and
# PyTorch give them) handed to the module, without CuPy: CudaArray below allocates device
# memory through ctypes on libcudart. A device array gives the same results as the numpy array
# it was copied from (C order, strided, complex64, on the legacy default stream), results come
# back as device arrays with device_output=True, and bad arrays are refused naming the
# argument and the check. The tests that need a GPU skip where the module was built without
# CUDA or no device is found; a build without CUDA refuses device arrays and device_output.
import ctypes
import ctypes.util

import numpy as np
import pytest

import gaugefix

COPY_HOST_TO_DEVICE, COPY_DEVICE_TO_HOST = 1, 2


def load_cudart():
    """libcudart through ctypes, or None where there is none or it finds no device."""
    names = [ctypes.util.find_library("cudart")] + [f"libcudart.so.{v}" for v in (13, 12, 11)]
    for name in filter(None, names + ["libcudart.so"]):
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        count = ctypes.c_int(0)
        if lib.cudaGetDeviceCount(ctypes.byref(count)) != 0 or count.value == 0:
            return None
        lib.cudaMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
        lib.cudaMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        lib.cudaFree.argtypes = [ctypes.c_void_p]
        return lib
    return None


CUDART = load_cudart() if gaugefix.built_with_cuda else None


def check(status, what):
    assert status == 0, f"{what}: CUDA error {status}"


class CudaArray:
    """A copy of a numpy array's memory in device memory, exposing __cuda_array_interface__
    with the array's shape, dtype and strides (and the offset of a view into its base)."""

    def __init__(self, array, version=3, stream=None, **override):
        base = array  # the array whose memory a view looks into
        while isinstance(base.base, np.ndarray):
            base = base.base
        assert base.flags.c_contiguous
        offset = array.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        self.pointer = ctypes.c_void_p()
        check(CUDART.cudaMalloc(ctypes.byref(self.pointer), base.nbytes), "cudaMalloc")
        check(CUDART.cudaMemcpy(self.pointer, base.ctypes.data, base.nbytes, COPY_HOST_TO_DEVICE),
              "cudaMemcpy")
        strides = None if array.flags.c_contiguous else array.strides
        self.__cuda_array_interface__ = {
            "shape": array.shape, "typestr": array.dtype.str, "strides": strides,
            "data": (self.pointer.value + offset, False), "version": version, "stream": stream,
            **override}

    def __del__(self):
        CUDART.cudaFree(self.pointer)


def from_device(interface):
    """The contents of a device array (C order, complex128) as a numpy array."""
    assert interface["typestr"] == "<c16" and interface["strides"] is None
    out = np.empty(interface["shape"], dtype=np.complex128)
    check(CUDART.cudaMemcpy(out.ctypes.data, interface["data"][0], out.nbytes, COPY_DEVICE_TO_HOST),
          "cudaMemcpy")
    return out


needs_gpu = pytest.mark.skipif(CUDART is None, reason="built without CUDA, or no CUDA device")


@needs_gpu
@pytest.mark.parametrize("backend", ["cpu", "cuda"])
def test_a_device_array_is_fixed_as_its_numpy_array(rotated, backend):
    expected = gaugefix.fix(rotated, backend=backend, tolerance=1e-10)
    fixed, g, r = gaugefix.fix(CudaArray(rotated), backend=backend, tolerance=1e-10)
    assert r.converged and r.iterations == expected[2].iterations
    assert np.array_equal(fixed, expected[0]) and np.array_equal(g, expected[1])


@needs_gpu
def test_strided_complex64_and_stream_arrays_are_read(rotated, field):
    # a strided view: every second time slice of a lattice twice as long
    view = np.concatenate([field, rotated], axis=0)[::2]
    assert not view.flags.c_contiguous
    assert gaugefix.plaquette(CudaArray(view)) == gaugefix.plaquette(np.ascontiguousarray(view))
    low = rotated.astype(np.complex64)
    assert np.array_equal(gaugefix.fix(CudaArray(low), reproject=True, max_iterations=50)[0],
                          gaugefix.fix(low, reproject=True, max_iterations=50)[0])
    assert gaugefix.measure(CudaArray(rotated, stream=1)).theta == gaugefix.measure(rotated).theta
    assert gaugefix.measure(CudaArray(rotated, version=2)).theta == gaugefix.measure(rotated).theta


@needs_gpu
def test_device_output_returns_device_arrays(rotated, field):
    fixed, g, r = gaugefix.fix(CudaArray(rotated), device_output=True, tolerance=1e-10)
    expected_fixed, expected_g, _ = gaugefix.fix(rotated, tolerance=1e-10)
    for out, expected in ((fixed, expected_fixed), (g, expected_g)):
        assert isinstance(out, gaugefix.DeviceArray)
        interface = out.__cuda_array_interface__
        assert interface["version"] == 3 and interface["shape"] == expected.shape
        assert np.array_equal(from_device(interface), expected)
        assert np.array_equal(out.copy_to_host(), expected)
    # a device array returned is accepted as an argument, and numpy input gives device output
    again = gaugefix.apply_transform(field, g, device_output=True)
    assert np.array_equal(again.copy_to_host(), gaugefix.apply_transform(field, expected_g))
    assert np.array_equal(gaugefix.generate((4, 4, 4, 4), sweeps=1, device_output=True).copy_to_host(),
                          gaugefix.generate((4, 4, 4, 4), sweeps=1))


@needs_gpu
@pytest.mark.parametrize("change,message", [
    (lambda u: (1.1 * u, {}), "unitarity"),
    (lambda u: (u.real.copy(), {}), "is not complex"),
    (lambda u: (u[..., 0], {}), "is neither a gauge field"),
    (lambda u: (u, {"version": 1}), "version 1"),
    (lambda u: (u, {"stream": 0}), "stream 0"),
    (lambda u: (u, {"mask": (0, False)}), "masked"),
])
def test_bad_device_arrays_are_refused(rotated, change, message):
    array, override = change(rotated)
    with pytest.raises(gaugefix.Error, match=message) as e:
        gaugefix.fix(CudaArray(array, **override))
    assert "links" in str(e.value)


class PretendDeviceArray:
    """Claims device memory it does not have: a build without CUDA must refuse it untouched."""
    __cuda_array_interface__ = {"shape": (8, 4, 4, 4, 4, 3, 3), "typestr": "<c16",
                                "data": (0xdead0000, False), "strides": None, "version": 3}


@pytest.mark.skipif(gaugefix.built_with_cuda, reason="this gaugefix was built with CUDA")
def test_a_build_without_cuda_refuses_device_arrays(field):
    for call in (lambda: gaugefix.fix(PretendDeviceArray()),
                 lambda: gaugefix.plaquette(PretendDeviceArray()),
                 lambda: gaugefix.apply_transform(field, PretendDeviceArray())):
        with pytest.raises(gaugefix.Error, match="built without CUDA"):
            call()
    with pytest.raises(gaugefix.Error, match="fix: device_output=True, but this gaugefix was built without CUDA"):
        gaugefix.fix(field, device_output=True)
