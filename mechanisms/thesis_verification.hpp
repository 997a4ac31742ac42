#pragma once
/// \file The `thesis` case of `stickslip verify`: findings of Marques' thesis that its figures
/// show without a number (gallery: docs/gallery.md), each turned into one.

#include <vector>

#include "mechanisms/verification.hpp"

namespace stickslip::mechanisms {

/// Rows, each a figure's finding as a number with a bound that a wrong answer would cross:
/// - Figs 2.7–2.10 (the spatial slider-crank, RK4 h = 1e-3 s): the standard Lagrange multipliers
///   let ‖Φ‖ and ‖Φ̇‖ grow (their largest over 20 s at least 4 and 2 times those over 5 s;
///   measured 16 and 3.9), Baumgarte holds them (below 1e-6 and 1e-5), direct correction keeps
///   ‖Φ̇‖ at round-off; the penalty method loses energy once RK4's own error is below its
///   damping's (h = 5e-4 s: E0 − E at least 5e-5 J; measured 1.45e-4 J); Fig. 2.10's cost of
///   direct correction, counted as its projection's Newton iterations per step (at most 2);
/// - Figs 3.20–3.24 (the belt, penalty route): without stiction the block oscillates at
///   2π √(m/k) (1 %), viscous friction damps it, Karnopp's stick–slip period is the closed
///   form's (3 %, its band), Stribeck's viscous term makes faster cycles, Coulomb with stiction
///   does not stick again, Dahl alone of the bristle laws does not stick, LuGre, elasto-plastic
///   and Gonthier share their loop (largest |F| within 5 %) and hold a range of forces at rest;
/// - Figs 4.3–4.25 (the spatial slider-crank): friction in the guide slows it and Dahl's
///   motion follows exact Coulomb's within 1 cm; the clearance's impacts raise the slider's
///   acceleration peaks (3 times the ideal joint's at least) and dissipate; friction in the
///   clearance dissipates 3 times more at least (the load-scaled LuGre, which reproduces the
///   thesis' ranking; gallery, Fig. 4.25).
std::vector<VerificationRow> thesisVerification();

}  // namespace stickslip::mechanisms
