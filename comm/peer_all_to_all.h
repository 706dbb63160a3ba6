// peer_all_to_all.h: the all-to-all of the distributed transpose (fourier/fourier_field.h)
// between GPUs of one node, written by the GPUs themselves straight into each other's
// memory (CUDA IPC, NVLink where present) instead of staged through pinned host memory and
// MPI.
//
// The constructor is collective: every rank exports one array (a whole device allocation:
// the transform's slices or units) and maps every other rank's. usable() is true on every
// rank or on none: only where the path is peer or automatic (and MPI cannot read device
// memory), every rank is on this node and every mapping opened; else the caller stages
// through host memory (asking for peer then is an Error, as for the halo exchange).
//
// A transpose's kernel then writes each element straight into its place in its receiver's
// array (mapped(q)), and finish() is the barrier after which every receiver's array is
// complete: no message array, no copy, no unpacking; MPI carries only the barriers.
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

  // After the writes, with the device idle again: on return every rank's receive array is
  // complete (a barrier).
  void finish() const { channel_->all(true); }

  // Rank q's array, mapped here (ours at our rank): written between two finish() barriers,
  // the device idle at each.
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
  std::vector<void*> mapped_; // rank q's array, mapped (ours at our rank)
  bool usable_ = false;
};

} // namespace gf
