// The minimal form (dynamics/routes/minimal_form/minimal_form.hpp) on one-body mechanisms with closed forms.
#include <catch2/catch.hpp>

#include <cmath>

#include "dynamics/routes/minimal_form/minimal_form.hpp"
#include "standard_gravity.hpp"

using namespace stickslip::dynamics;

namespace {

using stickslip::test::kG;

// Block of mass m on a frictional slope of angle alpha (translational joint), gravity −y.
struct Slope {
  PlanarModel model;
  std::vector<FrictionalJoint> friction;
  MinimalFormOptions options;
  Eigen::VectorXd x0 = Eigen::VectorXd::Zero(3);
  Slope(double alpha, double mus, double muk) {
    const BodyIndex b = model.addBody("block", 2.0, 0.1);
    model.setGravity({0.0, -kG});
    const int j = model.addTranslational(kGround, {0.0, 0.0}, {std::cos(alpha), std::sin(alpha)}, b, {0.0, 0.0});
    FrictionalJoint f;
    f.name = "slope";
    f.joint = j;
    f.kind = FrictionJointKind::kPrismatic;
    f.mu_static = mus;
    f.mu_kinetic = muk;
    friction.push_back(f);
    options.independent = {PlanarModel::coordinate(b, 0)};
  }
};

}  // namespace

TEST_CASE("minimal form: a pendulum's reduced mass and acceleration", "[minimal-form]") {
  PlanarModel model;
  const double m = 1.5, J = 0.2, l = 0.4, th = 0.3;
  const BodyIndex b = model.addBody("bar", m, J);
  model.setGravity({0.0, -kG});
  model.addRevolute(kGround, {0.0, 0.0}, b, {-l, 0.0});
  Eigen::VectorXd x0(3);
  x0 << l * std::cos(th), l * std::sin(th), th;
  MinimalFormOptions o;
  o.independent = {2};
  MinimalForm form(model, {}, o, x0);
  CHECK(form.dimensions().k == 1);
  CHECK(form.dimensions().absolute() == 2 * 3 + 2);
  MinimalFormState s;
  REQUIRE(form.evaluate(0.0, x0, Eigen::VectorXd::Constant(1, 2.0), form.none(),
                        false, s));
  Eigen::MatrixXd C(2, 3);
  model.jacobian(0.0, s.x, C);
  CHECK((C * s.D).norm() < 1e-14);
  CHECK(s.reduced_mass(0, 0) == Approx(J + m * l * l).epsilon(1e-14));
  CHECK(s.udot(0) == Approx(-m * kG * l * std::cos(th) / (J + m * l * l)).epsilon(1e-12));
  // Pivot reaction: gravity plus centripetal and tangential inertia, |λ| = m |a − g|.
  const Eigen::Vector2d a = l * s.udot(0) * Eigen::Vector2d(-std::sin(th), std::cos(th)) -
                            l * 4.0 * Eigen::Vector2d(std::cos(th), std::sin(th));
  CHECK(s.lambda.norm() == Approx(m * (a - Eigen::Vector2d(0.0, -kG)).norm()).epsilon(1e-12));
}

TEST_CASE("minimal form: a block on a slope sticks iff tan(alpha) <= mu_s, else slides with mu_k",
          "[minimal-form]") {
  MinimalFormSimulationOptions o;
  o.t_end = 1.0;
  o.output_dt = 0.1;
  SECTION("sticks") {
    Slope s(0.3, 0.32, 0.2);  // tan 0.3 = 0.309
    MinimalForm form(s.model, s.friction, s.options, s.x0);
    const auto r = simulateMinimalForm(form, s.x0, Eigen::VectorXd::Zero(1), o);
    REQUIRE(r.run.ok());
    REQUIRE(r.stick_intervals.size() == 1);
    CHECK(r.stick_intervals[0].second == Approx(1.0));
    CHECK(r.run.final_q.norm() == 0.0);
    // One element: its stiction force is the one that holds, m g sin α, with N = m g cos α.
    const Eigen::VectorXd last = r.run.history.row(r.run.history.rows() - 1).transpose();
    CHECK(last(1 + 6 + 1 + 2) == Approx(2.0 * kG * std::cos(0.3)).epsilon(1e-12));
    CHECK(std::abs(last(1 + 6 + 1 + 2 + 1)) == Approx(2.0 * kG * std::sin(0.3)).epsilon(1e-12));
  }
  SECTION("slides") {
    const double alpha = 0.3, muk = 0.2;
    Slope s(alpha, 0.29, muk);
    MinimalForm form(s.model, s.friction, s.options, s.x0);
    const auto r = simulateMinimalForm(form, s.x0, Eigen::VectorXd::Zero(1), o);
    REQUIRE(r.run.ok());
    CHECK(r.stick_intervals.empty());
    const double along = -kG * (std::sin(alpha) - muk * std::cos(alpha));  // acceleration up the slope
    CHECK(r.run.final_q(0) == Approx(0.5 * along * std::cos(alpha)).epsilon(1e-9));
    CHECK(r.run.final_q(1) == Approx(0.5 * along * std::sin(alpha)).epsilon(1e-9));
    // The normal force is m g cos α; friction μk of it, against the motion (up the slope).
    const Eigen::VectorXd last = r.run.history.row(r.run.history.rows() - 1).transpose();
    CHECK(last(1 + 6 + 1 + 2) == Approx(2.0 * kG * std::cos(alpha)).epsilon(1e-9));
    CHECK(last(1 + 6 + 1 + 2 + 1) == Approx(muk * 2.0 * kG * std::cos(alpha)).epsilon(1e-9));
  }
}

