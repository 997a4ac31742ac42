#include "mechanisms/scenario_file.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "dynamics/friction/friction_parameters.hpp"
#include "mechanisms/builtin_models.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/model_file_reader.hpp"
#include "mechanisms/planar_model_file.hpp"
#include "mechanisms/rigid_scenarios.hpp"

namespace stickslip::mechanisms {
namespace {

int lineOf(const YAML::Node& n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

/// `text` as a finite number of normal magnitude, read exactly (no trailing characters), or nothing.
bool parseNumber(std::string_view text, double& x) {
  const char* end = text.data() + text.size();
  const char* begin = text.data();
  if (begin != end && *begin == '+') ++begin;  // from_chars does not take a leading '+'
  const auto [ptr, ec] = std::from_chars(begin, end, x);
  return ec == std::errc() && ptr == end && std::isfinite(x) && std::fpclassify(x) != FP_SUBNORMAL;
}

/// Sets parameter `key` of `scenario`'s model to `text`, checked when the model is rebuilt
/// (rebuildModel); `origin`, `line` and `written` locate it for the error.
void setParameter(Scenario& scenario, const std::string& key, const std::string& text,
                  std::string_view origin, int line, const std::string& written) {
  std::erase_if(scenario.model_parameters, [&](const ParameterValue& v) { return v.name == key; });
  scenario.model_parameters.push_back({key, text, std::string(origin), line, written});
}

void setFrictionParameter(Scenario& scenario, const std::string& key, const std::string& text,
                          std::string_view origin, int line) {
  const std::string path = "friction_parameters." + key;
  if (!scenario.friction)
    throw InputError(located(origin, line, path, "scenario '" + scenario.name +
                                                     "' has no friction law parameters (belt, journal-bearing and "
                                                     "roller-crank have)"));
  std::vector<std::string> names;
  for (std::string_view n : dynamics::frictionParameterNames()) names.emplace_back(n);
  if (std::find(names.begin(), names.end(), key) == names.end())
    throw InputError(located(origin, line, path, "unknown friction law parameter" + didYouMean(key, names)));
  if (key == "mu_s" || key == "mu_k")  // the penalty route takes each contact's
    throw InputError(located(origin, line, path, "follows the mechanism's data in scenario '" + scenario.name +
                                                     "': set parameters." + (key == "mu_s" ? "mu_static" : "mu_kinetic")));
  double x = 0.0;
  if (!parseNumber(text, x)) throw InputError(located(origin, line, path, "expected a finite number (not denormal), got '" + text + "'"));
  scenario.friction->set(key, x);
}

/// The model again from its text with the values given from outside it.
void rebuildModel(Scenario& scenario) {
  if (modelFileDimension(scenario.model_text) == 3) {
    SpatialScenario m = loadSpatialModelText(scenario.model_text, scenario.model_source, scenario.model_parameters);
    if (scenario.builtin) m.name = scenario.name;  // a variant's, not its base's
    scenario.spatial = std::make_shared<const SpatialScenario>(std::move(m));
    scenario.model = nullptr;
    return;
  }
  dynamics::RigidScenario m = loadPlanarModelText(scenario.model_text, scenario.model_source, scenario.model_parameters);
  if (scenario.builtin) m.name = scenario.name;  // a variant's, not its base's
  scenario.model = std::make_shared<const dynamics::RigidScenario>(std::move(m));
  scenario.spatial = nullptr;
}

/// Built-in `name` with its defaults: its model file.
Scenario builtinScenario(const std::string& name) {
  Scenario s;
  s.name = name;
  s.builtin = true;
  s.friction = rigidScenarioInfo(name).friction_parameters;
  BuiltinModelSource source = builtinModelSource(name);
  s.model_text = source.file->text;
  s.model_source = source.file->path;
  s.model_parameters = std::move(source.values);
  rebuildModel(s);
  return s;
}

void setRun(Scenario& scenario, RunSetting s) {
  for (RunSetting& r : scenario.run)
    if (r.key == s.key) {
      r = std::move(s);
      return;
    }
  scenario.run.push_back(std::move(s));
}

/// The scalar at `n` as text; InputError naming `path` if it is a list or a map.
std::string scalarText(const YAML::Node& n, std::string_view file, const std::string& path) {
  if (!n.IsScalar())
    throw InputError(located(file, lineOf(n), path, "expected a single value, got a " +
                                                        std::string(n.IsMap() ? "map" : n.IsSequence() ? "list" : "null")));
  return n.Scalar();
}

/// Each key of map `n` once; InputError on a repeated key (yaml-cpp keeps both).
void requireUniqueKeys(const YAML::Node& n, std::string_view file, std::string_view section) {
  std::set<std::string> seen;
  for (const auto& kv : n) {
    const std::string key = kv.first.Scalar();
    if (!seen.insert(key).second)
      throw InputError(located(file, lineOf(kv.first), std::string(section) + (section.empty() ? "" : ".") + key,
                               "given twice"));
  }
}

/// The built-in named by `scenario:` with the file's parameters and friction_parameters.
void readBuiltin(const YAML::Node& root, std::string_view file, Scenario& s) {
  const std::string name = scalarText(root["scenario"], file, "scenario");
  if (std::find(builtinScenarioNames().begin(), builtinScenarioNames().end(), name) ==
      builtinScenarioNames().end())
    throw InputError(located(file, lineOf(root["scenario"]), "scenario",
                             "unknown scenario '" + name + "'" + didYouMean(name, builtinScenarioNames()) +
                                 " (stickslip list shows them)"));
  const std::string source = s.source;
  s = builtinScenario(name);
  s.source = source;
  for (const char* section : {"parameters", "friction_parameters"}) {
    const YAML::Node ps = root[section];
    if (!ps || ps.IsNull()) continue;
    if (!ps.IsMap()) throw InputError(located(file, lineOf(ps), section, "expected a map of name: value"));
    requireUniqueKeys(ps, file, section);
    for (const auto& kv : ps) {
      const std::string key = kv.first.Scalar();
      const std::string text = scalarText(kv.second, file, std::string(section) + "." + key);
      if (section == std::string_view("parameters"))
        setParameter(s, key, text, file, lineOf(kv.second), "parameters." + key);
      else
        setFrictionParameter(s, key, text, file, lineOf(kv.second));
    }
    if (section == std::string_view("parameters")) {
      rebuildModel(s);
      continue;
    }
    try {
      if (s.friction) s.friction->validate("friction law");
    } catch (const std::invalid_argument& e) {
      // At the line of the last key the message names, else at the section's.
      std::string key = section;
      int line = lineOf(ps);
      for (const auto& kv : ps)
        if (mentions(e.what(), kv.first.Scalar())) {
          key = std::string(section) + "." + kv.first.Scalar();
          line = lineOf(kv.second);
        }
      throw InputError(located(file, line, key, e.what()));
    }
  }
}

Scenario parseText(const std::string& text, std::string_view file);

Scenario parseFile(std::string_view file) {
  std::ifstream in{std::string(file), std::ios::binary};
  model_file::refuseDevice(file);
  if (!in || std::filesystem::is_directory(std::string(file)))
    throw InputError(located(file, 0, "", "cannot read the scenario file (missing or unreadable); "
                                          "a built-in name needs no .yaml (stickslip list)"));
  std::ostringstream text;
  text << in.rdbuf();
  return parseText(text.str(), file);
}

Scenario parseText(const std::string& text, std::string_view file) {
  const YAML::Node root = model_file::loadDocument(text, file);
  if (!root.IsMap()) throw InputError(located(file, lineOf(root), "", "expected a map with keys scenario, parameters, run"));
  requireUniqueKeys(root, file, "");
  const std::vector<std::string> sections{"scenario", "model", "parameters", "friction_parameters", "run"};
  for (const auto& kv : root) {
    const std::string key = kv.first.Scalar();
    if (std::find(sections.begin(), sections.end(), key) == sections.end())
      throw InputError(located(file, lineOf(kv.first), key,
                               "unknown key (expected scenario, model, parameters, friction_parameters, run)" + didYouMean(key, sections)));
  }
  Scenario s;
  s.source = file;
  if (root["model"]) {
    if (root["scenario"])
      throw InputError(located(file, lineOf(root["scenario"]), "scenario",
                               "a file names a built-in (scenario:) or describes its own mechanism (model:), not both"));
    for (const char* section : {"parameters", "friction_parameters"})
      if (root[section])
        throw InputError(located(file, lineOf(root[section]), section,
                                 "belongs to a built-in scenario; a model keeps its constants in model.parameters"));
    s.model_text = text;
    s.model_source = file;
    rebuildModel(s);
    s.name = s.model ? s.model->name : s.spatial->name;
  } else if (!root["scenario"]) {
    throw InputError(located(file, 0, "scenario", "missing: name a built-in mechanism (stickslip list shows them) "
                                                  "or describe one in a model: section"));
  }
  if (!s.model && !s.spatial) readBuiltin(root, file, s);
  if (const YAML::Node run = root["run"]; run && !run.IsNull()) {
    if (!run.IsMap()) throw InputError(located(file, lineOf(run), "run", "expected a map of option: value"));
    requireUniqueKeys(run, file, "run");
    for (const auto& kv : run) {
      const std::string key = kv.first.Scalar();
      s.run.push_back({key, scalarText(kv.second, file, "run." + key), std::string(file), lineOf(kv.second)});
    }
  }
  return s;
}

/// `text` as a YAML scalar that reads back as exactly `text`: plain when it is a simple
/// word or number, double-quoted with escapes otherwise.
std::string yamlScalar(const std::string& text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '+';
  }) && text != "null" && text != "~" && text.front() != '-';
  if (plain) return text;
  std::string q = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      q += '\\';
      q += c;
    } else if (u < 0x20 || u == 0x7f) {
      static const char* hex = "0123456789abcdef";
      q += "\\x";
      q += hex[u >> 4];
      q += hex[u & 15];
    } else {
      q += c;
    }
  }
  return q + "\"";
}

