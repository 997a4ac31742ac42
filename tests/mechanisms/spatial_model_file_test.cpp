// Spatial mechanisms described in a YAML `model:` section with dimension: 3
// (mechanisms/spatial_model_file.hpp): the thesis' spatial slider-crank built-in assembles
// with one degree of freedom, orientations and angular velocities read as documented, and
// every input error names file, line, key path and what was expected.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/mechanism/spatial_mechanism.hpp"
#include "mechanisms/builtin_models.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/planar_model_file.hpp"
#include "mechanisms/scenario_file.hpp"
#include "mechanisms/spatial_model_file.hpp"

using namespace stickslip;
using dynamics::SpatialModel;

namespace {

/// The InputError message of loading `text` (labelled "s.yaml") as a spatial model; "" when it loads.
std::string errorIn(const std::string& text) {
  try {
    mechanisms::loadSpatialModelText(text, "s.yaml");
  } catch (const mechanisms::InputError& e) {
    return e.what();
  }
  return "";
}

/// A spatial model of one body `b` with the given body keys and extra lines under `model:`.
std::string oneBody(const std::string& body_keys, const std::string& extra = "") {
  return "model:\n"
         "  dimension: 3\n"
         "  bodies:\n"
         "    - {name: b, mass: 1, inertia: [1, 1, 1]" +
         body_keys + "}\n" + extra;
}

Eigen::Vector3d bodyOmegaGlobal(const mechanisms::SpatialScenario& s, dynamics::BodyIndex b) {
  return dynamics::rotationMatrix(s.q0.segment<4>(SpatialModel::positionIndex(b, 3))) *
         s.v0.segment<3>(SpatialModel::velocityIndex(b, 3));
}

}  // namespace

TEST_CASE("spatial slider-crank built-in: assembled, 1 DoF, the crank's speed held, Table 2.2's state",
          "[spatial][model-file]") {
  const mechanisms::SpatialScenario s = mechanisms::builtinSpatialModel("spatial-slider-crank");
  const SpatialModel& m = s.model;
  REQUIRE(s.assembly.ok());
  REQUIRE(m.bodyCount() == 3);
  REQUIRE(m.constraintCount() == 17);
  Eigen::VectorXd phi(m.constraintCount()), phi_t(m.constraintCount());
  Eigen::MatrixXd d(m.constraintCount(), m.velocitySize());
  m.constraints(0.0, s.q0, phi);
  m.jacobian(0.0, s.q0, d);
  m.constraintTimeDerivative(0.0, s.q0, phi_t);
  CHECK(phi.lpNorm<Eigen::Infinity>() <= 1e-12);
  CHECK((d * s.v0 + phi_t).lpNorm<Eigen::Infinity>() <= 1e-12);
  Eigen::FullPivLU<Eigen::MatrixXd> lu(d);
  lu.setThreshold(1e-10);
  CHECK(m.velocitySize() - lu.rank() == 1);

  // The crank's ω′ held as given: 2π rad/s about −y; its centroid's velocity follows.
  CHECK(s.v0.segment<3>(SpatialModel::velocityIndex(0, 3)).isApprox(Eigen::Vector3d(0, -2 * M_PI, 0), 1e-15));
  CHECK(s.v0.segment<3>(SpatialModel::velocityIndex(0, 0)).isApprox(Eigen::Vector3d(-0.1 * M_PI, 0, 0), 1e-12));
  // Table 2.2's positions (four digits).
  CHECK((s.q0.segment<3>(SpatialModel::positionIndex(1, 0)) - Eigen::Vector3d(0, 0.0735, -0.025)).norm() < 1e-4);
  CHECK((s.q0.segment<4>(SpatialModel::positionIndex(1, 3)) - Eigen::Vector4d(0.8680, -0.4966, 0, 0)).norm() < 1e-4);
  CHECK((s.q0.segment<3>(SpatialModel::positionIndex(2, 0)) - Eigen::Vector3d(0, 0.147, -0.15)).norm() < 1e-4);
  // Velocities: the rod's centre (−0.3142, 0, 0), the slider at rest (its line is normal to the
  // crank tip's velocity at the start).
  CHECK((s.v0.segment<3>(SpatialModel::velocityIndex(1, 0)) - Eigen::Vector3d(-0.3142, 0, 0)).norm() < 1e-4);
  CHECK(s.v0.segment<3>(SpatialModel::velocityIndex(2, 0)).norm() < 1e-12);
  CHECK(s.v0.segment<3>(SpatialModel::velocityIndex(2, 3)).norm() < 1e-12);
  // The rod's ω (global) takes the tip's velocity: ω × (slider − tip) = (0.1π, 0, 0). Table
  // 2.2's ω = (0, −1.5661, −1.6112) has the same part across the rod; it spins besides at
  // 0.595 rad/s about its own axis, which this universal joint (cross axes: the rod's z and
  // the slider's x) does not let it do.
  const Eigen::Vector3d w = bodyOmegaGlobal(s, 1);
  const Eigen::Vector3d rod = s.q0.segment<3>(SpatialModel::positionIndex(2, 0)) - m.pointPosition(s.q0, 0, {0, 0, 0.05});
  INFO("rod omega (global) " << w.transpose());
  CHECK((w.cross(rod) - Eigen::Vector3d(0.2 * M_PI, 0, 0)).norm() < 1e-12);
  CHECK(std::abs(w.dot(rod.normalized())) < 1e-12);
  const Eigen::Vector3d table(0, -1.5661, -1.6112);
  const Eigen::Vector3d across = table - table.dot(rod.normalized()) * rod.normalized();
  CHECK((w - across).norm() < 2e-3);
  CHECK((w - Eigen::Vector3d(0, -1.8676, -1.0983)).norm() < 1e-4);
  // Its parameters are the model's.
  CHECK(s.parameters.front() == std::pair<std::string, double>{"crank_length", 0.1});
  const auto longer = mechanisms::builtinSpatialModel("spatial-slider-crank", {{"rod_length", 0.3}});
  CHECK(longer.assembly.ok());
  CHECK(longer.q0(SpatialModel::positionIndex(2, 2)) == Approx(0.1 - std::sqrt(0.09 - 0.147 * 0.147)));
}

