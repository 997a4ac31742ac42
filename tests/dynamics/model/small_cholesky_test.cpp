// SmallCholesky against Eigen's LLT on random SPD matrices, its failure on singular ones, and
// ConstrainedResponse's velocity-level update against the full one (same projected velocity).
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "dynamics/model/constrained_response.hpp"
#include "dynamics/model/small_cholesky.hpp"
#include "dynamics/model/planar_model.hpp"

using namespace stickslip;
using Eigen::MatrixXd;
using Eigen::VectorXd;

TEST_CASE("small cholesky solves as Eigen's LLT does", "[dynamics][cholesky]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  for (Eigen::Index n = 1; n <= 12; ++n) {
    MatrixXd a(n, n + 2), b(n, 3);
    for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = uni(rng);
    for (Eigen::Index i = 0; i < b.size(); ++i) b.data()[i] = uni(rng);
    const MatrixXd s = a * a.transpose();  // SPD: a has full row rank
    dynamics::SmallCholesky chol;
    chol.resize(n);
    REQUIRE(chol.compute(s));
    const Eigen::LLT<MatrixXd> reference(s);
    CHECK((chol.pivots() - reference.matrixLLT().diagonal()).lpNorm<Eigen::Infinity>() < 1e-12);
    MatrixXd x = b;
    chol.solveInPlace(x);
    CHECK((x - reference.solve(b)).lpNorm<Eigen::Infinity>() < 1e-9);
    VectorXd column = b.col(1);
    chol.solveInPlace(column);
    CHECK((s * column - b.col(1)).lpNorm<Eigen::Infinity>() < 1e-10);
  }
}

TEST_CASE("small cholesky within a profile: the full loops' bits, Eigen's answer", "[dynamics][cholesky]") {
  // Block tridiagonal, as a chain of joints makes S: blocks of 2, 3, 1, 4 and 2 rows.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const std::vector<Eigen::Index> blocks{2, 3, 1, 4, 2};
  const Eigen::Index n = 12;
  MatrixXd a = MatrixXd::Zero(n, n + 3);
  std::vector<Eigen::Index> first(n);
  Eigen::Index row = 0, column = 0;
  for (std::size_t k = 0; k < blocks.size(); ++k) {  // rows of block k touch columns of k and k + 1
    for (Eigen::Index r = row; r < row + blocks[k]; ++r)
      for (Eigen::Index c = column; c < std::min(column + 6, n + 3); ++c) a(r, c) = uni(rng);
    for (Eigen::Index r = row; r < row + blocks[k]; ++r) first[std::size_t(r)] = k == 0 ? 0 : row - blocks[k - 1];
    row += blocks[k];
    column += 3;
  }
  const MatrixXd s = a * a.transpose();
  for (Eigen::Index i = 0; i < n; ++i)  // the profile holds every nonzero
    for (Eigen::Index j = 0; j < first[std::size_t(i)]; ++j) REQUIRE(s(i, j) == 0.0);
  dynamics::SmallCholesky full, profiled;
  full.resize(n);
  profiled.resize(n);
  REQUIRE(full.compute(s));
  profiled.setProfile(first.data());
  REQUIRE(profiled.compute(s));
  CHECK(full.pivots() == profiled.pivots());  // only exact zeros skipped
  MatrixXd b(n, 2), x = MatrixXd::Zero(n, 2), y;
  for (Eigen::Index i = 0; i < b.size(); ++i) b.data()[i] = uni(rng);
  x = b;
  y = b;
  full.solveInPlace(x);
  profiled.solveInPlace(y);
  CHECK(x == y);
  CHECK((x - Eigen::LLT<MatrixXd>(s).solve(b)).lpNorm<Eigen::Infinity>() < 1e-9);
  // A full factorization after a profiled one: no entry of the profile's zeros left behind.
  const MatrixXd dense = s + MatrixXd::Constant(n, n, 0.01);
  profiled.setProfile(nullptr);
  REQUIRE(profiled.compute(dense));
  y = b;
  profiled.solveInPlace(y);
  CHECK((dense * y - b).lpNorm<Eigen::Infinity>() < 1e-9);
}

TEST_CASE("small cholesky refuses a singular or indefinite matrix", "[dynamics][cholesky]") {
  dynamics::SmallCholesky chol;
  chol.resize(3);
  MatrixXd s(3, 3);
  s << 4, 2, 2,  //
      2, 1, 1,   // row 1 = row 0 / 2: rank 2
      2, 1, 3;
  CHECK_FALSE(chol.compute(s));
  CHECK(chol.pivots()(0) == Approx(2.0));
  CHECK(chol.pivots().tail<2>().isZero());
  s(0, 0) = -1.0;
  CHECK_FALSE(chol.compute(s));
  CHECK(chol.pivots().isZero());
}

TEST_CASE("velocity-level update projects to the velocity the full update does",
          "[dynamics][moreau-jean]") {
  // Adding M⁻¹Dᵀy to a velocity leaves its projection onto the joints unchanged, so v + h a₀
  // projects identically whether a₀ carries the joint part or not.
  dynamics::PlanarModel model;  // a double pendulum under gravity, off its assembly (Φ ≠ 0)
  const dynamics::BodyIndex upper = model.addBody("upper", 1.0, 0.1),
                            lower = model.addBody("lower", 2.0, 0.3);
  model.addRevolute(dynamics::kGround, Eigen::Vector2d::Zero(), upper, Eigen::Vector2d(-0.5, 0.0));
  model.addRevolute(upper, Eigen::Vector2d(0.5, 0.0), lower, Eigen::Vector2d(-0.4, 0.1));
  model.setGravity(Eigen::Vector2d(0.0, -9.81));
  dynamics::ConstrainedResponse full(model, 20.0, 20.0), velocity_level(model);
  VectorXd q(6), v(6);
  q << 0.4, 0.1, 0.3, 1.2, -0.2, -0.5;
  v << 0.2, -1.0, 2.0, 0.5, 1.5, -1.0;
  REQUIRE(full.update(0.01, q, v));
  REQUIRE(velocity_level.updateVelocityLevel(0.01, q, v));
  CHECK((full.forces() - velocity_level.forces()).isZero());
  CHECK_FALSE((full.freeAcceleration() - velocity_level.freeAcceleration()).isZero(1e-6));
  const double h = 1e-3, feedback = 0.1 / h;
  VectorXd a = v + h * full.freeAcceleration(), b = v + h * velocity_level.freeAcceleration();
  full.projectVelocity(a, feedback);
  velocity_level.projectVelocity(b, feedback);
  CHECK((a - b).lpNorm<Eigen::Infinity>() < 1e-10 * (1.0 + a.lpNorm<Eigen::Infinity>()));
  VectorXd lambda(model.constraintCount());
  CHECK_THROWS_AS(velocity_level.multipliers(VectorXd::Zero(v.size()), lambda), std::logic_error);
}