TEST_CASE("minimal form: invalid input is rejected with its cause", "[minimal-form]") {
  Slope s(0.3, 0.3, 0.2);
  auto bad = s.options;
  bad.independent = {0, 1};
  CHECK_THROWS_WITH(MinimalForm(s.model, s.friction, bad, s.x0), Catch::Contains("1 independent coordinates"));
  auto wrong = s.friction;
  wrong[0].kind = FrictionJointKind::kRevolute;
  wrong[0].radius = 0.01;
  CHECK_THROWS_WITH(MinimalForm(s.model, wrong, s.options, s.x0), Catch::Contains("to be revolute"));
  wrong = s.friction;
  wrong[0].mu_static = 0.1;
  CHECK_THROWS_WITH(MinimalForm(s.model, wrong, s.options, s.x0), Catch::Contains("mu_kinetic <= mu_static"));
  PlanarModel driven;
  const BodyIndex b = driven.addBody("b", 1.0, 1.0);
  driven.addRheonomicDriver(kGround, b, [](double) { return 0.0; }, [](double) { return 0.0; },
                            [](double) { return 0.0; });
  MinimalFormOptions o;
  o.independent = {0, 1};
  CHECK_THROWS_WITH(MinimalForm(driven, {}, o, Eigen::VectorXd::Zero(3)), Catch::Contains("rheonomic driver"));
  MinimalForm form(s.model, s.friction, s.options, s.x0);
  MinimalFormSimulationOptions so;
  so.t_end = -1.0;
  CHECK_THROWS_WITH(simulateMinimalForm(form, s.x0, Eigen::VectorXd::Zero(1), so), Catch::Contains("t_end > 0"));
}

TEST_CASE("minimal form: a prismatic joint's sliding drift is the rate's derivative beyond C_mu xdd", "[minimal-form]") {
  // A block on the line of a turning body, the joint's points off both centroids, so that
  // every term of s̈ − C_μ ẍ acts; checked against a central difference along x + t ẋ + ½ t² ẍ.
  PlanarModel model;
  const BodyIndex line = model.addBody("line", 1.0, 0.1), block = model.addBody("block", 1.0, 0.1);
  model.addPointOnLine(line, {0.1, -0.05}, {0.6, 0.8}, block, {0.05, 0.02}, "slot");
  FrictionalJoint f;
  f.name = "slot";
  f.joint = 0;
  f.kind = FrictionJointKind::kPrismatic;
  f.mu_static = f.mu_kinetic = 0.2;
  Eigen::VectorXd x0(6);
  x0 << 0.0, 0.0, 0.0, 0.3, 0.0, 0.0;
  MinimalFormOptions o;
  o.independent = {0, 1, 2, 3, 5};
  MinimalForm form(model, {f}, o, x0);
  Eigen::VectorXd x(6), v(6), a(6);
  x << 0.1, -0.2, 0.7, 0.4, 0.3, -1.1;
  v << 0.3, -0.5, 2.0, -0.7, 0.2, 3.0;
  a << 1.0, 0.4, -2.0, 0.5, -0.3, 1.5;
  const double h = 1e-5;
  const auto rate = [&](double t) { return form.slidingRate(0, 0.0, x + t * v + 0.5 * t * t * a, v + t * a); };
  const double derivative = (rate(h) - rate(-h)) / (2.0 * h);
  const double row_a = form.slidingRate(0, 0.0, x, a);  // C_μ ẍ
  CHECK(row_a + form.slidingDrift(0, x, v) == Approx(derivative).epsilon(1e-8));
  CHECK(std::abs(form.slidingDrift(0, x, v)) > 0.1);  // the test sees the terms
}
