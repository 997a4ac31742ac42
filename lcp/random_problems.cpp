#include "lcp/random_problems.hpp"

#include <random>

namespace stickslip::lcp {
namespace {

Eigen::MatrixXd uniformMatrix(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = u(rng);
  return m;
}

}  // namespace

Problem randomSpdProblem(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const Eigen::MatrixXd S = uniformMatrix(n, n, rng);
  Problem p;
  p.M = (S.transpose() * S + 0.1 * n * Eigen::MatrixXd::Identity(n, n)) / double(n);
  p.q = uniformMatrix(n, 1, rng);
  return p;
}

Problem randomPMatrixProblem(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const Eigen::MatrixXd S = uniformMatrix(n, n, rng);
  const Eigen::MatrixXd skew = S - S.transpose();
  const Eigen::MatrixXd G = uniformMatrix(n, n, rng);
  Problem p;
  // Symmetric part GᵀG/n + I/2 is positive definite, so M is positive definite, hence P.
  p.M = G.transpose() * G / double(n) + 0.5 * Eigen::MatrixXd::Identity(n, n) + skew;
  p.q = uniformMatrix(n, 1, rng);
  return p;
}

FrictionProblem2D randomFrictionProblem(int contacts, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int bodies = std::max(1, contacts / 2 + 1);
  const int dofs = 3 * bodies;
  // Each contact touches one or two random bodies; J maps body velocities to (normal, tangent).
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(2 * contacts, dofs);
  for (int c = 0; c < contacts; ++c) {
    const int touched = (unit(rng) < 0.5 || bodies == 1) ? 1 : 2;
    for (int k = 0; k < touched; ++k) {
      const int b = int(unit(rng) * bodies) % bodies;
      const double angle = 2.0 * M_PI * unit(rng), arm_x = unit(rng) - 0.5,
                   arm_y = unit(rng) - 0.5, sign = k == 0 ? 1.0 : -1.0;
      const double nx = std::cos(angle), ny = std::sin(angle), tx = -ny, ty = nx;
      J.block(2 * c, 3 * b, 1, 3) += sign * Eigen::RowVector3d(nx, ny, arm_x * ny - arm_y * nx);
      J.block(2 * c + 1, 3 * b, 1, 3) += sign * Eigen::RowVector3d(tx, ty, arm_x * ty - arm_y * tx);
    }
  }
  Eigen::VectorXd inv_mass(dofs);
  for (int i = 0; i < dofs; ++i) inv_mass(i) = 0.5 + unit(rng);
  FrictionProblem2D p;
  p.W = J * inv_mass.asDiagonal() * J.transpose();
  // q = J v + gap terms: a velocity of the system seen at the contacts (in the range of W,
  // as for a mechanism) plus nonnegative normal offsets, so some contacts approach and some
  // separate, and the LCP stays solvable even when W is singular.
  const Eigen::VectorXd v = uniformMatrix(dofs, 1, rng);
  p.q = J * v;
  for (int c = 0; c < contacts; ++c) p.q(2 * c) += 0.2 * unit(rng);
  p.mu.resize(contacts);
  for (int c = 0; c < contacts; ++c) p.mu(c) = 0.1 + 0.9 * unit(rng);
  return p;
}

}  // namespace stickslip::lcp
