// The bristle laws on a contact that slides in a plane (tangent_plane_friction.hpp): the
// lift's exact reduction to the scalar law along a line, its isotropy and bounds, and a journal
// pressed against its bore under a tangential load whose direction turns (penalty_system.hpp).
#include <catch2/catch.hpp>

#include <Eigen/Geometry>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/friction/tangent_plane_friction.hpp"
#include "dynamics/routes/penalty/penalty_system.hpp"
#include "dynamics/integrators/rk4.hpp"
#include "dynamics/mechanism/spatial_mechanism.hpp"

using namespace stickslip::dynamics;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

/// Table 4.4 of the thesis (the spatial clearance joint's friction): μs 0.2, μk 0.1, vs 1 mm/s,
/// δσ 2, σ0 1e5 N/m, σ1 √1e5 N·s/m, σ2 0; the rest the catalogue's defaults (σ2 > 0 here so that
/// the viscous term is exercised where it exists).
FrictionParameters tableParameters(double sigma2 = 0.0) {
  FrictionParameters p;
  p.mu_s = 0.2;
  p.mu_k = 0.1;
  p.stribeck_velocity = 1e-3;
  p.stribeck_exponent = 2.0;
  p.sigma0 = 1e5;
  p.sigma1 = std::sqrt(1e5);
  p.sigma2 = sigma2;
  return p;
}

/// The catalogue's laws with states that lift, and those that must not.
const std::vector<std::string> kLifted{"dahl", "lugre", "lugre-wojtyra", "lugre-nondimensional",
                                       "bliman-sorine-1", "bliman-sorine-2"};
const std::vector<std::string> kNotLifted{"armstrong", "wojewoda", "elasto-plastic", "reset-integrator", "gms",
                                          "gonthier",  "liang",    "bristle",        "harnoy-friedland", "leuven"};

/// A unit tangent plane: its normal n and two orthonormal tangents, turned arbitrarily.
struct Plane {
  Vector3d n, e1, e2;
};
Plane plane(double a, double b, double c) {
  const Eigen::Matrix3d r = (Eigen::AngleAxisd(a, Vector3d::UnitZ()) * Eigen::AngleAxisd(b, Vector3d::UnitY()) *
                             Eigen::AngleAxisd(c, Vector3d::UnitX()))
                                .toRotationMatrix();
  return {r.col(2), r.col(0), r.col(1)};
}

/// Integrates ẋ = f(t, x) by RK4 with step h (the same scheme for the scalar and the lifted law).
void rk4Step(const std::function<void(double, const VectorXd&, VectorXd&)>& f, double t, double h, VectorXd& x) {
  VectorXd k1(x.size()), k2(x.size()), k3(x.size()), k4(x.size());
  f(t, x, k1);
  f(t + 0.5 * h, x + 0.5 * h * k1, k2);
  f(t + 0.5 * h, x + 0.5 * h * k2, k3);
  f(t + h, x + h * k3, k4);
  x += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
}

}  // namespace

TEST_CASE("tangent-plane friction: the catalogue's laws with states lift, or are refused by name",
          "[dynamics][friction][spatial]") {
  std::set<std::string> lifted, refused;
  for (const std::string_view name : frictionLawNames()) {
    const std::shared_ptr<const FrictionLaw> law = makeFrictionLaw(name, tableParameters());
    if (law->stateSize() == 0) {
      CHECK_FALSE(TangentPlaneFriction::lifts(*law));  // static laws need no lift
      continue;
    }
    if (TangentPlaneFriction::lifts(*law)) {
      lifted.insert(std::string(name));
      const TangentPlaneFriction lift(law);
      CHECK(lift.stateSize() == 3 * law->stateSize());
    } else {
      refused.insert(std::string(name));
      CHECK_THROWS_WITH(TangentPlaneFriction(law), Catch::Contains("'" + std::string(name) + "'") &&
                                                       Catch::Contains("no isotropic form"));
    }
  }
  CHECK(lifted == std::set<std::string>(kLifted.begin(), kLifted.end()));
  CHECK(refused == std::set<std::string>(kNotLifted.begin(), kNotLifted.end()));
}

