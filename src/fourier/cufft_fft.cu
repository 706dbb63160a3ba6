#include "backend/cuda_exec.cuh"
#include "core/error.h"
#include "fourier/cufft_fft.h"
#include <algorithm>
#include <cufft.h>
#include <string>

namespace gf {

namespace {

const char* cufft_result_name(cufftResult r) {
  switch (r) {
  case CUFFT_SUCCESS:
    return "CUFFT_SUCCESS";
  case CUFFT_INVALID_PLAN:
    return "CUFFT_INVALID_PLAN";
  case CUFFT_ALLOC_FAILED:
    return "CUFFT_ALLOC_FAILED (out of device memory)";
  case CUFFT_INVALID_TYPE:
    return "CUFFT_INVALID_TYPE";
  case CUFFT_INVALID_VALUE:
    return "CUFFT_INVALID_VALUE";
  case CUFFT_INTERNAL_ERROR:
    return "CUFFT_INTERNAL_ERROR";
  case CUFFT_EXEC_FAILED:
    return "CUFFT_EXEC_FAILED";
  case CUFFT_SETUP_FAILED:
    return "CUFFT_SETUP_FAILED";
  case CUFFT_INVALID_SIZE:
    return "CUFFT_INVALID_SIZE";
  case CUFFT_UNALIGNED_DATA:
    return "CUFFT_UNALIGNED_DATA";
  case CUFFT_INVALID_DEVICE:
    return "CUFFT_INVALID_DEVICE";
  case CUFFT_NO_WORKSPACE:
    return "CUFFT_NO_WORKSPACE";
  case CUFFT_NOT_IMPLEMENTED:
    return "CUFFT_NOT_IMPLEMENTED";
  case CUFFT_NOT_SUPPORTED:
    return "CUFFT_NOT_SUPPORTED";
  default:
    return "cuFFT error";
  }
}

void cufft_check(cufftResult r, const std::string& what) {
  if (r != CUFFT_SUCCESS)
    throw Error("cuFFT error in " + what + ": " + cufft_result_name(r) + " (" +
                std::to_string(static_cast<int>(r)) + ")");
}

template <class R>
struct Cufft;

template <>
struct Cufft<double> {
  using complex = cufftDoubleComplex;
  static constexpr cufftType type = CUFFT_Z2Z;
  static constexpr const char* exec_name = "cufftExecZ2Z";
  static cufftResult execute(cufftHandle p, complex* data, int direction) {
    return cufftExecZ2Z(p, data, data, direction);
  }
};

template <>
struct Cufft<float> {
  using complex = cufftComplex;
  static constexpr cufftType type = CUFFT_C2C;
  static constexpr const char* exec_name = "cufftExecC2C";
  static cufftResult execute(cufftHandle p, complex* data, int direction) {
    return cufftExecC2C(p, data, data, direction);
  }
};

// Items (slices or units of `per_item` elements) per group: from the lattice alone.
int group_items(std::int64_t group_elements, std::int64_t per_item, std::int64_t most) {
  return static_cast<int>(std::clamp<std::int64_t>(group_elements / per_item, 1, most));
}

std::string extents(const FourierLayout& l) {
  return std::to_string(l.L[0]) + "x" + std::to_string(l.L[1]) + "x" + std::to_string(l.L[2]) +
         "x" + std::to_string(l.L[3]);
}

// Device memory from cudaMalloc, zeroed (the padding of the last group stays zero under
// every transform); a cuFFT plan. Both released on destruction.
template <class R>
struct DeviceArray {
  explicit DeviceArray(std::int64_t elements) {
    const std::size_t bytes =
        sizeof(Complex<R>) * static_cast<std::size_t>(elements > 0 ? elements : 1);
    cuda_check(cudaMalloc(&p, bytes),
               ("cudaMalloc (cuFFT work array of " + std::to_string(bytes) + " bytes)").c_str());
    cuda_check(cudaMemset(p, 0, bytes), "cudaMemset (cuFFT work array)");
  }
  ~DeviceArray() { cudaFree(p); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  Complex<R>* p = nullptr;
};

// batch transforms of extents n[0..rank), element j of transform b at b dist + j stride;
// work: the bytes of its work area.
struct Plan {
  Plan(int rank, int* n, int stride, int dist, cufftType type, int batch, const std::string& what) {
    cufft_check(cufftPlanMany(&handle, rank, n, n, stride, dist, n, stride, dist, type, batch),
                "cufftPlanMany (" + what + ", batch " + std::to_string(batch) + ")");
    cufft_check(cufftGetSize(handle, &work), "cufftGetSize (" + what + ")");
  }
  ~Plan() { cufftDestroy(handle); }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  cufftHandle handle = 0;
  std::size_t work = 0;
};

template <class R>
class CufftFft final : public LatticeFft<R> {
  using W = Cufft<R>;

public:
  CufftFft(const FourierLayout& layout, bool temporal, std::int64_t group_elements)
      : layout_(layout),
        slice_group_(group_items(group_elements, layout.slice_elements(1), layout.L[3])),
        unit_group_(layout.unit_group),
        slice_groups_((layout.nt + slice_group_ - 1) / slice_group_),
        unit_groups_(temporal ? static_cast<int>(layout.local_blocks()) : 0) {
    slices_ = std::make_unique<DeviceArray<R>>(std::int64_t(slice_groups_) * slice_group_ *
                                               layout.slice_elements(1));
    int xyz[3] = {layout.L[2], layout.L[1], layout.L[0]}; // slowest first
    spatial_ = std::make_unique<Plan>(3, xyz, 1, static_cast<int>(layout.v3), W::type,
                                      slice_group_ * layout.comps,
                                      "x-y-z transforms of a " + extents(layout) + " lattice");
    if (temporal) {
      units_ = std::make_unique<DeviceArray<R>>(layout.unit_array_elements());
      // the g Lx lines of a block: length Lt, stride g Lx, neighbouring lines neighbours
      int lt = layout.L[3];
      const int lines = unit_group_ * layout.L[0];
      temporal_ = std::make_unique<Plan>(1, &lt, lines, 1, W::type, lines,
                                         "t transforms of a " + extents(layout) + " lattice");
    }
    cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (cuFFT plans)");
  }

