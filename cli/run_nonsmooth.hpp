#pragma once
/// \file `stickslip run SCENARIO --method event-driven|moreau-jean` on a built-in rigid
/// scenario (mechanisms/rigid_scenarios.hpp).

#include <iosfwd>

#include "cli/command.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {

/// Runs the method named by --method; prints a summary or one JSON object; writes --out.
int runNonsmooth(const po::variables_map& vm, const mechanisms::Scenario& scenario, std::ostream& out,
                 std::ostream& err);

}  // namespace stickslip::cli
