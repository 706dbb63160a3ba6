#include "io/hdf5_dataset.h"
#include "core/error.h"
#include "gaugefix_version.h"
#include "io/field_checks.h"
#include "io/parallel_file.h"
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <hdf5.h>
#include <optional>
#include <sys/statvfs.h>
#include <unistd.h>
#include <utility>

namespace gf {

namespace {

static_assert(sizeof(Complex<double>) == 2 * sizeof(double), "HostField data is read as reals");

constexpr const char* reserved[] = {"lattice",  "nc",     "bytes_per_real",
                                    "checksum", "layout", "gaugefix_version"};

// An HDF5 identifier, closed when it goes out of scope.
class Id {
public:
  Id(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Id() {
    if (id_ >= 0) close_(id_);
  }
  Id(Id&& o) noexcept : id_(std::exchange(o.id_, -1)), close_(o.close_) {}
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  operator hid_t() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now; the status of the close (the destructor cannot report one).
  herr_t close() { return close_(std::exchange(id_, -1)); }

private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// While it lives, HDF5 prints no error stacks; failures are reported through Error instead.
class QuietErrors {
public:
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// The innermost message of HDF5's error stack, as ": message" ("" where there is none).
std::string hdf5_reason() {
  std::string message;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* data) -> herr_t {
        if (n == 0 && e->desc) *static_cast<std::string*>(data) = std::string(": ") + e->desc;
        return 0;
      },
      &message);
  return message;
}

struct Context {
  std::string path;
  std::string name() const { return "HDF5 file '" + path + "'"; }
  [[noreturn]] void fail(const std::string& what) const { throw Error(name() + ": " + what); }
  // id or status as returned by an HDF5 call; throws naming the step where it failed.
  hid_t check(hid_t id, const std::string& step) const {
    if (id < 0) fail(step + " failed" + hdf5_reason());
    return id;
  }
};

std::vector<hsize_t> shape(const Geometry& g, int nt, int ndir, int nc) {
  std::vector<hsize_t> s = {hsize_t(nt), hsize_t(g.L[2]), hsize_t(g.L[1]), hsize_t(g.L[0])};
  if (ndir == 4) s.push_back(4);
  for (const int n : {nc, nc, 2})
    s.push_back(hsize_t(n));
  return s;
}

// text + "," + item, or item where text is empty.
void append(std::string& text, const std::string& item) {
  if (!text.empty()) text += ',';
  text += item;
}

std::string join(const std::vector<hsize_t>& v) {
  std::string s;
  for (const hsize_t x : v)
    append(s, std::to_string(x));
  return "[" + s + "]";
}

// The NERSC checksum rule: the sum of the 32-bit words of the values' bit patterns, the
// values shared among the OpenMP threads.
std::uint32_t word_sum(const double* v, std::int64_t n) {
  std::uint32_t sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
  for (std::int64_t k = 0; k < n; ++k) {
    const auto w = std::bit_cast<std::uint64_t>(v[k]);
    sum += static_cast<std::uint32_t>(w) + static_cast<std::uint32_t>(w >> 32);
  }
  return sum;
}
std::uint32_t word_sum(const float* v, std::int64_t n) {
  std::uint32_t sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
  for (std::int64_t k = 0; k < n; ++k)
    sum += std::bit_cast<std::uint32_t>(v[k]);
  return sum;
}

// Whether every value is finite, the values shared among the OpenMP threads.
bool all_finite(const double* v, std::int64_t n) {
  bool finite = true;
#pragma omp parallel for reduction(&& : finite) schedule(static)
  for (std::int64_t k = 0; k < n; ++k)
    finite = finite && std::isfinite(v[k]);
  return finite;
}

// to[k] = from[k] converted, the values shared among the OpenMP threads.
template <class From, class To>
void convert_values(const From* from, To* to, std::int64_t n) {
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < n; ++k)
    to[k] = static_cast<To>(from[k]);
}

// The attributes as given on rank 0, on every rank (HDF5 needs the same on all).
Hdf5Attributes from_rank0(const Hdf5Attributes& a, const World& world) {
  std::vector<char> bytes;
  const auto put = [&](const std::string& s) { bytes.insert(bytes.end(), s.begin(), s.end() + 1); };
  for (const auto& [k, v] : a.strings)
    put("s" + k), put(v);
  const auto put_value = [&](const char* kind, const std::string& k, const auto& v) {
    put(kind + k);
    const auto* p = reinterpret_cast<const char*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof v);
  };
  for (const auto& [k, v] : a.numbers)
    put_value("n", k, v);
  for (const auto& [k, v] : a.integers)
    put_value("i", k, v);
  for (const auto& [k, v] : a.booleans)
    put_value("b", k, v);
  world.broadcast(bytes, 0);
  Hdf5Attributes r;
  const auto get_value = [&](std::size_t& pos, auto& into) {
    std::memcpy(&into, bytes.data() + pos, sizeof into);
    pos += sizeof into;
  };
  for (std::size_t pos = 0; pos < bytes.size();) {
    const std::string key(bytes.data() + pos);
    pos += key.size() + 1;
    const std::string name = key.substr(1);
    if (key[0] == 's') {
      r.strings[name] = std::string(bytes.data() + pos);
      pos += r.strings[name].size() + 1;
    } else if (key[0] == 'n') {
      get_value(pos, r.numbers[name]);
    } else if (key[0] == 'i') {
      get_value(pos, r.integers[name]);
    } else {
      get_value(pos, r.booleans[name]);
    }
  }
  return r;
}

// The boolean type of h5py and pandas: an enum of int8 with FALSE = 0 and TRUE = 1.
Id boolean_type() {
  Id type(H5Tenum_create(H5T_NATIVE_INT8), H5Tclose);
  const std::int8_t no = 0, yes = 1;
  H5Tenum_insert(type, "FALSE", &no);
  H5Tenum_insert(type, "TRUE", &yes);
  return type;
}

// "true" or "false" for an attribute of boolean_type(); nullopt for any other type.
std::optional<bool> read_boolean(hid_t attribute, hid_t type) {
  if (H5Tget_class(type) != H5T_ENUM || H5Tget_nmembers(type) != 2 || H5Tget_size(type) != 1)
    return std::nullopt;
  std::int8_t value = 0;
  char name[8] = {};
  if (H5Aread(attribute, type, &value) < 0 || H5Tenum_nameof(type, &value, name, sizeof name) < 0)
    return std::nullopt;
  if (std::string(name) == "TRUE") return true;
  if (std::string(name) == "FALSE") return false;
  return std::nullopt;
}

// n == 0: a scalar attribute.
void write_attribute(const Context& c, hid_t obj, const std::string& name, hid_t file_type,
                     hid_t mem_type, const void* data, hsize_t n = 0) {
  const Id space(n ? H5Screate_simple(1, &n, nullptr) : H5Screate(H5S_SCALAR), H5Sclose);
  const Id a(H5Acreate2(obj, name.c_str(), file_type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  c.check(a, "creating the attribute '" + name + "'");
  c.check(H5Awrite(a, mem_type, data), "writing the attribute '" + name + "'");
}

void write_string_attribute(const Context& c, hid_t obj, const std::string& name,
                            std::string value) {
  value.resize(std::max<std::size_t>(value.size(), 1), '\0');
  const Id type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type, value.size());
  H5Tset_strpad(type, H5T_STR_NULLPAD);
  H5Tset_cset(type, H5T_CSET_UTF8);
  write_attribute(c, obj, name, type, type, value.data());
}

// This rank's time slices [t0, t0 + nt) of the dataset, one at a time, so that no single
// MPI-IO transfer is large: transfer(t, memory space, file space) for local slice t. The
// transfers are independent (HDF5's default, also through MPI-IO): a rank's slice is one
// contiguous byte range of the file, which collective buffering would only route through
// aggregator ranks (slower on 2 ranks in /dev/shm, docs/formats.md).
template <class Transfer>
void for_each_slice(hid_t dataset, const std::vector<hsize_t>& dims, int t0, int nt,
                    Transfer&& transfer) {
  std::vector<hsize_t> slice = dims;
  slice[0] = 1;
  for (int t = 0; t < nt; ++t) {
    const Id file_space(H5Dget_space(dataset), H5Sclose);
    const Id mem_space(H5Screate_simple(int(slice.size()), slice.data(), nullptr), H5Sclose);
    std::vector<hsize_t> start(dims.size(), 0);
    start[0] = hsize_t(t0 + t);
    H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr, slice.data(), nullptr);
    transfer(t, hid_t(mem_space), hid_t(file_space));
  }
}

// MPI-IO for a World of MPI, else HDF5's default POSIX driver (sec2), which makes no MPI call.
// sec2 does not take HDF5's own flock, as MPI-IO does not: the temporary file a write goes to
// is already locked by its TemporaryFile (temporary_file.h).
Id file_access(const Context& c, const World& world) {
  Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (world.uses_mpi())
    c.check(H5Pset_fapl_mpio(fapl, world.comm(), MPI_INFO_NULL), "setting MPI-IO file access");
  else
    c.check(H5Pset_file_locking(fapl, false, true), "setting file access without HDF5's lock");
  return fapl;
}

// The dataset's storage allocated when it is created, as MPI-IO always does: the same file,
// byte for byte, through either driver.
Id dataset_creation(const Context& c) {
  Id dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  c.check(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY), "setting early allocation");
  return dcpl;
}

