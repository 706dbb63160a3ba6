// peer_memory.h: the CUDA IPC set-up of every peer path, written once: GPUs of one node
// writing straight into each other's memory (NVLink where present) instead of staging
// messages through pinned host memory and MPI. Used by the halo exchange (halo_exchange.h:
// the two neighbours' fields) and the Fourier transpose (fourier/fourier_field.h: every
// rank's transform slices and units).
//
// The constructor is collective: every rank exports one array (a whole device allocation)
// and gathers every rank's handle; it maps the neighbours' (PeerScope::neighbours) or every
// rank's (PeerScope::all) arrays, each other rank's once. usable() is true on every rank or
// on none: only where the path is peer or automatic (and MPI cannot read device memory),
// every rank in the scope is on this node (use_peer_path, channel.h) and every mapping
// opened; else the caller stages through host memory (asking for peer then is an Error).
//
// mapped(q) is rank q's array (ours at our rank; null outside the scope). finish() is a
// barrier: called with the device idle after a rank's writes, on return every rank's writes
// are complete.
#pragma once
#include "backend/host_exec.h"
#include "comm/channel.h"
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace gf {

enum class PeerScope { neighbours, all };

template <class Exec>
class PeerMemory {
public:
  PeerMemory(std::shared_ptr<Channel> channel, void* allocation, PeerScope scope,
             const std::string& memory)
      : channel_(std::move(channel)) {
    const bool all = scope == PeerScope::all;
    if (!use_peer_path(*channel_,
                       all ? channel_->all_on_this_node() : channel_->neighbours_on_this_node(),
                       all ? "every rank (" + memory + ")" : "every rank's neighbours"))
      return;
    const PeerHandle mine = export_peer_memory(Exec{}, allocation);
    const std::vector<std::string> handles = channel_->all_gather_strings(
        std::string(reinterpret_cast<const char*>(&mine), sizeof mine));
    const int n = static_cast<int>(handles.size()), me = channel_->rank();
    mapped_.assign(n, nullptr);
    mapped_[me] = allocation;
    bool opened = true;
    for (int q = 0; q < n; ++q) {
      const bool neighbour = q == (me + 1) % n || q == (me + n - 1) % n;
      if (q == me || !(all || neighbour)) continue;
      PeerHandle h;
      std::memcpy(&h, handles[q].data(), sizeof h);
      mapped_[q] = open_peer_memory(Exec{}, h);
      opened = opened && mapped_[q];
    }
    usable_ = channel_->all(opened);
    if (usable_) return;
    close();
    refuse_unmapped_peer(*channel_, memory);
  }
  ~PeerMemory() { close(); }
  PeerMemory(const PeerMemory&) = delete;
  PeerMemory& operator=(const PeerMemory&) = delete;

  bool usable() const { return usable_; }
  void* mapped(int q) const { return mapped_[q]; }
  void* mapped(Neighbour from) const {
    const int n = channel_->ranks(), me = channel_->rank();
    return mapped_[from == Neighbour::next ? (me + 1) % n : (me + n - 1) % n];
  }
  void finish() const { channel_->all(true); }

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
