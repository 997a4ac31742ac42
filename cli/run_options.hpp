#pragma once
/// \file Options that several `stickslip run` scenarios read the same way.

#include <string>
#include <string_view>

#include "cli/command.hpp"
#include "dynamics/penalty_contact.hpp"

namespace stickslip::cli {

/// --out: its path, or "" without it. Throws std::invalid_argument when the file exists and
/// --force was not given: nothing the user wrote is overwritten without asking.
std::string outputPath(const po::variables_map& vm);

/// The penalty route's integrator by name, "bdf" or "rk4"; throws std::invalid_argument
/// naming --integrator otherwise.
dynamics::PenaltyIntegrationOptions::Integrator penaltyIntegrator(std::string_view name);

}  // namespace stickslip::cli
