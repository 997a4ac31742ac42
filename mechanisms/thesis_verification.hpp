#pragma once
/// \file The `thesis` case of `stickslip verify`: findings of Marques' thesis that its figures
/// show without a number (gallery: docs/gallery.md), each turned into one.

#include <vector>

#include "mechanisms/verification.hpp"

namespace stickslip::mechanisms {

/// Rows:
/// - Fig. 2.7: the standard Lagrange multipliers let ‖Φ‖ grow (its largest over 20 s at least
///   4 times that over 5 s; measured 16) while Baumgarte holds it below 1e-6 (spatial
///   slider-crank, RK4 h = 1e-3 s);
/// - Fig. 2.9: the penalty method loses energy once RK4's own error is below its damping's
///   (h = 5e-4 s: E0 − E at 20 s at least 5e-5 J; measured 1.45e-4 J, and −1.6e-4 J at
///   h = 1e-3 s, where RK4's error wins);
/// - Fig. 3.22: on the belt Dahl alone does not stick (its least |v_t| over [10, 20] s above
///   1e-4 m/s), while LuGre, elasto-plastic and Gonthier move with the belt for at least 5 s of
///   those 10 (measured 7.2).
std::vector<VerificationRow> thesisVerification();

}  // namespace stickslip::mechanisms
