// The minimal form as a route over any mechanism (dynamics/routes/minimal_form/minimal_form_route.hpp): it finds
// the degrees of freedom and Blajer's driver itself, agrees with the event-driven route on a
// model file of one's own, and refuses, with the physical reason, what it cannot take.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>

#include "dynamics/routes/minimal_form/minimal_form_route.hpp"
#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/stick_statistics.hpp"
#include "mechanisms/belt.hpp"
#include "mechanisms/blajer.hpp"
#include "mechanisms/dupont.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/planar_model_file.hpp"
#include "mechanisms/model_examples.hpp"

using namespace stickslip;
using dynamics::PlanarModel;

namespace {

using stickslip::test::kExamples;

// Both routes integrate at a relative tolerance of 1e-10 by default; `tolerance` tightens it.
dynamics::MinimalFormRun minimalForm(const dynamics::MinimalFormModel& m, double t_end, double tolerance = 1e-10) {
  dynamics::MinimalForm form(m.model, m.friction, m.options, m.x0);
  dynamics::MinimalFormSimulationOptions o;
  o.t_end = t_end;
  o.relative_tolerance = tolerance;
  o.absolute_tolerance = 1e-2 * tolerance;
  o.output_dt = 1e-2;
  return dynamics::simulateMinimalForm(form, m.x0, m.u0, o);
}

dynamics::RunResult exactRun(const dynamics::RigidScenario& s, double t_end, double tolerance = 1e-10) {
  dynamics::EventDrivenOptions o;
  o.t_end = t_end;
  o.relative_tolerance = tolerance;
  o.absolute_tolerance = 1e-2 * tolerance;
  o.output_dt = 1e-2;
  return dynamics::simulateEventDriven(s, o);
}

// The shipped guided slider-crank with its torque parameters replaced.
dynamics::RigidScenario guided(const std::string& tau0, const std::string& omega) {
  std::string text;
  {
    std::FILE* f = std::fopen((kExamples + "/guided_slider_crank.yaml").c_str(), "r");
    REQUIRE(f);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
    std::fclose(f);
  }
  auto replace = [&](const std::string& key, const std::string& value) {
    const auto at = text.find(key + ":");
    REQUIRE(at != std::string::npos);
    const auto end = text.find('#', at);
    text.replace(at, end - at, key + ": " + value + " ");
  };
  replace("tau0", tau0);
  replace("Omega", omega);
  return mechanisms::loadPlanarModelText(text, "guided.yaml");
}

// Stick/slip changes of the two routes matched one to one; the largest time difference.
double matchedChanges(const dynamics::RunResult& a, int ia, const dynamics::RunResult& b, int ib,
                      std::size_t& count) {
  const auto ca = dynamics::modeChanges(a, ia), cb = dynamics::modeChanges(b, ib);
  count = ca.size();
  REQUIRE(ca.size() == cb.size());
  return dynamics::maxModeTimeError(ca, cb);
}

std::string refusal(const dynamics::RigidScenario& s) { return dynamics::minimalFormRefusal(s); }

// A block of mass 1 on a bilateral guide along x through the origin, with friction.
dynamics::RigidContact guide(dynamics::BodyIndex body, const std::string& name) {
  dynamics::RigidContact c;
  c.name = name;
  c.normal = dynamics::RigidContact::Normal::kBilateral;
  c.body_i = body;
  c.mu_static = 0.3;
  c.mu_kinetic = 0.2;
  return c;
}

dynamics::RigidScenario blocks(int count) {
  dynamics::RigidScenario s;
  s.name = "blocks";
  for (int b = 0; b < count; ++b) {
    const auto body = s.model.addBody("block" + std::to_string(b), 1.0, 0.1);
    s.model.addAngle(dynamics::kGround, body, 0.0, "angle" + std::to_string(b));
    s.model.addAppliedForce(body, {0.0, 0.0}, [b](double t) { return Eigen::Vector2d(std::sin(t + b), -9.81); });
    s.contacts.push_back(guide(body, "guide" + std::to_string(b)));
  }
  s.q0 = Eigen::VectorXd::Zero(3 * count);
  s.v0 = Eigen::VectorXd::Zero(3 * count);
  return s;
}

}  // namespace

