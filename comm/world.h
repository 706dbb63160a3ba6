// world.h: the ranks of a run and the collective operations the driver, the generator and
// the file formats need. One World wraps MPI_COMM_WORLD; every program creates an
// MpiSession first (a run without mpirun is a world of one rank).
//
// Reductions that must not depend on the decomposition (F, theta, plaquette, checksums
// kept as per-slice or per-rank partial values) are done by gathering the parts in rank
// order and combining them in that fixed order on every rank (gather_concat), never by
// MPI_Allreduce of floating-point sums, whose order MPI does not fix.
// Errors: a rank that throws calls abort_all (main.cpp), which prints the run's one error
// report and stops every rank; no collective waits for a rank that has failed. MpiSession tells the
// log (core/log.h) this process's rank.
#pragma once
#include <cstdint>
#include <mpi.h>
#include <string>
#include <vector>

namespace gf {

class MpiSession {
public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

class World {
public:
  World() = default;
  explicit World(MPI_Comm comm) : comm_(comm) {}

  MPI_Comm comm() const { return comm_; }
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
  // rank that finds the report claimed prints nothing and waits for that abort. An error that
  // every rank meets (a bad option, an unreadable file) is therefore printed once, and an error
  // of one rank is printed by that rank. No time limit decides anything.
  [[noreturn]] void abort_all(const std::string& message, int code) const;

private:
  MPI_Comm comm_ = MPI_COMM_WORLD;
};

} // namespace gf