TEST_CASE("spatial model file: scenarios load a spatial mechanism, the planar loader refuses dimension: 3",
          "[spatial][model-file]") {
  CHECK(mechanisms::builtinSpatialModelNames() ==
        std::vector<std::string>{"spatial-slider-crank", "spatial-slider-crank-friction", "spatial-slider-crank-clearance"});
  CHECK_THAT(errorIn(""), Catch::Contains("expected a map with the key model"));
  // The planar loader: dimension 3 refused at its line, 2 (or none) accepted.
  const std::string spatial = oneBody("");
  try {
    mechanisms::loadPlanarModelText(spatial, "s.yaml");
    FAIL("a spatial model loaded as planar");
  } catch (const mechanisms::InputError& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("s.yaml:2: model.dimension: a spatial mechanism (dimension: 3)") &&
                             Catch::Contains("loadSpatialModel"));
  }
  CHECK(mechanisms::loadPlanarModelText("model:\n  dimension: 2\n  bodies:\n    - {name: b, mass: 1, inertia: 1}\n",
                                        "p.yaml")
            .model.bodyCount() == 1);
  CHECK_THROWS_WITH(mechanisms::builtinModel("spatial-slider-crank"),
                    Catch::StartsWith("mechanisms/scenarios/spatial-slider-crank.yaml:") &&
                        Catch::Contains("model.dimension: a spatial mechanism"));
  // A scenario by name or as a scenario file's built-in: spatial in place of planar, with the
  // file's parameters; the commands that draw planar mechanisms say so.
  const mechanisms::Scenario by_name = mechanisms::loadScenario("spatial-slider-crank");
  REQUIRE(by_name.spatial);
  CHECK(!by_name.model);
  const mechanisms::Scenario file =
      mechanisms::loadScenarioText("scenario: spatial-slider-crank-friction\nparameters: {mu_static: 0.3}\n", "f.yaml");
  REQUIRE(file.spatial);
  CHECK(file.spatial->name == "spatial-slider-crank-friction");
  REQUIRE(file.spatial->friction.size() == 1);
  CHECK(file.spatial->friction[0].mu_static == 0.3);
  CHECK(file.spatial->friction[0].mu_kinetic == 0.1);
  CHECK_THROWS_WITH(mechanisms::planarModel(file, "animate --gif"),
                    "animate --gif takes planar mechanisms; 'spatial-slider-crank-friction' is spatial (dimension: 3)");
  CHECK_THROWS_WITH(mechanisms::loadScenarioText("scenario: spatial-slider-crank\nparameters: {rod_length: 0.1}\n",
                                                 "f.yaml"),
                    Catch::StartsWith("f.yaml:2: parameters.rod_length"));
  // The spatial loader: dimension required, and 3.
  CHECK(errorIn("model:\n  bodies:\n    - {name: b, mass: 1, inertia: [1, 1, 1]}\n") ==
        "s.yaml:2: model.dimension: missing: a spatial model says dimension: 3 (a model without it, or with 2, is "
        "planar: mechanisms::loadPlanarModel reads it)");
  CHECK_THAT(errorIn("model:\n  dimension: 2\n  bodies: []\n"),
             Catch::StartsWith("s.yaml:2: model.dimension: a spatial model says dimension: 3"));
  CHECK(errorIn("model:\n  dimension: 4\n  bodies: []\n") ==
        "s.yaml:2: model.dimension: expected 2 (a planar mechanism) or 3 (a spatial one), got '4'");
  CHECK_THROWS_WITH(mechanisms::loadPlanarModelText("model:\n  dimension: [3]\n", "p.yaml"),
                    "p.yaml:2: model.dimension: expected 2 (a planar mechanism) or 3 (a spatial one), got a list");
}