TEST_CASE("tangent-plane friction: a law's bristle coefficients are its force and rates, at either sign of v",
          "[dynamics][friction][spatial]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const std::string& name : kLifted) {
    INFO(name);
    const std::unique_ptr<FrictionLaw> law = makeFrictionLaw(name, tableParameters(0.3));
    const int n = law->stateSize();
    for (int trial = 0; trial < 200; ++trial) {
      // Speeds across the Stribeck band and beyond; loads from none to 100 N; states ±1e-4.
      const double v = std::pow(10.0, -5.0 + 5.0 * (0.5 + 0.5 * u(rng))) * (u(rng) < 0 ? -1.0 : 1.0);
      const double load = trial % 10 == 0 ? 0.0 : 100.0 * (0.5 + 0.5 * u(rng));
      std::vector<double> z(static_cast<std::size_t>(n)), rate(static_cast<std::size_t>(n));
      for (double& x : z) x = 1e-4 * u(rng);
      std::vector<BristleCoefficients> b(static_cast<std::size_t>(n));
      double viscous = 0.0;
      REQUIRE(law->linearBristles(std::abs(v), load, b, viscous));
      law->stateRate({v, load, 0.0}, z, rate);
      double r = viscous * v, magnitude = std::abs(viscous * v);
      for (int i = 0; i < n; ++i) {
        const BristleCoefficients& c = b[std::size_t(i)];
        const double zdot = c.drive * v - c.decay * z[std::size_t(i)];
        const double scale = std::abs(c.drive * v) + std::abs(c.decay * z[std::size_t(i)]);
        CHECK(std::abs(rate[std::size_t(i)] - zdot) <= 1e-14 * scale);
        r += c.stiffness * z[std::size_t(i)] + c.damping * zdot;
        magnitude += std::abs(c.stiffness * z[std::size_t(i)]) + std::abs(c.damping) * scale;
      }
      CHECK(std::abs(law->force({v, load, 0.0}, z) + r) <= 1e-14 * magnitude);
    }
  }
}

TEST_CASE("tangent-plane friction: sliding along a fixed line, reversals included, gives the scalar law's force",
          "[dynamics][friction][spatial]") {
  // v(t) = 2 mm/s sin(2π 3 t) + 0.5 mm/s sin(2π 17 t): reversals through the Stribeck band; the load
  // varies too. Both laws stepped by the same RK4 at 10 µs for 0.5 s.
  const auto velocity = [](double t) {
    return 2e-3 * std::sin(2.0 * std::numbers::pi * 3.0 * t) + 5e-4 * std::sin(2.0 * std::numbers::pi * 17.0 * t);
  };
  const auto load = [](double t) { return 40.0 + 25.0 * std::sin(2.0 * std::numbers::pi * 5.0 * t); };
  for (const Plane& p : {plane(0.0, 0.0, 0.0), plane(0.3, -1.1, 2.0)}) {
    for (const std::string& name : kLifted) {
      INFO(name << ", normal " << p.n.transpose());
      const std::shared_ptr<const FrictionLaw> law = makeFrictionLaw(name, tableParameters(0.3));
      const TangentPlaneFriction lift(law);
      const int n = law->stateSize();
      const auto input = [&](double t) { return PlaneFrictionInput{p.n, velocity(t) * p.e1, load(t)}; };
      const auto scalar = [&](double t, const VectorXd& x, VectorXd& dx) {
        law->stateRate({velocity(t), load(t), 0.0}, std::span<const double>(x.data(), std::size_t(n)),
                       std::span<double>(dx.data(), std::size_t(n)));
      };
      const auto lifted = [&](double t, const VectorXd& x, VectorXd& dx) {
        lift.stateRate(input(t), std::span<const double>(x.data(), std::size_t(3 * n)),
                       std::span<double>(dx.data(), std::size_t(3 * n)));
      };
      VectorXd zs = VectorXd::Zero(n), zv = VectorXd::Zero(3 * n);
      double worst = 0.0, worst_across = 0.0, largest = 0.0;
      const double h = 1e-5;
      for (int step = 0; step <= 50000; ++step) {
        const double t = step * h;
        const double fs = law->force({velocity(t), load(t), 0.0}, std::span<const double>(zs.data(), std::size_t(n)));
        const Vector3d fv = lift.force(input(t), std::span<const double>(zv.data(), std::size_t(3 * n)));
        largest = std::max(largest, std::abs(fs));
        worst = std::max(worst, std::abs(fv.dot(p.e1) - fs));
        worst_across = std::max(worst_across, std::abs(fv.dot(p.e2)) + std::abs(fv.dot(p.n)));
        rk4Step(scalar, t, h, zs);
        rk4Step(lifted, t, h, zv);
      }
      CHECK(largest > 0.05 * 40.0);  // the force reached the friction level
      CHECK(worst <= 1e-10 * largest);
      CHECK(worst_across <= 1e-12 * largest);
    }
  }
}

