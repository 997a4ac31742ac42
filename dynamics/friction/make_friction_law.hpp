#pragma once
/// \file The friction law catalogue by name (DESIGN.md §3).

#include <memory>
#include <span>
#include <string_view>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/friction/friction_parameters.hpp"

namespace stickslip::dynamics {

/// The catalogue's names, static laws first: coulomb, coulomb-viscous, coulomb-stiction,
/// stribeck, hess-soom, karnopp, switch, linear, tanh, threlfall, linear-stiction,
/// bengisu-akay, ambrosio, awrejcewicz, brown-mcphee, then the dynamic laws dahl, lugre,
/// lugre-wojtyra, lugre-nondimensional, elasto-plastic, reset-integrator, bliman-sorine-1,
/// bliman-sorine-2, gms, gonthier, liang.
std::span<const std::string_view> frictionLawNames();

/// Builds the law called `name` with parameters `p` (which it copies).
/// Throws std::invalid_argument if `name` is unknown (the message lists the valid names) or
/// if `p` fails FrictionParameters::validate() or a law-specific requirement.
std::unique_ptr<FrictionLaw> makeFrictionLaw(std::string_view name,
                                             const FrictionParameters& p = {});

}  // namespace stickslip::dynamics
