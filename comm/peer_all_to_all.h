// peer_all_to_all.h: the all-to-all of the distributed transpose (fourier/fourier_field.h)
// between GPUs of one node, written by the GPUs themselves straight into each other's
// memory (CUDA IPC, NVLink where present) instead of staged through pinned host memory and
// MPI.
//
// The constructor is collective: every rank exports its receive array (a whole device
// allocation) and maps every other rank's. usable() is true on every rank or on none: only
// where the path is peer or automatic (and MPI cannot read device memory), every rank is on
// this node and every mapping opened; else the caller stages through host memory (asking
// for peer then is an Error, as for the halo exchange).
//
// A transpose's packing kernel then writes each element of its message straight into its
// receiver's array (PackToPeers, fourier/fourier_functors.h), between targets(), which says
// where each block goes, and finish(): no message array on the sending side and no copy;
// MPI carries only the receivers' offsets and two barriers. Between transposes the mapped
// arrays can carry other messages (mapped(); the Fourier field's one-slice halo of D).
#pragma once
#include "backend/host_exec.h"
#include "comm/channel.h"
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace gf {

template <class Exec>
class PeerAllToAll {
public:
  PeerAllToAll(std::shared_ptr<Channel> channel, void* receive_allocation)
      : channel_(std::move(channel)) {
    if (!use_peer_path(*channel_, channel_->all_on_this_node(),
                       "every rank (the Fourier transpose)"))
      return;
    const PeerHandle mine = export_peer_memory(Exec{}, receive_allocation);
    const std::vector<std::string> handles = channel_->all_gather_strings(
        std::string(reinterpret_cast<const char*>(&mine), sizeof mine));
    const int me = channel_->rank();
    mapped_.assign(handles.size(), nullptr);
    bool opened = true;
    for (int q = 0; q < static_cast<int>(handles.size()); ++q) {
      if (q == me) {
        mapped_[q] = receive_allocation;
        continue;
      }
      PeerHandle h;
      std::memcpy(&h, handles[q].data(), sizeof h);
      mapped_[q] = open_peer_memory(Exec{}, h);
      opened = opened && mapped_[q];
    }
    usable_ = channel_->all(opened);
    if (usable_) return;
    close();
    refuse_unmapped_peer(*channel_, "another rank's GPU memory for the Fourier transpose");
  }
  ~PeerAllToAll() { close(); }
  PeerAllToAll(const PeerAllToAll&) = delete;
  PeerAllToAll& operator=(const PeerAllToAll&) = delete;

  bool usable() const { return usable_; }

  // Where block q of this rank's message array (send[q] rows from the sum of send[0..q-1]
  // on) goes: rank q's receive allocation, mapped here, at a shift in rows from its place in
  // our array (receive[r] rows come from rank r, in rank order: Channel::all_to_all's
  // contract). Collective: gathers every rank's receive offsets; called with the device idle,
  // so that the gather is also the barrier after which no kernel reads a receive array.
  struct Target {
    void* array;
    std::int64_t shift_rows;
  };
  std::vector<Target> targets(const std::vector<std::int64_t>& send,
                              const std::vector<std::int64_t>& receive) const {
    const int n = static_cast<int>(mapped_.size()), me = channel_->rank();
    std::vector<std::int64_t> receive_at(n, 0), send_at(n, 0);
    for (int q = 1; q < n; ++q) {
      receive_at[q] = receive_at[q - 1] + receive[q - 1];
      send_at[q] = send_at[q - 1] + send[q - 1];
    }
    const std::vector<std::string> offsets = channel_->all_gather_strings(
        std::string(reinterpret_cast<const char*>(receive_at.data()), n * sizeof(std::int64_t)));
    std::vector<Target> out(n);
    for (int q = 0; q < n; ++q) {
      std::int64_t at = 0; // where rank q wants our block, in rows
      std::memcpy(&at, offsets[q].data() + me * sizeof(std::int64_t), sizeof at);
      out[q] = {mapped_[q], at - send_at[q]};
    }
    return out;
  }

  // After the writes, with the device idle again: on return every rank's receive array is
  // complete (a barrier).
  void finish() const { channel_->all(true); }

  // Rank q's receive allocation, mapped here (ours at our rank), for other messages between
  // transposes: written between two finish() barriers, the device idle at each.
  void* mapped(int q) const { return mapped_[q]; }

private:
  void close() {
    if constexpr (Exec::device_memory) {
      const int me = channel_->rank();
      for (int q = 0; q < static_cast<int>(mapped_.size()); ++q)
        if (q != me && mapped_[q]) close_peer_memory(Exec{}, mapped_[q]);
    }
    mapped_.clear();
  }

  std::shared_ptr<Channel> channel_;
  std::vector<void*> mapped_; // rank q's receive allocation, mapped (ours at our rank)
  bool usable_ = false;
};

} // namespace gf