TEST_CASE("tangent-plane friction: isotropic — rotating the contact rotates the force and the rates",
          "[dynamics][friction][spatial]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const std::string& name : kLifted) {
    INFO(name);
    const TangentPlaneFriction lift(makeFrictionLaw(name, tableParameters(0.3)));
    const int n = lift.bristles();
    for (int trial = 0; trial < 50; ++trial) {
      const Plane p = plane(3.0 * u(rng), 3.0 * u(rng), 3.0 * u(rng));
      const Eigen::Matrix3d r =
          Eigen::Quaterniond(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
      const double speed = std::pow(10.0, -5.0 + 4.0 * (0.5 + 0.5 * u(rng)));
      const PlaneFrictionInput in{p.n, speed * (u(rng) * p.e1 + u(rng) * p.e2).normalized(), 60.0 * (1.0 + u(rng))};
      VectorXd z(3 * n), rz(3 * n), rate(3 * n), rotated_rate(3 * n);
      for (double& x : z) x = 1e-4 * u(rng);
      for (int i = 0; i < n; ++i) rz.segment<3>(3 * i) = r * z.segment<3>(3 * i);
      const PlaneFrictionInput rin{r * in.normal, r * in.sliding_velocity, in.normal_force};
      const Vector3d f = lift.force(in, std::span<const double>(z.data(), std::size_t(3 * n)));
      const Vector3d rf = lift.force(rin, std::span<const double>(rz.data(), std::size_t(3 * n)));
      CHECK((rf - r * f).norm() <= 1e-12 * (1.0 + f.norm()));
      CHECK(std::abs(f.dot(in.normal)) <= 1e-12 * (1.0 + f.norm()));  // in the tangent plane
      lift.stateRate(in, std::span<const double>(z.data(), std::size_t(3 * n)), std::span<double>(rate.data(), std::size_t(3 * n)));
      lift.stateRate(rin, std::span<const double>(rz.data(), std::size_t(3 * n)),
                     std::span<double>(rotated_rate.data(), std::size_t(3 * n)));
      for (int i = 0; i < n; ++i)
        CHECK((rotated_rate.segment<3>(3 * i) - r * rate.segment<3>(3 * i)).norm() <=
              1e-12 * (1.0 + rate.segment<3>(3 * i).norm()));
      // A bristle's component along the normal (left by a turned plane) does not act.
      VectorXd lifted_off = z;
      for (int i = 0; i < n; ++i) lifted_off.segment<3>(3 * i) += 1e-3 * in.normal;
      CHECK((lift.force(in, std::span<const double>(lifted_off.data(), std::size_t(3 * n))) - f).norm() <=
            1e-12 * (1.0 + f.norm()));
    }
  }
}