std::string number_text(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

struct Collected {
  std::vector<std::pair<std::string, std::string>> text;
  std::map<std::string, std::string> strings;
  std::map<std::string, double> numbers;
  std::map<std::string, long long> integers;
  std::map<std::string, bool> booleans;
};

// H5Aiterate2 callback: fixed-length strings, integers and floats (scalars or 1-D) and
// booleans as text, and the scalars by type.
herr_t collect_attribute(hid_t obj, const char* name, const H5A_info_t*, void* data) {
  auto* out = static_cast<Collected*>(data);
  const Id a(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  const Id type(H5Aget_type(a), H5Tclose);
  const Id space(H5Aget_space(a), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  if (!a.valid() || !type.valid() || n < 1) return -1;
  std::string text;
  switch (H5Tget_class(type)) {
  case H5T_STRING: {
    if (H5Tis_variable_str(type) > 0 || n != 1) return 0;
    std::string s(H5Tget_size(type), '\0');
    if (H5Aread(a, type, s.data()) < 0) return -1;
    text = s.substr(0, s.find('\0'));
    out->strings[name] = text;
    break;
  }
  case H5T_INTEGER: {
    std::vector<long long> v(static_cast<std::size_t>(n));
    if (H5Aread(a, H5T_NATIVE_LLONG, v.data()) < 0) return -1;
    for (const long long x : v)
      append(text, std::to_string(x));
    if (n == 1) out->integers[name] = v[0];
    break;
  }
  case H5T_ENUM: {
    const std::optional<bool> b = n == 1 ? read_boolean(a, type) : std::nullopt;
    if (!b) return 0;
    text = *b ? "true" : "false";
    out->booleans[name] = *b;
    break;
  }
  case H5T_FLOAT: {
    std::vector<double> v(static_cast<std::size_t>(n));
    if (H5Aread(a, H5T_NATIVE_DOUBLE, v.data()) < 0) return -1;
    for (const double x : v)
      append(text, number_text(x));
    if (n == 1) out->numbers[name] = v[0];
    break;
  }
  default:
    return 0;
  }
  out->text.emplace_back(name, text);
  return 0;
}

// An integer attribute with `count` values; throws naming it where it is missing or not that.
std::vector<long long> integer_attribute(const Context& c, hid_t obj, const std::string& name,
                                         hssize_t count) {
  if (H5Aexists(obj, name.c_str()) <= 0) c.fail("missing attribute '" + name + "'");
  const Id a(H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose);
  const Id type(H5Aget_type(a), H5Tclose);
  const Id space(H5Aget_space(a), H5Sclose);
  if (H5Tget_class(type) != H5T_INTEGER || H5Sget_simple_extent_npoints(space) != count)
    c.fail("attribute '" + name + "' is not " + std::to_string(count) + " integer(s)");
  std::vector<long long> v(static_cast<std::size_t>(count));
  c.check(H5Aread(a, H5T_NATIVE_LLONG, v.data()), "reading the attribute '" + name + "'");
  return v;
}

// The dataset's data is in the file: contiguous storage of data_bytes bytes (gaugefix
// writes that), or chunks that are all written; a dataset whose storage was never written
// (only declared: it would read as fill values) or lies past the file's end is refused.
void check_storage(const Context& c, hid_t d, const std::string& dataset, std::int64_t data_bytes) {
  const Id plist(H5Dget_create_plist(d), H5Pclose);
  c.check(plist, "reading the storage properties of " + dataset);
  const H5D_layout_t layout = H5Pget_layout(plist);
  const auto stored = static_cast<std::int64_t>(H5Dget_storage_size(d));
  if (layout == H5D_CONTIGUOUS || layout == H5D_COMPACT) {
    if (H5Pget_nfilters(plist) != 0 || stored != data_bytes)
      c.fail("storage: " + dataset + " claims " + std::to_string(data_bytes) + " bytes of data, " +
             std::to_string(stored) +
             " are stored in the file (a dataset declared, never written)");
    return;
  }
  if (layout != H5D_CHUNKED)
    c.fail("storage: " + dataset + " is neither contiguous, compact nor chunked");
  const Id space(H5Dget_space(d), H5Sclose);
  hsize_t written = 0;
  c.check(H5Dget_num_chunks(d, space, &written), "counting the chunks of " + dataset);
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank)), chunk(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  if (H5Pget_chunk(plist, rank, chunk.data()) != rank) c.fail("storage: unreadable chunk shape");
  long double needed = 1;
  for (int k = 0; k < rank; ++k)
    needed *= static_cast<long double>((dims[std::size_t(k)] + chunk[std::size_t(k)] - 1) /
                                       std::max<hsize_t>(chunk[std::size_t(k)], 1));
  if (static_cast<long double>(written) != needed)
    c.fail("storage: " + dataset + " has " + std::to_string(written) + " of its " +
           std::to_string(static_cast<double>(needed)) +
           " chunks in the file (a dataset declared, never fully written)");
}

// The bytes a file of the dataset `dims` takes at most: the data and room for HDF5's
// metadata (superblock, groups, object header) and the attributes.
long double file_bytes(const std::vector<hsize_t>& dims, int bytes_per_real,
                       const Hdf5Attributes& attributes) {
  long double bytes = bytes_per_real;
  for (const hsize_t n : dims)
    bytes *= static_cast<long double>(n);
  bytes += 256 * 1024;
  for (const auto& [name, value] : attributes.strings)
    bytes += 2 * (name.size() + value.size()) + 1024;
  bytes += 1024 * (attributes.numbers.size() + attributes.integers.size() +
                   attributes.booleans.size() + std::size(reserved));
  return bytes;
}

// " (no space left on the device: ...)" where the file system holding `path` has less room
// than `needed` bytes, else "".
std::string space_note(const std::string& path, long double needed) {
  struct statvfs v {};
  if (::statvfs(path.c_str(), &v) != 0) return "";
  const long double free_bytes = static_cast<long double>(v.f_bavail) * v.f_frsize;
  if (free_bytes >= needed) return "";
  return " (no space left on the device: " + std::to_string(static_cast<long long>(free_bytes)) +
         " bytes free, the file needs about " + std::to_string(static_cast<long long>(needed)) +
         ")";
}

// The dataset and its attributes in the open file f; throws naming the step that failed.
void write_contents(const Context& c, hid_t f, const std::string& dataset, const HostField& slab,
                    const std::vector<hsize_t>& dims, int bytes_per_real, std::uint32_t checksum,
                    const Hdf5Attributes& attrs, const std::vector<float>& single) {
  const Geometry& g = slab.geom;
  const Id lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  H5Pset_create_intermediate_group(lcpl, 1);
  const Id space(H5Screate_simple(int(dims.size()), dims.data(), nullptr), H5Sclose);
  const hid_t file_type = bytes_per_real == 8 ? H5T_IEEE_F64LE : H5T_IEEE_F32LE;
  const Id dcpl = dataset_creation(c);
  const Id d(H5Dcreate2(f, dataset.c_str(), file_type, space, lcpl, dcpl, H5P_DEFAULT), H5Dclose);
  c.check(d, "creating the dataset " + dataset);

  const int lattice[4] = {g.L[0], g.L[1], g.L[2], g.L[3]};
  write_attribute(c, d, "lattice", H5T_STD_I32LE, H5T_NATIVE_INT, lattice, 4);
  write_attribute(c, d, "nc", H5T_STD_I32LE, H5T_NATIVE_INT, &slab.nc);
  write_attribute(c, d, "bytes_per_real", H5T_STD_I32LE, H5T_NATIVE_INT, &bytes_per_real);
  write_attribute(c, d, "checksum", H5T_STD_U32LE, H5T_NATIVE_UINT32, &checksum);
  write_string_attribute(c, d, "layout",
                         slab.ndir == 4 ? "t,z,y,x,mu,row,col,re|im" : "t,z,y,x,row,col,re|im");
  write_string_attribute(c, d, "gaugefix_version", GAUGEFIX_VERSION);
  for (const auto& [name, value] : attrs.strings)
    write_string_attribute(c, d, name, value);
  for (const auto& [name, value] : attrs.numbers)
    write_attribute(c, d, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
  for (const auto& [name, value] : attrs.integers)
    write_attribute(c, d, name, H5T_STD_I64LE, H5T_NATIVE_LLONG, &value);
  const Id boolean = boolean_type();
  for (const auto& [name, value] : attrs.booleans) {
    const std::int8_t v = value;
    write_attribute(c, d, name, boolean, boolean, &v);
  }

  const std::size_t slice_reals = std::size_t(g.v3) * slab.ndir * slab.nc * slab.nc * 2;
  const auto* reals = reinterpret_cast<const double*>(slab.data.data());
  for_each_slice(d, dims, g.t0, g.nt, [&](int t, hid_t mem, hid_t fs) {
    const std::size_t first = std::size_t(t) * slice_reals;
    const herr_t status =
        bytes_per_real == 8
            ? H5Dwrite(d, H5T_NATIVE_DOUBLE, mem, fs, H5P_DEFAULT, reals + first)
            : H5Dwrite(d, H5T_NATIVE_FLOAT, mem, fs, H5P_DEFAULT, single.data() + first);
    c.check(status, "writing the dataset " + dataset);
  });
}

} // namespace

void write_field_dataset(const std::string& path, const std::string& dataset, const HostField& slab,
                         int bytes_per_real, const Hdf5Attributes& attributes, const World& world,
                         const std::vector<std::string>& inputs) {
  const Context c{path};
  if ((slab.ndir != 1 && slab.ndir != 4) || (slab.nc != 2 && slab.nc != 3) ||
      (bytes_per_real != 4 && bytes_per_real != 8))
    c.fail("output: needs a field with nc 2 or 3 and 1 or 4 matrices per site, 4 or 8 bytes per "
           "real");
  if (world.sum(slab.local_sites()) != slab.geom.global_volume())
    c.fail("output: the slabs of the ranks do not make up the lattice");
  const auto check_name = [&](const std::string& name) {
    if (name.empty() ||
        std::find(std::begin(reserved), std::end(reserved), name) != std::end(reserved))
      c.fail("output: attribute name '" + name + "' is empty or reserved");
  };
  for (const auto& kv : attributes.strings)
    check_name(kv.first);
  for (const auto& kv : attributes.numbers)
    check_name(kv.first);
  for (const auto& kv : attributes.integers)
    check_name(kv.first);
  for (const auto& kv : attributes.booleans)
    check_name(kv.first);
  const Hdf5Attributes attrs = from_rank0(attributes, world);

  const Geometry& g = slab.geom;
  const auto* reals = reinterpret_cast<const double*>(slab.data.data());
  const auto n_reals = static_cast<std::int64_t>(slab.data.size() * 2);
  std::vector<float> single(bytes_per_real == 4 ? slab.data.size() * 2 : 0);
  convert_values(reals, single.data(), static_cast<std::int64_t>(single.size()));
  const std::uint32_t checksum = world.sum_mod32(
      bytes_per_real == 8 ? word_sum(reals, n_reals) : word_sum(single.data(), n_reals));
  const std::vector<hsize_t> dims = shape(g, g.L[3], slab.ndir, slab.nc);
  const long double needed = file_bytes(dims, bytes_per_real, attrs);

  const QuietErrors quiet;
  SlabFileWriter file(path, world, inputs);
  // HDF5 1.10 cannot give up a file: where H5Fclose fails (its metadata does not fit on the
  // device), the file stays open inside HDF5 as a dangling object, which HDF5's own cleanup
  // in MPI_Finalize dereferences (SIGSEGV). So a device without room for the whole file is
  // refused before HDF5 opens anything, and the file is closed (and checked) before commit.
  std::string no_room = world.rank() == 0 ? space_note(file.temporary_path(), needed) : "";
  world.broadcast(no_room, 0);
  if (!no_room.empty()) c.fail("writing the dataset " + dataset + " failed" + no_room);
  {
    const Id fapl = file_access(c, world);
    Id f(H5Fcreate(file.temporary_path().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose);
    c.check(f, "creating the temporary file '" + file.temporary_path() + "'");
    try {
      write_contents(c, f, dataset, slab, dims, bytes_per_real, checksum, attrs, single);
    } catch (const Error& e) {
      // The device filled up while the file was written: the temporary file is emptied (it is
      // removed anyway) so that HDF5 can flush its metadata when f is closed.
      const std::string space = space_note(file.temporary_path(), needed);
      const int emptied = ::truncate(file.temporary_path().c_str(), 0);
      static_cast<void>(emptied); // where it fails, the write error is still the one reported
      throw Error(e.what() + space);
    }
    c.check(f.close(),
            "closing the temporary file '" + file.temporary_path() + "' (writing HDF5's metadata)");
  }
  file.commit();
}

bool hdf5_has_dataset(const std::string& path, const std::string& dataset) {
  const QuietErrors quiet;
  if (H5Fis_hdf5(path.c_str()) <= 0) return false;
  const Id f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!f.valid()) return false;
  for (std::size_t slash = dataset.find('/', 1);; slash = dataset.find('/', slash + 1)) {
    if (H5Lexists(f, dataset.substr(0, slash).c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) return true;
  }
}

std::optional<long long> read_integer_attribute(const std::string& path, const std::string& dataset,
                                                const std::string& name) {
  const Context c{path};
  const QuietErrors quiet;
  const Id f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  c.check(f, "open (missing, not an HDF5 file, or truncated)");
  if (!hdf5_has_dataset(path, dataset)) c.fail("no dataset " + dataset);
  const Id d(H5Dopen2(f, dataset.c_str(), H5P_DEFAULT), H5Dclose);
  c.check(d, "opening the dataset " + dataset);
  if (H5Aexists(d, name.c_str()) <= 0) return std::nullopt;
  return integer_attribute(c, d, name, 1)[0];
}

Hdf5FieldData read_field_dataset(const std::string& path, const std::string& dataset, int ndir,
                                 const World& world, bool checksum_warning_only) {
  const Context c{path};
  const QuietErrors quiet;
  const Id fapl = file_access(c, world);
  const Id f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl), H5Fclose);
  c.check(f, "open (missing, not an HDF5 file, or truncated)");
  for (std::size_t slash = dataset.find('/', 1);; slash = dataset.find('/', slash + 1)) {
    const std::string part = dataset.substr(0, slash);
    if (H5Lexists(f, part.c_str(), H5P_DEFAULT) <= 0) c.fail("no dataset " + dataset);
    if (slash == std::string::npos) break;
  }
  const Id d(H5Dopen2(f, dataset.c_str(), H5P_DEFAULT), H5Dclose);
  c.check(d, "opening the dataset " + dataset);

  const Id type(H5Dget_type(d), H5Tclose);
  const H5T_class_t type_class = H5Tget_class(type);
  const std::size_t bytes = H5Tget_size(type);
  if (type_class != H5T_FLOAT || (bytes != 4 && bytes != 8))
    c.fail("datatype: " + dataset + " holds " + std::to_string(bytes) + "-byte " +
           (type_class == H5T_FLOAT ? "floats" : "non-floating-point numbers") +
           ", not 32- or 64-bit floating-point numbers");

  const Id space(H5Dget_space(d), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  const std::string expected = ndir == 4 ? "[Lt, Lz, Ly, Lx, 4, N, N, 2] with N = 2 or 3"
                                         : "[Lt, Lz, Ly, Lx, N, N, 2] with N = 2 or 3";
  const int nc = rank >= 3 ? static_cast<int>(dims[std::size_t(rank) - 2]) : 0;
  const bool shape_ok = rank == (ndir == 4 ? 8 : 7) && (nc == 2 || nc == 3) &&
                        dims[std::size_t(rank) - 3] == hsize_t(nc) && dims.back() == 2 &&
                        (ndir == 1 || dims[4] == 4) &&
                        std::all_of(dims.begin(), dims.begin() + 4,
                                    [](hsize_t x) { return x > 0 && x < (hsize_t(1) << 30); });
  if (!shape_ok)
    c.fail("shape: " + dataset + " has shape " + join(dims) + ", expected " + expected);
  const int L[4] = {int(dims[3]), int(dims[2]), int(dims[1]), int(dims[0])};
  const std::int64_t extents[4] = {L[0], L[1], L[2], L[3]};
  const std::int64_t sites = checked_sites(c.name(), "shape", extents);
  const std::int64_t data_bytes =
      checked_product(c.name(), sites, std::int64_t(ndir) * nc * nc * 2 * std::int64_t(bytes));

  const std::vector<long long> lattice = integer_attribute(c, d, "lattice", 4);
  const long long stored_nc = integer_attribute(c, d, "nc", 1)[0];
  if (!std::equal(lattice.begin(), lattice.end(), L) || stored_nc != nc)
    c.fail("attributes lattice and nc (" + std::to_string(lattice[0]) + "x" +
           std::to_string(lattice[1]) + "x" + std::to_string(lattice[2]) + "x" +
           std::to_string(lattice[3]) + ", " + std::to_string(stored_nc) +
           ") do not match the dataset shape " + join(dims));
  if (H5Aexists(d, "bytes_per_real") > 0) {
    const long long stored_bytes = integer_attribute(c, d, "bytes_per_real", 1)[0];
    if (stored_bytes != static_cast<long long>(bytes))
      c.fail("attribute bytes_per_real " + std::to_string(stored_bytes) +
             " contradicts the dataset's " + std::to_string(bytes) + "-byte floats");
  }
  const long long stored_checksum = integer_attribute(c, d, "checksum", 1)[0];
  check_storage(c, d, dataset, data_bytes);

  Hdf5FieldData r;
  r.bytes_per_real = static_cast<int>(bytes);
  r.stored_checksum = static_cast<std::uint32_t>(stored_checksum);
  HostField& u = r.field = allocate_slab(c.name(), L, nc, ndir, world);
  const Geometry& g = u.geom;
  const std::size_t slice_reals = std::size_t(g.v3) * ndir * nc * nc * 2;
  auto* reals = reinterpret_cast<double*>(u.data.data());
  std::vector<float> single(bytes == 4 ? slice_reals : 0);
  std::uint32_t local_sum = 0;
  bool finite = true;
  for_each_slice(d, dims, g.t0, g.nt, [&](int t, hid_t mem, hid_t fs) {
    double* out = reals + std::size_t(t) * slice_reals;
    const auto n = static_cast<std::int64_t>(slice_reals);
    if (bytes == 8) {
      c.check(H5Dread(d, H5T_NATIVE_DOUBLE, mem, fs, H5P_DEFAULT, out),
              "reading the dataset " + dataset);
      local_sum += word_sum(out, n);
    } else {
      c.check(H5Dread(d, H5T_NATIVE_FLOAT, mem, fs, H5P_DEFAULT, single.data()),
              "reading the dataset " + dataset);
      local_sum += word_sum(single.data(), n);
      convert_values(single.data(), out, n);
    }
    finite = all_finite(out, n) && finite;
  });
  r.computed_checksum = world.sum_mod32(local_sum);

  if (stored_checksum != r.computed_checksum)
    checksum_mismatch(c.name(),
                      "checksum mismatch: attribute " + std::to_string(stored_checksum) +
                          ", computed from the data " + std::to_string(r.computed_checksum),
                      checksum_warning_only, world);
  if (world.any(!finite))
    c.fail("unitarity: links are not in SU(" + std::to_string(nc) + "): the data holds NaN or Inf");

  Collected collected;
  hsize_t index = 0;
  c.check(H5Aiterate2(d, H5_INDEX_NAME, H5_ITER_INC, &index, collect_attribute, &collected),
          "reading the attributes of " + dataset);
  r.attributes = std::move(collected.text);
  r.strings = std::move(collected.strings);
  r.numbers = std::move(collected.numbers);
  r.integers = std::move(collected.integers);
  r.booleans = std::move(collected.booleans);
  return r;
}

} // namespace gf
