#pragma once
/// \file `stickslip run flores-translational --method penalty`: the slider's corners as
/// compliant contacts (mechanisms/flores_compliant.hpp).

#include <iosfwd>

#include "cli/command.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {

/// Prints a summary or one JSON object; writes --out (t, q, v, then per corner δ, v_t, Fₙ, Fₜ,
/// then the energy).
int runFloresPenalty(const po::variables_map& vm, const mechanisms::Scenario& scenario, std::ostream& out,
                     std::ostream& err);

}  // namespace stickslip::cli
