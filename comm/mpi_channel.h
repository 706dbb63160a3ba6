// mpi_channel.h: the Channel of a World over MPI point-to-point messages.
// make_channel: the direct path (device pointers to MPI) is taken when asked for, or with
// automatic when the MPI library reports CUDA support at run time (MPIX_Query_cuda_support);
// asking for direct from an MPI without it is an Error. Whether the peer path (CUDA IPC)
// works is found by the GPU engine when it opens its neighbours' memory (halo_exchange.h).
// CPU engines ignore the path (their memory is host memory).
#pragma once
#include "comm/channel.h"
#include "comm/world.h"
#include <memory>
#include <string>

namespace gf {

bool mpi_is_cuda_aware();
std::shared_ptr<Channel> make_channel(const World& world, ExchangePath path);

} // namespace gf