/// The comment on the line of parameter `key` in a model's text ("" when none).
std::string parameterComment(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::size_t begin = line.find_first_not_of(' ');
    if (begin == std::string::npos || line.compare(begin, key.size() + 1, key + ":") != 0) continue;
    const std::size_t hash = line.find('#', begin);
    const std::size_t doc = hash == std::string::npos ? hash : line.find_first_not_of(' ', hash + 1);
    return doc == std::string::npos ? std::string() : line.substr(doc);
  }
  return {};
}

}  // namespace

bool isScenarioFile(std::string_view arg) {
  return arg.ends_with(".yaml") || arg.ends_with(".yml") || arg.find('/') != std::string_view::npos;
}

Scenario loadScenario(std::string_view name_or_file) {
  if (isScenarioFile(name_or_file)) return parseFile(name_or_file);
  const std::string name(name_or_file);
  if (std::find(builtinScenarioNames().begin(), builtinScenarioNames().end(), name) == builtinScenarioNames().end())
    throw InputError("unknown scenario '" + name + "'" + didYouMean(name, builtinScenarioNames()) +
                     " (stickslip list shows the built-in ones; a file must end in .yaml)");
  return builtinScenario(name);
}

Scenario withOwnModel(const Scenario& scenario) {
  Scenario copy = scenario;
  if (!copy.model_text.empty()) rebuildModel(copy);
  return copy;
}

