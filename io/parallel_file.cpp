#include "io/parallel_file.h"
#include "core/error.h"
#include "io/path_checks.h"
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace gf {

namespace {

// The message of the lowest rank whose `local` is not empty, on every rank ("" if none).
std::string first_error(const World& world, const std::string& local) {
  const int size = world.size();
  const int first = world.min(local.empty() ? size : world.rank());
  if (first == size) return "";
  std::string message = local;
  world.broadcast(message, first);
  return size > 1 ? "rank " + std::to_string(first) + ": " + message : message;
}

} // namespace

SlabFileWriter::SlabFileWriter(const std::string& path, const World& world,
                               const std::vector<std::string>& inputs)
    : path_(path), world_(world), rank_(world.rank()) {
  std::string error;
  if (rank_ == 0) {
    try {
      check_output_path(path, inputs);
      tmp_.emplace(path);
      tmp_path_ = tmp_->path();
      fd_ = tmp_->fd();
    } catch (const Error& e) {
      error = e.what();
    }
  }
  if (const std::string e = first_error(world_, error); !e.empty()) throw Error(e);
  world_.broadcast(tmp_path_, 0);
  if (rank_ != 0) {
    fd_ = ::open(tmp_path_.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd_ < 0)
      error = "output file '" + path + "': cannot open the temporary file '" + tmp_path_ +
              "': " + std::strerror(errno);
  }
  if (const std::string e = first_error(world_, error); !e.empty()) {
    if (rank_ != 0 && fd_ >= 0) ::close(fd_);
    throw Error(e); // rank 0: tmp_ removes the temporary file
  }
}

SlabFileWriter::~SlabFileWriter() {
  if (rank_ != 0 && fd_ >= 0) ::close(fd_);
}

void SlabFileWriter::write_at(std::int64_t offset, const void* data, std::int64_t bytes) {
  if (!error_.empty()) return;
  if (fd_ < 0 || offset < 0 || bytes < 0) {
    error_ = "write at offset " + std::to_string(offset) + " after commit or with a negative range";
    return;
  }
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::int64_t done = 0; done < bytes;) {
    const ssize_t n =
        ::pwrite(fd_, p + done, static_cast<std::size_t>(bytes - done), offset + done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error_ = "write of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
               " to the temporary file '" + tmp_path_ +
               "' failed: " + (n < 0 ? std::strerror(errno) : "no progress");
      return;
    }
    done += n;
  }
}

void SlabFileWriter::commit() {
  if (committed_ || fd_ < 0)
    throw Error("output file '" + path_ + "': commit: the file was already committed");
  if (error_.empty() && ::fsync(fd_) != 0)
    error_ = "fsync of the temporary file '" + tmp_path_ + "' failed: " + std::strerror(errno);
  if (rank_ != 0 && ::close(fd_) != 0 && error_.empty())
    error_ = "close of the temporary file '" + tmp_path_ + "' failed: " + std::strerror(errno);
  fd_ = -1;
  std::string e = first_error(world_, error_);
  if (e.empty()) {
    std::string commit_error;
    if (rank_ == 0) {
      try {
        tmp_->commit(); // closes, checks the final name, renames
      } catch (const Error& err) {
        commit_error = err.what();
      }
    }
    e = first_error(world_, commit_error);
  }
  if (rank_ == 0) tmp_.reset(); // removes the temporary file unless it was renamed
  if (!e.empty())
    throw Error(
        e.find("'" + path_ + "'") != std::string::npos ? e : "output file '" + path_ + "': " + e);
  committed_ = true;
}

SlabFileReader::SlabFileReader(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw Error("file '" + path + "': cannot open for reading: " + std::strerror(errno));
}

SlabFileReader::~SlabFileReader() {
  ::close(fd_);
}

void SlabFileReader::read_at(std::int64_t offset, void* data, std::int64_t bytes) const {
  if (offset < 0 || bytes < 0)
    throw Error("file '" + path_ + "': read of a negative range at offset " +
                std::to_string(offset));
  auto* p = static_cast<unsigned char*>(data);
  std::int64_t done = 0;
  while (done < bytes) {
    const ssize_t n = ::pread(fd_, p + done, static_cast<std::size_t>(bytes - done), offset + done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw Error("file '" + path_ + "': read error at offset " + std::to_string(offset + done) +
                  ": " + std::strerror(errno));
    if (n == 0) break;
    done += n;
  }
  if (done < bytes)
    throw Error("file '" + path_ + "': short read: " + std::to_string(bytes) +
                " bytes wanted at offset " + std::to_string(offset) + ", only " +
                std::to_string(done) + " there (truncated file)");
}

std::vector<unsigned char> read_slab_bytes(const std::string& path, std::int64_t offset,
                                           std::int64_t bytes) {
  if (offset < 0 || bytes < 0)
    throw Error("file '" + path + "': read of a negative range at offset " +
                std::to_string(offset));
  std::vector<unsigned char> buf(static_cast<std::size_t>(bytes));
  SlabFileReader(path).read_at(offset, buf.data(), bytes);
  return buf;
}

} // namespace gf
