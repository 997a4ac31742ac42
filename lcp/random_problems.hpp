#pragma once
/// \file Seeded random instances shared by the tests and `stickslip bench lcp`.
///
/// Each family is a matrix class with a known guarantee for Lemke, so that a failure on it is
/// a bug and not bad luck: P-matrices and SPD matrices (unique solution for every q) and
/// planar friction problems from PSD Delassus matrices with q compatible with W (their
/// friction_to_lcp LCP is copositive, and Lemke processes it: see friction_to_lcp.hpp).

#include <cstdint>

#include "lcp/problem.hpp"

namespace stickslip::lcp {

/// M = Sᵀ S + n·I/10 scaled to O(1) entries, q uniform in [−1, 1]: symmetric positive definite.
Problem randomSpdProblem(int n, std::uint64_t seed);

/// M = D + S with D diagonal dominant positive and S skew-symmetric: a nonsymmetric P-matrix
/// (positive definite ⇒ P), q uniform in [−1, 1].
Problem randomPMatrixProblem(int n, std::uint64_t seed);

/// Delassus W = J diag(m⁻¹) Jᵀ for nc contacts on a random system of bodies (PSD, possibly
/// singular when 2nc exceeds the degrees of freedom), μ in [0.1, 1], q = J v plus nonnegative
/// normal offsets (approaching and separating contacts mixed): always solvable.
FrictionProblem2D randomFrictionProblem(int contacts, std::uint64_t seed);

}  // namespace stickslip::lcp