TEST_CASE("minimal form of a model file: the crank is the driver, and the event-driven route agrees",
          "[minimal-form][route]") {
  const auto s = mechanisms::loadPlanarModelFile(kExamples + "/guided_slider_crank.yaml");
  const auto m = dynamics::minimalFormModel(s);
  CHECK(m.options.independent == std::vector<Eigen::Index>{PlanarModel::coordinate(0, 2)});  // theta_crank
  REQUIRE(m.friction.size() == 1);
  CHECK(m.friction[0].name == "guide");
  CHECK(m.friction[0].kind == dynamics::FrictionJointKind::kPrismatic);
  // The guide is assembled closed: the slider on its line.
  CHECK(std::abs(s.q0(PlanarModel::coordinate(2, 1))) < 1e-12);

  // The light crank makes the motion sensitive: at 1e-10 the routes' event times part by up
  // to 2e-6 s after 5 s, at 1e-12 by 5e-8 s (integration error, shrinking with the tolerance).
  const auto rm = minimalForm(m, 5.0, 1e-12);
  const auto re = exactRun(s, 5.0, 1e-12);
  REQUIRE(rm.run.ok());
  REQUIRE(re.ok());
  std::size_t changes = 0;
  const double worst = matchedChanges(rm.run, 0, re, 0, changes);
  INFO(changes << " stick/slip changes, max |dt| " << worst << " s");
  CHECK(changes >= 10);
  CHECK(rm.stick_intervals.size() >= 3);
  CHECK(worst < 2e-7);
  CHECK((rm.run.final_q - re.final_q).lpNorm<Eigen::Infinity>() < 1e-6);
}

TEST_CASE("event-driven through dead centres: the slider's reversal is kinematic, not a stick",
          "[minimal-form][route][event-driven]") {
  // Driven hard, the crank turns over and the slider passes its dead centres, where no force
  // can hold it (W_tt = 0); the decision used to find "no consistent mode" there.
  const auto s = guided("2", "3");
  const auto rm = minimalForm(dynamics::minimalFormModel(s), 5.0, 1e-12);
  const auto re = exactRun(s, 5.0, 1e-12);
  REQUIRE(rm.run.ok());
  INFO(re.message);
  REQUIRE(re.ok());
  std::size_t changes = 0;
  const double worst = matchedChanges(rm.run, 0, re, 0, changes);
  INFO(changes << " changes, max |dt| " << worst << " s");
  CHECK(changes >= 30);
  CHECK(worst < 1e-6);
  CHECK(re.mode_mismatches == 0);
}

TEST_CASE("minimal form: Dupont's slot picks x1 as the driver of three degrees of freedom",
          "[minimal-form][route]") {
  const auto m = mechanisms::dupontMinimalForm({});
  REQUIRE(m.options.independent.size() == 3);
  CHECK(m.options.independent[0] == PlanarModel::coordinate(0, 0));
  const auto r = minimalForm(m, 10.0);
  REQUIRE(r.run.ok());
  CHECK(dynamics::maxModeTimeError(dynamics::modeChanges(r.run, 0), mechanisms::dupontReference({}, 10.0)) < 1e-6);
}

TEST_CASE("minimal form: what it cannot take, and why", "[minimal-form][route]") {
  using Catch::Matchers::Contains;
  auto lifted = mechanisms::loadPlanarModelFile(kExamples + "/incline.yaml");
  lifted.q0(1) += 1e-3;
  CHECK_THAT(refusal(lifted), Contains("contact 'block-slope' is unilateral and open at the start"));
  CHECK_THAT(refusal(mechanisms::loadPlanarModelFile(kExamples + "/slider_crank.yaml")),
             Contains("driver 'motor' prescribes an angle in time"));
  CHECK_THAT(refusal(mechanisms::loadPlanarModelFile(kExamples + "/journal_bearing.yaml")),
             Contains("is a clearance joint"));
  CHECK(refusal(blocks(1)).empty());
  CHECK_THAT(refusal(blocks(2)), Contains("more than one independent velocity"));

  // Beside another frictional element, a unilateral contact's normal force is indeterminate
  // while both stick, and a moving surface's stick is another velocity of the driver.
  auto unilateral = blocks(2);
  unilateral.contacts[0].normal = dynamics::RigidContact::Normal::kUnilateral;
  CHECK_THAT(refusal(unilateral), Contains("contact 'guide0' is unilateral: its lift-off is watched"));
  auto belt = blocks(2);
  belt.contacts[1].surface_speed = [](double) { return 0.1; };
  CHECK_THAT(refusal(belt), Contains("contact 'guide1' slides on a moving surface"));
  auto disk = blocks(1);
  disk.contacts[0].radius = 0.01;
  disk.q0(1) = 0.01;
  CHECK_THAT(refusal(disk), Contains("frictional disk"));
  auto fixed = blocks(1);
  fixed.model.addPointOnLine(dynamics::kGround, {0.0, 0.0}, {0.0, 1.0}, 0, {0.0, 0.0}, "stop");
  CHECK_THAT(refusal(fixed), Contains("no degree of freedom"));
  CHECK_THROWS_WITH(dynamics::minimalFormModel(fixed), Contains("the minimal form cannot take 'blocks'"));
}

