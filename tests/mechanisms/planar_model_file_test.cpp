// Mechanisms described in a YAML `model:` section (mechanisms/planar_model_file.hpp): the
// example files repeat the built-ins they describe, expressions of the state match their
// closed forms, and every input error names file, line, key path and what was expected.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "dynamics/routes/stick_statistics.hpp"
#include "mechanisms/belt.hpp"
#include "mechanisms/blajer.hpp"
#include "mechanisms/incline.hpp"
#include "mechanisms/journal_bearing.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/planar_model_file.hpp"
#include "mechanisms/model_examples.hpp"

using namespace stickslip;

namespace {

using stickslip::test::kExamples;

dynamics::RunResult eventDriven(const dynamics::RigidScenario& s, double t_end) {
  dynamics::EventDrivenOptions o;
  o.t_end = t_end;
  return dynamics::simulateEventDriven(s, o);
}

/// The InputError message of loading `text` (labelled "m.yaml"); "" when it loads.
std::string errorOf(const std::string& text) {
  try {
    mechanisms::loadPlanarModelText(text, "m.yaml");
  } catch (const mechanisms::InputError& e) {
    return e.what();
  }
  return "";
}

/// One block with the given extra lines under `model:` (two-space indented).
std::string blockModel(const std::string& extra) {
  return "model:\n"
         "  bodies:\n"
         "    - {name: block, mass: 1, inertia: 0.01}\n" +
         extra;
}

void requireSameEvents(const dynamics::RunResult& a, const dynamics::RunResult& b, double tol) {
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  REQUIRE(a.events.size() == b.events.size());
  REQUIRE(!a.events.empty());
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    INFO("event " << i << " at " << a.events[i].t);
    CHECK(a.events[i].kind == b.events[i].kind);
    CHECK(std::abs(a.events[i].t - b.events[i].t) <= tol);
  }
}

}  // namespace

TEST_CASE("built-in model files: incline and belt, read from their files, follow their exact references",
          "[model-file][event-driven]") {
  // The files are the built-ins (mechanisms/builtin_models.hpp); their parameters read back
  // as the structs the references take.
  const auto incline = mechanisms::loadPlanarModelFile(kExamples + "/incline.yaml");
  CHECK(mechanisms::inclineOf(incline).angle == 0.2);
  CHECK(mechanisms::inclineOf(incline).push_amplitude == 8.0);
  const auto a = eventDriven(incline, 10.0);
  const auto incline_ref = mechanisms::inclineReference(10.0);
  REQUIRE(a.events.size() == incline_ref.size());
  for (std::size_t i = 0; i < incline_ref.size(); ++i) CHECK(std::abs(a.events[i].t - incline_ref[i].first) < 1e-6);

  const auto belt = mechanisms::loadPlanarModelFile(kExamples + "/belt.yaml");
  CHECK(mechanisms::beltOf(belt).stiffness == mechanisms::Belt{}.stiffness);
  const auto b = eventDriven(belt, 20.0);
  const auto reference = mechanisms::beltClosedForm(mechanisms::Belt{}).events(20.0);  // DESIGN.md §7
  REQUIRE(b.events.size() == reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) CHECK(std::abs(b.events[i].t - reference[i].first) < 1e-6);
  // A value given from outside the file (as --set does) changes the mechanism it builds.
  const auto heavy = mechanisms::beltRigid({.mass = 2.0});
  CHECK(mechanisms::beltOf(heavy).mass == 2.0);
  CHECK(heavy.model.body(0).mass == 2.0);
}

TEST_CASE("model file: the journal-bearing example (a clearance joint) repeats the built-in's impacts",
          "[model-file][event-driven]") {
  const auto file = mechanisms::loadPlanarModelFile(kExamples + "/journal_bearing.yaml");
  mechanisms::JournalBearing jb;
  jb.mu_static = jb.mu_kinetic = 0.1;
  const auto builtin = mechanisms::journalBearingRigid(jb);
  CHECK(file.v0 == builtin.v0);
  REQUIRE(file.contacts.size() == 1);
  CHECK(file.contacts[0].shape == dynamics::RigidContact::Shape::kJournalBearing);
  const auto a = eventDriven(file, 0.06), b = eventDriven(builtin, 0.06);
  requireSameEvents(a, b, 1e-9);
  for (std::size_t i = 0; i < a.events.size(); ++i) CHECK(a.events[i].t == b.events[i].t);
}

