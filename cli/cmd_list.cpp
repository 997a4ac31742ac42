// stickslip list: the built-in scenarios with one line each and the methods they run with.
#include <iomanip>
#include <ostream>
#include <string>

#include "cli/command.hpp"
#include "mechanisms/builtin_models.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/run_scenario.hpp"

namespace stickslip::cli {
namespace {

void declare(po::options_description&, po::positional_options_description&) {}

int run(const po::variables_map&, std::ostream& out, std::ostream&) {
  out << "scenario (methods; * the one it runs by without --method)\n";
  for (const auto& s : mechanisms::rigidScenarios()) {
    // Moreau–Jean and the minimal form take it by their own judgement.
    const mechanisms::Scenario scenario = mechanisms::loadScenario(s.name);
    const std::string fallback = mechanisms::rigidScenarioInfo(s.name).default_method;
    const auto method = [&](mechanisms::Route r) {
      const std::string name(mechanisms::toString(r));
      return name + (name == fallback ? "*" : "");
    };
    const auto takes = [&](mechanisms::Route r) { return mechanisms::routeRefusal(scenario, r).empty(); };
    out << "  " << std::left << std::setw(31) << s.name << method(mechanisms::Route::kEventDriven)
        << (takes(mechanisms::Route::kMoreauJean) ? ", " + method(mechanisms::Route::kMoreauJean)
                                                  : "")
        << ", " << method(mechanisms::Route::kPenalty)
        << (takes(mechanisms::Route::kMinimalForm) ? ", " + method(mechanisms::Route::kMinimalForm)
                                                   : "")
        << "\n      " << s.summary << "\n";
    if (const auto* f = mechanisms::builtinModelFile(s.name)) out << "      model file: " << f->path << "\n";
  }
  out << "\nstickslip show NAME prints a scenario as a file to edit and run.\n";
  return kExitOk;
}

}  // namespace

const Command& listCommand() {
  static const Command c{"list", "built-in scenarios and the methods they run with", declare, run};
  return c;
}

}  // namespace stickslip::cli
