#pragma once
/// \file `stickslip run muvengei-lugre`: Muvengei et al.'s slider-crank with a revolute
/// clearance joint and LuGre friction (mechanisms/muvengei.hpp), or its ideal joint (--ideal).

#include <iosfwd>

#include "cli/command.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {

/// Runs the scenario; prints the steady cycle's summary or one JSON object; writes --out.
int runMuvengei(const po::variables_map& vm, const mechanisms::Scenario& scenario, std::ostream& out,
                std::ostream& err);

}  // namespace stickslip::cli
