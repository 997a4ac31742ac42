#pragma once
/// \file `stickslip run SCENARIO --method minimal-form`: Blajer's minimal form
/// (dynamics/minimal_form.hpp) of any mechanism it can take (dynamics/minimal_form_route.hpp).

#include <iosfwd>
#include <string>

#include "cli/command.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {

/// Runs the minimal form; prints a summary or one JSON object; writes --out.
int runMinimalForm(const po::variables_map& vm, const mechanisms::Scenario& scenario, std::ostream& out,
                   std::ostream& err);

}  // namespace stickslip::cli
