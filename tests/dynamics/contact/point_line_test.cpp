#include "dynamics/contact/point_line.hpp"

#include <Eigen/Geometry>
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

using namespace stickslip::dynamics;

namespace {

// Central differences of O(1) smooth functions of O(1) arguments with step 1e-6: truncation
// ~h²·|f‴|/6 ≈ 1e-13, round-off ~ε·|f|/h ≈ 1e-10; 1e-8 leaves a margin of 100.
constexpr double kFdStep = 1e-6;
constexpr double kFdTol = 1e-8;

Eigen::Vector2d rot(double th, const Eigen::Vector2d& v) {
  return Eigen::Rotation2Dd(th).toRotationMatrix() * v;
}

/// Gap and tangential position computed here from the definitions, independently of the
/// library: g = nᵀ(r_P − r_Q), s = tᵀ(r_P − r_Q), n = A_j n′, t = n turned by +90°.
Eigen::Vector2d gapAndSlide(const PointLineContact& c, const Eigen::Matrix<double, 6, 1>& q) {
  const Eigen::Vector2d r_p = q.head<2>() + rot(q(2), c.point_on_i);
  const Eigen::Vector2d r_q = q.segment<2>(3) + rot(q(5), c.line_point_on_j);
  const Eigen::Vector2d n = rot(q(5), c.line_normal_on_j);
  const Eigen::Vector2d t(-n.y(), n.x());
  return {n.dot(r_p - r_q), t.dot(r_p - r_q)};
}

PointLineKinematics at(const PointLineContact& c, const Eigen::Matrix<double, 6, 1>& q,
                       const Eigen::Matrix<double, 6, 1>& qdot) {
  return pointLineKinematics(c, q.head<3>(), qdot.head<3>(), q.tail<3>(), qdot.tail<3>());
}

PointLineContact sliderCorner() {
  PointLineContact c;
  c.point_on_i = {0.05, -0.025};  // a corner of the 2a × 2b slider, DESIGN §7
  c.line_point_on_j = {0.3, 0.1};
  c.line_normal_on_j = Eigen::Vector2d(1.0, 2.0).normalized();
  return c;
}

}  // namespace

TEST_CASE("point on line: gap sign and directions", "[dynamics][contact][point-line]") {
  PointLineContact c;  // the ground's x-axis, free side y > 0
  c.point_on_i = {0.1, 0.0};
  const Eigen::Vector3d zero = Eigen::Vector3d::Zero();

  SECTION("above the line: positive gap") {
    const auto k = pointGroundLineKinematics(c, {1.0, 0.5, std::numbers::pi / 2}, zero);
    CHECK(k.point.isApprox(Eigen::Vector2d(1.0, 0.6), 1e-15));
    CHECK(k.gap == Approx(0.6).epsilon(1e-15));
    CHECK(k.normal == Eigen::Vector2d(0.0, 1.0));
    CHECK(k.tangent == Eigen::Vector2d(-1.0, 0.0));  // n turned by +90°
  }
  SECTION("below the line: negative gap, penetration = −gap") {
    const auto k = pointGroundLineKinematics(c, {1.0, -0.3, std::numbers::pi / 2}, zero);
    CHECK(k.gap == Approx(-0.2).epsilon(1e-14));
    CHECK(k.penetration() == Approx(0.2).epsilon(1e-14));
  }
  SECTION("a line of a rotated, moved body") {
    // Body j at (2, 1), turned by 90°: its local x-axis is the world y-axis, its local
    // normal (0, 1) points along world −x. Point at world (1.5, 7): 0.5 on the free side.
    const Eigen::Vector3d q_j(2.0, 1.0, std::numbers::pi / 2);
    PointLineContact d;
    d.point_on_i = Eigen::Vector2d::Zero();
    const auto k = pointLineKinematics(d, {1.5, 7.0, 0.3}, zero, q_j, zero);
    CHECK(k.normal.isApprox(Eigen::Vector2d(-1.0, 0.0), 1e-15));
    CHECK(k.gap == Approx(0.5).epsilon(1e-14));
  }
  SECTION("translation along the normal changes the gap, along the tangent the slide") {
    const auto k = pointGroundLineKinematics(c, {0.0, 0.2, 0.0}, {0.7, -0.4, 0.0});
    CHECK(k.gap_rate == Approx(-0.4).epsilon(1e-15));
    CHECK(k.tangential_velocity == Approx(-0.7).epsilon(1e-15));  // t = (−1, 0)
  }
  SECTION("contract violations throw") {
    PointLineContact bad = c;
    bad.line_normal_on_j = {0.0, 2.0};
    CHECK_THROWS_WITH(pointGroundLineKinematics(bad, zero, zero),
                      Catch::Contains("expected a unit line normal n', got |n'| = 2"));
    bad.line_normal_on_j = {0.0, std::nan("")};
    CHECK_THROWS_AS(pointGroundLineKinematics(bad, zero, zero), std::invalid_argument);
  }
}