TEST_CASE("model file: the roller-crank example assembles and runs event-driven and Moreau-Jean, "
          "its roller sliding from the start",
          "[model-file][event-driven][moreau-jean]") {
  const auto s = mechanisms::loadPlanarModelFile(kExamples + "/slider_crank.yaml");
  REQUIRE(s.model.bodyCount() == 3);
  REQUIRE(s.joint_friction.size() == 1);
  // Assembled: every joint closed at t = 0, the roller on the floor, the crank at rest angle 0
  // turning at w = 10 rad/s.
  Eigen::VectorXd phi(s.model.constraintCount());
  s.model.constraints(0.0, s.q0, phi);
  CHECK(phi.lpNorm<Eigen::Infinity>() < 1e-12);
  CHECK(s.q0(dynamics::PlanarModel::coordinate(2, 1)) == 0.02);
  CHECK(std::abs(s.v0(dynamics::PlanarModel::coordinate(0, 2)) - 10.0) < 1e-12);
  const auto ed = eventDriven(s, 0.5);
  INFO(ed.message);
  CHECK(ed.ok());
  // At rest at t = 0 (the crank at its dead centre) the roller cannot follow the slider's
  // acceleration by rolling within μs N: the event-driven decision at t = 0 slides it
  // backwards (v_t < 0), and its first event is the reversal.
  REQUIRE(ed.initial_modes.size() == 2);  // the contact, then the pin's friction
  CHECK(ed.initial_modes[0] == dynamics::ContactMode::kSlipNegative);
  REQUIRE(!ed.events.empty());
  CHECK(ed.events[0].kind == dynamics::EventKind::kSlipPositive);
  CHECK(ed.events[0].t == Approx(0.2409).margin(1e-4));
  CHECK(dynamics::stickStatistics(ed.events, {false, false}, 0.0, ed.t_end).stick_time == 0.0);
  dynamics::MoreauJeanOptions mj;
  mj.t_end = 0.5;
  mj.h = 1e-4;
  const auto run = dynamics::simulateMoreauJean(dynamics::PlanarMechanism(s.model, s.contacts, s.joint_friction), s.q0, s.v0, mj);
  INFO(run.message);
  CHECK(run.ok());
  // Moreau–Jean starts from the state's own mode and reports the slide in its first step.
  REQUIRE(!run.events.empty());
  CHECK(run.events[0].kind == dynamics::EventKind::kSlipNegative);
  CHECK(run.events[0].t == Approx(0.5 * mj.h));
  CHECK(std::abs(run.final_q(3 * 2) - ed.final_q(3 * 2)) < 1e-5);  // the roller's x
}

// Blajer's Example 2 with its pin-in-slot joint (mechanisms/blajer.hpp), written as a user would.
const char* kBlajer2PinInSlot = R"Y(model:
  gravity: [9.81, 0]
  bodies:
    - {name: crank, mass: 2.5, inertia: 2.5*0.25^2/3, position: [0.25, 0, 0]}
    - {name: rod, mass: 4, inertia: 4*0.4^2/3, position: [0.9, 0, 0]}
  joints:
    - {type: revolute, name: O, body_i: ground, body_j: crank, point_j: [-0.25, 0],
       friction: {radius: 0.05, mu_static: 0.15, mu_kinetic: 0.1}}
    - {type: revolute, name: A, body_i: crank, point_i: [0.25, 0], body_j: rod, point_j: [-0.4, 0],
       friction: {radius: 0.05, mu_static: 0.15, mu_kinetic: 0.1}}
  forces:
    - {type: torque, body: crank, torque: 6*sin(3*t)}
  contacts:
    - type: point_line
      name: guide
      body_i: rod
      point_i: [0.4, 0]
      normal: bilateral
      mu_static: 0.3
      mu_kinetic: 0.2
      pin_friction: {radius: 0.05, mu_static: 0.15, mu_kinetic: 0.1}
)Y";

