#include "app/journal.h"
#include "core/error.h"
#include "gaugefix_version.h"
#include "io/atomic_file.h"
#include "io/file_digest.h"
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace gf {

namespace {

std::string read_text(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return "";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("--journal '" + path + "': cannot open for reading");
  std::ostringstream s;
  s << in.rdbuf();
  if (s.str().empty())
    throw Error("--journal '" + path +
                "' is empty: not a gaugefix journal (remove it or give another --journal)");
  return s.str();
}

std::string text(const YAML::Node& n) {
  return n && n.IsScalar() ? n.as<std::string>() : std::string();
}

} // namespace

Journal::Journal(const std::string& path, const BatchPlan& plan, const FixCommandOptions& opt,
                 const std::string& command_line, const World& world)
    : path_(path), world_(world), command_(command_line) {
  std::string content;
  if (world.rank() == 0) {
    lock_ = std::make_unique<FileLock>(journal_lock_path(path),
                                       "gaugefix fix with the journal '" + path + "'");
    content = read_text(path);
  }
  world.broadcast(content);
  for (const ConfigPaths& c : plan.configs)
    order_.push_back(c.input);
  options_ = YAML::Node(YAML::NodeType::Map);
  for (const auto& [name, value] : defining_options(opt))
    options_[name] = value;
  if (content.empty()) return;

  YAML::Node root;
  try {
    root = YAML::Load(content);
  } catch (const YAML::Exception& e) {
    throw Error("--journal '" + path + "': not a gaugefix journal: " + e.what());
  }
  if (!root.IsMap() || text(root["program"]).rfind("gaugefix", 0) != 0 ||
      !root["options"].IsMap() || !root["configurations"].IsSequence())
    throw Error("--journal '" + path +
                "' is not a gaugefix journal (no program, options and configurations)");
  std::string differences;
  std::set<std::string> names;
  for (const auto& kv : options_) {
    const std::string name = kv.first.as<std::string>();
    names.insert(name);
    const std::string was = text(root["options"][name]), now = kv.second.as<std::string>();
    if (was != now)
      differences += "\n  --" + name + ": " + (was.empty() ? "(not recorded)" : was) +
                     " in the journal, " + now + " now";
  }
  for (const auto& kv : root["options"])
    if (!names.count(kv.first.as<std::string>()))
      differences +=
          "\n  --" + kv.first.as<std::string>() + ": recorded in the journal, unknown now";
  if (!differences.empty())
    throw Error("--journal '" + path +
                "' records a run with other options; a restart must give the same options " +
                "(or another --journal to start afresh):" + differences);
  const std::set<std::string> listed(order_.begin(), order_.end());
  for (const YAML::Node& entry : root["configurations"]) {
    const std::string input = text(entry["input"]);
    if (!entries_.emplace(input, entry).second)
      throw Error("--journal '" + path + "' lists the input '" + input +
                  "' twice: not a journal gaugefix wrote");
    if (!listed.count(input)) earlier_.push_back(input);
  }
}

std::string Journal::unfinished_reason(const ConfigPaths& c) const {
  const auto it = entries_.find(c.input);
  if (it == entries_.end()) return "not in the journal";
  const YAML::Node& e = it->second;
  if (text(e["state"]) == "interrupted")
    return "interrupted at its checkpoint " + text(e["checkpoint"]) + " (" + text(e["position"]) +
           "), continued from there";
  if (text(e["state"]) != "converged")
    return "recorded as " + (text(e["state"]).empty() ? "unknown" : text(e["state"]));
  std::vector<std::string> history;
  if (e["history"].IsSequence())
    for (const YAML::Node& h : e["history"])
      history.push_back(text(h));
  std::map<std::string, std::string> measured;
  if (const YAML::Node m = e["measurements"]; m && m.IsMap()) // absent: nothing measured
    for (const auto& kv : m)
      measured[kv.first.as<std::string>()] = text(kv.second);
  if (text(e["output"]) != c.output || text(e["transform_output"]) != c.transform_output ||
      text(e["summary"]) != c.summary || history != c.history || measured != c.measurements)
    return "recorded with other output names";
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(c.input, ec);
  if (!c.input.empty() && (ec || std::to_string(bytes) != text(e["input_bytes"])))
    return "the input's size differs from the recorded one";
  if (!e["files"].IsSequence()) return "no files recorded";
  for (const YAML::Node& f : e["files"]) {
    const std::string file = text(f["path"]);
    const std::optional<FileDigest> d = file_digest(file, world_);
    if (!d) return "'" + file + "' is missing or unreadable";
    if (std::to_string(d->bytes) != text(f["bytes"]) || crc32_text(d->crc32) != text(f["crc32"]))
      return "'" + file + "' is not the file recorded (size or CRC-32 differ)";
  }
  return "";
}

void Journal::record(const ConfigPaths& c, const YAML::Node& entry) {
  entries_[c.input] = entry;
  if (world_.rank() == 0) save();
}

void Journal::save() const {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "program" << YAML::Value << "gaugefix " GAUGEFIX_VERSION;
  out << YAML::Key << "command" << YAML::Value << command_;
  out << YAML::Key << "options" << YAML::Value << options_;
  out << YAML::Key << "configurations" << YAML::Value << YAML::BeginSeq;
  for (const std::vector<std::string>* inputs : {&order_, &earlier_})
    for (const std::string& input : *inputs)
      if (const auto it = entries_.find(input); it != entries_.end()) out << it->second;
  out << YAML::EndSeq << YAML::EndMap;
  const std::string content = std::string(out.c_str()) + "\n";
  write_file_atomically(path_, [&](std::ostream& os) { os << content; });
}

} // namespace gf
