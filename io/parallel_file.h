// parallel_file.h: one output file written by every rank of a World, each rank its own byte
// ranges, that appears complete or not at all; and reading one byte range of a file.
//
// SlabFileWriter (all ranks construct it, write their ranges, then call commit()):
// - constructor (collective): check_output_path(path, inputs) (path_checks.h); rank 0 creates
//   the temporary file beside path (temporary_file.h: exclusive create, unpredictable name,
//   removed on SIGTERM/SIGINT/SIGHUP, stale ones of killed runs removed; the name is
//   broadcast), then every rank opens it for writing. A failure on any rank throws the same
//   gf::Error on every rank.
// - write_at (independent): POSIX pwrite of [offset, offset + bytes) through the rank's own
//   descriptor. Ranges of different ranks must not overlap. A failed write does not throw:
//   it is recorded and reported by commit(), so that every rank fails together.
// - commit (collective): every rank fsyncs and closes its descriptor (each step checked);
//   the ranks agree on success; only when every rank succeeded does rank 0 rename the
//   temporary file to path (still absent or a regular file), and the outcome is broadcast.
//   Any failure (the first failing rank's message) throws gf::Error naming the file on every
//   rank, and the temporary file is removed. No rank returns from commit() before the rename
//   is done, and the renamed file never holds data a rank failed to write.
// - destructor without a successful commit: closes the descriptor; rank 0 removes the
//   temporary file (not collective: safe during stack unwinding on one rank).
// POSIX writes were chosen over MPI-IO so that the destructor needs no collective call; the
// fsync before the agreement makes every rank's data durable and visible to the others
// (also on NFS, close-to-open) before the rename.
//
// SlabFileReader: one file opened for reading once (a reader's every byte range comes through
// the same descriptor: no open per range); read_at(offset, data, bytes) fills data with the
// bytes [offset, offset + bytes) (pread, resumed after EINTR and partial reads) and throws
// gf::Error naming the file on a missing file, a read error or a short read (truncated file).
// read_slab_bytes: the same for one range, into a new vector.
#pragma once
#include "comm/world.h"
#include "io/temporary_file.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gf {

class SlabFileWriter {
public:
  SlabFileWriter(const std::string& path, const World& world,
                 const std::vector<std::string>& inputs = {});
  ~SlabFileWriter();
  SlabFileWriter(const SlabFileWriter&) = delete;
  SlabFileWriter& operator=(const SlabFileWriter&) = delete;

  void write_at(std::int64_t offset, const void* data, std::int64_t bytes);
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temporary_path() const { return tmp_path_; }

private:
  std::string path_;
  std::string tmp_path_;
  World world_;
  int rank_ = 0;                     // kept so that the destructor makes no MPI call
  std::optional<TemporaryFile> tmp_; // rank 0: owns the temporary file and fd_
  int fd_ = -1;
  std::string error_; // this rank's first failure, reported by commit()
  bool committed_ = false;
};

class SlabFileReader {
public:
  explicit SlabFileReader(const std::string& path);
  ~SlabFileReader();
  SlabFileReader(const SlabFileReader&) = delete;
  SlabFileReader& operator=(const SlabFileReader&) = delete;

  void read_at(std::int64_t offset, void* data, std::int64_t bytes) const;

private:
  std::string path_;
  int fd_ = -1;
};

std::vector<unsigned char> read_slab_bytes(const std::string& path, std::int64_t offset,
                                           std::int64_t bytes);

} // namespace gf