TEST_CASE("model file: Blajer's pin-in-slot joint (pin_friction) repeats the built-in blajer-2",
          "[model-file][event-driven][blajer]") {
  const auto file = mechanisms::loadPlanarModelText(kBlajer2PinInSlot, "blajer2.yaml");
  const auto builtin = mechanisms::blajer2Rigid(mechanisms::Blajer2{});
  REQUIRE(file.joint_friction.size() == 3);
  CHECK(file.joint_friction[2].name == "guide.pin");
  CHECK(file.joint_friction[2].slot == 0);
  CHECK((file.q0 - builtin.q0).lpNorm<Eigen::Infinity>() < 1e-15);
  const auto a = eventDriven(file, 3.0), b = eventDriven(builtin, 3.0);
  requireSameEvents(a, b, 1e-9);
  REQUIRE(a.final_q.size() == b.final_q.size());
  CHECK((a.final_q - b.final_q).lpNorm<Eigen::Infinity>() < 1e-9);
  // The pin's friction acts: without it the mechanism runs differently.
  std::string free_pin = kBlajer2PinInSlot;
  free_pin.erase(free_pin.find("      pin_friction"));
  const auto c = eventDriven(mechanisms::loadPlanarModelText(free_pin, "blajer2.yaml"), 3.0);
  REQUIRE(c.ok());
  CHECK((c.final_q - b.final_q).lpNorm<Eigen::Infinity>() > 1e-4);  // 8.2e-4 m
}

TEST_CASE("model file: pin_friction only on a bilateral contact of a point, with its keys", "[model-file][errors]") {
  const std::string contact = "  contacts:\n    - type: point_line\n      body_i: block\n";
  CHECK(errorOf(blockModel(contact + "      pin_friction: {radius: 0.01, mu: 0.1}\n")) ==
        "m.yaml:7: model.contacts[0].pin_friction: a pin turns in a slot: only on a bilateral contact of a point "
        "(normal: bilateral, radius 0)");
  CHECK(errorOf(blockModel(contact + "      normal: bilateral\n      radius: 0.01\n"
                                     "      pin_friction: {radius: 0.01, mu: 0.1}\n"))
            .rfind("m.yaml:9: model.contacts[0].pin_friction: a pin turns in a slot", 0) == 0);
  CHECK(errorOf(blockModel(contact + "      normal: bilateral\n      pin_friction: {mu: 0.1}\n")) ==
        "m.yaml:8: model.contacts[0].pin_friction.radius: missing: give the pin's radius [m] > 0 (the friction "
        "torque's lever arm)");
  CHECK(errorOf(blockModel(contact + "      normal: bilateral\n      pin_friction: {radius: 0.01, mu: 0.1, mus: 1}\n"))
            .find("model.contacts[0].pin_friction.mus: unknown key") != std::string::npos);
}

TEST_CASE("model file: expressions of the state and of t against their closed forms", "[model-file]") {
  const auto s = mechanisms::loadPlanarModelText(blockModel(R"Y(  parameters: {k: 3, c: 0.5, a: 2}
  forces:
    - {type: force, body: block, point: [0.1, 0], fx: "-k*x_block - c*vx_block", fy: "a*t*y_block"}
    - {type: torque, body: block, torque: "sin(theta_block) + omega_block^2"}
    - {type: force, body: block, magnitude: "a*cos(t)", direction: pi/2}
)Y"),
                                                 "m.yaml");
  Eigen::VectorXd q(3), v(3), f = Eigen::VectorXd::Zero(3);
  q << 0.3, -0.2, 0.4;
  v << 1.5, 0.7, -2.0;
  const double t = 0.8;
  s.model.generalizedForces(t, q, v, f);
  const double fx = -3 * 0.3 - 0.5 * 1.5, fy = 2 * t * -0.2 + 2 * std::cos(t);
  const double fy_state = 2 * t * -0.2;
  // The state force acts at local (0.1, 0): arm A(θ) s.
  const double ax = 0.1 * std::cos(0.4), ay = 0.1 * std::sin(0.4);
  CHECK(f(0) == Approx(fx).epsilon(1e-14));
  CHECK(f(1) == Approx(fy).epsilon(1e-14));
  CHECK(f(2) == Approx(ax * fy_state - ay * (-3 * 0.3 - 0.5 * 1.5) + std::sin(0.4) + 4.0).epsilon(1e-14));

  // A driver without rate and acceleration: differentiated numerically.
  const auto d = mechanisms::loadPlanarModelText(blockModel(R"Y(  drivers:
    - {body_j: block, angle: "0.3*sin(2*t) + t^2"}
  joints:
    - {type: revolute, body_i: ground, body_j: block}
)Y"),
                                                 "m.yaml");
  const auto& driver = d.model.joints().back();
  REQUIRE(driver.type == dynamics::JointType::kRheonomicDriver);
  for (const double tt : {0.0, 0.7, 3.1}) {
    CHECK(driver.angle(tt) == Approx(0.3 * std::sin(2 * tt) + tt * tt).epsilon(1e-15));
    CHECK(std::abs(driver.angle_rate(tt) - (0.6 * std::cos(2 * tt) + 2 * tt)) < 1e-10);
    CHECK(std::abs(driver.angle_acceleration(tt) - (-1.2 * std::sin(2 * tt) + 2)) < 1e-8);
  }
}

