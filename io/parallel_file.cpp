#include "io/parallel_file.h"
#include "core/error.h"
#include "io/atomic_file.h"
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace gf {

namespace fs = std::filesystem;

namespace {

// The message of the lowest rank whose `local` is not empty, on every rank ("" if none).
std::string first_error(const World& world, const std::string& local) {
  const int size = world.size();
  int mine = local.empty() ? size : world.rank(), first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, world.comm());
  if (first == size) return "";
  std::string message = local;
  world.broadcast(message, first);
  return size > 1 ? "rank " + std::to_string(first) + ": " + message : message;
}

std::string temporary_name(const std::string& path) {
  static std::atomic<int> count{0};
  const fs::path p(path);
  if (p.filename().empty()) throw Error("output file '" + path + "': not a file name");
  std::string name = "."; // built step by step: "." + string trips GCC 12's -Wrestrict
  name +=
      p.filename().string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(count++);
  return (p.parent_path() / name).string();
}

void remove_quietly(const std::string& p) {
  std::error_code ec;
  fs::remove(p, ec);
}

} // namespace

SlabFileWriter::SlabFileWriter(const std::string& path, const World& world,
                               const std::vector<std::string>& inputs)
    : path_(path), world_(world), rank_(world.rank()) {
  std::string error;
  if (rank_ == 0) {
    try {
      check_output_path(path, inputs);
      tmp_path_ = temporary_name(path);
      fd_ = ::open(tmp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd_ < 0)
        error = "output file '" + path + "': cannot create the temporary file '" + tmp_path_ +
                "': " + std::strerror(errno);
    } catch (const Error& e) {
      error = e.what();
    }
  }
  if (const std::string e = first_error(world_, error); !e.empty()) throw Error(e);
  world_.broadcast(tmp_path_, 0);
  if (rank_ != 0) {
    fd_ = ::open(tmp_path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0)
      error = "output file '" + path + "': cannot open the temporary file '" + tmp_path_ +
              "': " + std::strerror(errno);
  }
  if (const std::string e = first_error(world_, error); !e.empty()) {
    if (fd_ >= 0) ::close(fd_);
    if (rank_ == 0) remove_quietly(tmp_path_);
    throw Error(e);
  }
}

SlabFileWriter::~SlabFileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && rank_ == 0) remove_quietly(tmp_path_);
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
  if (::close(fd_) != 0 && error_.empty())
    error_ = "close of the temporary file '" + tmp_path_ + "' failed: " + std::strerror(errno);
  fd_ = -1;
  std::string e = first_error(world_, error_);
  if (e.empty()) {
    std::string rename_error;
    if (rank_ == 0) {
      std::error_code ec;
      fs::rename(tmp_path_, path_, ec);
      if (ec)
        rename_error = "rename of '" + tmp_path_ + "' to the final name failed: " + ec.message();
    }
    e = first_error(world_, rename_error);
  }
  if (!e.empty()) {
    if (rank_ == 0) remove_quietly(tmp_path_);
    throw Error("output file '" + path_ + "': " + e);
  }
  committed_ = true;
}

std::vector<unsigned char> read_slab_bytes(const std::string& path, std::int64_t offset,
                                           std::int64_t bytes) {
  if (offset < 0 || bytes < 0)
    throw Error("file '" + path + "': read of a negative range at offset " +
                std::to_string(offset));
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error("file '" + path + "': cannot open for reading: " + std::strerror(errno));
  std::vector<unsigned char> buf(static_cast<std::size_t>(bytes));
  std::int64_t done = 0;
  while (done < bytes) {
    const ssize_t n =
        ::pread(fd, buf.data() + done, static_cast<std::size_t>(bytes - done), offset + done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      throw Error("file '" + path + "': read error at offset " + std::to_string(offset + done) +
                  ": " + why);
    }
    if (n == 0) break;
    done += n;
  }
  ::close(fd);
  if (done < bytes)
    throw Error("file '" + path + "': short read: " + std::to_string(bytes) +
                " bytes wanted at offset " + std::to_string(offset) + ", only " +
                std::to_string(done) + " there (truncated file)");
  return buf;
}

} // namespace gf
