#pragma once
/// \file Options that several `stickslip run` scenarios read the same way.

#include <string>
#include <string_view>

#include "cli/command.hpp"
#include "dynamics/friction/friction_law.hpp"
#include "dynamics/friction/friction_parameters.hpp"
#include "dynamics/penalty_contact.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {

/// --out: its path, or "" without it. Throws std::invalid_argument when the file exists and
/// --force was not given: nothing the user wrote is overwritten without asking.
std::string outputPath(const po::variables_map& vm);

/// --friction's law from the catalogue with parameters `p`; an unknown name is an error
/// naming --friction, the nearest law and the catalogue.
std::unique_ptr<dynamics::FrictionLaw> frictionLawOption(std::string_view name,
                                                         const dynamics::FrictionParameters& p = {});

/// The method `stickslip run` uses when none is given: a built-in's own
/// (mechanisms::RigidScenarioInfo::default_method), event-driven for a model file.
std::string defaultMethod(const mechanisms::Scenario& scenario);

/// The penalty route's integrator by name, "bdf" or "rk4"; throws std::invalid_argument
/// naming --integrator otherwise.
dynamics::PenaltyIntegrationOptions::Integrator penaltyIntegrator(std::string_view name);

}  // namespace stickslip::cli