TEST_CASE("model file: a switch parameter (true/false) and a joint friction of mu = 0, which is no friction",
          "[model-file]") {
  const std::string text = blockModel(R"Y(  parameters: {on: true, mu: 0.2}
  joints:
    - {type: revolute, body_i: ground, body_j: block, friction: {radius: 0.01, mu: on*mu}}
)Y");
  const auto with = mechanisms::loadPlanarModelText(text, "m.yaml");
  REQUIRE(with.joint_friction.size() == 1);
  CHECK(with.joint_friction[0].mu_static == 0.2);
  CHECK(with.parameters.front() == std::pair<std::string, double>{"on", 1.0});
  // The same file with the switch off, given from outside (as --set does): an ideal joint.
  const auto without = mechanisms::loadPlanarModelText(text, "m.yaml", {{"on", "false", "--set", 0, "parameters.on"}});
  CHECK(without.joint_friction.empty());
  CHECK(without.model.joints().size() == 1);
}

TEST_CASE("model file: baumgarte sets the joints' stabilization, checked", "[model-file]") {
  const auto s = mechanisms::loadPlanarModelText(blockModel("  baumgarte: {alpha: 5, beta: 2}\n"), "m.yaml");
  CHECK(s.baumgarte_alpha == 5.0);
  CHECK(s.baumgarte_beta == 2.0);
  CHECK(mechanisms::loadPlanarModelText(blockModel(""), "m.yaml").baumgarte_alpha == 10.0);  // the default
  CHECK(errorOf(blockModel("  baumgarte: {alpha: -1}\n")).rfind("m.yaml:4: model.baumgarte.alpha: expected a number >= 0", 0) == 0);
}

TEST_CASE("model file: loads that overflow or are NaN are an input error at their body", "[model-file][errors]") {
  const std::string heavy = "model:\n  gravity: [0, -9.81]\n  bodies:\n    - {name: block, mass: 1e300, inertia: 1}\n"
                            "    - {name: lead, mass: 1e308, inertia: 1}\n";
  CHECK(errorOf(heavy) ==
        "m.yaml:5: model.bodies[1]: the loads on body 'lead' at t = 0 overflow (-inf along lead.vy): its mass, the "
        "gravity or a force on it is too large for double precision; give the model in other units");
  // 1e300 kg alone is heavy, not overflowing: it loads.
  CHECK(errorOf("model:\n  gravity: [0, -9.81]\n  bodies:\n    - {name: block, mass: 1e300, inertia: 1}\n") == "");
  // A force's overflow is found the same way, along the velocity it drives.
  CHECK(errorOf(blockModel("  forces:\n    - {type: force, body: block, fx: 1e308 * 10}\n")) ==
        "m.yaml:3: model.bodies[0]: the loads on body 'block' at t = 0 overflow (inf along block.vx): its mass, the "
        "gravity or a force on it is too large for double precision; give the model in other units");
  // A force undefined at t = 0 is not an overflow.
  CHECK(errorOf(blockModel("  forces:\n    - {type: force, body: block, fx: sqrt(t - 1)}\n")) ==
        "m.yaml:3: model.bodies[0]: the loads on body 'block' at t = 0 are not a number (NaN along block.vx): a "
        "force on it (model.forces) is undefined there, as the square root or logarithm of a negative number or 0/0 "
        "is");
}

