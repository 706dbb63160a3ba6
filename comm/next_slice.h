// next_slice.h: one blocking exchange that fills the halo slice nt of a field (all
// directions, both parities) with the next rank's slice 0, and sends this rank's slice 0 to
// the previous rank for the same purpose. For a computation that looks one slice ahead once,
// outside the sweeps (the Coulomb engine's time links at download, fix/time_link_transform.h).
// Host memory, or device memory with a CUDA-aware MPI, travels directly; other device memory
// through pinned host buffers (MessageBuffer, copy_async), as in halo_exchange.h.
#pragma once
#include "comm/channel.h"
#include "comm/message_tags.h"
#include "lattice/field_view.h"

namespace gf {

template <class Exec, class S, int N>
void fill_next_slice(Channel& channel, const FieldView<S, N>& v, const Queue<Exec>& q) {
  constexpr int tag = tags::next_slice;
  const std::int64_t bytes = v.slot_stride() * std::int64_t(sizeof(S));
  S* first = v.data + v.offset(v.geom.slice_slot(0), 0, 0, 0, 0);
  S* after = v.data + v.offset(v.geom.slice_slot(v.geom.nt), 0, 0, 0, 0);
  if (mpi_reads_arrays<Exec>(channel)) {
    channel.receive(after, bytes, Neighbour::next, tag);
    channel.send(first, bytes, Neighbour::prev, tag);
    channel.wait();
    return;
  }
  MessageBuffer<Exec> in(bytes), out(bytes);
  channel.receive(in.data(), bytes, Neighbour::next, tag);
  copy_async(q, out.data(), first, bytes);
  q.synchronize();
  channel.send(out.data(), bytes, Neighbour::prev, tag);
  channel.wait();
  copy_async(q, after, in.data(), bytes);
  q.synchronize();
}

} // namespace gf
