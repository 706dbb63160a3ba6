#include "io/transform_lime.h"
#include "core/error.h"
#include "io/field_checks.h"
#include "io/field_codec.h"
#include "io/lime.h"
#include "io/parallel_file.h"
#include "io/scidac.h"
#include "io/scidac_provenance.h"
#include "observables/observables.h"
#include <algorithm>
#include <cmath>

namespace gf {

namespace {

std::string source_name(const std::string& path) {
  return "SciDAC transform file '" + path + "'";
}

std::string dims_text(const int d[4]) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]) + "x" +
         std::to_string(d[3]);
}

} // namespace

bool is_lime_transform(const std::string& path) {
  if (!is_lime_file(path)) return false;
  const std::vector<LimeRecord> records = list_lime_records(path);
  const LimeRecord* r = unique_lime_record(records, scidac_record_record, source_name(path));
  return r && parse_scidac_record(source_name(path), read_lime_text(path, *r)).datacount == 1;
}

void write_transform_lime(const std::string& path, const HostField& slab_g,
                          const std::map<std::string, std::string>& metadata, const World& world,
                          const std::vector<std::string>& inputs) {
  const Geometry& geom = slab_g.geom;
  ScidacRecordInfo record;
  record.bytes = 8;
  record.colors = slab_g.nc;
  record.datatype = "QDP_D" + std::to_string(slab_g.nc) + "_ColorMatrix";
  record.typesize = 16 * slab_g.nc * slab_g.nc;
  record.datacount = 1;

  std::string date = utc_date();
  world.broadcast(date); // every rank lays out the same records

  const std::string head = xml_declaration;
  // The checksum record follows the data and has the same length for any sums (scidac.h).
  const auto plan_with = [&](const ScidacSums& sums, std::int64_t& data_offset) {
    LimePlan plan;
    plan.add(scidac_file_record, scidac_file_xml(geom.L), true, false);
    plan.add(scidac_user_file_record, head + gaugefix_xml({}, metadata), false, true);
    plan.add(scidac_record_record, scidac_record_xml(record, date), true, false);
    plan.add(scidac_user_record_record, head + gaugefix_xml({}, {}), false, false);
    data_offset =
        plan.add_external(scidac_data_record, geom.global_volume() * record.typesize, false, false);
    plan.add(scidac_checksum_record, scidac_checksum_xml(sums), false, true);
    return plan;
  };
  std::int64_t data_offset = 0;
  plan_with({}, data_offset);

  SlabFileWriter out(path, world, inputs);
  const ScidacSums sums = write_scidac_slab(out, data_offset, slab_g, 8, world);
  if (world.rank() == 0) plan_with(sums, data_offset).write(out);
  out.commit();
}

HostField read_transform_lime(const std::string& path, const World& world,
                              bool checksum_warning_only, LimeTransformInfo* info) {
  const std::string src = source_name(path);
  const std::vector<LimeRecord> records = list_lime_records(path);
  const LimeRecord* file_xml = unique_lime_record(records, scidac_file_record, src);
  const LimeRecord* record_xml = unique_lime_record(records, scidac_record_record, src);
  if (!file_xml || !record_xml)
    throw Error(src + ": no " + std::string(scidac_file_record) + " or " + scidac_record_record +
                " record: lattice size and precision unknown");
  int dims[4];
  parse_scidac_dims(src, read_lime_text(path, *file_xml), dims);
  const ScidacRecordInfo r = parse_scidac_record(src, read_lime_text(path, *record_xml));
  if (r.datacount != 1)
    throw Error(src + ": <datacount> " + std::to_string(r.datacount) +
                ": a gauge transformation has one matrix per site" +
                (r.datacount == 4 ? " (4: a gauge field?)" : ""));
  if (r.colors != 2 && r.colors != 3)
    throw Error(src + ": <colors> " + std::to_string(r.colors) + ": g(x) in SU(2) or SU(3) only");
  const LimeRecord* data = unique_lime_record(records, scidac_data_record, src);
  if (!data) throw Error(src + ": no scidac-binary-data record");
  const std::int64_t sites = std::int64_t(dims[0]) * dims[1] * dims[2] * dims[3];
  const std::int64_t expected = checked_product(src, sites, r.typesize);
  if (data->data_bytes != expected)
    throw Error(src + ": size: the scidac-binary-data record has " +
                std::to_string(data->data_bytes) + " bytes, but dims " + dims_text(dims) +
                " of typesize " + std::to_string(r.typesize) + " need " + std::to_string(expected));
  std::map<std::string, std::string> metadata;
  if (const LimeRecord* u = unique_lime_record(records, scidac_user_file_record, src))
    metadata = parse_gaugefix_meta(read_lime_text(path, *u), src);
  std::optional<ScidacSums> stored;
  if (const LimeRecord* c = unique_lime_record(records, scidac_checksum_record, src))
    stored = parse_scidac_checksum(src, read_lime_text(path, *c));

  HostField g = allocate_slab(src, dims, r.colors, 1, world);
  bool finite = true;
  const ScidacSums sums = read_scidac_slab(path, *data, r.bytes, r.typesize, g, finite, world);
  check_scidac_checksum(src, stored, sums, checksum_warning_only, world);
  if (world.any(!finite))
    throw Error(src + ": unitarity: g(x) not in SU(" + std::to_string(r.colors) +
                "): the data holds NaN or Inf");
  const double deviation = check_in_su_n(src, g, r.bytes, world);
  if (r.bytes == 4) reunitarize_all(g);
  if (info) {
    info->bytes_per_real = r.bytes;
    info->metadata = metadata;
    if (stored)
      info->stored = {{"SCIDAC_SUMA", hex32(stored->a)}, {"SCIDAC_SUMB", hex32(stored->b)}};
    info->computed = {{"SCIDAC_SUMA", hex32(sums.a)}, {"SCIDAC_SUMB", hex32(sums.b)}};
    info->unitarity_deviation = deviation;
    info->reunitarised = r.bytes == 4;
  }
  return g;
}

} // namespace gf