TEST_CASE("spatial model file: orientations, global angular velocities, drivers and forces", "[spatial][model-file]") {
  // Axis–angle and Euler parameters give the same A.
  const double angle = 0.7;
  const Eigen::Vector3d axis = Eigen::Vector3d(1, -2, 0.5).normalized();
  const Eigen::Vector4d p = dynamics::eulerParameters(axis, angle);
  std::ostringstream quaternion;
  quaternion.precision(17);
  quaternion << ", orientation: [" << p(0) << ", " << p(1) << ", " << p(2) << ", " << p(3) << "]";
  const auto by_axis = mechanisms::loadSpatialModelText(oneBody(", orientation: {axis: [1, -2, 0.5], angle: 0.7}"), "s.yaml");
  const auto by_p = mechanisms::loadSpatialModelText(oneBody(quaternion.str()), "s.yaml");
  const Eigen::Matrix3d a = dynamics::rotationMatrix(by_axis.q0.segment<4>(3));
  CHECK((a - dynamics::rotationMatrix(by_p.q0.segment<4>(3))).norm() < 1e-14);
  CHECK((a * axis - axis).norm() < 1e-14);              // the axis is fixed
  CHECK(std::abs(std::acos((a.trace() - 1) / 2) - angle) < 1e-12);

  // Angular velocity given in global axes, held in v in body axes: ω′ = Aᵀ ω.
  const auto spun = mechanisms::loadSpatialModelText(
      oneBody(", orientation: {axis: [0, 0, 1], angle: pi/2}, angular_velocity: [1, 2, 3], velocity: [4, 5, 6]"),
      "s.yaml");
  CHECK((spun.v0.segment<3>(3) - Eigen::Vector3d(2, -1, 3)).norm() < 1e-14);
  CHECK((spun.v0.head<3>() - Eigen::Vector3d(4, 5, 6)).norm() == 0.0);
  CHECK(spun.model.velocityName(4) == "b.wy");
  CHECK(spun.assembly.ok());  // no joints: nothing to assemble

  // A driven revolute: the angle from the given pose, its rate in the assembled velocities;
  // a force, a torque and a spring–damper of t and the parameters.
  const auto driven = mechanisms::loadSpatialModelText(R"Y(model:
  dimension: 3
  name: driven
  parameters: {w: 3, k: 100}
  bodies:
    - {name: crank, mass: 2, inertia: [0.02, 0.02, 0.01], position: [0.1, 0, 0]}
  joints:
    - {type: revolute, name: pin, body_i: ground, axis_i: [0, 0, 1], body_j: crank, point_j: [-0.1, 0, 0],
       axis_j: [0, 0, 1]}
  drivers:
    - {joint: pin, angle: w*t}
  forces:
    - {type: force, body: crank, point: [0.1, 0, 0], fy: 2*t}
    - {type: torque, body: crank, tz: -w}
    - {type: spring_damper, body_i: ground, point_i: [0.5, 0, 0], body_j: crank, stiffness: k, rest_length: 0.1}
)Y",
                                                       "d.yaml");
  REQUIRE(driven.assembly.ok());
  CHECK(driven.name == "driven");
  CHECK(driven.model.constraintCount() == 6);
  CHECK(driven.v0(5) == Approx(3.0).epsilon(1e-9));                  // ω′_z = θ̇
  CHECK(driven.v0.segment<2>(0).isApprox(Eigen::Vector2d(0, 0.3), 1e-9));  // the centroid's velocity
  Eigen::VectorXd f(6);
  driven.model.generalizedForces(1.0, driven.q0, Eigen::VectorXd::Zero(6), f);
  // fy = 2 at (0.2, 0, 0): moment 0.2 · 2 about z; torque −3; spring (0.5 − 0.1 − 0.1) · 100 along +x.
  CHECK(f(0) == Approx(30.0));
  CHECK(f(1) == Approx(2.0));
  CHECK(f(5) == Approx(0.1 * 2.0 - 3.0));
}

