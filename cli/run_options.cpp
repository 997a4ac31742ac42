#include "cli/run_options.hpp"

#include <filesystem>
#include <stdexcept>

namespace stickslip::cli {

std::string outputPath(const po::variables_map& vm) {
  if (!vm.count("out")) return {};
  const std::string path = vm["out"].as<std::string>();
  if (std::filesystem::exists(path) && !vm["force"].as<bool>())
    throw std::invalid_argument("--out " + path + ": file exists; pass --force to overwrite it");
  return path;
}

dynamics::PenaltyIntegrationOptions::Integrator penaltyIntegrator(std::string_view name) {
  using Integrator = dynamics::PenaltyIntegrationOptions::Integrator;
  if (name == "bdf") return Integrator::kBdf;
  if (name == "rk4") return Integrator::kRk4;
  throw std::invalid_argument("--integrator: expected bdf or rk4, got '" + std::string(name) + "'");
}

}  // namespace stickslip::cli