  Complex<R>* slices() override { return slices_->p; }
  Complex<R>* units() override { return units_ ? units_->p : nullptr; }
  std::int64_t bytes() const override {
    const std::int64_t elements =
        std::int64_t(slice_groups_) * slice_group_ * layout_.slice_elements(1) +
        (units_ ? layout_.unit_array_elements() : 0);
    return elements * std::int64_t(sizeof(Complex<R>)) + std::int64_t(spatial_->work) +
           (temporal_ ? std::int64_t(temporal_->work) : 0);
  }

  int spatial_groups() const override { return slice_groups_; }
  std::int64_t spatial_group_elements() const override {
    return std::int64_t(slice_group_) * layout_.slice_elements(1);
  }
  int temporal_groups() const override { return unit_groups_; }
  std::int64_t temporal_group_elements() const override {
    return std::int64_t(unit_group_) * layout_.unit_elements();
  }

  void spatial(FftSign sign, int first, int count) override {
    const std::int64_t per_group = spatial_group_elements();
    for (int k = first; k < first + count; ++k)
      cufft_check(W::execute(spatial_->handle, data(slices_->p + k * per_group), direction(sign)),
                  std::string(W::exec_name) + " (x-y-z transforms)");
  }

  void temporal(FftSign sign, int first, int count) override {
    const std::int64_t per_group = temporal_group_elements();
    for (int k = first; k < first + count; ++k)
      cufft_check(W::execute(temporal_->handle, data(units_->p + k * per_group), direction(sign)),
                  std::string(W::exec_name) + " (t transforms)");
  }

private:
  static int direction(FftSign sign) {
    return sign == FftSign::forward ? CUFFT_FORWARD : CUFFT_INVERSE;
  }
  static typename W::complex* data(Complex<R>* p) {
    return reinterpret_cast<typename W::complex*>(p);
  }

  FourierLayout layout_;
  int slice_group_; // slices per execution of the x-y-z plan
  int unit_group_;  // units per execution of the t plan
  int slice_groups_, unit_groups_;
  std::unique_ptr<DeviceArray<R>> slices_, units_;
  std::unique_ptr<Plan> spatial_, temporal_;
};

} // namespace

static_assert(sizeof(Complex<double>) == sizeof(cufftDoubleComplex));
static_assert(sizeof(Complex<float>) == sizeof(cufftComplex));

template <class R>
std::unique_ptr<LatticeFft<R>> make_cufft(const FourierLayout& layout, bool temporal,
                                          std::int64_t group_elements) {
  return std::make_unique<CufftFft<R>>(layout, temporal, group_elements);
}

template std::unique_ptr<LatticeFft<double>> make_cufft(const FourierLayout&, bool, std::int64_t);
template std::unique_ptr<LatticeFft<float>> make_cufft(const FourierLayout&, bool, std::int64_t);

} // namespace gf
