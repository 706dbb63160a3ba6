// scidac_provenance.h: Provenance (provenance.h) as the <gaugefix> element that gaugefix
// writes into the scidac-file-xml and scidac-record-xml records of ILDG and SciDAC files:
//   <gaugefix>
//     <ensemble_id>..</ensemble_id> <ensemble_label>..</ensemble_label>
//     <sequence_number>..</sequence_number>                 (each where known)
//     <gauge_fixing> <gauge>landau</gauge> <tolerance/> <theta/> <theta_max_slice/>
//       <functional/> (provenance_text) <iterations/> <converged>true|false</converged>
//       <precision>double</precision> <version/> <date/> </gauge_fixing>  (where given)
//     <meta name="key">value</meta> ...                     (`meta`, in key order)
//   </gaugefix>
// Text is XML-escaped. gaugefix_xml writes the element (without the XML declaration);
// parse_gaugefix_xml reads a record whose root element is <gaugefix> (xml_text.h); nullopt
// where the record is not well-formed XML or has another root (files of other programs),
// and throws gf::Error naming `source` and the element for a number, integer or boolean
// that does not parse, or for an element given twice.
#pragma once
#include "io/provenance.h"
#include <map>
#include <optional>
#include <string>

namespace gf {

std::string gaugefix_xml(const Provenance& p, const std::map<std::string, std::string>& meta);
std::optional<Provenance> parse_gaugefix_xml(const std::string& xml, const std::string& source);
// The <meta name="key">value</meta> elements of a <gaugefix> record as a map (empty where
// the record is not gaugefix's); a key given twice or an element without a name throws.
std::map<std::string, std::string> parse_gaugefix_meta(const std::string& xml,
                                                       const std::string& source);

} // namespace gf
