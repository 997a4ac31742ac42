// ConstrainedResponse with the joints handled sparse (sparse_joint_system.hpp) against the dense
// path on one model: a chain of links with revolute joints ending in a slider, off its assembly
// (Φ ≠ 0) and moving. Every product, solve and projection agrees; redundant joints are refused
// with the rows named; a new configuration's update and the products allocate nothing.
#include <catch2/catch.hpp>

#include <random>

#include "allocation_counter.hpp"
#include "dynamics/model/constrained_response.hpp"
#include "dynamics/model/planar_model.hpp"

using namespace stickslip;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

// `links` links of length 1 hanging from the ground, the last one's end on a vertical guide.
dynamics::PlanarModel chain(int links) {
  dynamics::PlanarModel model;
  model.setGravity({0.0, -9.81});
  dynamics::BodyIndex above = dynamics::kGround;
  for (int k = 0; k < links; ++k) {
    const dynamics::BodyIndex link = model.addBody("link-" + std::to_string(k), 1.0 + 0.1 * k, 0.1);
    model.addRevolute(link, {0.0, 0.5}, above, above == dynamics::kGround ? Eigen::Vector2d::Zero() : Eigen::Vector2d(0.0, -0.5),
                      "pin-" + std::to_string(k));
    above = link;
  }
  model.addPointOnLine(dynamics::kGround, {0.0, -double(links)}, Eigen::Vector2d::UnitY(), above, {0.0, -0.5}, "guide");
  return model;
}

double relative(const MatrixXd& a, const MatrixXd& b) {
  return (a - b).lpNorm<Eigen::Infinity>() / std::max(1.0, b.lpNorm<Eigen::Infinity>());
}

}  // namespace

TEST_CASE("sparse joints: every product of the constrained response equals the dense path's", "[dynamics][sparse-joints]") {
  const int links = 12;
  const dynamics::PlanarModel sparse_model = chain(links);
  dynamics::PlanarModel dense_model = sparse_model;
  dense_model.setSparseJoints(false);
  REQUIRE(sparse_model.constraintCount() == 2 * links + 1);
  dynamics::ConstrainedResponse sparse(sparse_model, 20.0, 20.0), dense(dense_model, 20.0, 20.0);
  REQUIRE(sparse.sparse());
  REQUIRE_FALSE(dense.sparse());

  std::mt19937 rng(5);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const Eigen::Index nv = sparse_model.velocitySize(), m = sparse_model.constraintCount();
  VectorXd q(nv), v(nv);
  for (int k = 0; k < links; ++k) q.segment<3>(3 * k) << 0.05 * uni(rng), -0.5 - k + 0.05 * uni(rng), 0.1 * uni(rng);
  for (Eigen::Index i = 0; i < nv; ++i) v(i) = uni(rng);
  REQUIRE(sparse.update(0.3, q, v));
  REQUIRE(dense.update(0.3, q, v));

  // D's nonzeros lie in the pattern.
  MatrixXd d(m, nv);
  dense_model.jacobian(0.3, q, d);
  const std::vector<std::vector<int>> pattern = sparse_model.jacobianPattern();
  MatrixXd outside = d;
  for (Eigen::Index r = 0; r < m; ++r)
    for (const int c : pattern[std::size_t(r)]) outside(r, c) = 0.0;
  CHECK(outside.isZero());

  CHECK(relative(sparse.freeAcceleration(), dense.freeAcceleration()) < 1e-11);
  CHECK(relative(sparse.inverseMass(), dense.inverseMass()) < 1e-11);
  MatrixXd jt(nv, 3), by_sparse(nv, 3), by_dense(nv, 3);
  for (Eigen::Index i = 0; i < jt.size(); ++i) jt.data()[i] = uni(rng);
  sparse.inverseMassTimesColumns(jt, by_sparse);
  dense.inverseMassTimesColumns(jt, by_dense);
  CHECK(relative(by_sparse, by_dense) < 1e-11);
  CHECK((d * by_sparse).lpNorm<Eigen::Infinity>() < 1e-10);  // D G = 0

  VectorXd w_sparse = v, w_dense = v;
  sparse.projectVelocity(w_sparse, 0.1);
  dense.projectVelocity(w_dense, 0.1);
  CHECK(relative(w_sparse, w_dense) < 1e-11);

  VectorXd f = jt.col(0), dv = by_dense.col(1), lambda_sparse(m), lambda_dense(m);
  sparse.jointImpulse(dv, f, lambda_sparse);
  dense.jointImpulse(dv, f, lambda_dense);
  CHECK(relative(lambda_sparse, lambda_dense) < 1e-10);
  sparse.multipliers(f, lambda_sparse);
  dense.multipliers(f, lambda_dense);
  CHECK(relative(lambda_sparse, lambda_dense) < 1e-10);
  // λ(f) = λ₀ + Δλ(f) on both paths: multipliers() split into its free part and its change.
  for (dynamics::ConstrainedResponse* r : {&sparse, &dense}) {
    VectorXd whole(m), zero_force(m), change(m);
    r->multipliers(f, whole);
    r->multipliers(VectorXd::Zero(nv), zero_force);
    r->multiplierChange(f, change);
    CHECK(relative(r->freeMultipliers(), zero_force) < 1e-12);
    CHECK(relative(r->freeMultipliers() + change, whole) < 1e-12);
  }

  VectorXd phi(m), dq_sparse(nv), dq_dense(nv);
  sparse_model.constraints(0.3, q, phi);
  REQUIRE(phi.lpNorm<Eigen::Infinity>() > 1e-3);  // off the assembly
  sparse.jointCorrection(phi, dq_sparse);
  dense.jointCorrection(phi, dq_dense);
  CHECK(relative(dq_sparse, dq_dense) < 1e-11);
  CHECK((d * dq_sparse + phi).lpNorm<Eigen::Infinity>() < 1e-12);
}