TEST_CASE("point on line: Jacobian rows against central differences",
          "[dynamics][contact][point-line][jacobian]") {
  const PointLineContact c = sliderCorner();
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> pos(-1.0, 1.0), ang(-3.1, 3.1), vel(-2.0, 2.0);
  for (int trial = 0; trial < 50; ++trial) {
    Eigen::Matrix<double, 6, 1> q, qdot;
    q << pos(rng), pos(rng), ang(rng), pos(rng), pos(rng), ang(rng);
    for (int i = 0; i < 6; ++i) qdot(i) = vel(rng);
    const auto k = at(c, q, qdot);
    INFO("trial " << trial << ", q = " << q.transpose());
    CHECK(k.gap == Approx(gapAndSlide(c, q)(0)).margin(1e-15));

    // J_n = ∂g/∂q and J_t = ∂s/∂q, column by column.
    for (int col = 0; col < 6; ++col) {
      Eigen::Matrix<double, 6, 1> dq = Eigen::Matrix<double, 6, 1>::Zero();
      dq(col) = kFdStep;
      const Eigen::Vector2d fd = (gapAndSlide(c, q + dq) - gapAndSlide(c, q - dq)) / (2 * kFdStep);
      INFO("column " << col);
      CHECK(k.jacobian(0, col) == Approx(fd(0)).margin(kFdTol));
      CHECK(k.jacobian(1, col) == Approx(fd(1)).margin(kFdTol));
    }
    // Velocities: d/dτ of g and s along q + τ q̇.
    const Eigen::Vector2d rates =
        (gapAndSlide(c, q + kFdStep * qdot) - gapAndSlide(c, q - kFdStep * qdot)) / (2 * kFdStep);
    CHECK(k.gap_rate == Approx(rates(0)).margin(kFdTol * 4));
    CHECK(k.tangential_velocity == Approx(rates(1)).margin(kFdTol * 4));

    // The sliding velocity of P over the material point of body j beneath it, from the
    // rigid-body velocity field of j: v = ṙ_P − (Ṙ_j + θ̇_j S (r_P − R_j)).
    const Eigen::Vector2d rho_i = k.point - q.head<2>(), rho_j = k.point - q.segment<2>(3);
    const Eigen::Vector2d v_p = qdot.head<2>() + qdot(2) * Eigen::Vector2d(-rho_i.y(), rho_i.x());
    const Eigen::Vector2d v_j =
        qdot.segment<2>(3) + qdot(5) * Eigen::Vector2d(-rho_j.y(), rho_j.x());
    CHECK(k.tangential_velocity == Approx(k.tangent.dot(v_p - v_j)).margin(1e-13));
    CHECK(k.gap_rate == Approx(k.normal.dot(v_p - v_j)).margin(1e-13));

    // J̇ q̇ = d/dτ [J(q + τ q̇)] q̇ at τ = 0.
    const Eigen::Matrix<double, 2, 6> jdot =
        (at(c, q + kFdStep * qdot, qdot).jacobian - at(c, q - kFdStep * qdot, qdot).jacobian) /
        (2 * kFdStep);
    CHECK((jdot * qdot - k.jdot_qdot).norm() < 4 * kFdTol);

    // Generalized forces Jᵀ(Fₙ, Fₜ): the force f on i at P, −f on j at P, and their moments.
    const double fn = 3.0, ft = -1.25;
    const Eigen::Vector2d f = k.forceOnI(fn, ft);
    Eigen::Matrix<double, 6, 1> expected;
    expected << f, rho_i.x() * f.y() - rho_i.y() * f.x(), -f,
        -(rho_j.x() * f.y() - rho_j.y() * f.x());
    CHECK((k.jacobian.transpose() * Eigen::Vector2d(fn, ft) - expected).norm() < 1e-13);
  }
}

