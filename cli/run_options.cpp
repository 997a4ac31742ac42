#include "cli/run_options.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/rigid_scenarios.hpp"

namespace stickslip::cli {

std::string outputPath(const po::variables_map& vm) {
  if (!vm.count("out")) return {};
  const std::string path = vm["out"].as<std::string>();
  if (std::filesystem::exists(path) && !vm["force"].as<bool>())
    throw std::invalid_argument("--out " + path + ": file exists; pass --force to overwrite it");
  return path;
}

std::unique_ptr<dynamics::FrictionLaw> frictionLawOption(std::string_view name,
                                                         const dynamics::FrictionParameters& p) {
  std::vector<std::string> names;
  for (std::string_view n : dynamics::frictionLawNames()) names.emplace_back(n);
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string all;
    for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
    throw std::invalid_argument("--friction: unknown friction law '" + std::string(name) + "'" +
                                mechanisms::didYouMean(name, names) + " (catalogue: " + all + ")");
  }
  return dynamics::makeFrictionLaw(name, p);
}

std::string defaultMethod(const mechanisms::Scenario& scenario) {
  return scenario.model ? "event-driven" : mechanisms::rigidScenarioInfo(scenario.name).default_method;
}

dynamics::PenaltyIntegrationOptions::Integrator penaltyIntegrator(std::string_view name) {
  using Integrator = dynamics::PenaltyIntegrationOptions::Integrator;
  if (name == "bdf") return Integrator::kBdf;
  if (name == "rk4") return Integrator::kRk4;
  throw std::invalid_argument("--integrator: expected bdf or rk4, got '" + std::string(name) + "'");
}

}  // namespace stickslip::cli
