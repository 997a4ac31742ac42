// stickslip show SCENARIO: the scenario as a file (mechanisms/scenario_file.hpp) — every
// parameter of a built-in with its meaning, or a file's values merged onto its built-in.
#include <ostream>

#include "cli/command.hpp"
#include "cli/run_options.hpp"
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
  if (vm.count("set")) mechanisms::applySettings(s, vm["set"].as<std::vector<std::string>>());
  checkRunSettings(s);  // the run settings shown are ones run takes
  out << mechanisms::showScenario(s);
  return kExitOk;
}

}  // namespace

const Command& showCommand() {
  static const Command c{"show", "print a scenario as a file (YAML) to edit and run", declare, show};
  return c;
}

}  // namespace stickslip::cli