TEST_CASE("sparse joints: redundant joints are refused, their rows named", "[dynamics][sparse-joints]") {
  dynamics::PlanarModel model = chain(10);
  model.addRevolute(1, {0.0, 0.5}, 0, {0.0, -0.5}, "second-pin");  // pin-1 again
  dynamics::ConstrainedResponse response(model);
  REQUIRE(response.sparse());
  VectorXd q = VectorXd::Zero(model.velocitySize()), v = q;
  for (int k = 0; k < 10; ++k) q(3 * k + 1) = -0.5 - k;
  CHECK_FALSE(response.update(0.0, q, v));
  CHECK_THAT(response.message(), Catch::Contains("rank-deficient") && Catch::Contains("second-pin") &&
                                     Catch::Contains("pin-1"));
}

TEST_CASE("sparse joints: updates at new configurations and the products allocate nothing", "[dynamics][sparse-joints][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  const dynamics::PlanarModel model = chain(12);
  dynamics::ConstrainedResponse response(model, 20.0, 20.0);
  REQUIRE(response.sparse());
  const Eigen::Index nv = model.velocitySize(), m = model.constraintCount();
  VectorXd q(nv), v = VectorXd::Constant(nv, 0.3), w(nv), lambda(m), phi = VectorXd::Constant(m, 1e-4), dq(nv);
  for (int k = 0; k < 12; ++k) q.segment<3>(3 * k) << 0.01 * k, -0.5 - k, 0.02 * k;
  MatrixXd jt = MatrixXd::Ones(nv, 2), gjt(nv, 2);
  REQUIRE(response.update(0.0, q, v));  // KLU's analysis and first factors
  int step = 0;
  bool ok = false;
  const long allocations = allocationsOver(20, [&] {
    q(2) += 1e-3;  // another configuration: D, S and the factors change, not their patterns
    const bool updated = response.update(0.01 * ++step, q, v);
    response.inverseMassTimesColumns(jt, gjt);
    w = v;
    response.projectVelocity(w, 0.1);
    response.jointImpulse(w, v, lambda);
    response.multipliers(v, lambda);
    response.jointCorrection(phi, dq);
    return updated;
  }, ok);
  CHECK(ok);
  CHECK(allocations == 0);
}
