#pragma once
/// \file The `roller-crank` case of `stickslip verify` (review §4): closed forms and balances
/// that hold for every law, and the review's observations on its six models.

#include <vector>

#include "mechanisms/verification.hpp"

namespace stickslip::mechanisms {

/// Kept as constants so that tests and the verify case use the same thresholds.
struct RollerCrankThresholds {
  /// Sign changes of v_s in the initial stick window: at least this many for the
  /// discontinuous laws (chatter), at most kSmoothChatter for the others (rolling).
  static constexpr int kDiscontinuousChatter = 100;
  static constexpr int kSmoothChatter = 2;
  /// |E − E(0) − W_f| [J] at the review's BDF tolerance (rtol 1e-6; RK4 h = 1e-5 s): the
  /// kinetic energy is ≈ 0.08 J, so 1e-3 of it (measured: ≤ 1.6e-5 J).
  static constexpr double kEnergyBalance = 1e-4;
  /// LuGre's energy balance is checked before its fold (roller_crank.hpp), t ≤ this [s].
  static constexpr double kLuGreBalanceWindow = 0.25;
  static constexpr double kConstraint = 1e-6;       ///< ‖Φ‖∞ [m]
  static constexpr double kRatioTolerance = 1e-6;   ///< on F/N ≤ μs for Brown–McPhee
};

std::vector<VerificationRow> rollerCrankVerification();

}  // namespace stickslip::mechanisms