std::string showScenario(const Scenario& s) {
  if (!s.builtin)
    throw std::invalid_argument(s.source + ": describes a mechanism of its own (model:); the file itself is its "
                                "description (show prints the built-in scenarios)");
  std::vector<std::pair<std::string, std::string>> run;
  bool method = false;
  for (const auto& r : s.run) {
    run.emplace_back(r.key, r.value);
    method = method || r.key == "method";
  }
  if (!method) run.insert(run.begin(), {"method", rigidScenarioInfo(s.name).default_method});
  return scenarioYaml(s, rigidScenarioInfo(s.name).summary, run);
}

Scenario loadScenarioText(const std::string& text, std::string_view label) { return parseText(text, label); }

const dynamics::RigidScenario& planarModel(const Scenario& scenario, std::string_view what) {
  if (!scenario.model)
    throw std::invalid_argument(std::string(what) + " takes planar mechanisms; '" + scenario.name +
                                "' is spatial (dimension: 3)");
  return *scenario.model;
}

const std::vector<std::pair<std::string, double>>& modelParameters(const Scenario& scenario) {
  return scenario.spatial ? scenario.spatial->parameters : scenario.model->parameters;
}

void applySetting(Scenario& scenario, std::string_view assignment) {
  const std::size_t eq = assignment.find('=');
  const std::string key(assignment.substr(0, eq));
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == assignment.size())
    throw InputError(located("--set", 0, key, "expected KEY=VALUE, e.g. parameters.mu_static=0.2 or run.t_end=5"));
  const std::string value(assignment.substr(eq + 1));
  if (key.starts_with("parameters.") && key.size() > 11) {
    setParameter(scenario, key.substr(11), value, "--set", 0, key);
  } else if (key.starts_with("model.parameters.") && key.size() > 17) {
    setParameter(scenario, key.substr(17), value, "--set", 0, key);
  } else if (key.starts_with("friction_parameters.")) {
    setFrictionParameter(scenario, key.substr(20), value, "--set", 0);
  } else if (key.starts_with("run.") && key.size() > 4) {
    setRun(scenario, {key.substr(4), value, "--set", 0});
  } else {
    throw InputError(located("--set", 0, key, "expected a key parameters.NAME, friction_parameters.NAME, "
                                              "model.parameters.NAME or run.OPTION"));
  }
}

