// scidac.h: what the SciDAC (QIO) LIME files of gauge fields (ildg.h) and of gauge
// transformations g(x) (transform_lime.h) share: record names, the private XML records,
// the checksum, and the structure checks of their readers.
//
// A SciDAC file (QIO's single-file format) is a LIME file (lime.h) of one file message
//   scidac-private-file-xml  <scidacFile>: version, spacetime (4), dims, volfmt (0)
//   scidac-file-xml          the writer's own XML (gaugefix: scidac_provenance.h)
// and one message per record
//   scidac-private-record-xml <scidacRecord>: version, date, recordtype (0: a field),
//                            datatype (e.g. QDP_D3_ColorMatrix), precision (F or D),
//                            colors, typesize (bytes per datum), datacount (data per site)
//   scidac-record-xml        the writer's own XML
//   ildg-format              (ILDG files only)
//   the binary data          big-endian, natural site order (x fastest), per site
//                            datacount data of typesize bytes
//   scidac-checksum          <scidacChecksum>: version, suma, sumb (hexadecimal)
// SciDAC checksum: for every site with global natural index r, c = CRC-32 (zlib) of the
// site's stored bytes; suma is the XOR of c rotated left by r mod 29, sumb of c rotated
// left by r mod 31.
//
// Readers' checks, each a gf::Error naming `source` (the file) and the record:
// - unique_lime_record: a record type given twice (values that could contradict);
// - parse_scidac_dims: spacetime 4, dims four extents (checked_sites, field_checks.h);
// - parse_scidac_record: precision F or D, datacount and typesize positive, typesize
//   2 N^2 bytes where colors N is given, a datatype of the form *_<P><N>_ColorMatrix agreeing
//   with precision and colors;
// - parse_scidac_checksum: suma and sumb 32-bit hexadecimal numbers;
// - check_scidac_checksum: a missing scidac-checksum record (nothing would verify the data;
//   a file cut before it) and a mismatch are errors, or warnings on rank 0 with
//   warning_only (ReadOptions::checksum_warning_only).
#pragma once
#include "comm/world.h"
#include "io/lime.h"
#include "lattice/host_field.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gf {

inline const char* const scidac_file_record = "scidac-private-file-xml";
inline const char* const scidac_user_file_record = "scidac-file-xml";
inline const char* const scidac_record_record = "scidac-private-record-xml";
inline const char* const scidac_user_record_record = "scidac-record-xml";
inline const char* const scidac_data_record = "scidac-binary-data";
inline const char* const scidac_checksum_record = "scidac-checksum";

struct ScidacSums {
  std::uint32_t a = 0, b = 0;
};

struct ScidacRecordInfo {
  std::string datatype; // "" where not given
  int bytes = 8;        // per real: F 4, D 8
  int colors = 0;       // 0 where not given
  std::int64_t typesize = 0;
  std::int64_t datacount = 0;
};

// Reads this rank's slices of the binary record `data` of `path` into `slab`: per site
// site_bytes bytes, slab.ndir matrices of big-endian complex numbers with reals of `bytes`
// bytes. Returns their checksums combined over the ranks (collective); `finite` becomes false
// where a number read is not finite. The slab is read in chunks (slab_chunks.h), each decoded
// and checksummed in one pass by the rank's OpenMP threads.
ScidacSums read_scidac_slab(const std::string& path, const LimeRecord& data, int bytes,
                            std::int64_t site_bytes, HostField& slab, bool& finite,
                            const World& world);

// Writes this rank's slab (slab.ndir matrices per site, big-endian reals of `bytes` bytes) into
// the binary record whose payload starts at data_offset of `out`, encoded and checksummed in
// one pass, chunk by chunk (slab_chunks.h). Returns the checksums combined over the ranks
// (collective); the scidac-checksum record, which follows the data and has a fixed length,
// is written afterwards.
ScidacSums write_scidac_slab(SlabFileWriter& out, std::int64_t data_offset, const HostField& slab,
                             int bytes, const World& world);

const LimeRecord* unique_lime_record(const std::vector<LimeRecord>& records,
                                     const std::string& type, const std::string& source);
void parse_scidac_dims(const std::string& source, const std::string& xml, int dims[4]);
ScidacRecordInfo parse_scidac_record(const std::string& source, const std::string& xml);
ScidacSums parse_scidac_checksum(const std::string& source, const std::string& xml);
void check_scidac_checksum(const std::string& source, const std::optional<ScidacSums>& stored,
                           const ScidacSums& computed, bool warning_only, const World& world);

// The XML text of the private records and the checksum, as gaugefix writes them.
std::string scidac_file_xml(const int dims[4]);
std::string scidac_record_xml(const ScidacRecordInfo& info, const std::string& date);
std::string scidac_checksum_xml(const ScidacSums& sums);
inline const char* const xml_declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";

} // namespace gf
