#include "app/batch_plan.h"
#include "app/input_list.h"
#include "app/output_pattern.h"
#include "core/error.h"
#include "io/gauge_file.h"
#include <filesystem>
#include <map>

namespace gf {

namespace {

struct OutputOption {
  const char* name;
  const std::string* pattern;
  std::string ConfigPaths::*field; // null: --history, one name per copy (ConfigPaths::history),
                                   // or a measurement
  const char* measured = nullptr;  // the observable of a measurement output (measurements.h)
};

std::vector<OutputOption> output_options(const FixCommandOptions& opt) {
  std::vector<OutputOption> o = {
      {"--output", &opt.output, &ConfigPaths::output},
      {"--transform-output", &opt.transform_output, &ConfigPaths::transform_output},
      {"--summary", &opt.summary, &ConfigPaths::summary},
      {"--history", &opt.history, nullptr}};
  for (const Observable& m : observables())
    o.push_back({m.option, &(opt.measure.*m.output), nullptr, m.name});
  return o;
}

// The history of each copy of the configuration `in`.
std::vector<std::string> history_paths(const FixCommandOptions& opt, PatternInput in) {
  std::vector<std::string> paths;
  for (int k = 0; k < opt.copies; ++k) {
    in.copy = k;
    const std::string name = expand_pattern("--history", opt.history, in);
    paths.push_back(opt.copies > 1 && !uses_copy(opt.history) ? copy_path(name, k) : name);
  }
  return paths;
}

std::string default_journal(const ConfigPaths& first) {
  for (const std::string* p : {&first.output, &first.transform_output, &first.summary})
    if (!p->empty()) {
      const std::filesystem::path dir = std::filesystem::path(*p).parent_path();
      return (dir / "gaugefix-journal.yaml").string();
    }
  return "gaugefix-journal.yaml";
}

} // namespace

std::string journal_lock_path(const std::string& journal) {
  return journal + ".lock";
}

std::vector<NamedPath> possible_outputs(const ConfigPaths& c, const FixCommandOptions& opt) {
  const std::string of = c.input.empty() ? "" : " (of input '" + c.input + "')";
  std::vector<NamedPath> out;
  const auto add = [&](const std::string& option, const std::string& path, bool field) {
    out.push_back({option + of, path});
    if (field && opt.unconverged == "mark")
      out.push_back({option + " (not converged; --unconverged discard writes none)" + of,
                     path + unconverged_suffix});
  };
  for (const auto& [option, path] :
       {std::pair{"--output", c.output}, std::pair{"--transform-output", c.transform_output}}) {
    if (path.empty()) continue;
    add(option, path, true);
    if (opt.keep_copies)
      for (int k = 0; k < opt.copies; ++k)
        add(std::string(option) + " (copy " + std::to_string(k) + ")", copy_path(path, k), true);
  }
  if (!c.summary.empty()) add("--summary", c.summary, false);
  for (std::size_t k = 0; k < c.history.size(); ++k)
    add(c.history.size() > 1 ? "--history (copy " + std::to_string(k) + ")" : "--history",
        c.history[k], false);
  for (const Observable& m : observables())
    if (const auto it = c.measurements.find(m.name); it != c.measurements.end())
      add(m.option, it->second, false);
  return out;
}

BatchPlan plan_batch(const FixCommandOptions& opt) {
  BatchPlan plan;
  std::vector<std::string> inputs = resolve_inputs(opt.input, opt.input_list);
  if (inputs.empty()) inputs.push_back(""); // a generated field
  const std::vector<OutputOption> options = output_options(opt);
  bool sequence = false;
  for (const OutputOption& o : options) {
    if (o.pattern->empty()) continue;
    check_pattern(o.name, *o.pattern);
    if (inputs.size() > 1 && !has_pattern(*o.pattern))
      throw Error(std::string(o.name) + " '" + *o.pattern + "' names one file for all " +
                  std::to_string(inputs.size()) +
                  " inputs: give a pattern, e.g. {stem} (the input's name without extension), "
                  "{name}, {index} or {seq}");
    sequence = sequence || uses_sequence(*o.pattern);
  }
  std::map<std::string, std::string> first_input_of; // expanded name -> input
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    ConfigPaths c;
    c.input = inputs[i];
    c.index = i;
    PatternInput in{inputs[i], i, std::nullopt, std::nullopt};
    if (sequence && !c.input.empty()) in.sequence = read_sequence_number(c.input);
    for (const OutputOption& o : options) {
      if (o.pattern->empty()) continue;
      const std::vector<std::string> names =
          o.field || o.measured ? std::vector<std::string>{expand_pattern(o.name, *o.pattern, in)}
                                : history_paths(opt, in);
      for (const std::string& name : names) {
        if (name.empty())
          throw Error(std::string(o.name) + " '" + *o.pattern +
                      "': empty file name for the input '" + c.input + "'");
        if (const auto [it, fresh] =
                first_input_of.emplace(std::string(o.name) + "\n" + name, c.input);
            !fresh)
          throw Error(std::string(o.name) + " '" + *o.pattern + "' gives the inputs '" +
                      it->second + "' and '" + c.input + "' one file '" + name +
                      "': use a pattern that tells them apart (e.g. {index}, or {seq})");
      }
      if (o.field)
        c.*o.field = names.front();
      else if (o.measured)
        c.measurements[o.measured] = names.front();
      else
        c.history = names;
    }
    plan.configs.push_back(c);
  }
  plan.journal = opt.journal;
  if (plan.journal.empty() && plan.configs.size() > 1) {
    plan.journal = default_journal(plan.configs.front());
    plan.default_journal = true;
  }

  std::vector<NamedPath> in_paths = {{"--config", opt.config}};
  for (const ConfigPaths& c : plan.configs)
    in_paths.push_back({"--input", c.input});
  if (!opt.input_list.empty()) in_paths.push_back({"--input-list", opt.input_list});
  std::vector<NamedPath> out_paths;
  for (const ConfigPaths& c : plan.configs) {
    const std::vector<NamedPath> o = possible_outputs(c, opt);
    out_paths.insert(out_paths.end(), o.begin(), o.end());
  }
  if (!plan.journal.empty()) {
    out_paths.push_back({"--journal", plan.journal});
    out_paths.push_back({"--journal (its lock file)", journal_lock_path(plan.journal)});
  }
  check_run_paths(in_paths, with_log_file(std::move(out_paths), opt.log));
  return plan;
}

} // namespace gf