TEST_CASE("tangent-plane friction: a sliding direction that turns at a steady rate — the bristle's closed form",
          "[dynamics][friction][spatial]") {
  // v_T = s (cos ωt e1 + sin ωt e2), N constant. The bristle settles on a circle: ż = ω × z, so
  // s cos θ = β ‖z‖ and s sin θ = ω ‖z‖ with θ its lag behind v_T and β = σ0 s/g(s): tan θ =
  // ω g/(σ0 s) and σ0 ‖z‖ = g cos θ. A scalar along the present direction has no such state.
  // The bristle force stays within the scalar law's bound (μs N, μk N for Dahl) all along.
  const Plane p = plane(0.4, 0.9, -0.2);
  const double load = 50.0, omega = 20.0;
  for (const double speed : {1e-2, 1e-3}) {
    for (const std::string name : {"lugre", "dahl"}) {
      INFO(name << " at " << speed << " m/s");
      const FrictionParameters params = tableParameters();
      const std::shared_ptr<const FrictionLaw> law = makeFrictionLaw(name, params);
      const TangentPlaneFriction lift(law);
      const double bound = (name == std::string("lugre") ? params.mu_s : params.mu_k) * load;
      const auto input = [&](double t) {
        return PlaneFrictionInput{p.n, speed * (std::cos(omega * t) * p.e1 + std::sin(omega * t) * p.e2), load};
      };
      const auto rates = [&](double t, const VectorXd& x, VectorXd& dx) {
        lift.stateRate(input(t), std::span<const double>(x.data(), 3), std::span<double>(dx.data(), 3));
      };
      VectorXd z = VectorXd::Zero(3);
      double largest = 0.0;
      const double h = 1e-5;
      const int steps = 100000;
      for (int step = 0; step < steps; ++step) {
        rk4Step(rates, step * h, h, z);
        largest = std::max(largest, params.sigma0 * (z - p.n.dot(z) * p.n).norm());
      }
      const Vector3d now = input(steps * h).sliding_velocity.normalized();
      const double g = std::abs(law->steadyForce(speed, load));
      const double lag = std::atan(omega * g / (params.sigma0 * speed));
      CHECK(largest <= bound * (1.0 + 1e-9));
      CHECK(params.sigma0 * z.norm() == Approx(g * std::cos(lag)).epsilon(1e-3));
      CHECK(std::atan2(-now.cross(Vector3d(z)).dot(p.n), now.dot(z)) == Approx(lag).epsilon(1e-3));
    }
  }
}

namespace {

/// A journal (1 kg) in a bearing in the ground, the built-in's geometry (Table 4.2, simulation 1)
/// and contact law, axis z, pressed along +x by P = 100 N against the bore (both rims carry it),
/// with a tangential load of magnitude T (ramped in over the first second) that turns in the
/// contacts' tangent plane, L(t) = T (0, cos ωt, sin ωt), ω = 1 rad/s: circumferential at first,
/// axial a quarter-turn later. The load acts at the journal's surface point facing the contacts:
/// its moment is the friction's, so the journal turns only as far as the bristles let its
/// contact points move.
struct PressedJournal {
  static constexpr double kPress = 100.0, kRamp = 1.0;
  static inline const Vector3d kLoadPoint{0.0095, 0.0, 0.0};  ///< on the journal's surface, facing the contacts
  /// L(t), its magnitude ramped in smoothly over kRamp (a sudden load would slide the contact
  /// point at cm/s in the bristles' first oscillation, beyond the Stribeck velocity).
  static Vector3d tangentialLoad(double load, double omega, double t) {
    const double m = t < kRamp ? 0.5 * load * (1.0 - std::cos(std::numbers::pi * t / kRamp)) : load;
    return Vector3d(0.0, m * std::cos(omega * t), m * std::sin(omega * t));
  }
  SpatialModel model;
  VectorXd q0 = VectorXd::Zero(7), v0 = VectorXd::Zero(6);
  SpatialClearance pin;
  std::unique_ptr<SpatialMechanism> mechanism;

