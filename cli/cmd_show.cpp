// stickslip show SCENARIO: the scenario as a file (mechanisms/scenario_file.hpp) — every
// parameter of a built-in with its meaning, or a file's values merged onto its built-in.
#include <ostream>

#include "cli/command.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {
namespace {

void declare(po::options_description& o, po::positional_options_description& p) {
  o.add_options()("scenario", po::value<std::string>()->required(), "a built-in scenario (stickslip list) or a file")(
      "set", po::value<std::vector<std::string>>()->composing(), "KEY=VALUE, as for run; repeatable");
  p.add("scenario", 1);
}

int show(const po::variables_map& vm, std::ostream& out, std::ostream&) {
  mechanisms::Scenario s = mechanisms::loadScenario(vm["scenario"].as<std::string>());
  if (s.model && !s.builtin)
    throw std::invalid_argument(s.source + ": describes a mechanism of its own (model:); the file itself is its "
                                "description (show prints the built-in scenarios)");
  if (vm.count("set")) mechanisms::applySettings(s, vm["set"].as<std::vector<std::string>>());
  std::vector<std::pair<std::string, std::string>> run;
  bool method = false;
  for (const auto& r : s.run) {
    run.emplace_back(r.key, r.value);
    method = method || r.key == "method";
  }
  if (!method) run.insert(run.begin(), {"method", mechanisms::rigidScenarioInfo(s.name).default_method});
  out << mechanisms::scenarioYaml(s, mechanisms::rigidScenarioInfo(s.name).summary, run);
  return kExitOk;
}

}  // namespace

const Command& showCommand() {
  static const Command c{"show", "print a scenario as a file (YAML) to edit and run", declare, show};
  return c;
}

}  // namespace stickslip::cli
