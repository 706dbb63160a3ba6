#include "measure/measure_output.h"
#include "core/error.h"
#include "io/temporary_file.h"
#include <charconv>
#include <cmath>
#include <hdf5.h>
#include <sstream>
#include <unistd.h>

namespace gf {

namespace {

std::string number(double v) {
  if (std::isnan(v)) return "nan";
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof(buffer), v).ptr;
  return std::string(buffer, end);
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names)
    s += (s.empty() ? "" : ",") + n;
  return s;
}

// An HDF5 handle closed when it goes out of scope.
class Handle {
public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator hid_t() const { return id_; }
  herr_t close() {
    const herr_t status = close_(id_);
    id_ = -1;
    return status;
  }

private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// While it lives, HDF5 prints no error stacks; failures are reported through Error instead.
class QuietHdf5 {
public:
  QuietHdf5() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  QuietHdf5(const QuietHdf5&) = delete;
  QuietHdf5& operator=(const QuietHdf5&) = delete;

private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

void check(bool ok, const std::string& path, const std::string& step) {
  if (!ok) throw Error("measurement output '" + path + "': HDF5 could not " + step);
}

void string_attribute(hid_t obj, const std::string& name, const std::string& value,
                      const std::string& path) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  check(type >= 0 && H5Tset_size(type, std::max<std::size_t>(value.size(), 1)) >= 0 &&
            H5Tset_cset(type, H5T_CSET_UTF8) >= 0,
        path, "make a string type");
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attribute(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  check(attribute >= 0 && H5Awrite(attribute, type, value.empty() ? "" : value.data()) >= 0, path,
        "write the attribute '" + name + "'");
}

void write_hdf5(const std::string& path, const Table& table, const RunRecord& record) {
  TemporaryFile tmp(path);
  {
    const QuietHdf5 quiet;
    // The temporary file holds our flock (temporary_file.h); HDF5's own lock would fail on it.
    Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    check(access >= 0 && H5Pset_file_locking(access, false, true) >= 0, path,
          "set file access without HDF5's lock");
    Handle file(H5Fcreate(tmp.path().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access), H5Fclose);
    check(file >= 0, path, "create the file");
    Handle root(H5Gopen2(file, "/", H5P_DEFAULT), H5Gclose);
    for (const auto& [key, value] : record)
      string_attribute(root, key, value, path);
    string_attribute(root, "columns", joined(table.columns), path);
    const hsize_t n = table.rows.size();
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      std::vector<double> column(table.rows.size());
      for (std::size_t r = 0; r < table.rows.size(); ++r)
        column[r] = table.rows[r][c];
      Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
      Handle set(H5Dcreate2(file, table.columns[c].c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT,
                            H5P_DEFAULT, H5P_DEFAULT),
                 H5Dclose);
      check(set >= 0 && (n == 0 || H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                            column.data()) >= 0),
            path, "write the column '" + table.columns[c] + "'");
    }
    root.close();
    check(file.close() >= 0, path, "close the file");
  }
  if (::fsync(tmp.fd()) != 0) throw Error("measurement output '" + path + "': sync failed");
  tmp.commit();
}

void write_csv(const std::string& path, const std::string& text) {
  TemporaryFile tmp(path);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(tmp.fd(), text.data() + done, text.size() - done);
    if (n <= 0) throw Error("measurement output '" + path + "': write failed (device full?)");
    done += std::size_t(n);
  }
  if (::fsync(tmp.fd()) != 0) throw Error("measurement output '" + path + "': sync failed");
  tmp.commit();
}

} // namespace

Table table_of(const std::vector<LandauGluonRow>& rows) {
  Table t{{"nx", "ny", "nz", "nt", "p2", "transverse", "longitudinal"}, {}};
  for (const LandauGluonRow& r : rows)
    t.rows.push_back({double(r.n[0]), double(r.n[1]), double(r.n[2]), double(r.n[3]), r.p2,
                      r.transverse, r.longitudinal});
  return t;
}

Table table_of(const std::vector<CoulombGluonRow>& rows) {
  Table t{{"nx", "ny", "nz", "p2", "spatial", "temporal"}, {}};
  for (const CoulombGluonRow& r : rows)
    t.rows.push_back({double(r.n[0]), double(r.n[1]), double(r.n[2]), r.p2, r.spatial, r.temporal});
  return t;
}

Table table_of(const std::vector<StaticPotentialRow>& rows) {
  Table t{{"r", "t", "correlator", "potential"}, {}};
  for (const StaticPotentialRow& r : rows)
    t.rows.push_back({double(r.r), double(r.t), r.correlator, r.potential});
  return t;
}

Table table_of(const std::vector<GhostPoint>& rows) {
  Table t{{"nx", "ny", "nz", "nt", "p2", "ghost", "iterations", "residual"}, {}};
  for (const GhostPoint& r : rows)
    t.rows.push_back({double(r.n[0]), double(r.n[1]), double(r.n[2]), double(r.n[3]), r.p2,
                      r.propagator, double(r.total_iterations), r.max_residual});
  return t;
}

Table table_of(const EigenResult& eigen) {
  return {{"eigenvalue", "lanczos_steps", "residual"},
          {{eigen.eigenvalue, double(eigen.iterations), eigen.residual}}};
}

Table table_of(const AbelianMeasurement& a) {
  Table t{{"plaquette", "polyakov_re", "polyakov_im"}, {}};
  std::vector<double> row = {a.plaquette, a.polyakov_mean.re, a.polyakov_mean.im};
  for (std::size_t i = 0; i < a.polyakov.size(); ++i) {
    t.columns.push_back("polyakov_re_" + std::to_string(i + 1));
    t.columns.push_back("polyakov_im_" + std::to_string(i + 1));
    row.push_back(a.polyakov[i].re);
    row.push_back(a.polyakov[i].im);
  }
  for (std::size_t i = 0; i < a.monopole_density.size(); ++i) {
    t.columns.push_back("density_" + std::to_string(i + 1));
    row.push_back(a.monopole_density[i]);
  }
  t.columns.push_back("unconserved");
  row.push_back(double(a.unconserved));
  t.rows.push_back(row);
  return t;
}

bool is_hdf5_output(const std::string& path) {
  return path.size() >= 3 && path.compare(path.size() - 3, 3, ".h5") == 0;
}

std::string csv_text(const Table& table, const RunRecord& record) {
  std::ostringstream out;
  for (const auto& [key, value] : record)
    out << "# " << key << ": " << one_line(value) << '\n';
  out << joined(table.columns) << '\n';
  for (const std::vector<double>& row : table.rows) {
    for (std::size_t c = 0; c < row.size(); ++c)
      out << (c ? "," : "") << number(row[c]);
    out << '\n';
  }
  return out.str();
}

void write_table(const std::string& path, const Table& table, const RunRecord& record,
                 const World& world) {
  if (world.rank() == 0) {
    if (is_hdf5_output(path))
      write_hdf5(path, table, record);
    else
      write_csv(path, csv_text(table, record));
  }
  world.barrier();
}

} // namespace gf
