#pragma once
/// \file One friction contact at zero sliding velocity: stick or slip, by trial-and-error and
/// by an LCP, on the same inputs [Zheng, Zhang & Wang 2018, §3; saturation form of Pfeiffer &
/// Glocker 1996, ch. 5].
///
/// At vₜ = 0 the tangential acceleration is affine in the friction force,
///   a = a₀ + w F,   w > 0,
/// (a₀: acceleration without friction; w: acceleration per unit friction force, the
/// tangential entry of the inverse mass matrix in contact coordinates). With normal force
/// N ≥ 0 and μs ≥ μk ≥ 0 the contact either sticks (a = 0, |F| ≤ μs N) or starts to slip in
/// the direction of a₀ with kinetic friction against it (a ≠ 0, F = −μk N sign(a)).
///
/// (i) Trial-and-error [Zheng et al. §3.3]: assume stick, F = −a₀/w; accept it when
///     |F| ≤ μs N, otherwise slip: F = −μk N sign(a₀), a = a₀ + w F (same sign as a₀, as
///     μk ≤ μs).
/// (ii) LCP [Zheng et al. §3.1–3.2]: a = a⁺ − a⁻ and the saturations
///       F⁺ = μs N + F ≥ 0 ⊥ a⁺ ≥ 0,   F⁻ = μs N − F ≥ 0 ⊥ a⁻ ≥ 0,
///     i.e. LCP(M, q) with z = (F⁺, a⁻), w = (a⁺, F⁻),
///       M = [[w, 1], [−1, 0]],   q = (a₀ − w μs N, 2 μs N).
///     M + Mᵀ = diag(2w, 0) is PSD, so Lemke processes it, and q₂ ≥ 0 makes it feasible.
///     The LCP is posed with μs, so it decides stick versus slip; in a slip mode the force is
///     the kinetic one, F = −μk N sign(a), by the same rule as (i). (With μk < μs the force
///     jumps from the static bound to the kinetic value at break-away; the LCP alone would
///     return F = ∓μs N.)
///
/// Both routes make the same decision: the contact slips iff |a₀| − w μs N > tol (in (ii),
/// the LCP's a⁺ or a⁻ equals that excess), so they agree to round-off, including at the
/// boundary |a₀| = w μs N, which counts as stick.

#include <string>
#include <string_view>

#include "lcp/lemke.hpp"
#include "lcp/problem.hpp"
#include "lcp/status.hpp"

namespace stickslip::lcp {

enum class ContactMode {
  kStick,         ///< a = 0, |F| ≤ μs N
  kSlipPositive,  ///< a > 0, F = −μk N
  kSlipNegative,  ///< a < 0, F = +μk N
};

std::string_view toString(ContactMode m);

/// Inputs of a single contact at zero tangential velocity.
struct SingleContact {
  double free_acceleration = 0.0;  ///< a₀, tangential acceleration without friction
  double compliance = 1.0;         ///< w > 0: tangential acceleration per unit friction force
  double normal_force = 0.0;       ///< N ≥ 0
  double mu_static = 0.0;          ///< μs ≥ μk
  double mu_kinetic = 0.0;         ///< μk ≥ 0
  /// Slip needs |a₀| − w μs N > tol; ≤ 0 picks 1e-12·(|a₀| + w μs N), far above the
  /// round-off of either route (a few ε of the same scale) and far below any physical size.
  double zero_tol = 0.0;

  /// Throws std::invalid_argument("who: expected …, got …") for a non-finite entry, w ≤ 0,
  /// N < 0, μk < 0 or μs < μk.
  void validate(std::string_view who = "lcp::SingleContact") const;
  /// The tolerance actually applied (see zero_tol).
  double tolerance() const;
};

/// Mode, friction force F and tangential acceleration a (exactly 0 when sticking).
/// Meaningful only when ok().
struct SingleContactResult {
  Status status = Status::kNotRun;
  ContactMode mode = ContactMode::kStick;
  double friction = 0.0;
  double acceleration = 0.0;
  int pivots = 0;  ///< Lemke's pivots for the LCP route, 0 for trial-and-error
  std::string message;
  bool ok() const { return status == Status::kSuccess; }
};

/// Route (i). Never throws: invalid input gives Status::kInvalidInput with the message.
SingleContactResult solveByTrialAndError(const SingleContact& c);

/// The LCP of route (ii) (throws std::invalid_argument for invalid input).
Problem singleContactLcp(const SingleContact& c);

/// Route (ii) with `lemke`. Never throws: invalid input gives Status::kInvalidInput; a Lemke
/// failure is passed on with its status and message.
SingleContactResult solveSingleContactWithLemke(const SingleContact& c, LemkeSolver& lemke);

}  // namespace stickslip::lcp