TEST_CASE("point on a ground line: the first three columns of the two-body case",
          "[dynamics][contact][point-line]") {
  const PointLineContact c = sliderCorner();
  const Eigen::Vector3d q(0.4, -0.2, 0.7), qdot(1.0, -0.5, 3.0);
  const auto g = pointGroundLineKinematics(c, q, qdot);
  const auto full =
      pointLineKinematics(c, q, qdot, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  CHECK(g.gap == full.gap);
  CHECK(g.gap_rate == full.gap_rate);
  CHECK(g.tangential_velocity == full.tangential_velocity);
  CHECK(g.jacobian == full.jacobian.leftCols<3>());
  CHECK(g.jdot_qdot == full.jdot_qdot);
  // A point circling on a body above the ground line at θ̇: centripetal −θ̇² ρ, so
  // g̈ = −θ̇² nᵀρ for ρ = A(0.7)(0.05, −0.025) and n = n′ (ground).
  const Eigen::Vector2d rho = Eigen::Rotation2Dd(0.7).toRotationMatrix() * c.point_on_i;
  const auto spin = pointGroundLineKinematics(c, q, {0.0, 0.0, 3.0});
  CHECK(spin.jdot_qdot(0) == Approx(-9.0 * c.line_normal_on_j.dot(rho)).margin(1e-14));
  CHECK(g.gap_rate == Approx(g.jacobian.row(0).dot(qdot)).margin(1e-15));
}

TEST_CASE("point on line: the body-state overload equals the validating one bit for bit",
          "[dynamics][contact][point-line]") {
  PointLineContact c;
  c.point_on_i = {0.05, -0.025};
  c.line_point_on_j = {0.0, -0.026};
  c.line_normal_on_j = {std::sin(0.3), std::cos(0.3)};
  const Eigen::Vector3d qi(0.4, -0.02, 0.7), vi(1.5, -0.3, 20.0);
  const Eigen::Vector3d qj(0.1, 0.2, -0.4), vj(-0.2, 0.1, 3.0);
  const PointLineKinematics a = pointLineKinematics(c, qi, vi, qj, vj);
  const PointLineKinematics b =
      pointLineKinematics(c, PlanarBodyState::at(qi, vi), PlanarBodyState::at(qj, vj), true);
  CHECK(a.gap == b.gap);
  CHECK(a.gap_rate == b.gap_rate);
  CHECK(a.tangential_velocity == b.tangential_velocity);
  CHECK(a.jacobian == b.jacobian);
  CHECK(a.jdot_qdot == b.jdot_qdot);
  // At θ = 0 the rotation is the identity exactly (no cos/sin round-off).
  const PlanarBodyState ground = PlanarBodyState::at(Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  CHECK(ground.rotate(c.point_on_i) == c.point_on_i);
  // The validating overload still refuses a bad normal.
  c.line_normal_on_j = {1.0, 1.0};
  CHECK_THROWS_AS(pointLineKinematics(c, qi, vi, qj, vj), std::invalid_argument);
}
