#pragma once
/// \file `stickslip run SCENARIO --method minimal-form` on blajer-1, blajer-2 or dupont
/// (mechanisms/blajer.hpp, dynamics/minimal_form.hpp).

#include <iosfwd>
#include <string>

#include "cli/command.hpp"

namespace stickslip::cli {

/// True for the scenarios only the minimal form runs (blajer-1, blajer-2).
bool minimalFormOnly(const std::string& scenario);
/// Runs the minimal form; prints a summary or one JSON object; writes --out.
int runMinimalForm(const po::variables_map& vm, std::ostream& out, std::ostream& err);

}  // namespace stickslip::cli
