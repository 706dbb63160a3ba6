#include "comm/mpi_channel.h"
#include "core/error.h"
#include <limits>
#include <numeric>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

namespace gf {

namespace {

class MpiChannel final : public Channel {
public:
  MpiChannel(const World& world, ExchangePath path, bool device)
      : world_(world), path_(path), device_(device) {
    MPI_Comm node;
    MPI_Comm_split_type(world.comm(), MPI_COMM_TYPE_SHARED, world.rank(), MPI_INFO_NULL, &node);
    MPI_Group world_group, node_group;
    MPI_Comm_group(world.comm(), &world_group);
    MPI_Comm_group(node, &node_group);
    const int peers[2] = {world.prev(), world.next()};
    int in_node[2];
    MPI_Group_translate_ranks(world_group, 2, peers, node_group, in_node);
    same_node_ = in_node[0] != MPI_UNDEFINED && in_node[1] != MPI_UNDEFINED;
    int node_size = 0;
    MPI_Comm_size(node, &node_size);
    all_same_node_ = node_size == world.size();
    MPI_Group_free(&world_group);
    MPI_Group_free(&node_group);
    MPI_Comm_free(&node);
  }
  ~MpiChannel() override {
    if (!requests_.empty()) MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  }

  int ranks() const override { return world_.size(); }
  int rank() const override { return world_.rank(); }
  ExchangePath path() const override { return path_; }
  bool device_pointers() const override { return device_; }
  bool neighbours_on_this_node() const override { return same_node_; }
  bool all_on_this_node() const override { return all_same_node_; }

  void send(const void* data, std::int64_t bytes, Neighbour to, int tag) override {
    requests_.emplace_back();
    MPI_Isend(data, count(bytes), MPI_BYTE, peer(to), tag, world_.comm(), &requests_.back());
  }
  void receive(void* data, std::int64_t bytes, Neighbour from, int tag) override {
    requests_.emplace_back();
    MPI_Irecv(data, count(bytes), MPI_BYTE, peer(from), tag, world_.comm(), &requests_.back());
  }
  void wait() override {
    if (requests_.empty()) return;
    if (MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE) !=
        MPI_SUCCESS)
      throw Error("halo exchange: MPI_Waitall failed");
    requests_.clear();
  }
  void all_to_all(const void* out, const std::vector<std::int64_t>& send, void* in,
                  const std::vector<std::int64_t>& receive, std::int64_t row_bytes) override {
    const int n = world_.size();
    std::vector<int> send_counts(n), send_displs(n), receive_counts(n), receive_displs(n);
    std::int64_t send_at = 0, receive_at = 0;
    for (int q = 0; q < n; ++q) {
      send_counts[q] = rows(send[q]);
      receive_counts[q] = rows(receive[q]);
      send_displs[q] = rows(send_at);
      receive_displs[q] = rows(receive_at);
      send_at += send[q];
      receive_at += receive[q];
    }
    if (row_bytes > std::numeric_limits<int>::max())
      throw Error("transpose: rows of " + std::to_string(row_bytes) + " bytes exceed MPI's int count");
    MPI_Datatype row;
    MPI_Type_contiguous(static_cast<int>(row_bytes), MPI_BYTE, &row);
    MPI_Type_commit(&row);
    const int status = MPI_Alltoallv(out, send_counts.data(), send_displs.data(), row, in, receive_counts.data(),
                                     receive_displs.data(), row, world_.comm());
    MPI_Type_free(&row);
    if (status != MPI_SUCCESS) throw Error("transpose: MPI_Alltoallv failed");
  }
  std::vector<double> gather_concat(const std::vector<double>& part) const override {
    return world_.gather_concat(part);
  }
  bool all(bool v) const override { return !world_.any(!v); }
  std::vector<std::string> all_gather_strings(const std::string& s) const override {
    const int n = static_cast<int>(s.size());
    std::vector<int> counts(world_.size()), displs(world_.size());
    MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, world_.comm());
    std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
    std::string all(static_cast<std::size_t>(displs.back() + counts.back()), '\0');
    MPI_Allgatherv(s.data(), n, MPI_CHAR, all.data(), counts.data(), displs.data(), MPI_CHAR,
                   world_.comm());
    std::vector<std::string> parts;
    for (int r = 0; r < world_.size(); ++r) parts.push_back(all.substr(displs[r], counts[r]));
    return parts;
  }

private:
  int peer(Neighbour n) const { return n == Neighbour::prev ? world_.prev() : world_.next(); }
  static int rows(std::int64_t n) {
    if (n > std::numeric_limits<int>::max())
      throw Error("transpose: " + std::to_string(n) + " rows exceed MPI's int count; use fewer ranks per node or a smaller lattice");
    return static_cast<int>(n);
  }
  static int count(std::int64_t bytes) {
    if (bytes > std::numeric_limits<int>::max())
      throw Error("halo exchange: a message of " + std::to_string(bytes) +
                  " bytes exceeds MPI's int count; use more ranks or a smaller time slice");
    return static_cast<int>(bytes);
  }

  World world_;
  ExchangePath path_;
  bool device_;
  bool same_node_ = false;     // both neighbours share this node
  bool all_same_node_ = false; // every rank does
  std::vector<MPI_Request> requests_;
};

} // namespace

bool mpi_is_cuda_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

std::shared_ptr<Channel> make_channel(const World& world, ExchangePath path) {
  const bool aware = mpi_is_cuda_aware();
  if (path == ExchangePath::direct && !aware)
    throw Error("--exchange direct needs a CUDA-aware MPI; this MPI library is not (use staged or auto)");
  const bool device = path == ExchangePath::direct || (path == ExchangePath::automatic && aware);
  return std::make_shared<MpiChannel>(world, path, device);
}

} // namespace gf
