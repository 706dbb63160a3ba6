#include "api/api_internal.h"
#include "comm/decomposition.h"
#include "gaugefix_version.h"
#include "io/field_checks.h"
#include <cstdlib>
#include <mutex>

namespace gaugefix {

static_assert(sizeof(std::complex<double>) == sizeof(gf::Complex<double>) &&
                  alignof(std::complex<double>) == alignof(gf::Complex<double>),
              "Field::data() views gf::Complex<double> as std::complex<double>");

const char* version() {
  return GAUGEFIX_VERSION;
}

Error::Error(const std::string& what) : std::runtime_error(what) {}
Error::~Error() = default;

Communicator Communicator::from_fortran(int handle) {
  Communicator c;
  c.none_ = false;
  c.handle_ = handle;
  return c;
}

int Communicator::rank() const {
  return world_of(*this).rank();
}

int Communicator::size() const {
  return world_of(*this).size();
}

namespace {

void finalize_mpi() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

void ensure_mpi() {
  static std::once_flag once;
  std::call_once(once, [] {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized) return;
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
      throw Error("MPI_Init_thread failed");
    std::atexit(finalize_mpi);
  });
}

std::string slab_text(int t0, int nt) {
  return std::to_string(t0) + ".." + std::to_string(t0 + nt - 1);
}

} // namespace

gf::World world_of(const Communicator& c) {
  if (c.none()) return gf::World::alone();
  ensure_mpi();
  return gf::World(MPI_Comm_f2c(c.fortran_handle()));
}

const gf::HostField& checked_layout(const Field& field, const char* what, int ndir,
                                    const gf::World& world) {
  if (field.empty()) throw gf::Error(std::string(what) + ": the field is empty");
  const gf::HostField& h = FieldAccess::host(field);
  if (h.ndir != ndir)
    throw gf::Error(std::string(what) + ": " +
                    (ndir == 4 ? "a gauge field (4 matrices per site) is needed, not a gauge "
                                 "transformation"
                               : "a gauge transformation (1 matrix per site) is needed, not a "
                                 "gauge field"));
  const gf::Geometry slab = gf::decompose_time(h.geom.L, world);
  if (slab.t0 != h.geom.t0 || slab.nt != h.geom.nt)
    throw gf::Error(std::string(what) + ": the field holds the time slices " +
                    slab_text(h.geom.t0, h.geom.nt) + ", but rank " + std::to_string(world.rank()) +
                    " of " + std::to_string(world.size()) + " holds " +
                    slab_text(slab.t0, slab.nt) + " of L_t = " + std::to_string(h.geom.L[3]) +
                    " (a field made for another communicator?)");
  return h;
}

const gf::HostField& checked_field(const Field& field, const char* what, int ndir,
                                   const gf::World& world) {
  const gf::HostField& h = checked_layout(field, what, ndir, world);
  gf::check_in_su_n(what, h, 8, world);
  return h;
}

Field FieldAccess::wrap(gf::HostField&& host) {
  Field f;
  f.impl_->host = std::move(host);
  return f;
}

Field::Field() : impl_(std::make_unique<Impl>()) {}

Field::Field(const std::array<int, 4>& lattice, int nc, int ndir, const Communicator& comm)
    : impl_(std::make_unique<Impl>()) {
  guarded("Field", [&] {
    if (nc != 2 && nc != 3) throw gf::Error("nc must be 2 or 3 (got " + std::to_string(nc) + ")");
    if (ndir != 1 && ndir != 4)
      throw gf::Error("ndir must be 4 (gauge field) or 1 (gauge transformation), got " +
                      std::to_string(ndir));
    impl_->host = gf::HostField(gf::decompose_time(lattice.data(), world_of(comm)), nc, ndir);
  });
}

Field::Field(const Field& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
Field::Field(Field&& other) noexcept : impl_(std::make_unique<Impl>(std::move(*other.impl_))) {}
Field& Field::operator=(const Field& other) {
  *impl_ = *other.impl_;
  return *this;
}
Field& Field::operator=(Field&& other) noexcept {
  *impl_ = std::move(*other.impl_);
  return *this;
}
Field::~Field() = default;

bool Field::empty() const {
  return impl_->host.data.empty();
}
std::array<int, 4> Field::lattice() const {
  const int* L = impl_->host.geom.L;
  return {L[0], L[1], L[2], L[3]};
}
int Field::nc() const {
  return impl_->host.nc;
}
int Field::ndir() const {
  return impl_->host.ndir;
}
int Field::t0() const {
  return impl_->host.geom.t0;
}
int Field::nt() const {
  return impl_->host.geom.nt;
}
std::size_t Field::size() const {
  return impl_->host.data.size();
}
std::complex<double>* Field::data() {
  return reinterpret_cast<std::complex<double>*>(impl_->host.data.data());
}
const std::complex<double>* Field::data() const {
  return reinterpret_cast<const std::complex<double>*>(impl_->host.data.data());
}

std::size_t Field::index(int x, int y, int z, int t, int mu, int a, int b) const {
  const gf::HostField& h = impl_->host;
  const std::int64_t site = h.local_index(gf::SiteCoords{{x, y, z, t}});
  return static_cast<std::size_t>(h.matrix_data(site, mu) - h.data.data()) +
         static_cast<std::size_t>(a * h.nc + b);
}

} // namespace gaugefix