TEST_CASE("model file: rigid_restitution, the e with which Moreau-Jean takes a compliant contact", "[model-file]") {
  const auto s = mechanisms::loadPlanarModelText(R"Y(model:
  gravity: [0, -9.81]
  bodies:
    - {name: ball, mass: 1, inertia: 0.005, position: [0, 1, 0]}
  contacts:
    - {type: point_line, body_i: ball, radius: 0.1, normal: compliant, rigid_restitution: 0.5,
       compliant_law: {type: hertz, stiffness: 1e7, exponent: 1.5}}
)Y", "m.yaml");
  REQUIRE(s.contacts.at(0).rigid_restitution);
  CHECK(*s.contacts[0].rigid_restitution == 0.5);
  CHECK(errorOf(blockModel("  contacts:\n    - {type: point_line, body_i: block, rigid_restitution: 0.5}\n"))
            .rfind("m.yaml:5: model.contacts[0].rigid_restitution: only for normal: compliant", 0) == 0);
}

TEST_CASE("model file: smooth_friction, a regularized law of the catalogue on a compliant contact", "[model-file]") {
  const std::string ball = R"Y(model:
  gravity: [0, -9.81]
  bodies:
    - {name: ball, mass: 1, inertia: 0.005, position: [0, 1, 0]}
  contacts:
    - {type: point_line, body_i: ball, radius: 0.1, normal: compliant,
       compliant_law: {type: hertz, stiffness: 1e7, exponent: 1.5},
)Y";
  const auto s = mechanisms::loadPlanarModelText(
      ball + "       smooth_friction: {law: ambrosio, mu_k: 0.2, modified_v0: 1e-4, modified_v1: 1e-3}}\n", "m.yaml");
  REQUIRE(s.contacts.at(0).smooth_friction);
  CHECK(s.contacts[0].smooth_friction->name() == "ambrosio");
  CHECK(s.contacts[0].smooth_friction->force({1.0, 10.0, 0.0}, {}) == Approx(-2.0));  // μk N beyond v1
  CHECK_FALSE(s.contacts[0].frictional());
  // mu_k = 0: no law (a switch parameter can turn it off).
  CHECK_FALSE(mechanisms::loadPlanarModelText(ball + "       smooth_friction: {law: ambrosio, mu_k: 0}}\n", "m.yaml")
                  .contacts[0]
                  .smooth_friction);
  CHECK_THAT(errorOf(ball + "       smooth_friction: {law: ambrosio}}\n"),
             Catch::Contains("m.yaml:8: model.contacts[0].smooth_friction.mu_k: missing"));
  CHECK_THAT(errorOf(ball + "       smooth_friction: {law: ambrosia, mu_k: 0.1}}\n"),
             Catch::Contains("unknown friction law 'ambrosia'") && Catch::Contains("did you mean 'ambrosio'"));
  CHECK_THAT(errorOf(ball + "       smooth_friction: {law: lugre, mu_k: 0.1}}\n"),
             Catch::Contains("expected a static regularized friction law"));
  CHECK_THAT(errorOf(ball + "       mu: 0.1, smooth_friction: {law: ambrosio, mu_k: 0.1}}\n"),
             Catch::Contains("m.yaml:8: model.contacts[0].mu: not with smooth_friction"));
  CHECK_THAT(errorOf(blockModel("  contacts:\n    - {type: point_line, body_i: block, smooth_friction: {law: tanh, mu_k: 1}}\n")),
             Catch::Contains("m.yaml:5: model.contacts[0].smooth_friction: only for normal: compliant"));
}

