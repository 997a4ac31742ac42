#pragma once
/// \file `stickslip run`'s options, which `compare` and `sweep` pass on: their declaration, the
/// scenario's `run:` section merged under them, and their meaning as mechanisms::RunSettings.

#include <memory>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "mechanisms/run_scenario.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {

void declareRunOptions(po::options_description& o, po::positional_options_description& p);

/// The options with the scenario's run settings (file, then --set run.*) stored after the
/// command line, so that an option given on the command line wins. Throws InputError naming
/// the file, line and key of a bad run: entry.
po::variables_map withRunSettings(const po::variables_map& given, const mechanisms::Scenario& scenario);

/// The run options given (on the command line or in the scenario's run: section) as settings;
/// what is left out takes the scenario's defaults.
mechanisms::RunSettings runSettings(const po::variables_map& vm);

/// Rethrows an error about an option ("--friction: ...") as an InputError located at the
/// scenario file's line when the value came from the file rather than the command line.
[[noreturn]] void rethrowLocated(const std::invalid_argument& e, const po::variables_map& given,
                                 const mechanisms::Scenario& scenario);

/// The runner of `stickslip run SCENARIO ARGS...` (with the scenario's run: section), planned:
/// a value the plan refuses is an InputError at its line of the run: section when it came
/// from there; other refusals (a route that cannot take the mechanism) are
/// std::invalid_argument, as run's.
std::unique_ptr<mechanisms::ScenarioRunner> plannedRunner(const mechanisms::Scenario& scenario,
                                                          const std::vector<std::string>& args);

/// Checks the scenario's run settings (file, then --set run.*) as `run` would take them, keys
/// and values, without running: an InputError names the file, line and key of a bad one.
void checkRunSettings(const mechanisms::Scenario& scenario);

/// Checks only the run settings' keys and each value's type (a number, true or false), not the
/// values together: what Python checks as a scenario loads and at each Scenario.set, before
/// other settings follow.
void checkRunKeys(const mechanisms::Scenario& scenario);

/// --out: its path, or "" without it. Throws std::invalid_argument when it cannot be written
/// (checkOutputPath), or exists and --force was not given: nothing the user wrote is
/// overwritten without asking.
std::string outputPath(const po::variables_map& vm);

}  // namespace stickslip::cli