TEST_CASE("spatial model file: errors name file, line, key path, what was expected", "[spatial][model-file][errors]") {
  // Orientation: not unit (the norm named), a zero axis, the wrong length.
  CHECK(errorIn(oneBody(", orientation: [0.8680, -0.4966, 0, 0]")) ==
        "s.yaml:4: model.bodies[0].orientation: expected unit Euler parameters (e0² + e1² + e2² + e3² = 1 to 1e-6), "
        "got norm 1.00001778; give more digits or {axis: [x, y, z], angle: radians}");
  CHECK(errorIn(oneBody(", orientation: {axis: [0, 0, 0], angle: 1}")) ==
        "s.yaml:4: model.bodies[0].orientation.axis: expected a nonzero direction (the rotation's axis)");
  CHECK_THAT(errorIn(oneBody(", orientation: [1, 0, 0]")),
             Catch::StartsWith("s.yaml:4: model.bodies[0].orientation: expected Euler parameters [e0, e1, e2, e3]"));
  CHECK(errorIn(oneBody(", orientation: {axis: [0, 0, 1], angel: 1}")) ==
        "s.yaml:4: model.bodies[0].orientation.angel: unknown key (expected one of axis, angle); did you mean 'angle'?");
  // Inertia: singular, not symmetric, violating the triangle inequality, of the wrong shape.
  const auto inertia = [](const std::string& j) {
    return errorIn("model:\n  dimension: 3\n  bodies:\n    - name: b\n      mass: 1\n      inertia: " + j + "\n");
  };
  CHECK_THAT(inertia("[1, 1, 0]"), Catch::StartsWith("s.yaml:6: model.bodies[0].inertia: body 'b': the inertia "
                                                     "tensor must be positive definite"));
  CHECK_THAT(inertia("[[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]"),
             Catch::StartsWith("s.yaml:6: model.bodies[0].inertia: body 'b': the inertia tensor must be finite, "
                               "nonzero and symmetric"));
  CHECK_THAT(inertia("[1, 1, 3]"), Catch::StartsWith("s.yaml:6: model.bodies[0].inertia: body 'b': principal moments") &&
                                       Catch::Contains("violate J1 + J2 >= J3"));
  CHECK_THAT(inertia("[1, 1, 1, 0]"),
             Catch::StartsWith("s.yaml:6: model.bodies[0].inertia: expected the inertia tensor about the centroid"));
  CHECK_THAT(inertia("[[1, 0, 0], [0, 1], [0, 0, 1]]"),
             Catch::StartsWith("s.yaml:6: model.bodies[0].inertia[1]: expected a row of three numbers"));
  CHECK(inertia("[2, 3, 4, 0.1, 0.2, 0.3]").empty());  // the tensor's six values
  // Lists of the wrong length, unknown keys, bodies, joint types, velocities.
  CHECK(errorIn(oneBody(", position: [0, 0]")) ==
        "s.yaml:4: model.bodies[0].position: expected [x, y, z] (three numbers)");
  CHECK(errorIn(oneBody("", "  gravity: [0, -9.81]\n")) ==
        "s.yaml:5: model.gravity: expected [x, y, z] (three numbers)");
  CHECK(errorIn(oneBody(", angular_velocty: [0, 0, 1]")) ==
        "s.yaml:4: model.bodies[0].angular_velocty: unknown key (expected one of name, mass, inertia, position, "
        "orientation, velocity, angular_velocity, shape); did you mean 'angular_velocity'?");
  CHECK(errorIn(oneBody("", "  contact: []\n")) ==
        "s.yaml:5: model.contact: unknown key (expected one of dimension, name, parameters, gravity, bodies, joints, "
        "drivers, forces, contacts, initial); did you mean 'contacts'?");
  CHECK(errorIn(oneBody("", "  joints:\n    - {type: revolute, body_i: ground, axis_i: [0, 0, 1], body_j: c, "
                            "axis_j: [0, 0, 1]}\n")) ==
        "s.yaml:6: model.joints[0].body_j: unknown body 'c' (expected ground or one of model.bodies: b)");
  CHECK(errorIn(oneBody("", "  joints:\n    - {type: sphericl, body_i: ground, body_j: b}\n")) ==
        "s.yaml:6: model.joints[0].type: unknown joint type 'sphericl' (expected spherical, revolute, universal, "
        "cylindrical, translational, fixed); did you mean 'spherical'?");
  CHECK(errorIn(oneBody("", "  joints:\n    - {type: revolute, body_i: ground, axis_i: [0, 0, 0], body_j: b, "
                            "axis_j: [0, 0, 1]}\n")) ==
        "s.yaml:6: model.joints[0].axis_i: expected a nonzero direction (a joint axis)");
  CHECK(errorIn(oneBody("", "  joints:\n    - {type: universal, body_i: ground, axis_i: [1, 0, 0], body_j: b}\n")) ==
        "s.yaml:6: model.joints[0].axis_j: missing: give the joint axis in the axes of body j, e.g. [0, 0, 1]");
  CHECK(errorIn(oneBody("", "  joints:\n    - {type: spherical, body_i: ground, body_j: b, axis_i: [1, 0, 0]}\n")) ==
        "s.yaml:6: model.joints[0].axis_i: unknown key (expected one of type, name, body_i, point_i, body_j, "
        "point_j)");
  CHECK(errorIn(oneBody("", "  joints:\n    - {type: spherical, body_i: b, body_j: b}\n")) ==
        "s.yaml:6: model.joints[0].body_j: expected a body other than body_i (a joint connects two bodies)");
  CHECK(errorIn(oneBody("", "  joints:\n    - {type: spherical, name: ball, body_i: ground, body_j: b}\n"
                            "  drivers:\n    - {joint: ball, angle: t}\n")) ==
        "s.yaml:8: model.drivers[0].joint: no revolute joint to drive: 'ball' is not one, and model.joints has none "
        "(a driver turns a revolute joint)");
  CHECK(errorIn(oneBody("", "  joints:\n    - {type: spherical, name: ball, body_i: ground, body_j: b}\n"
                            "  drivers:\n    - {name: ball, joint: ball, angle: t}\n")) ==
        "s.yaml:8: model.drivers[0].name: 'ball' is already the name of model.joints[0]: joints, drivers and "
        "contacts need distinct names (they head the history's columns)");
  // A sphere on a plane must not start below it: the nonsmooth routes take it as rigid.
  const std::string ball = "  contacts:\n    - {type: sphere_plane, body_i: b, radius: 0.1, plane_normal: [0, 0, 1]}\n";
  CHECK(errorIn(oneBody(", position: [0, 0, 0.1]", ball)) == "");
  CHECK(errorIn(oneBody(", position: [0, 0, 0.05]", ball)) ==
        "s.yaml:6: model.contacts[0]: the contact starts penetrating: gap -0.05 m < 0 at t = 0; move the sphere or "
        "the plane apart in their bodies' positions");
  CHECK(errorIn(oneBody("", "  forces:\n    - {type: force, body: b}\n")) ==
        "s.yaml:6: model.forces[0]: missing: give fx, fy, fz (any of them; global components [N], functions of t)");
  CHECK(errorIn(oneBody("", "  forces:\n    - {type: torque, body: b, tz: x_b}\n")) ==
        "s.yaml:6: model.forces[0].tz: expression \"x_b\": Unexpected token \"x_b\" found at position 0. (a function "
        "of t and model.parameters only)");
  CHECK(errorIn(oneBody("", "  forces:\n    - {type: torque, body: ground, tz: 1}\n")) ==
        "s.yaml:6: model.forces[0].body: expected a body of model.bodies, got ground (it does not move: a load on "
        "it does nothing)");
  CHECK(errorIn(oneBody("", "  initial:\n    independent: [b.omega_y]\n")) ==
        "s.yaml:6: model.initial.independent[0]: unknown velocity 'b.omega_y' (expected B.vx, B.vy, B.vz (the "
        "centroid's, global) or B.wx, B.wy, B.wz (body axes) for a body B)");
  CHECK_THAT(errorIn(oneBody("", "  initial:\n    independent: [b.wy]\n")), Catch::Equals(""));
  CHECK(errorIn(oneBody("", "  parameters: {pi: 3}\n")) ==
        "s.yaml:5: model.parameters.pi: reserved name (t and pi); choose another");
  // A failed assembly: a body pinned at the origin by its centre cannot keep x = 0.3 when held
  // (reported on the line of initial's map).
  CHECK_THAT(errorIn(oneBody(", position: [0.3, 0, 0]",
                             "  joints:\n    - {type: spherical, body_i: ground, body_j: b}\n"
                             "  initial:\n    independent: [b.vx]\n")),
             Catch::StartsWith("s.yaml:8: model.initial: kinematic assembly cannot close the joints and drivers at "
                               "t = 0 from the bodies' positions (singular") &&
                 Catch::Contains("residual 0.3"));
  // Loads that overflow double precision, blamed on their body (and on a parameter given from outside).
  CHECK(errorIn("model:\n  dimension: 3\n  gravity: [0, 0, -9.81]\n  bodies:\n"
                "    - {name: b, mass: 1e308, inertia: [1, 1, 1]}\n") ==
        "s.yaml:5: model.bodies[0]: the loads on body 'b' at t = 0 overflow (-inf along b.vz): its mass, the gravity "
        "or a force on it is too large for double precision; give the model in other units");
  CHECK_THROWS_WITH(mechanisms::builtinSpatialModel("spatial-slider-crank", {{"rod_mass", 1e308}}),
                    Catch::StartsWith("builtinSpatialModel: rod_mass: the value 1e+308 is rejected by "
                                      "mechanisms/scenarios/spatial-slider-crank.yaml:") &&
                        Catch::Contains("model.bodies[1]: the loads on body 'rod' at t = 0 overflow"));
  // A value given from outside is blamed where it was given.
  CHECK_THROWS_WITH(mechanisms::builtinSpatialModel("spatial-slider-crank", {{"rod_mass", -1}}),
                    Catch::StartsWith("builtinSpatialModel: rod_mass: the value -1 is rejected by "
                                      "mechanisms/scenarios/spatial-slider-crank.yaml:"));
}

