#include "io/file_digest.h"
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>
#include <zlib.h>

namespace gf {

namespace {

// CRC-32 of [first, first + bytes) of the open file; nullopt on a read error or short read.
std::optional<std::uint32_t> range_crc(int fd, std::int64_t first, std::int64_t bytes) {
  std::vector<unsigned char> buffer(std::size_t(4) << 20);
  uLong crc = crc32(0L, Z_NULL, 0);
  for (std::int64_t done = 0; done < bytes;) {
    const auto want =
        static_cast<std::size_t>(std::min<std::int64_t>(bytes - done, std::int64_t(buffer.size())));
    const ssize_t got = ::pread(fd, buffer.data(), want, static_cast<off_t>(first + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return std::nullopt;
    crc = crc32(crc, buffer.data(), static_cast<uInt>(got));
    done += got;
  }
  return static_cast<std::uint32_t>(crc);
}

} // namespace

std::optional<FileDigest> file_digest(const std::string& path, const World& world) {
  std::int64_t size = -1;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) size = st.st_size;
  const int ranks = world.size(), rank = world.rank();
  // every rank must see the same size (one file on a shared file system)
  const bool ok_here = size >= 0;
  std::optional<std::uint32_t> crc;
  std::int64_t first = 0, bytes = 0;
  if (ok_here) {
    const std::int64_t share = size / ranks, extra = size % ranks;
    first = rank * share + std::min<std::int64_t>(rank, extra);
    bytes = share + (rank < extra ? 1 : 0);
    crc = range_crc(fd, first, bytes);
  }
  if (fd >= 0) ::close(fd);
  const bool same_size = world.max(double(size)) == double(size); // collective on every rank
  const bool failed = world.any(!ok_here || !crc || !same_size);
  if (failed) return std::nullopt;
  const std::vector<std::uint32_t> parts = world.gather_concat(std::vector<std::uint32_t>{*crc});
  uLong whole = crc32(0L, Z_NULL, 0);
  const std::int64_t share = size / ranks, extra = size % ranks;
  for (int r = 0; r < ranks; ++r)
    whole = crc32_combine(whole, parts[std::size_t(r)],
                          static_cast<z_off_t>(share + (r < extra ? 1 : 0)));
  return FileDigest{size, static_cast<std::uint32_t>(whole)};
}

std::string crc32_text(std::uint32_t crc) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", crc);
  return b;
}

std::optional<std::uint32_t> parse_crc32(const std::string& text) {
  if (text.size() != 8 || text.find_first_not_of("0123456789abcdef") != std::string::npos)
    return std::nullopt;
  return static_cast<std::uint32_t>(std::stoul(text, nullptr, 16));
}

} // namespace gf
