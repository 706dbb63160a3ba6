// world.h: the ranks of a run and the collective operations the driver, the generator and
// the file formats need. A World is a communicator of MPI (MPI_COMM_WORLD: the default where
// MPI is initialised) or one rank without MPI: rank 0 of 1, node rank 0, every collective the
// identity on this rank's data (the default where MPI is not initialised; World::alone()
// always). Every program creates an MpiSession first, which initialises MPI only where a
// launcher started the process (mpi_launch.h): a process that runs alone makes no MPI call.
//
// Reductions that must not depend on the decomposition (F, theta, plaquette, checksums
// kept as per-slice or per-rank partial values) are done by gathering the parts in rank
// order and combining them in that fixed order on every rank (gather_concat), never by
// MPI_Allreduce of floating-point sums, whose order MPI does not fix.
// Errors: a rank that throws calls abort_all (main.cpp), which prints the run's one error
// report and stops every rank; no collective waits for a rank that has failed.
// MpiSession initialises MPI (MPI_THREAD_FUNNELED) where `start` says so: where_launched
// (the programs) where mpi_launcher() names a launcher, always (the test binaries, whose
// one-rank runs use MPI too); it finalises what it initialised and tells the log (core/log.h)
// this process's rank. mpi_initialised: MPI is initialised and not finalised.
#pragma once
#include <cstdint>
#include <mpi.h>
#include <string>
#include <vector>

namespace gf {

class MpiSession {
public:
  enum class Start { where_launched, always };
  MpiSession(int& argc, char**& argv, Start start = Start::where_launched);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

private:
  bool started_ = false;
};

bool mpi_initialised();

class World {
public:
  World(); // MPI_COMM_WORLD where MPI is initialised, else one rank without MPI
  explicit World(MPI_Comm comm) : comm_(comm) {}
  static World alone() { return World(MPI_COMM_NULL); } // one rank without MPI

  bool uses_mpi() const { return comm_ != MPI_COMM_NULL; }
  MPI_Comm comm() const { return comm_; } // MPI_COMM_NULL without MPI
  int rank() const;
  int size() const;
  // Rank among the ranks of this node (picks the GPU).
  int node_rank() const;
  // Neighbours in the time direction (periodic ring of ranks).
  int prev() const { return (rank() + size() - 1) % size(); }
  int next() const { return (rank() + 1) % size(); }

  // The parts of every rank, concatenated in rank order, on every rank. Parts may differ
  // in length.
  std::vector<double> gather_concat(const std::vector<double>& part) const;
  std::vector<std::uint32_t> gather_concat(const std::vector<std::uint32_t>& part) const;
  double max(double v) const;
  int min(int v) const;
  std::int64_t sum(std::int64_t v) const;
  std::uint32_t bit_xor(std::uint32_t v) const;
  std::uint32_t sum_mod32(std::uint32_t v) const; // sum modulo 2^32
  bool any(bool v) const;
  bool all(bool v) const;
  // Every rank's string, in rank order, on every rank.
  std::vector<std::string> gather_strings(const std::string& s) const;
  void broadcast(std::string& s, int root = 0) const;
  void broadcast(std::vector<char>& bytes, int root = 0) const;
  void barrier() const;
  // Logs "error: message" (core/log.h: with the time and, of several ranks, the rank) and stops
  // every rank with the exit code. A run reports one error, whichever ranks fail: the first
  // rank to claim the report (an atomic compare-and-swap on rank 0 of MPI_COMM_WORLD, set up
  // by MpiSession) prints it, with --log-file into the log file too, and calls MPI_Abort; a
  // rank that finds the report claimed prints nothing and waits for that abort (aborting itself
  // only 30 s after the report). An error that every rank meets (an unreadable file) is
  // therefore printed once, and an error of one rank is printed by that rank. No time limit
  // decides what is reported. Without MPI: logs the error and exits with the code.
  [[noreturn]] void abort_all(const std::string& message, int code) const;
  // Collective: where every rank has an error (error not empty; the same on every rank, e.g.
  // a bad option: every rank parses the same command line), rank 0 logs it and every rank
  // finalises MPI and exits with the code, without MPI_Abort. Returns where some rank has none.
  void end_if_every_rank_failed(const std::string& error, int code) const;

private:
  MPI_Comm comm_;
};

} // namespace gf