TEST_CASE("spatial model file: every element kind loads (the fuzz seed)", "[spatial][model-file]") {
  const auto s = mechanisms::loadSpatialModelFile(std::string(STICKSLIP_MODEL_EXAMPLES) +
                                                  "/../../fuzz/corpus/fuzz_planar_model/spatial_everything.yaml");
  REQUIRE(s.assembly.ok());
  CHECK(s.model.bodyCount() == 5);
  CHECK(s.model.joints().size() == 7);  // the driver is one
  CHECK(s.model.constraintCount() == 28);
  Eigen::VectorXd phi(s.model.constraintCount());
  s.model.constraints(0.0, s.q0, phi);
  CHECK(phi.lpNorm<Eigen::Infinity>() < 1e-12);
  CHECK(s.q0(SpatialModel::positionIndex(3, 1)) == 0.2);  // held
  CHECK(s.v0(SpatialModel::velocityIndex(0, 5)) == Approx(2.0));  // driven
}

TEST_CASE("spatial model file: joint friction, and the frictional slider-crank of Table 4.1 run by event-driven",
          "[spatial][model-file]") {
  CHECK(mechanisms::builtinSpatialModel("spatial-slider-crank").friction.empty());  // μ = 0: ideal
  const mechanisms::SpatialScenario s = mechanisms::builtinSpatialModel("spatial-slider-crank-friction");
  REQUIRE(s.friction.size() == 1);
  const dynamics::SpatialJointFriction& f = s.friction.front();
  CHECK(f.name == "guide");
  CHECK(s.model.joints()[std::size_t(f.joint)].type == dynamics::SpatialJointType::kTranslational);
  CHECK(f.mu_static == 0.2);
  CHECK(f.mu_kinetic == 0.1);
  CHECK(f.slider_length == 0.01);
  const auto names = mechanisms::builtinSpatialModelNames();
  CHECK(std::find(names.begin(), names.end(), "spatial-slider-crank-friction") != names.end());
  // Event-driven over 2 s: the slider reverses at the crank's dead centres, and friction work
  // balances the energy lost (trapezoid on the samples and events).
  const dynamics::SpatialMechanism mechanism(s.model, s.q0, s.friction);
  dynamics::EventDrivenOptions o;
  o.t_end = 2.0;
  o.output_dt = 1e-4;
  const dynamics::RunResult r = dynamics::simulateEventDriven(mechanism, s.q0, s.v0, o);
  REQUIRE(r.ok());
  CHECK(r.events.size() >= 10);
  const Eigen::Index force = r.column("guide.F"), vz = r.column("slider.vz");
  REQUIRE(force >= 0);
  REQUIRE(vz >= 0);
  double work = 0.0;
  for (Eigen::Index i = 1; i < r.history.rows(); ++i)
    work -= 0.5 * (r.history(i, force) * r.history(i, vz) + r.history(i - 1, force) * r.history(i - 1, vz)) *
            (r.history(i, 0) - r.history(i - 1, 0));
  const auto energy = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    return s.model.kineticEnergy(v) + s.model.potentialEnergy(q);
  };
  CHECK(work > 0.5);
  CHECK(std::abs(energy(r.final_q, r.final_v) + work - energy(s.q0, s.v0)) < 2e-5 * work);
}