TEST_CASE("model files: a driver angle without t holds a rotation — bilateral contacts are assembled closed",
          "[minimal-form][route][model-file]") {
  using Catch::Matchers::Contains;
  const std::string head = R"(model:
  bodies:
    - {name: slider, mass: 1, inertia: 0.1, position: [0, 0.02, 0.1]}
  drivers:
    - {body_j: slider, angle: 0)";
  const std::string tail = R"(}
  contacts:
    - {type: point_line, name: guide, normal: bilateral, body_i: slider, body_j: ground, mu: 0.2}
)";
  const auto s = mechanisms::loadPlanarModelText(head + tail, "m.yaml");
  REQUIRE(s.model.joints().size() == 1);
  CHECK(s.model.joints()[0].type == dynamics::JointType::kAngle);
  CHECK(s.q0(1) == Approx(0.0).margin(1e-13));  // put on the guide by the assembly
  CHECK(s.q0(2) == Approx(0.0).margin(1e-13));  // and turned to the held angle
  try {
    mechanisms::loadPlanarModelText(head + ", rate: 1" + tail, "m.yaml");
    FAIL("a constant angle with a rate loaded");
  } catch (const mechanisms::InputError& e) {
    CHECK_THAT(e.what(), Contains("m.yaml:5: model.drivers[0].rate: expected 0: the angle does not change with t"));
  }
  try {
    mechanisms::loadPlanarModelText(head + tail + "  initial: {independent: [y_slider]}\n", "m.yaml");
    FAIL("a bilateral contact held apart loaded");
  } catch (const mechanisms::InputError& e) {
    CHECK_THAT(e.what(), Contains("cannot close the joints, drivers and bilateral contacts"));
  }
}

TEST_CASE("minimal form on a unilateral contact closed at the start and on a moving surface: belt and incline "
          "as event-driven and the closed form",
          "[minimal-form][route]") {
  for (const char* name : {"belt", "incline"}) {
    INFO(name);
    const auto s = mechanisms::loadPlanarModelFile(kExamples + "/" + name + ".yaml");
    REQUIRE(refusal(s).empty());
    const auto m = dynamics::minimalFormModel(s);
    REQUIRE(m.options.unilateral.size() == 1);  // watched for lift-off
    const auto mf = minimalForm(m, 20.0);
    REQUIRE(mf.run.ok());
    const auto ed = exactRun(s, 20.0);
    REQUIRE(ed.ok());
    std::size_t count = 0;
    CHECK(matchedChanges(mf.run, 0, ed, 0, count) <= 1e-6);
    CHECK(count >= 4);
    if (std::string(name) == "belt") {
      // Thesis Table 3.1's cycle: stuck to the belt (u0 = v_b, not 0) until k x = μs m g.
      const auto reference = mechanisms::beltClosedForm(mechanisms::beltOf(s)).events(20.0);
      const auto changes = dynamics::modeChanges(mf.run, 0);
      REQUIRE(changes.size() == reference.size());
      for (std::size_t i = 0; i < changes.size(); ++i) CHECK(changes[i].first == Approx(reference[i].first).margin(1e-6));
      REQUIRE(!mf.stick_intervals.empty());
      CHECK(mf.stick_intervals.front().first == 0.0);
    }
  }
}

TEST_CASE("minimal form: a unilateral contact that loses its load stops the run with lift-off, where event-driven "
          "opens it",
          "[minimal-form][route]") {
  // A block pushed along the floor and pulled up by 5 t N: N = m g − 5 t reaches zero at
  // t = m g / 5.
  const auto s = mechanisms::loadPlanarModelText(R"(model:
  gravity: [0, -9.81]
  bodies:
    - {name: block, mass: 1, inertia: 0.01}
  forces:
    - {type: force, body: block, fx: 2, fy: 5*t}
  contacts:
    - {type: point_line, name: floor, body_i: block, line_normal: [0, 1], mu_static: 0.3, mu_kinetic: 0.2}
)", "lift.yaml");
  const auto mf = minimalForm(dynamics::minimalFormModel(s), 3.0);
  CHECK(mf.run.status == dynamics::RunStatus::kLiftOff);
  CHECK_THAT(mf.run.message, Catch::Matchers::Contains("contact 'floor' lifts off at t = 1.962"));
  CHECK(mf.run.t_end == Approx(9.81 / 5.0).margin(1e-9));
  const auto ed = exactRun(s, 3.0);
  REQUIRE(ed.ok());
  bool opened = false;
  for (const auto& e : ed.events)
    if (e.kind == dynamics::EventKind::kOpen) {
      CHECK(e.t == Approx(mf.run.t_end).margin(1e-9));
      opened = true;
      break;
    }
  CHECK(opened);
  // Not loaded at the start: stopped there.
  const auto pulled = mechanisms::loadPlanarModelText(R"(model:
  gravity: [0, -9.81]
  bodies:
    - {name: block, mass: 1, inertia: 0.01}
  forces:
    - {type: force, body: block, fy: 20}
  contacts:
    - {type: point_line, name: floor, body_i: block, line_normal: [0, 1], mu: 0.2}
)", "pulled.yaml");
  const auto stopped = minimalForm(dynamics::minimalFormModel(pulled), 1.0);
  CHECK(stopped.run.status == dynamics::RunStatus::kLiftOff);
  CHECK(stopped.run.t_end == 0.0);
}
