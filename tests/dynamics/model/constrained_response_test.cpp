// ConstrainedResponse on the dense path, where each joint row spans only its bodies'
// velocities (MultibodySystem::jointRowSpans): the spans hold every nonzero of D and of D M⁻¹,
// and the response they make equals the saddle-point system's, solved whole.
#include <catch2/catch.hpp>

#include <random>

#include "dynamics/model/constrained_response.hpp"
#include "dynamics/model/planar_model.hpp"
#include "dynamics/spatial_slider_crank.hpp"

using namespace stickslip;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

/// A planar chain of four bodies hanging from the ground, joined by revolutes.
dynamics::PlanarModel planarChain() {
  dynamics::PlanarModel model;
  dynamics::BodyIndex previous = dynamics::kGround;
  for (int k = 0; k < 4; ++k) {
    const dynamics::BodyIndex b = model.addBody("link" + std::to_string(k), 1.0 + k, 0.1 + 0.05 * k);
    model.addRevolute(previous, Eigen::Vector2d(0.0, previous == dynamics::kGround ? 0.0 : -0.5), b,
                      Eigen::Vector2d(0.0, 0.5));
    previous = b;
  }
  model.setGravity(Eigen::Vector2d(0.0, -9.81));
  return model;
}

/// D and D M⁻¹ at q are zero outside each row's span.
void checkSpans(const dynamics::MultibodySystem& model, const VectorXd& q) {
  const auto spans = model.jointRowSpans();
  const Eigen::Index m = model.constraintCount(), nv = model.velocitySize();
  REQUIRE(Eigen::Index(spans.size()) == m);
  MatrixXd d(m, nv);
  model.jacobian(0.0, q, d);
  MatrixXd dminv = d.transpose();
  model.applyInverseMass(dminv);
  for (Eigen::Index r = 0; r < m; ++r) {
    const auto [first, end] = spans[std::size_t(r)];
    CAPTURE(r, first, end);
    REQUIRE(first <= end);
    CHECK(d.row(r).head(first).isZero(0.0));
    CHECK(d.row(r).tail(nv - end).isZero(0.0));
    CHECK(dminv.col(r).head(first).isZero(0.0));
    CHECK(dminv.col(r).tail(nv - end).isZero(0.0));
    CHECK(d.row(r).segment(first, end - first).squaredNorm() > 0.0);
  }
}

/// The response against [M Dᵀ; D 0] [a; λ] = [Q + f; γ̃], solved whole, at (q, v).
void checkAgainstSaddlePoint(const dynamics::MultibodySystem& model, const VectorXd& q, const VectorXd& v) {
  const double alpha = 5.0, beta = 7.0, t = 0.2;
  dynamics::ConstrainedResponse response(model, alpha, beta);
  REQUIRE(response.update(t, q, v));
  const Eigen::Index m = model.constraintCount(), nv = model.velocitySize();
  MatrixXd d(m, nv), mass = MatrixXd::Identity(nv, nv);
  VectorXd phi(m), gamma(m), phi_t(m), forces(nv);
  model.constraintsJacobianAndGamma(t, q, v, phi, d, gamma);
  model.constraintTimeDerivative(t, q, phi_t);
  model.generalizedForces(t, q, v, forces);
  model.applyMass(mass);
  gamma -= 2.0 * alpha * (d * v + phi_t) + beta * beta * phi;
  MatrixXd kkt = MatrixXd::Zero(nv + m, nv + m);
  kkt.topLeftCorner(nv, nv) = mass;
  kkt.topRightCorner(nv, m) = d.transpose();
  kkt.bottomLeftCorner(m, nv) = d;
  const Eigen::FullPivLU<MatrixXd> lu(kkt);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  MatrixXd jt(nv, 2);
  for (Eigen::Index i = 0; i < jt.size(); ++i) jt.data()[i] = uni(rng);
  VectorXd rhs(nv + m);
  rhs << forces + jt.col(0), gamma;
  const VectorXd exact = lu.solve(rhs);  // λ here with −Dᵀλ the joint force: ConstrainedResponse's sign
  VectorXd lambda(m);
  response.multipliers(jt.col(0), lambda);
  MatrixXd gjt(nv, 2), lambda_change(m, 2);
  response.inverseMassTimesColumns(jt, gjt, lambda_change);
  const double scale = 1.0 + exact.lpNorm<Eigen::Infinity>();
  CHECK((response.freeAcceleration() + gjt.col(0) - exact.head(nv)).lpNorm<Eigen::Infinity>() < 1e-9 * scale);
  CHECK((lambda - exact.tail(m)).lpNorm<Eigen::Infinity>() < 1e-9 * scale);
  // The homogeneous response to the second column: G jt and S⁻¹ D M⁻¹ jt.
  rhs << jt.col(1), VectorXd::Zero(m);
  const VectorXd unit = lu.solve(rhs);
  const double unit_scale = 1.0 + unit.lpNorm<Eigen::Infinity>();
  CHECK((gjt.col(1) - unit.head(nv)).lpNorm<Eigen::Infinity>() < 1e-9 * unit_scale);
  CHECK((lambda_change.col(1) - unit.tail(m)).lpNorm<Eigen::Infinity>() < 1e-9 * unit_scale);
  VectorXd change(m);
  response.multiplierChange(jt.col(1), change);
  CHECK((change - lambda_change.col(1)).lpNorm<Eigen::Infinity>() < 1e-12 * unit_scale);
  CHECK((response.inverseMass() * jt - gjt).lpNorm<Eigen::Infinity>() < 1e-9 * unit_scale);
}

}  // namespace

TEST_CASE("joint row spans hold D's and D M⁻¹'s nonzeros, planar and spatial", "[dynamics][spans]") {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const dynamics::PlanarModel chain = planarChain();
  const dynamics::SpatialSliderCrank crank;
  for (int trial = 0; trial < 5; ++trial) {
    VectorXd q(chain.positionSize());
    for (Eigen::Index i = 0; i < q.size(); ++i) q(i) = uni(rng);
    checkSpans(chain, q);
    VectorXd p = crank.q0;
    for (Eigen::Index i = 0; i < p.size(); ++i) p(i) += 0.1 * uni(rng);
    crank.model.normalizePositions(p);
    checkSpans(crank.model, p);
  }
}

TEST_CASE("the response over joint row spans is the saddle-point system's, planar and spatial",
          "[dynamics][spans]") {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const dynamics::PlanarModel chain = planarChain();
  const dynamics::SpatialSliderCrank crank;
  REQUIRE(crank.assembly.status == dynamics::AssemblyStatus::kSuccess);
  for (int trial = 0; trial < 5; ++trial) {
    VectorXd q(chain.positionSize()), v(chain.velocitySize());
    for (Eigen::Index i = 0; i < q.size(); ++i) q(i) = uni(rng), v(i) = uni(rng);
    checkAgainstSaddlePoint(chain, q, v);
    VectorXd p = crank.q0, w = crank.v0;
    for (Eigen::Index i = 0; i < p.size(); ++i) p(i) += 0.01 * uni(rng);
    for (Eigen::Index i = 0; i < w.size(); ++i) w(i) += uni(rng);
    crank.model.normalizePositions(p);
    checkAgainstSaddlePoint(crank.model, p, w);
  }
}