TEST_CASE("spatial model file: joint friction errors name file, line and key", "[spatial][model-file][errors]") {
  const std::string two = "model:\n  dimension: 3\n  bodies:\n    - {name: a, mass: 1, inertia: [1, 1, 1]}\n"
                          "    - {name: b, mass: 1, inertia: [1, 1, 1]}\n  joints:\n";
  CHECK(errorIn(two + "    - {type: translational, body_i: a, axis_i: [0, 0, 1], body_j: b, friction: {mu: 0.1}}\n") ==
        "s.yaml:7: model.joints[0].friction: friction in a translational joint needs the ground as its guide "
        "(body_i or body_j: ground)");
  CHECK_THAT(errorIn(two + "    - {type: revolute, body_i: ground, axis_i: [0, 0, 1], body_j: b, axis_j: [0, 0, 1], "
                           "friction: {mu: 0.1}}\n"),
             Catch::StartsWith("s.yaml:7: model.joints[0].friction.radius: missing"));
  CHECK_THAT(errorIn(two + "    - {type: spherical, body_i: ground, body_j: b, friction: {mu: 0.1}}\n"),
             Catch::StartsWith("s.yaml:7: model.joints[0].friction: unknown key"));
  CHECK_THAT(errorIn(two + "    - {type: translational, body_i: ground, axis_i: [0, 0, 1], body_j: b, "
                           "friction: {mu_static: 0.1, mu_kinetic: 0.2}}\n"),
             Catch::Contains("model.joints[0].friction.mu_kinetic: expected mu_kinetic <= mu_static"));
}