TEST_CASE("model file: joints, drivers, contacts and pins have distinct names, the columns they head",
          "[model-file][errors]") {
  const std::string two_blocks = "model:\n  bodies:\n    - {name: a, mass: 1, inertia: 0.01}\n"
                                 "    - {name: b, mass: 1, inertia: 0.01, position: [1, 0, 0]}\n";
  CHECK(errorOf(two_blocks + "  joints:\n    - {type: revolute, name: A, body_i: ground, body_j: a}\n"
                             "    - {type: revolute, name: A, body_i: a, body_j: b, point_i: [1, 0]}\n") ==
        "m.yaml:7: model.joints[1].name: 'A' is already the name of model.joints[0]: joints, drivers and contacts "
        "need distinct names (they head the history's columns)");
  CHECK_THAT(errorOf(two_blocks + "  joints:\n    - {type: revolute, name: guide, body_i: ground, body_j: a}\n"
                                  "  contacts:\n    - {type: point_line, name: guide, body_i: b}\n"),
             Catch::StartsWith("m.yaml:8: model.contacts[0].name: 'guide' is already the name of model.joints[0]"));
  CHECK_THAT(errorOf(two_blocks + "  drivers:\n    - {name: motor, body_j: a, angle: 0}\n"
                                  "  contacts:\n    - {type: point_line, name: slot, body_i: b, normal: bilateral, "
                                  "pin_friction: {name: motor, radius: 0.01, mu: 0.1}}\n"),
             Catch::StartsWith("m.yaml:8: model.contacts[0].pin_friction.name: 'motor' is already the name of "
                               "model.drivers[0]"));
  // Unnamed ones take their type's name, numbered when it is taken.
  const auto s = mechanisms::loadPlanarModelText(
      two_blocks + "  joints:\n    - {type: revolute, body_i: ground, body_j: a}\n"
                   "    - {type: revolute, body_i: a, point_i: [0.5, 0], body_j: b, point_j: [-0.5, 0]}\n",
      "m.yaml");
  REQUIRE(s.model.joints().size() == 2);
  CHECK(s.model.joints()[0].name == "revolute");
  CHECK(s.model.joints()[1].name == "revolute-2");
  // A name heads CSV columns and JSON strings: no comma, double quote or control character, not
  // empty, UTF-8; so is the model's own name, which the JSON reports.
  const std::string named = two_blocks + "  joints:\n    - {type: revolute, name: ";
  const std::string rest = ", body_i: ground, body_j: a}\n";
  for (const char* bad : {"\"O,P\"", "'say \"O\"'", "\"O\\tP\"", "''"})
    CHECK_THAT(errorOf(named + bad + rest), Catch::StartsWith("m.yaml:6: model.joints[0].name: expected a name"));
  CHECK(errorOf(named + "slider lower-left" + rest).empty());
  CHECK(errorOf("model:\n  name: \"gu\xff\"\n" + two_blocks.substr(7)) ==
        "m.yaml:2: model.name: expected a name in UTF-8");
  CHECK(errorOf(two_blocks + "  joints:\n    - {type: revolute, body_i: ground, body_j: a}\n"
                             "    - {type: revolute, body_i: a, body_j: b, point_i: [1, 0]}\n"
                             "    - {type: fixed, name: revolute-2, body_i: a, body_j: b}\n")
            .rfind("m.yaml:8: model.joints[2].name: 'revolute-2' is already the name of model.joints[1]", 0) == 0);
}

TEST_CASE("model file: restitution only where impacts are, a driver's rate and acceleration its angle's derivatives",
          "[model-file][errors]") {
  CHECK_THAT(errorOf(blockModel("  contacts:\n    - {type: point_line, body_i: block, normal: bilateral, "
                                "restitution: 0.5}\n")),
             Catch::StartsWith("m.yaml:5: model.contacts[0].restitution: only for normal: unilateral (a bilateral"));
  CHECK_THAT(errorOf(blockModel("  contacts:\n    - {type: point_line, body_i: block, normal: compliant, "
                                "restitution: 0.5, compliant_law: {type: hertz, stiffness: 1e6, exponent: 1.5}}\n")),
             Catch::StartsWith("m.yaml:5: model.contacts[0].restitution: only for normal: unilateral (a compliant"));
  const auto driver = [](const std::string& keys) {
    return blockModel("  drivers:\n    - {body_j: block, angle: \"2*sin(3*t)\", " + keys + "}\n");
  };
  CHECK(errorOf(driver("rate: 6*cos(3*t), acceleration: -18*sin(3*t)")) == "");
  CHECK(errorOf(driver("rate: 2*cos(3*t)")) ==
        "m.yaml:5: model.drivers[0].rate: expected the derivative of angle: at t = 0.123457 it is 1.86439, but "
        "angle changes at 5.59316 (five-point differences); correct it, or leave it out to have it differentiated");
  CHECK_THAT(errorOf(driver("rate: 6*cos(3*t), acceleration: 18*sin(3*t)")),
             Catch::StartsWith("m.yaml:5: model.drivers[0].acceleration: expected the derivative of rate:"));
  CHECK_THAT(errorOf(driver("acceleration: 0")),
             Catch::StartsWith("m.yaml:5: model.drivers[0].acceleration: expected the derivative of angle's rate:"));
  // A kink between the samples is no reason to refuse: the differences' own error widens the allowance.
  CHECK(errorOf(blockModel("  drivers:\n    - {body_j: block, angle: \"t < 0.7654 ? t : 2*t - 0.7654\", "
                           "rate: \"t < 0.7654 ? 1 : 2\"}\n")) == "");
  CHECK_THAT(errorOf(blockModel("  contacts:\n    - {type: point_line, body_i: block, surface_speed: 2*t, "
                                "surface_acceleration: 1}\n")),
             Catch::StartsWith("m.yaml:5: model.contacts[0].surface_acceleration: expected the derivative of "
                               "surface_speed: at t = 0.123457 it is 1, but surface_speed changes at 2"));
}

