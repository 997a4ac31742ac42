// stickslip run SCENARIO [--method M] [--friction LAW] [--integrator bdf|rk4|adams]
//                        [--t-end T] [--dt H] [--out F.csv [--force]] [--json]
// Every scenario, built-in or model file, by every route, through one path
// (mechanisms/run_scenario.hpp); cli/run_output.hpp writes what it gives.
#include <algorithm>
#include <cmath>
#include <ostream>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "cli/run_options.hpp"
#include "cli/run_output.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/run_scenario.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {
namespace {

int dispatchRun(const po::variables_map& vm, const mechanisms::Scenario& sc, std::ostream& out,
                std::ostream& err);

int run(const po::variables_map& given, std::ostream& out, std::ostream& err) {
  mechanisms::Scenario sc = mechanisms::loadScenario(given["scenario"].as<std::string>());
  if (given.count("set")) mechanisms::applySettings(sc, given["set"].as<std::vector<std::string>>());
  try {
    return dispatchRun(withRunSettings(given, sc), sc, out, err);
  } catch (const mechanisms::InputError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    rethrowLocated(e, given, sc);
  }
}

int dispatchRun(const po::variables_map& vm, const mechanisms::Scenario& sc, std::ostream& out,
                std::ostream& err) {
  mechanisms::ScenarioRunner runner(sc, runSettings(vm));
  const std::string csv = outputPath(vm);
  ProgressBar bar("run " + sc.name);
  const mechanisms::ScenarioRun r = runner.run(simulatedTimeProgress(bar, runner.tEnd()));
  bar.finish();
  if (!csv.empty()) writeRunCsv(csv, r);
  if (vm["json"].as<bool>())
    out << jsonLine(runJson(r)) << "\n";
  else
    printRun(out, r);
  if (!r.result.ok())
    err << "stickslip run: " << dynamics::toString(r.result.status) << ": " << r.result.message << "\n";
  return r.result.ok() ? kExitOk : kExitFailure;
}

}  // namespace

const Command& runCommand() {
  static const Command c{"run", "simulate a scenario (built-in or model file) by one route", declareRunOptions, run};
  return c;
}

}  // namespace stickslip::cli
