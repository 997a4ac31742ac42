#pragma once
/// \file The `muvengei` case of `stickslip verify`: the regularized route's checks, apart
/// from verification.cpp's nonsmooth ones.

#include <vector>

#include "mechanisms/verification.hpp"

namespace stickslip::mechanisms {

/// Muvengei et al.'s slider-crank at 2500 rpm: the ideal joint against the closed form; with
/// the 0.5 mm clearance and LuGre, impact spikes, the position bound, the friction bounds,
/// presliding, the work balance, and the two catalogue forms of the paper's LuGre.
std::vector<VerificationRow> verifyMuvengei();

}  // namespace stickslip::mechanisms
