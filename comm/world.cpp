#include "comm/world.h"
#include "comm/mpi_launch.h"
#include "core/error.h"
#include "core/log.h"
#include <chrono>
#include <cstdlib>
#include <numeric>
#include <thread>

namespace gf {

namespace {

// The claim of the one report of a failed run (World::abort_all): an int on rank 0 of
// MPI_COMM_WORLD, 0 until a failing rank swaps in its rank + 1 (MPI_Compare_and_swap, passive
// target). MPI_WIN_NULL where the window could not be created (each failing rank reports).
MPI_Win report_window = MPI_WIN_NULL;

void free_report_window() {
  if (report_window != MPI_WIN_NULL) MPI_Win_free(&report_window);
}

} // namespace

MpiSession::MpiSession(int& argc, char**& argv, Start start) {
  if (start == Start::where_launched && mpi_launcher().empty()) return; // one rank, no MPI
  // Open MPI 4.1's shared-file-pointer components lockedfile and sm overflow a buffer in
  // MPI_File_open for a path of more than about 250 bytes (SIGABRT: a legal long output or
  // input name of an HDF5 file). gaugefix uses no shared file pointers: only the component
  // that needs no file of its own is allowed (OMPI_MCA_sharedfp set by the user wins).
  ::setenv("OMPI_MCA_sharedfp", "individual", 0);
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw Error("MPI_Init_thread failed");
  started_ = true;
  const World world;
  log::set_ranks(world.rank(), world.size());
  if (world.size() > 1) {
    // every rank or none has the window: a failure to create it is agreed on
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int* claim = nullptr;
    const MPI_Aint bytes = world.rank() == 0 ? sizeof(int) : 0;
    const bool made = MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &claim,
                                       &report_window) == MPI_SUCCESS;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (made && world.rank() == 0) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, report_window);
      *claim = 0;
      MPI_Win_unlock(0, report_window);
    }
    if (!world.all(made)) {
      if (made) free_report_window();
      report_window = MPI_WIN_NULL;
    }
    world.barrier(); // the claim is 0 before any rank may swap it
  }
}

MpiSession::~MpiSession() {
  if (!started_ || !mpi_initialised()) return;
  free_report_window();
  MPI_Finalize();
}

bool mpi_initialised() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

World::World() : comm_(mpi_initialised() ? MPI_COMM_WORLD : MPI_COMM_NULL) {}

int World::rank() const {
  int r = 0;
  if (uses_mpi()) MPI_Comm_rank(comm_, &r);
  return r;
}

int World::size() const {
  int s = 1;
  if (uses_mpi()) MPI_Comm_size(comm_, &s);
  return s;
}

int World::node_rank() const {
  if (!uses_mpi()) return 0;
  MPI_Comm node;
  MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank(), MPI_INFO_NULL, &node);
  int r = 0;
  MPI_Comm_rank(node, &r);
  MPI_Comm_free(&node);
  return r;
}

namespace {

template <class T>
std::vector<T> gather_concat_impl(MPI_Comm comm, int size, const std::vector<T>& part,
                                  MPI_Datatype type) {
  const int n = static_cast<int>(part.size());
  std::vector<int> counts(size), displs(size);
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::vector<T> all(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(part.data(), n, type, all.data(), counts.data(), displs.data(), type, comm);
  return all;
}

} // namespace

std::vector<double> World::gather_concat(const std::vector<double>& part) const {
  if (!uses_mpi()) return part;
  return gather_concat_impl(comm_, size(), part, MPI_DOUBLE);
}

std::vector<std::uint32_t> World::gather_concat(const std::vector<std::uint32_t>& part) const {
  if (!uses_mpi()) return part;
  return gather_concat_impl(comm_, size(), part, MPI_UINT32_T);
}

double World::max(double v) const {
  double r = v;
  if (uses_mpi()) MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, comm_);
  return r;
}

int World::min(int v) const {
  int r = v;
  if (uses_mpi()) MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MIN, comm_);
  return r;
}

std::int64_t World::sum(std::int64_t v) const {
  std::int64_t r = v;
  if (uses_mpi()) MPI_Allreduce(&v, &r, 1, MPI_INT64_T, MPI_SUM, comm_);
  return r;
}

std::uint32_t World::bit_xor(std::uint32_t v) const {
  std::uint32_t r = v;
  if (uses_mpi()) MPI_Allreduce(&v, &r, 1, MPI_UINT32_T, MPI_BXOR, comm_);
  return r;
}

std::uint32_t World::sum_mod32(std::uint32_t v) const {
  std::uint64_t w = v, r = v;
  if (uses_mpi()) MPI_Allreduce(&w, &r, 1, MPI_UINT64_T, MPI_SUM, comm_);
  return static_cast<std::uint32_t>(r);
}

