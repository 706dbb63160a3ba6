#include "fourier/fftw_fft.h"
#include "core/error.h"
#include "fourier/fftw_planner.h"
#include <fftw3.h>
#include <mutex>
#include <string>

namespace gf {

namespace {

template <class R>
struct Fftw;

template <>
struct Fftw<double> {
  using plan = fftw_plan;
  using complex = fftw_complex;
  static void* alloc(std::size_t bytes) { return fftw_malloc(bytes); }
  static void release(void* p) { fftw_free(p); }
  static plan many(int rank, const int* n, int howmany, complex* data, int stride, int dist,
                   int sign) {
    return fftw_plan_many_dft(rank, n, howmany, data, nullptr, stride, dist, data, nullptr, stride,
                              dist, sign, FFTW_ESTIMATE);
  }
  static void execute(plan p, complex* data) { fftw_execute_dft(p, data, data); }
  static void destroy(plan p) { fftw_destroy_plan(p); }
};

template <>
struct Fftw<float> {
  using plan = fftwf_plan;
  using complex = fftwf_complex;
  static void* alloc(std::size_t bytes) { return fftwf_malloc(bytes); }
  static void release(void* p) { fftwf_free(p); }
  static plan many(int rank, const int* n, int howmany, complex* data, int stride, int dist,
                   int sign) {
    return fftwf_plan_many_dft(rank, n, howmany, data, nullptr, stride, dist, data, nullptr, stride,
                               dist, sign, FFTW_ESTIMATE);
  }
  static void execute(plan p, complex* data) { fftwf_execute_dft(p, data, data); }
  static void destroy(plan p) { fftwf_destroy_plan(p); }
};

template <class R>
class FftwFft final : public LatticeFft<R> {
  using W = Fftw<R>;
  using complex = typename W::complex;

public:
  FftwFft(const FourierLayout& layout, bool temporal) : layout_(layout) {
    elements_ = layout.slice_elements(layout.nt) + (temporal ? layout.unit_array_elements() : 0);
    slices_ = allocate(layout.slice_elements(layout.nt));
    if (temporal) units_ = allocate(layout.unit_array_elements());
    std::lock_guard<std::mutex> hold(fftw_planner_lock());
    const int xyz[3] = {layout.L[2], layout.L[1], layout.L[0]}; // slowest first
    const int v3 = static_cast<int>(layout.v3);
    for (int s = 0; s < 2; ++s) {
      const int sign = s == 0 ? FFTW_FORWARD : FFTW_BACKWARD;
      spatial_[s] = W::many(3, xyz, layout.comps, data(slices_), 1, v3, sign);
      if (temporal) {
        // the G Lx lines of one block of units: length Lt, stride G Lx (fourier_layout.h)
        const int lines = layout.unit_group * layout.L[0];
        temporal_[s] = W::many(1, &layout.L[3], lines, data(units_), lines, 1, sign);
      }
      if (!spatial_[s] || (temporal && !temporal_[s]))
        throw Error("FFTW could not plan the transforms of a " + std::to_string(layout.L[0]) + "x" +
                    std::to_string(layout.L[1]) + "x" + std::to_string(layout.L[2]) + "x" +
                    std::to_string(layout.L[3]) + " lattice");
    }
  }
  ~FftwFft() override {
    for (int s = 0; s < 2; ++s) {
      if (spatial_[s]) W::destroy(spatial_[s]);
      if (temporal_[s]) W::destroy(temporal_[s]);
    }
    W::release(slices_);
    if (units_) W::release(units_);
  }
  FftwFft(const FftwFft&) = delete;
  FftwFft& operator=(const FftwFft&) = delete;

  Complex<R>* slices() override { return slices_; }
  Complex<R>* units() override { return units_; }
  std::int64_t bytes() const override { return elements_ * std::int64_t(sizeof(Complex<R>)); }

  // One slice, or one block of units, per group.
  int spatial_groups() const override { return layout_.nt; }
  std::int64_t spatial_group_elements() const override { return layout_.slice_elements(1); }
  int temporal_groups() const override { return static_cast<int>(layout_.local_blocks()); }
  std::int64_t temporal_group_elements() const override {
    return layout_.unit_group * layout_.unit_elements();
  }

  void spatial(FftSign sign, int first, int count) override {
    const auto plan = spatial_[sign == FftSign::forward ? 0 : 1];
    const std::int64_t per_slice = spatial_group_elements();
#pragma omp parallel for schedule(static)
    for (int t = first; t < first + count; ++t)
      W::execute(plan, data(slices_ + t * per_slice));
  }

  void temporal(FftSign sign, int first, int count) override {
    const auto plan = temporal_[sign == FftSign::forward ? 0 : 1];
    const std::int64_t per_block = temporal_group_elements();
#pragma omp parallel for schedule(static)
    for (int b = first; b < first + count; ++b)
      W::execute(plan, data(units_ + b * per_block));
  }

private:
  static Complex<R>* allocate(std::int64_t elements) {
    void* p = W::alloc(sizeof(Complex<R>) * static_cast<std::size_t>(elements > 0 ? elements : 1));
    if (!p) throw Error("FFTW could not allocate " + std::to_string(elements) + " complex numbers");
    auto* c = static_cast<Complex<R>*>(p);
    for (std::int64_t i = 0; i < elements; ++i)
      c[i] = {R(0), R(0)};
    return c;
  }
  static complex* data(Complex<R>* p) {
    return reinterpret_cast<complex*>(p);
  }

  FourierLayout layout_;
  std::int64_t elements_ = 0; // of both arrays
  Complex<R>* slices_ = nullptr;
  Complex<R>* units_ = nullptr;
  typename W::plan spatial_[2] = {nullptr, nullptr};
  typename W::plan temporal_[2] = {nullptr, nullptr};
};

} // namespace

static_assert(sizeof(Complex<double>) == sizeof(fftw_complex));
static_assert(sizeof(Complex<float>) == sizeof(fftwf_complex));

template <class R>
std::unique_ptr<LatticeFft<R>> make_fftw(const FourierLayout& layout, bool temporal) {
  return std::make_unique<FftwFft<R>>(layout, temporal);
}

template std::unique_ptr<LatticeFft<double>> make_fftw(const FourierLayout&, bool);
template std::unique_ptr<LatticeFft<float>> make_fftw(const FourierLayout&, bool);

std::mutex& fftw_planner_lock() {
  static std::mutex lock;
  return lock;
}

} // namespace gf
