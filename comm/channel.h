// channel.h: the messages an engine exchanges with its neighbours in time, and the one
// gather its reductions need. This is all of MPI that the engines and the CUDA translation
// units see (mpi.h stays out of them); mpi_channel.h implements it over MPI.
// send/receive are non-blocking (MPI_Isend / MPI_Irecv); wait() completes every posted
// message. Buffers must stay valid until wait() returns. Pointers are host memory unless
// device_pointers() is true (a CUDA-aware MPI on the direct path).
// all_to_all serves the distributed transpose of the Fourier-accelerated fixing
// (fourier/fourier_field.h). rank() and all_gather_strings serve the collective choice of launch
// parameters (tuning/rank_tuning.h).
#pragma once
#include "core/error.h"
#include "core/option_names.h"
#include <cstdint>
#include <string>
#include <vector>

namespace gf {

enum class Neighbour { prev, next }; // the ranks holding the slices before / after ours

// How halos travel between GPUs: through pinned host buffers (any MPI), straight from
// device memory (CUDA-aware MPI only), or copied by the GPU into the neighbour's memory
// (CUDA IPC, neighbours on one node; MPI carries only small notifications). automatic:
// peer where every rank can open its neighbours' memory, else direct where the MPI is
// CUDA-aware, else staged. Its names: core/option_names.h.
using ExchangePath = gaugefix::Exchange;

class Channel {
public:
  virtual ~Channel() = default;
  virtual int ranks() const = 0;
  virtual int rank() const = 0;
  virtual ExchangePath path() const = 0; // as requested; automatic is resolved by the user
  virtual bool device_pointers() const = 0;
  virtual bool neighbours_on_this_node() const = 0;
  virtual bool all_on_this_node() const = 0; // every rank (the transpose's peer path)
  virtual void send(const void* data, std::int64_t bytes, Neighbour to, int tag) = 0;
  virtual void receive(void* data, std::int64_t bytes, Neighbour from, int tag) = 0;
  virtual void wait() = 0;
  // Blocking exchange with every rank (MPI_Alltoallv): send[q] rows of `row_bytes` bytes from
  // `out` (blocks in rank order) go to rank q, receive[r] rows from rank r land in `in`
  // (blocks in rank order). Rank r's send[q] must equal rank q's receive[r].
  virtual void all_to_all(const void* out, const std::vector<std::int64_t>& send, void* in,
                          const std::vector<std::int64_t>& receive, std::int64_t row_bytes) = 0;
  // Every rank's part, concatenated in rank order, on every rank.
  virtual std::vector<double> gather_concat(const std::vector<double>& part) const = 0;
  // True on every rank when v is true on every rank.
  virtual bool all(bool v) const = 0;
  // Every rank's string (any length, any bytes), in rank order, on every rank.
  virtual std::vector<std::string> all_gather_strings(const std::string& s) const = 0;
};

// Whether MPI moves a message from and into the arrays themselves (host memory, or device
// memory with a CUDA-aware MPI); else it is staged through pinned host buffers. The one
// rule of the halo exchange, the next slice and the Fourier transpose.
template <class Exec>
bool mpi_reads_arrays(const Channel& channel) {
  return !Exec::device_memory || channel.device_pointers();
}

// The peer paths (the halo's and the Fourier transpose's, peer_memory.h), collective: use_peer_path is true
// on every rank where peer is asked for, or automatic where MPI cannot read device memory,
// and `on_one_node` holds on every rank; asking for peer where it does not is an Error
// ("--exchange peer needs <needs> on the same node"). After a failed mapping,
// refuse_unmapped_peer throws where peer was asked for (automatic stages instead).
inline bool use_peer_path(const Channel& channel, bool on_one_node, const std::string& needs) {
  const ExchangePath path = channel.path();
  const bool wanted =
      path == ExchangePath::peer || (path == ExchangePath::automatic && !channel.device_pointers());
  if (channel.all(wanted && on_one_node)) return true;
  if (path == ExchangePath::peer)
    throw Error("--exchange peer needs " + needs + " on the same node");
  return false;
}
inline void refuse_unmapped_peer(const Channel& channel, const std::string& memory) {
  if (channel.path() == ExchangePath::peer)
    throw Error("--exchange peer: a rank could not map " + memory + " (CUDA IPC)");
}

} // namespace gf