bool World::all(bool v) const {
  int i = v ? 1 : 0, r = i;
  if (uses_mpi()) MPI_Allreduce(&i, &r, 1, MPI_INT, MPI_LAND, comm_);
  return r != 0;
}

bool World::any(bool v) const {
  int i = v ? 1 : 0, r = i;
  if (uses_mpi()) MPI_Allreduce(&i, &r, 1, MPI_INT, MPI_LOR, comm_);
  return r != 0;
}

std::vector<std::string> World::gather_strings(const std::string& s) const {
  if (!uses_mpi()) return {s};
  const int n = static_cast<int>(s.size());
  std::vector<int> counts(static_cast<std::size_t>(size())), displs(counts.size());
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::vector<char> all(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(s.data(), n, MPI_CHAR, all.data(), counts.data(), displs.data(), MPI_CHAR, comm_);
  std::vector<std::string> out;
  for (std::size_t r = 0; r < counts.size(); ++r)
    out.emplace_back(all.data() + displs[r], static_cast<std::size_t>(counts[r]));
  return out;
}

void World::broadcast(std::string& s, int root) const {
  std::vector<char> bytes(s.begin(), s.end());
  broadcast(bytes, root);
  s.assign(bytes.begin(), bytes.end());
}

void World::broadcast(std::vector<char>& bytes, int root) const {
  if (!uses_mpi()) return;
  long n = static_cast<long>(bytes.size());
  MPI_Bcast(&n, 1, MPI_LONG, root, comm_);
  bytes.resize(static_cast<std::size_t>(n));
  MPI_Bcast(bytes.data(), static_cast<int>(n), MPI_CHAR, root, comm_);
}

void World::barrier() const {
  if (uses_mpi()) MPI_Barrier(comm_);
}

void World::abort_all(const std::string& message, int code) const {
  // One report per run, by the rank that fails first: each failing rank swaps its rank + 1 into
  // the claim on rank 0 of MPI_COMM_WORLD; the rank that finds it 0 logs the error (to stderr
  // and, with --log-file, to the log file) and stops every rank with MPI_Abort. A rank that
  // finds the claim taken logs nothing: it waits for the reporting rank's MPI_Abort, and calls
  // MPI_Abort itself once the claim says the report is written (rank + 1 negated).
  if (!mpi_initialised()) {
    log::write(log::Kind::error, message);
    log::close_file();
    std::exit(code);
  }
  int world_rank = 0, world_size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (world_size > 1 && report_window != MPI_WIN_NULL) {
    const int mine = world_rank + 1, none = 0;
    int found = 0;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, report_window);
    MPI_Compare_and_swap(&mine, &none, &found, MPI_INT, 0, 0, report_window);
    MPI_Win_unlock(0, report_window);
    if (found == 0) {
      log::write(log::Kind::error, message);
      log::close_file();
      const int done = -mine;
      int old = 0;
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, report_window);
      MPI_Fetch_and_op(&done, &old, MPI_INT, 0, 0, MPI_REPLACE, report_window);
      MPI_Win_unlock(0, report_window);
      MPI_Abort(MPI_COMM_WORLD, code);
    }
    // Another rank reports: its MPI_Abort stops this rank too. Only where that has not
    // happened 30 s after the report was written does this rank abort as well: several
    // aborts at once can crash Open MPI 4.1's mpirun (its pmix log handler), which then
    // ends the run with a signal instead of the code.
    using clock = std::chrono::steady_clock;
    clock::time_point reported{};
    for (;;) {
      const int nothing = 0;
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, report_window);
      MPI_Fetch_and_op(&nothing, &found, MPI_INT, 0, 0, MPI_NO_OP, report_window);
      MPI_Win_unlock(0, report_window);
      if (found < 0 && reported == clock::time_point{}) reported = clock::now();
      if (found < 0 && clock::now() - reported > std::chrono::seconds(30))
        MPI_Abort(MPI_COMM_WORLD, code);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  log::write(log::Kind::error, message);
  log::close_file();
  if (world_size > 1) MPI_Abort(MPI_COMM_WORLD, code);
  free_report_window();
  MPI_Finalize();
  std::exit(code);
}

void World::end_if_every_rank_failed(const std::string& error, int code) const {
  if (!all(!error.empty())) return;
  if (rank() == 0) log::write(log::Kind::error, error);
  log::close_file();
  if (mpi_initialised()) {
    free_report_window();
    MPI_Finalize();
  }
  std::exit(code);
}

} // namespace gf
