#pragma once
/// \file `stickslip run roller-crank`: the roller–crank of review §4 with one friction law, or
/// with the review's six models side by side (`--table`, the review's Table 4 analogue).

#include <iosfwd>

#include "cli/command.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {

/// Runs one law (prints a summary or one JSON object; writes --out) or, with --table, all six.
int runRollerCrank(const po::variables_map& vm, const mechanisms::Scenario& scenario, std::ostream& out,
                   std::ostream& err);

}  // namespace stickslip::cli