TEST_CASE("model file: errors name file, line, key path, what was expected", "[model-file][errors]") {
  // Unknown key, with the nearest valid one.
  CHECK(errorOf("model:\n  bodies:\n    - {name: block, mass: 1, inertia: 0.01, mas: 2}\n") ==
        "m.yaml:3: model.bodies[0].mas: unknown key (expected one of name, mass, inertia, position, velocity, shape); "
        "did you mean 'mass'?");
  CHECK(errorOf(blockModel("  contact:\n    - {type: point_line, body_i: block}\n")) ==
        "m.yaml:4: model.contact: unknown key (expected one of name, parameters, gravity, baumgarte, bodies, joints, drivers, "
        "forces, contacts, initial); did you mean 'contacts'?");
  // Wrong types.
  CHECK(errorOf("model:\n  bodies:\n    - {name: block, mass: [1], inertia: 0.01}\n") ==
        "m.yaml:3: model.bodies[0].mass: expected a single value, got a list");
  CHECK(errorOf(blockModel("  gravity: 9.81\n")) == "m.yaml:4: model.gravity: expected [x, y] (two numbers)");
  CHECK(errorOf(blockModel("  joints: {type: revolute}\n")) ==
        "m.yaml:4: model.joints: expected a list (- item per line)");
  // Physical checks.
  CHECK(errorOf("model:\n  bodies:\n    - name: block\n      mass: 0\n      inertia: 0.01\n") ==
        "m.yaml:4: model.bodies[0].mass: expected a mass > 0 [kg], got 0");
  CHECK(errorOf("model:\n  bodies:\n    - {name: block, mass: 1, inertia: -1}\n") ==
        "m.yaml:3: model.bodies[0].inertia: expected a moment of inertia > 0 [kg m^2], got -1");
  CHECK(errorOf(blockModel("  contacts:\n    - {type: point_line, body_i: block, mu_static: 0.2, mu_kinetic: 0.3}\n")) ==
        "m.yaml:5: model.contacts[0].mu_kinetic: expected mu_kinetic <= mu_static, got mu_kinetic = 0.3 > "
        "mu_static = 0.2; lower mu_kinetic or raise mu_static");
  // μ N must stay finite: μ = 1e308 made the first contact problem overflow (exit 1, no place).
  CHECK(errorOf(blockModel("  contacts:\n    - {type: point_line, body_i: block, mu_static: 1e308, "
                           "mu_kinetic: 0.3}\n")) ==
        "m.yaml:5: model.contacts[0].mu_static: expected a friction coefficient <= 1e+100 (mu times a load must not "
        "overflow), got 1e308 = 1e+308");
  CHECK(errorOf(blockModel("  contacts:\n    - {type: point_line, body_i: block, mu: 1e100}\n")).empty());
  CHECK(errorOf(blockModel("  contacts:\n    - {type: point_line, body_i: block, restitution: 1.5}\n")) ==
        "m.yaml:5: model.contacts[0].restitution: expected a coefficient of restitution in [0, 1], got 1.5");
  CHECK(errorOf(blockModel("  joints:\n    - type: clearance\n      body_i: block\n      journal_radius: 0.01\n"
                           "      bearing_radius: 0.01\n")) ==
        "m.yaml:8: model.joints[0].bearing_radius: expected bearing_radius > journal_radius (a clearance > 0), "
        "got 0.01 <= 0.01");
  CHECK(errorOf(blockModel("  joints:\n    - {type: revolute, body_i: ground, body_j: block, friction: {radius: "
                           "0.01, mu_static: 0.1}}\n")) ==
        "m.yaml:5: model.joints[0].friction.mu_static: give mu_kinetic and mu_static together (or mu for both); "
        "mu_kinetic is missing");
  CHECK(errorOf(blockModel("  forces:\n    - {type: force, body: ground, fx: 2}\n")) ==
        "m.yaml:5: model.forces[0].body: expected a body of model.bodies, got ground (it does not move: a load on it "
        "does nothing)");
  // References to unknown bodies.
  CHECK(errorOf(blockModel("  joints:\n    - {type: revolute, body_i: ground, body_j: blok}\n")) ==
        "m.yaml:5: model.joints[0].body_j: unknown body 'blok' (expected ground or one of model.bodies: block); "
        "did you mean 'block'?");
  CHECK(errorOf(blockModel("  joints:\n    - {type: revolut, body_i: ground, body_j: block}\n")) ==
        "m.yaml:5: model.joints[0].type: unknown joint type 'revolut' (expected revolute, translational, "
        "point_on_line, fixed, clearance); did you mean 'revolute'?");
  // Expression errors: muParser's message and position, and the nearest variable.
  CHECK(errorOf(blockModel("  forces:\n    - {type: force, body: block, fx: \"sin(t\"}\n")) ==
        "m.yaml:5: model.forces[0].fx: expression \"sin(t\": Missing parenthesis (at position 6)");
  CHECK(errorOf(blockModel("  forces:\n    - {type: force, body: block, fx: \"-2*x_blok\"}\n")) ==
        "m.yaml:5: model.forces[0].fx: expression \"-2*x_blok\": Unexpected token \"x_blok\" found at position 3.; "
        "did you mean 'x_block'?");
  CHECK(errorOf(blockModel("  drivers:\n    - {body_j: block, angle: \"2 t\"}\n")) ==
        "m.yaml:5: model.drivers[0].angle: expression \"2 t\": Unexpected variable \"t\" found at position 2");
  CHECK(errorOf(blockModel("  drivers:\n    - {body_j: block, angle: \"x_block*t\"}\n")) ==
        "m.yaml:5: model.drivers[0].angle: expression \"x_block*t\": Unexpected token \"x_block\" found at position "
        "0. (a function of t and model.parameters only)");
  // Inconsistent initial conditions: a crank pinned at the origin cannot hold x and theta both.
  CHECK(errorOf(R"Y(model:
  bodies:
    - {name: crank, mass: 1, inertia: 0.01, position: [0.3, 0, 0]}
  joints:
    - {type: revolute, body_i: ground, body_j: crank, point_j: [-0.1, 0]}
  initial:
    independent: [x_crank, theta_crank]
)Y")
            .rfind("m.yaml:7: model.initial: kinematic assembly cannot close the joints, drivers and bilateral contacts at t = 0", 0) == 0);
  CHECK(errorOf("model:\n  bodies:\n    - {name: block, mass: 1, inertia: 0.01, position: [0, -0.01, 0]}\n"
                "  contacts:\n    - {type: point_line, body_i: block}\n") ==
        "m.yaml:5: model.contacts[0]: the contact starts penetrating: gap -0.01 m < 0 at t = 0; move the bodies "
        "apart in their positions (or make the contact compliant)");
  CHECK(errorOf(blockModel("  initial:\n    independent: [theta_blok]\n")) ==
        "m.yaml:5: model.initial.independent[0]: unknown coordinate 'theta_blok' (expected x_B, y_B or theta_B for "
        "a body B); did you mean 'theta_block'?");
  // YAML syntax errors keep file and line.
  CHECK(errorOf("model:\n  bodies:\n    - {name: block, mass: 1\n").rfind("m.yaml:", 0) == 0);
  CHECK(errorOf("model:\n  bodies: [\n").find("YAML syntax error") != std::string::npos);
  CHECK(errorOf("").find("expected a map with the key model") != std::string::npos);
  CHECK(errorOf(blockModel("---\nmodel: {bodies: 7}\n")) ==
        "m.yaml:5: a second YAML document (after '---'): a file holds one");
}

TEST_CASE("model file: every element kind loads (the fuzz seed)", "[model-file]") {
  const auto s = mechanisms::loadPlanarModelFile(kExamples + "/../../fuzz/corpus/fuzz_planar_model/everything.yaml");
  CHECK(s.model.bodyCount() == 4);
  CHECK(s.model.joints().size() == 5);  // the clearance joint is a contact
  CHECK(s.contacts.size() == 3);
  CHECK(s.joint_friction.size() == 1);
  Eigen::VectorXd phi(s.model.constraintCount());
  s.model.constraints(0.0, s.q0, phi);
  CHECK(phi.lpNorm<Eigen::Infinity>() < 1e-12);
  CHECK(s.q0(dynamics::PlanarModel::coordinate(2, 2)) == 0.2);  // held
}