  PressedJournal(double load, double omega) {
    const BodyIndex journal = model.addBody("journal", 1.0, Eigen::Matrix3d::Identity() * 1e-4);
    pin.name = "pin";
    pin.journal_body = journal;
    pin.joint.journal_radius = 0.0095;
    pin.joint.bearing_radius = 0.01;
    pin.joint.journal_length = 0.019;
    pin.joint.bearing_length = 0.02;
    LankaraniNikraveshLaw law;
    law.stiffness = 6.71e10;
    law.exponent = 1.5;
    law.restitution = 0.9;
    law.min_impact_velocity = 1e-3;
    pin.law = law;
    model.addAppliedForce(journal, Vector3d::Zero(), [](double) { return Vector3d(kPress, 0.0, 0.0); });
    model.addAppliedForce(journal, kLoadPoint, [load, omega](double t) { return tangentialLoad(load, omega, t); });
    // At rest where each rim carries P/2.
    q0(0) = 5e-4 + std::pow(0.5 * kPress / law.stiffness, 1.0 / 1.5);
    q0(3) = 1.0;
    mechanism = std::make_unique<SpatialMechanism>(model, q0, std::vector<SpatialJointFriction>{},
                                                   std::vector<SpatialClearance>{pin});
  }
};

struct PreSliding {
  double worst_balance = 0.0;  ///< max ‖Σ F_T + L_T‖ / T after the first 0.5 s
  double worst_ratio = 0.0;    ///< max over loaded contacts of ‖F_T‖ / (μ N)
  double largest_shift = 0.0;  ///< max displacement of the load's point on the journal [m]
  double t = 0.0;              ///< time reached
  bool ok = false;
};

/// Runs `law` on the pressed journal under the turning load T for t_end, by BDF, and measures
/// the friction and the motion at every sample. `mu`: the bound ‖F_T‖ ≤ μ N to measure against.
PreSliding pressJournal(const std::string& law_name, double load, double mu, double t_end, double omega = 1.0) {
  PressedJournal j(load, omega);
  const std::shared_ptr<const FrictionLaw> law = makeFrictionLaw(law_name, tableParameters());
  PenaltySystem sys(*j.mechanism, std::vector<std::shared_ptr<const FrictionLaw>>(4, law));
  for (int k = 0; k < 4; ++k) REQUIRE(sys.planeFriction(k) != nullptr);
  PenaltyIntegrationOptions o;
  o.t_end = t_end;
  o.output_dt = 0.01;
  o.max_step = 1e-2;
  const PenaltyRun run = simulatePenalty(sys, sys.initialState(0.0, j.q0, j.v0), o);
  PreSliding out;
  out.ok = run.status == PenaltyStatus::kSuccess;
  if (!out.ok) WARN(law_name << ": " << toString(run.status) << " at t = " << run.t << ": " << run.message);
  out.t = run.t;
  std::vector<ContactForce> forces;
  for (Eigen::Index i = 0; i < run.history.rows(); ++i) {
    const double t = run.history(i, 0);
    const VectorXd y = run.history.row(i).segment(1, sys.stateSize()).transpose();
    sys.evaluateContacts(t, y.head(7), y.segment(7, 6), y.segment(13, sys.frictionStateSize()), forces);
    Vector3d total = Vector3d::Zero();
    for (std::size_t k = 0; k < 4; ++k) {
      const Eigen::Matrix3d& frame = sys.kinematics().frame[k];
      const Vector3d f = forces[k].friction_force * frame.col(1) + forces[k].second_tangent_force * frame.col(2);
      total += f;
      if (forces[k].normal_force > 0.0) out.worst_ratio = std::max(out.worst_ratio, f.norm() / (mu * forces[k].normal_force));
    }
    const Vector3d applied = PressedJournal::tangentialLoad(load, omega, t);
    if (t > 0.5) out.worst_balance = std::max(out.worst_balance, (total + applied).norm() / load);
    const Vector3d point = y.head<3>() + j.model.rotation(y.head(7), 0) * PressedJournal::kLoadPoint;
    out.largest_shift = std::max(out.largest_shift, (point - j.q0.head<3>() - PressedJournal::kLoadPoint).norm());
  }
  return out;
}

}  // namespace

