#pragma once
/// \file Seeded builders for the reduction and enumeration tests: planted LCP solutions and
/// well-conditioned random matrices.

#include <Eigen/Dense>
#include <random>

#include "lcp/problem.hpp"

namespace stickslip::lcp::test {

/// Uniform entries in [lo, hi].
inline Eigen::MatrixXd uniform(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng,
                               double lo = -1.0, double hi = 1.0) {
  std::uniform_real_distribution<double> u(lo, hi);
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = u(rng);
  return m;
}

/// A random n×n matrix U diag(s) V with U, V orthogonal (QR of uniform matrices) and
/// s uniform in [0.5, 2]: condition number ≤ 4, so its inverse costs only a few ε.
inline Eigen::MatrixXd wellConditioned(Eigen::Index n, std::mt19937_64& rng) {
  const Eigen::MatrixXd U =
      Eigen::HouseholderQR<Eigen::MatrixXd>(uniform(n, n, rng)).householderQ();
  const Eigen::MatrixXd V =
      Eigen::HouseholderQR<Eigen::MatrixXd>(uniform(n, n, rng)).householderQ();
  const Eigen::VectorXd s = uniform(n, 1, rng, 0.5, 2.0);
  return U * s.asDiagonal() * V;
}

/// z*, w* ≥ 0 complementary with a random support (entries in [0.5, 1.5] where nonzero).
struct Planted {
  Eigen::VectorXd z, w;
};
inline Planted plantedPair(Eigen::Index n, std::mt19937_64& rng) {
  std::bernoulli_distribution in_support(0.5);
  std::uniform_real_distribution<double> value(0.5, 1.5);
  Planted p{Eigen::VectorXd::Zero(n), Eigen::VectorXd::Zero(n)};
  for (Eigen::Index i = 0; i < n; ++i) (in_support(rng) ? p.z(i) : p.w(i)) = value(rng);
  return p;
}

/// LCP(M, q) with q := w* − M z*, so that (z*, w*) solves it.
inline Problem plantedLcp(const Eigen::MatrixXd& M, const Planted& s) {
  return Problem{M, s.w - M * s.z};
}

}  // namespace stickslip::lcp::test
