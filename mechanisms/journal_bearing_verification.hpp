#pragma once
/// \file The `journal-bearing` case of `stickslip verify` (review §5, Table 5, Figs. 11–13):
/// the journal dropped into its bearing by the penalty route, against Hertz's elastic impact,
/// Newton's restitution and the friction cone.

#include <vector>

#include "mechanisms/verification.hpp"

namespace stickslip::mechanisms {

/// Rows:
/// - the first impact's peak normal force against Hertz's elastic impact after the fall through
///   the clearance, F = K δmax^1.5 with δmax = (5 m v² / 4K)^(2/5), v = √(2 g c): within 6 %
///   (Lankarani–Nikravesh's damping takes a little before the peak; the review's ≈ 100
///   weights would be 63 % off);
/// - the first impact's energy ratio against cₑ² (5 %);
/// - Brown–McPhee with the review's μs = 0.15, μk = 0.1: |F|/N ≤ μs over 0.25 s.
std::vector<VerificationRow> journalBearingVerification();

}  // namespace stickslip::mechanisms