void applySettings(Scenario& scenario, const std::vector<std::string>& assignments) {
  // One value per key: a repeat would silently keep its last value.
  std::map<std::string, std::string> given;
  for (const std::string& a : assignments) {
    std::string key = a.substr(0, a.find('='));
    if (key.starts_with("model.parameters.")) key.erase(0, 6);  // the same as parameters.NAME
    if (const auto [it, fresh] = given.emplace(key, a); !fresh)
      throw InputError(located("--set", 0, key, "given twice ('" + it->second + "' and '" + a + "'): give it once"));
  }
  for (const std::string& a : assignments) applySetting(scenario, a);
  if (assignments.empty()) return;
  if (!scenario.model_parameters.empty()) rebuildModel(scenario);
  try {
    if (scenario.friction) scenario.friction->validate("friction law");
  } catch (const std::invalid_argument& e) {
    throw InputError(located("--set", 0, "friction_parameters", e.what()));
  }
}

std::string exactNumber(double x) {
  std::array<char, 32> buf{};
  const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), x);
  return std::string(buf.data(), ptr);
}

std::string scenarioYaml(const Scenario& scenario, std::string_view summary,
                         const std::vector<std::pair<std::string, std::string>>& run) {
  std::ostringstream os;
  os << "# " << scenario.name << ": " << summary << "\n"
     << "# stickslip run FILE [--set parameters.NAME=VALUE] [--set run.OPTION=VALUE]\n"
     << "scenario: " << scenario.name << "\n"
     << "parameters:\n";
  std::size_t width = 0;
  std::vector<std::string> lines, docs;
  for (const auto& [key, x] : modelParameters(scenario)) {  // as evaluated, with their comments
    lines.push_back("  " + key + ": " + exactNumber(x));
    docs.push_back(parameterComment(scenario.model_text, key));
  }
  for (const std::string& l : lines) width = std::max(width, l.size());
  for (std::size_t i = 0; i < lines.size(); ++i)
    os << lines[i] << (docs[i].empty() ? "" : std::string(width + 2 - lines[i].size(), ' ') + "# " + docs[i]) << "\n";
  if (scenario.friction) {
    os << "friction_parameters:  # the penalty route's friction law (run.friction), by name\n";
    for (std::string_view n : dynamics::frictionParameterNames())
      if (n != "mu_s" && n != "mu_k") os << "  " << n << ": " << exactNumber(scenario.friction->get(n)) << "\n";
  }
  os << "run:  # options of stickslip run ('-' written '_'); those left out take the scenario's defaults\n";
  for (const auto& [k, v] : run) os << "  " << yamlScalar(k) << ": " << yamlScalar(v) << "\n";
  return os.str();
}

}  // namespace stickslip::mechanisms
