// halo_exchange.h: moves halo slices of a field in the device layout (field_view.h) between
// the ranks of a time decomposition, over a Channel, for any backend.
//
// A message is one contiguous block of the layout: a slot, a parity and a range of
// directions (all reals, all sites of the half slice). Three ways to move it:
//   pointers (CPU, or a CUDA-aware MPI): MPI reads and writes the field itself;
//   staged: device -> pinned host buffer (copy_async) -> MPI -> pinned buffer -> device;
//   peer (GPUs on one node, CUDA IPC): the sender's GPU copies the block straight into
//     the receiver's field (NVLink where present); MPI carries 1-byte tokens only: the
//     receiver first says "ready" (its kernels that read the block are done), the sender
//     copies, waits for the copy, then says "written". The block's place in the receiver
//     is the receiver's own receive block of the same tag (every rank posts the same list).
// The constructor is collective: the peer path is used only if every rank can map both
// neighbours' memory (else the staged one; asking for peer then is an Error).
//
// The gauge fixer's half-sweep of parity p (sweep_exchange_*), with slot s(t) = t + 1:
//   before: the halo slice -1 holds the previous rank's slice nt-1, parity 1-p, mu = t.
//   1. the boundary slices 0 and nt-1 are updated; updating slice 0 changes halo links;
//   2. post: the halo (-1, 1-p, t) goes back to its owner (the previous rank) and our
//      (nt-1, p, t), just updated, goes forward to the next rank as its halo (-1, p, t)
//      for the next half-sweep; the matching two blocks are received;
//   3. the interior slices 1 .. nt-2 are updated meanwhile (none of them touches a block
//      in flight); 4. complete.
// fill_temporal: the blocking refill of the halo (-1, both parities, t) (after upload or
// reprojection). fill_all: both halo slices (-1 and nt), every parity and direction, for
// updates that look forward and backward (the generator's staples). post_links /
// complete_links: the generator's sub-sweep (mu, parity) sends the links it just updated in
// slices 0 and nt - 1 to the neighbours' halo slices nt and -1, while it updates its interior.
#pragma once
#include "comm/channel.h"
#include "comm/message_tags.h"
#include "comm/peer_memory.h"
#include "core/error.h"
#include "lattice/field_view.h"
#include <cstring>
#include <memory>
#include <vector>

namespace gf {

// The geometry an engine stores for a slab: with halo slices when the channel joins
// several ranks, the slab itself otherwise (one rank: time wraps periodically).
inline Geometry stored_geometry(const Geometry& slab, const Channel* channel) {
  const bool several = channel && channel->ranks() > 1;
  return several ? Geometry::slab(slab.L, slab.t0, slab.nt, true) : slab;
}

template <class Exec, class S, int N>
class HaloExchange {
public:
  HaloExchange(std::shared_ptr<Channel> channel, const FieldView<S, N>& v)
      : channel_(std::move(channel)) {
    mode_ = mpi_reads_arrays<Exec>(*channel_) ? Mode::pointers : Mode::staged;
    if constexpr (Exec::device_memory) open_peers(v.data);
    if (mode_ == Mode::staged)
      for (int i = 0; i < 4; ++i)
        buffers_.push_back(std::make_unique<MessageBuffer<Exec>>(v.slot_stride() * sizeof(S)));
  }
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  const char* mode_name() const {
    return mode_ == Mode::peer ? "peer" : mode_ == Mode::staged ? "staged" : "pointers";
  }

  void sweep_exchange_post(const FieldView<S, N>& v, int p, const Queue<Exec>& q) {
    const int last = v.geom.nt; // slot of local slice nt - 1
    post(v,
         {{last, 1 - p, time_dir, 1, Neighbour::next, tags::halo_return},
          {0, p, time_dir, 1, Neighbour::prev, tags::halo_forward}},
         {{0, 1 - p, time_dir, 1, Neighbour::prev, tags::halo_return},
          {last, p, time_dir, 1, Neighbour::next, tags::halo_forward}},
         q);
  }
  void sweep_exchange_complete(const Queue<Exec>& q) { complete(q); }

  void fill_temporal(const FieldView<S, N>& v, const Queue<Exec>& q) {
    const int last = v.geom.nt;
    post(v,
         {{0, 0, time_dir, 1, Neighbour::prev, tags::halo_fill_first},
          {0, 1, time_dir, 1, Neighbour::prev, tags::halo_fill_second}},
         {{last, 0, time_dir, 1, Neighbour::next, tags::halo_fill_first},
          {last, 1, time_dir, 1, Neighbour::next, tags::halo_fill_second}},
         q);
    complete(q);
  }

  void fill_all(const FieldView<S, N>& v, const Queue<Exec>& q) {
    const int nt = v.geom.nt;
    const int all = 2 * v.ndir; // both parities, every direction: the whole slot
    post(
        v,
        {{0, 0, 0, all, Neighbour::prev, tags::halo_fill_first},
         {nt + 1, 0, 0, all, Neighbour::next, tags::halo_fill_second}},
        {{1, 0, 0, all, Neighbour::prev, tags::halo_fill_second}, {nt, 0, 0, all, Neighbour::next, tags::halo_fill_first}},
        q);
    complete(q);
  }

