// peer_all_to_all.h: the all-to-all of the distributed transpose (fourier/fourier_field.h)
// between GPUs of one node, copied by the GPUs themselves (CUDA IPC, NVLink where present)
// instead of staged through pinned host memory and MPI.
//
// The constructor is collective: every rank exports its receive buffer (a whole device
// allocation) and maps every other rank's. usable() is true on every rank or on none: only
// where the path is peer or automatic (and MPI cannot read device memory), every rank is on
// this node and every mapping opened; else the caller stages through host memory (asking
// for peer then is an Error, as for the halo exchange).
//
// exchange() is called with the device idle (the caller synchronised it). It gathers every
// rank's receive offsets (the gather is also the barrier after which no kernel reads a
// receive buffer), copies each of its blocks straight into its receiver's buffer at the
// place that receiver expects it (block q of `out` to rank q, the ranks taken in a rotated
// order so that the links are loaded evenly), waits for its copies and then for every
// rank's: the receive buffer is complete on return. MPI carries only offsets and a barrier.
#pragma once
#include "backend/host_exec.h"
#include "comm/channel.h"
#include "core/error.h"
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
    const ExchangePath path = channel_->path();
    const bool wanted = path == ExchangePath::peer ||
                        (path == ExchangePath::automatic && !channel_->device_pointers());
    if (!channel_->all(wanted && channel_->all_on_this_node())) {
      if (path == ExchangePath::peer)
        throw Error("--exchange peer: the Fourier transpose needs every rank on the same node");
      return;
    }
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
    if (path == ExchangePath::peer)
      throw Error("--exchange peer: a rank could not map another rank's GPU memory (CUDA IPC) for "
                  "the Fourier transpose");
  }
  ~PeerAllToAll() { close(); }
  PeerAllToAll(const PeerAllToAll&) = delete;
  PeerAllToAll& operator=(const PeerAllToAll&) = delete;

  bool usable() const { return usable_; }

  // Channel::all_to_all's contract, into the receive allocation given to the constructor.
  void exchange(const Queue<Exec>& queue, const void* out, const std::vector<std::int64_t>& send,
                const std::vector<std::int64_t>& receive, std::int64_t row_bytes) {
    const int n = static_cast<int>(mapped_.size()), me = channel_->rank();
    std::vector<std::int64_t> receive_at(n, 0), send_at(n, 0);
    for (int q = 1; q < n; ++q) {
      receive_at[q] = receive_at[q - 1] + receive[q - 1];
      send_at[q] = send_at[q - 1] + send[q - 1];
    }
    const std::vector<std::string> offsets = channel_->all_gather_strings(
        std::string(reinterpret_cast<const char*>(receive_at.data()), n * sizeof(std::int64_t)));
    for (int k = 0; k < n; ++k) {
      const int q = (me + k) % n;
      std::int64_t at = 0; // where rank q wants our block, in rows
      std::memcpy(&at, offsets[q].data() + me * sizeof(std::int64_t), sizeof at);
      if (send[q] == 0) continue;
      copy_async(queue, static_cast<char*>(mapped_[q]) + at * row_bytes,
                 static_cast<const char*>(out) + send_at[q] * row_bytes, send[q] * row_bytes);
    }
    queue.synchronize();
    channel_->all(true); // a barrier: every rank's copies are done
  }

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
