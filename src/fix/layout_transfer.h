// layout_transfer.h: moves a field between natural order (HostField, double) and the
// device layout (FieldView over a Buffer of the backend) through a host staging array
// in the storage type S. Halo slices are not touched (the communicator fills them).
#pragma once
#include "lattice/field_view.h"
#include "lattice/host_field.h"
#include <vector>

namespace gf {

// The view of a field of ndir matrices per site over `data` in memory of the backend Exec
// (a CPU's fields padded, field_pitch; a GPU's reals in groups, field_view.h).
template <class Exec, class S, int N>
FieldView<S, N> layout_view(S* data, const Geometry& g, int ndir, Storage storage) {
  return {data, g, ndir, storage, field_pitch<S>(g.v3h, !Exec::device_memory), Exec::device_memory};
}

template <class Exec, class S, int N>
std::int64_t layout_size(const Geometry& g, int ndir, Storage storage) {
  return layout_view<Exec, S, N>(nullptr, g, ndir, storage).size();
}

template <class Exec, class S, int N, class Buf>
void upload_natural(const HostField& host, Buf& buffer, FieldView<S, N> device_view) {
  std::vector<S> staging(static_cast<std::size_t>(device_view.size()), S(0));
  FieldView<S, N> v = device_view;
  v.data = staging.data();
  const std::int64_t sites = host.local_sites();
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < sites; ++s) {
    const SiteCoords c = host.coords(s);
    for (int mu = 0; mu < v.ndir; ++mu)
      v.template save_at<double>(c, mu, host.get<N>(s, mu));
  }
  buffer.upload(staging.data());
}

template <class Exec, class S, int N, class Buf>
void download_natural(const Buf& buffer, FieldView<S, N> device_view, HostField& host) {
  std::vector<S> staging(static_cast<std::size_t>(device_view.size()));
  buffer.download(staging.data());
  FieldView<S, N> v = device_view;
  v.data = staging.data();
  const std::int64_t sites = host.local_sites();
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < sites; ++s) {
    const SiteCoords c = host.coords(s);
    for (int mu = 0; mu < v.ndir; ++mu)
      host.set<N>(s, mu, v.template load_at<double>(c, mu));
  }
}

} // namespace gf