  void post_links(const FieldView<S, N>& v, int mu, int parity, const Queue<Exec>& q) {
    const int nt = v.geom.nt;
    post(v,
         {{0, parity, mu, 1, Neighbour::prev, tags::generator_back},
          {nt + 1, parity, mu, 1, Neighbour::next, tags::generator_ahead}},
         {{1, parity, mu, 1, Neighbour::prev, tags::generator_ahead},
          {nt, parity, mu, 1, Neighbour::next, tags::generator_back}},
         q);
  }
  void complete_links(const Queue<Exec>& q) { complete(q); }

private:
  // Directions mu .. mu + count - 1 of (slot, parity); with parity 0 and count 2 ndir the
  // whole slot (parities are stored one after the other).
  struct Block {
    int slot, parity, mu, count;
    Neighbour peer;
    int tag;
  };
  enum class Mode { pointers, staged, peer };

  // The peer path where every rank can map its neighbours' fields (peer_memory.h).
  void open_peers(void* allocation) {
    peer_ = std::make_unique<PeerMemory<Exec>>(channel_, allocation, PeerScope::neighbours,
                                               "its neighbours' GPU memory");
    if (peer_->usable()) {
      mode_ = Mode::peer;
    } else {
      peer_.reset();
    }
  }

  void post(const FieldView<S, N>& v, const std::vector<Block>& recvs,
            const std::vector<Block>& sends, const Queue<Exec>& q) {
    if (mode_ == Mode::peer) return post_peer(v, recvs, sends, q);
    const bool staged = mode_ == Mode::staged;
    recvs_.clear();
    for (std::size_t i = 0; i < recvs.size(); ++i) {
      const Block& b = recvs[i];
      S* dev = v.data + v.offset(b.slot, b.parity, b.mu, 0, 0);
      const std::int64_t bytes = bytes_of(v, b);
      void* target = staged ? buffers_[i]->data() : static_cast<void*>(dev);
      channel_->receive(target, bytes, b.peer, b.tag);
      recvs_.push_back({dev, target, bytes});
    }
    for (std::size_t i = 0; i < sends.size(); ++i) {
      const Block& b = sends[i];
      const S* dev = v.data + v.offset(b.slot, b.parity, b.mu, 0, 0);
      if (staged) copy_async(q, buffers_[2 + i]->data(), dev, bytes_of(v, b));
    }
    if (staged) q.synchronize();
    for (std::size_t i = 0; i < sends.size(); ++i) {
      const Block& b = sends[i];
      const S* dev = v.data + v.offset(b.slot, b.parity, b.mu, 0, 0);
      channel_->send(staged ? buffers_[2 + i]->data() : static_cast<const void*>(dev),
                     bytes_of(v, b), b.peer, b.tag);
    }
  }

  void post_peer(const FieldView<S, N>& v, const std::vector<Block>& recvs,
                 const std::vector<Block>& sends, const Queue<Exec>& q) {
    recvs_.clear();
    for (const Block& r : recvs)
      channel_->send(&token_, 1, r.peer, r.tag + tags::peer_ready);
    for (std::size_t i = 0; i < sends.size(); ++i)
      channel_->receive(&tokens_in_[i], 1, sends[i].peer, sends[i].tag + tags::peer_ready);
    channel_->wait();
    for (const Block& b : sends) {
      const Block& there = receive_block_with_tag(recvs, b.tag);
      char* base = static_cast<char*>(peer_->mapped(b.peer));
      void* dst =
          base + v.offset(there.slot, there.parity, there.mu, 0, 0) * std::int64_t(sizeof(S));
      copy_async(q, dst, v.data + v.offset(b.slot, b.parity, b.mu, 0, 0), bytes_of(v, b));
    }
    q.synchronize();
    for (const Block& b : sends)
      channel_->send(&token_, 1, b.peer, b.tag);
    for (std::size_t i = 0; i < recvs.size(); ++i)
      channel_->receive(&tokens_in_[i], 1, recvs[i].peer, recvs[i].tag);
  }

  static const Block& receive_block_with_tag(const std::vector<Block>& recvs, int tag) {
    for (const Block& r : recvs)
      if (r.tag == tag) return r;
    throw Error("halo exchange: no receive block for tag " + std::to_string(tag));
  }

  void complete(const Queue<Exec>& q) {
    channel_->wait();
    if (mode_ != Mode::staged) return;
    for (const Pending& r : recvs_)
      copy_async(q, r.device, r.host, r.bytes);
    q.synchronize();
  }

  static std::int64_t bytes_of(const FieldView<S, N>& v, const Block& b) {
    return std::int64_t(b.count) * v.reals() * v.pitch * std::int64_t(sizeof(S));
  }

  struct Pending {
    void* device;
    const void* host;
    std::int64_t bytes;
  };

  std::shared_ptr<Channel> channel_;
  Mode mode_ = Mode::pointers;
  std::unique_ptr<PeerMemory<Exec>> peer_; // the neighbours' fields, mapped (peer mode)
  char token_ = 1;
  char tokens_in_[4] = {};
  std::vector<std::unique_ptr<MessageBuffer<Exec>>> buffers_; // 2 receive, 2 send
  std::vector<Pending> recvs_;
};

} // namespace gf