TEST_CASE("spatial bristles: a journal pressed on its bore holds a load that turns in the tangent plane",
          "[dynamics][penalty][spatial][friction]") {
  // LuGre at 0.75 μs N, above μk N: held by the bristles' stiction as the load turns through a
  // full circle (6.3 s after the ramp). The bristle vectors follow the load: Σ F_T = −L_T to 1 %,
  // each contact within its μs N, and the load's point creeps on a small loop (the pre-sliding
  // displacement, ≈ (T/2)/σ0 / √(1 − (T/2)²/(μs N/2)²) ≈ 0.11 mm per circle) instead of sliding
  // away.
  const double n = PressedJournal::kPress;
  const double turn = PressedJournal::kRamp + 2.0 * std::numbers::pi;
  const PreSliding lugre = pressJournal("lugre", 0.75 * 0.2 * n, 0.2, turn);
  REQUIRE(lugre.ok);
  CHECK(lugre.worst_balance < 0.01);
  CHECK(lugre.worst_ratio <= 1.0);
  CHECK(lugre.worst_ratio > 0.7);
  CHECK(lugre.largest_shift < 5e-4);
  // Dahl has no stiction: at 0.5 μk N it holds the same way, within μk N.
  const PreSliding dahl = pressJournal("dahl", 0.5 * 0.1 * n, 0.1, turn);
  REQUIRE(dahl.ok);
  CHECK(dahl.worst_balance < 0.01);
  CHECK(dahl.worst_ratio <= 1.0);
  CHECK(dahl.largest_shift < 5e-4);
  // At 1.25 μs N (along the circumference, so that the journal slides without meeting an end
  // wall) it slides off: the same measures see it.
  const PreSliding sliding = pressJournal("lugre", 1.25 * 0.2 * n, 0.2, 1.5, 0.0);
  REQUIRE(sliding.ok);
  CHECK(sliding.largest_shift > 3e-3);
  CHECK(sliding.worst_balance > 0.1);
}

namespace {

/// The pressed journal's velocity sliding along y and tilting (both rims stay loaded).
const VectorXd kSliding = (VectorXd(6) << 0.0, 0.02, 0.005, 0.3, 0.0, 0.1).finished();

/// The pressed journal's penalty system with Table 4.4's `law` on every contact.
std::unique_ptr<PenaltySystem> slidingJournal(const PressedJournal& j, const std::string& law) {
  return std::make_unique<PenaltySystem>(
      *j.mechanism, std::vector<std::shared_ptr<const FrictionLaw>>(4, makeFrictionLaw(law, tableParameters())));
}

}  // namespace

