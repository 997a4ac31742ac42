#pragma once
/// \file `stickslip run zheng-torque|zheng-rheonomic|zheng-equilibrium --method penalty`: the
/// slider-crank of Zheng et al. with its compliant clearance joint on the regularized route
/// (mechanisms/zheng.hpp, zhengPenalty), with a friction law of the catalogue.

#include <iosfwd>

#include "cli/command.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {

/// Prints a summary or one JSON object; writes --out (t, q, v, the friction law's states,
/// clearance-A.N, clearance-A.F as the event-driven run, then penetration, v_t and energy).
int runZhengPenalty(const po::variables_map& vm, const mechanisms::Scenario& scenario,
                    std::ostream& out, std::ostream& err);

}  // namespace stickslip::cli
