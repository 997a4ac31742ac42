// A clearance joint that starts carrying the mechanism's static load (`initial.preloaded`,
// dynamics/mechanism/clearance_preload.hpp), against closed forms: a journal hanging in a
// fixed bearing, loaded by its weight and a torque, rests where the compliant law's force
// balances them, and stays there.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/mechanism/rigid_counterpart.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/planar_model_file.hpp"
#include "standard_gravity.hpp"

using namespace stickslip;

namespace {

using stickslip::test::kG;
constexpr double kMass = 2.0, kK = 1e9, kRj = 0.01, kClearance = 1e-4;

/// A journal of 2 kg in a ground bearing with 0.1 mm clearance, gravity −y, a constant torque
/// on it, Hertz K = 1e9 N/m^1.5, dry Coulomb mu_s; `velocity` its initial [vx, vy, omega],
/// `initial` the model's initial: section.
std::string hangingJournal(double torque, double mu_s, const std::string& velocity = "[0, 0, 0]",
                           const std::string& initial = "{preloaded: [clearance]}") {
  return "model:\n"
         "  gravity: [0, -9.81]\n"
         "  bodies:\n"
         "    - {name: journal, mass: 2, inertia: 1e-4, velocity: " + velocity + "}\n"
         "  forces:\n"
         "    - {type: torque, body: journal, torque: " + std::to_string(torque) + "}\n"
         "  contacts:\n"
         "    - {type: journal_bearing, name: clearance, body_i: journal, journal_radius: 0.01,\n"
         "       bearing_radius: 0.0101, normal: compliant, impact_velocity: 0.1, rigid_restitution: 0,\n"
         "       mu_static: " + std::to_string(mu_s) + ", mu_kinetic: " + std::to_string(mu_s) + ",\n"
         "       compliant_law: {type: hertz, stiffness: 1e9, exponent: 1.5}}\n"
         "  initial: " + initial + "\n";
}

}  // namespace

TEST_CASE("preload: a journal at rest hangs below its bearing's centre by c + (m g / K)^(2/3)", "[preload]") {
  const dynamics::RigidScenario s = mechanisms::loadPlanarModelText(hangingJournal(0.0, 0.2), "m.yaml");
  const double delta = std::pow(kMass * kG / kK, 1.0 / 1.5);
  CHECK(s.q0(0) == Approx(0.0).margin(1e-15));
  CHECK(s.q0(1) == Approx(-(kClearance + delta)).epsilon(1e-12));
  CHECK(s.v0.lpNorm<Eigen::Infinity>() == 0.0);
  // Rigid (as Moreau–Jean takes it): at contact, δ = 0.
  const dynamics::RigidScenario rigid = dynamics::withRigidContacts(s);
  CHECK(rigid.contacts[0].normal == dynamics::RigidContact::Normal::kUnilateral);
  CHECK(rigid.q0(1) == Approx(-kClearance).epsilon(1e-12));
}

TEST_CASE("preload: a torque at rest is carried by friction, F_t = tau / R_J, and the journal stays", "[preload]") {
  // |F| = m g, F_t = τ / R_J, N = √(|F|² − F_t²): the contact point turns off the vertical by
  // asin(F_t / |F|) and the penetration is (N / K)^(2/3).
  const double torque = 0.02, tangential = torque / kRj, load = kMass * kG;
  const double normal = std::sqrt(load * load - tangential * tangential);
  const dynamics::RigidScenario s = mechanisms::loadPlanarModelText(hangingJournal(torque, 0.2), "m.yaml");
  const Eigen::Vector2d e = s.q0.head<2>();
  CHECK(e.norm() == Approx(kClearance + std::pow(normal / kK, 1.0 / 1.5)).epsilon(1e-10));
  CHECK(std::abs(std::atan2(e.x(), -e.y())) == Approx(std::asin(tangential / load)).epsilon(1e-8));
  // F_t / N = 0.102 < μs = 0.2: the event-driven run from there stays stuck and still.
  dynamics::EventDrivenOptions o;
  o.t_end = 0.5;
  o.integrator = dynamics::OdeMethod::kBdf;
  o.relative_tolerance = 1e-8;
  o.absolute_tolerance = 1e-12;
  o.output_dt = 1e-2;
  const dynamics::RunResult held = dynamics::simulateEventDriven(s, o);
  REQUIRE(held.ok());
  CHECK(held.events.empty());
  CHECK((held.final_q - s.q0).lpNorm<Eigen::Infinity>() < 1e-12);
  CHECK(held.history(0, 7) == Approx(normal).epsilon(1e-6));                      // N
  CHECK(std::abs(held.history(0, 8)) == Approx(tangential).epsilon(1e-6));       // F_t
  // Below F_t / N the same state slips: the preload is the equilibrium, not a held pose.
  const dynamics::RigidScenario weak = mechanisms::loadPlanarModelText(hangingJournal(torque, 0.09), "m.yaml");
  const dynamics::RunResult slips = dynamics::simulateEventDriven(weak, o);
  REQUIRE(slips.ok());
  CHECK(std::abs(slips.final_q(2) - weak.q0(2)) > 1e-3);  // [rad]: it turns
}

TEST_CASE("preload: started in motion, the load is carried by N alone and the journal rolls", "[preload]") {
  // Spinning at 3 rad/s (held): no friction torque at t = 0, e straight down, and the centre
  // moves so that the journal rolls on the fixed bearing (ġ = 0, v_t = 0): |vx| = ω R_J.
  const dynamics::RigidScenario s = mechanisms::loadPlanarModelText(
      hangingJournal(0.0, 0.2, "[0, 0, 3]", "{independent: [theta_journal], preloaded: [clearance]}"), "m.yaml");
  const double delta = std::pow(kMass * kG / kK, 1.0 / 1.5);
  CHECK(s.q0(0) == Approx(0.0).margin(1e-15));
  CHECK(s.q0(1) == Approx(-(kClearance + delta)).epsilon(1e-12));
  CHECK(s.v0(2) == 3.0);
  CHECK(std::abs(s.v0(0)) == Approx(3.0 * kRj).epsilon(1e-12));
  CHECK(std::abs(s.v0(1)) < 1e-15);
  dynamics::ContactKinematics k;
  dynamics::evaluateContacts(s.model, s.contacts, 0.0, s.q0, s.v0, k);
  CHECK(std::abs(k.normal_velocity(0)) < 1e-15);
  CHECK(std::abs(k.sliding_velocity(0)) < 1e-15);
}

TEST_CASE("preload: names a journal_bearing contact, once", "[preload][errors]") {
  auto error = [](const std::string& text) {
    try {
      mechanisms::loadPlanarModelText(text, "m.yaml");
    } catch (const mechanisms::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(error(hangingJournal(0.0, 0.2, "[0, 0, 0]", "{preloaded: [clearence]}")),
             Catch::Contains("m.yaml:12: model.initial.preloaded[0]") && Catch::Contains("did you mean 'clearance'"));
  CHECK_THAT(error(hangingJournal(0.0, 0.2, "[0, 0, 0]", "{preloaded: [clearance, clearance]}")),
             Catch::Contains("given twice"));
  // A torque no contact force on the rim can balance (|τ| / R_J > m g).
  CHECK_THAT(error(hangingJournal(0.5, 0.2)),
             Catch::Contains("model.initial.preloaded") && Catch::Contains("clearance: cannot start preloaded"));
}