TEST_CASE("spatial bristles: RK4's relaxed stage — drives and decays are the law's rates, and a relaxed state "
          "enters the force as itself with the step's mean rate",
          "[dynamics][penalty][spatial][friction][rk4]") {
  // The pressed journal sliding, its bristles deflected.
  const PressedJournal j(0.0, 0.0);
  for (const std::string name : {"dahl", "lugre"}) {
    CAPTURE(name);
    const std::unique_ptr<PenaltySystem> system = slidingJournal(j, name);
    PenaltySystem& sys = *system;
    REQUIRE(sys.hasBristles());
    VectorXd y = sys.initialState(0.0, j.q0, kSliding);
    const Eigen::Index n = y.size(), zs = 13, nz = sys.frictionStateSize();
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-2e-5, 2e-5);
    for (Eigen::Index i = 0; i < nz; ++i) y(zs + i) = u(rng);
    VectorXd plain(n), staged(n), drive(n), decay(n);
    REQUIRE(sys.derivative(0.0, y, plain) == EomStatus::kSuccess);
    // Nothing relaxed: the same ẏ, with ż = a − d z for every bristle state.
    REQUIRE(sys.derivative(0.0, y, Rk4::RelaxedStage{}, staged, drive, decay) == EomStatus::kSuccess);
    CHECK(staged == plain);
    CHECK(drive.head(zs).isZero());
    CHECK((decay.segment(zs, 6).array() > 0.0).all());  // both rims loaded,
    CHECK(decay.segment(zs + 6, 6).isZero());           // the end walls open: held still
    for (Eigen::Index i = zs; i < zs + nz; ++i) CHECK(plain(i) == Approx(drive(i) - decay(i) * y(i)).margin(1e-15));
    // Every state relaxed at offset τ of a step h: ż is the mean rate over h from its value in
  // y, and the accelerations are those of y with the states relaxed over τ, but for LuGre's
  // damping σ1 ż, which takes the mean rate (β h ≈ 2 here, so that the two rates differ).
    Eigen::Array<bool, Eigen::Dynamic, 1> all = Eigen::Array<bool, Eigen::Dynamic, 1>::Zero(n);
    all.segment(zs, nz).setConstant(true);
    const double tau = 5e-3, h = 1e-2;
    VectorXd relaxed(n), atRelaxed(n);
    REQUIRE(sys.derivative(0.0, y, Rk4::RelaxedStage{&all, tau, h}, relaxed, drive, decay) == EomStatus::kSuccess);
    VectorXd moved = y;
    for (Eigen::Index i = zs; i < zs + nz; ++i) {
      CHECK(relaxed(i) == Approx(Rk4::meanRate(y(i), drive(i), decay(i), h)).margin(1e-15));
      moved(i) = Rk4::relaxed(y(i), drive(i), decay(i), tau);
    }
    REQUIRE(sys.derivative(0.0, moved, atRelaxed) == EomStatus::kSuccess);
    const double scale = atRelaxed.segment(7, 6).cwiseAbs().maxCoeff();
    const double gap = (relaxed.segment(7, 6) - atRelaxed.segment(7, 6)).cwiseAbs().maxCoeff();
    CAPTURE(gap, scale);
    if (name == "dahl")
      CHECK(gap <= 1e-12 * scale);  // no damping: the relaxed state is all there is
    else
      CHECK(gap > 1e-6 * scale);  // σ1 times (mean rate − rate at the relaxed state)
  }
}

TEST_CASE("spatial bristles: an opening contact releases LuGre's bristle as the impulse σ1 Π z, with the "
          "energy it gives taken from the friction work",
          "[dynamics][penalty][spatial][friction]") {
  // LuGre's relaxation rate σ0 s/g → ∞ as the load vanishes: the bristle z relaxes to 0 as a
  // contact opens, and the damping's force −σ1 Π ż acts as the impulse σ1 Π z. Dahl (σ1 = 0)
  // has no impulse.
  const PressedJournal j(0.0, 0.0);
  for (const std::string name : {"dahl", "lugre"}) {
    CAPTURE(name);
    const std::unique_ptr<PenaltySystem> system = slidingJournal(j, name);
    PenaltySystem& sys = *system;
    VectorXd y = sys.initialState(0.0, j.q0, kSliding);
    const Eigen::Index zs = 13;
    y.segment<3>(zs) << 0.0, 3e-5, -1e-5;  // radial-A's bristle; the normal is along x
    y(sys.workIndex()) = 0.5;
    const VectorXd before = y;
    const double impulse = sys.releaseBristles(0, 0.0, y);
    if (name == "dahl") {
      CHECK(impulse == 0.0);
      CHECK(y == before);
      continue;
    }
    // Π z = (0, 3e-5, −1e-5) up to the normal's tilt; the journal (1 kg, free) takes σ1 Π z.
    const double sigma1 = std::sqrt(1e5);
    const Vector3d n = sys.kinematics().frame[0].col(0);
    const Vector3d z(0.0, 3e-5, -1e-5);
    const Vector3d expected = sigma1 * (z - n.dot(z) * n);
    CHECK(impulse == Approx(expected.norm()).epsilon(1e-12));
    CHECK((y.segment<3>(7) - before.segment<3>(7) - expected).norm() < 1e-12 * expected.norm());
    CHECK(y.segment(zs, 3).isZero());
    // T + V + W unchanged: the impulse's work is the friction's.
    const double e0 = sys.totalEnergy(before) + before(sys.workIndex());
    const double e1 = sys.totalEnergy(y) + y(sys.workIndex());
    CHECK(e1 == Approx(e0).epsilon(1e-13));
    CHECK(y(sys.workIndex()) < before(sys.workIndex()));  // it speeds the journal up along its slide
  }
}
