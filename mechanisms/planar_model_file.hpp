#pragma once
/// \file A planar mechanism described in a YAML file (`model:` section), built into a
/// dynamics::RigidScenario that every route runs.
/// Examples: mechanisms/scenarios/{incline,belt,slider_crank}.yaml.
///
///     model:
///       dimension: 2                       # optional; 3 is a spatial mechanism, which this
///                                          # refuses (spatial_model_file.hpp reads it)
///       name: roller-crank                 # the scenario's name (default "model")
///       parameters: {r: 0.05, w: 10}       # constants; a value may use those above it;
///                                          # true and false are 1 and 0
///       gravity: [0, -9.81]                # [m/s²] (default none)
///       baumgarte: {alpha: 5, beta: 5}     # [1/s] of the joints at acceleration level
///                                          # (event-driven, penalty; default 10, 10)
///       bodies:                            # name, mass > 0, inertia > 0 (about the centroid),
///         - {name: crank, mass: 0.3, inertia: 1e-4, position: [0.025, 0, 0]}
///                                          # position [x, y, theta], velocity [vx, vy, omega];
///                                          # shape (drawing only, body frame): {type: box,
///                                          # size: [w, h]}, {type: disk, radius} or {type:
///                                          # polygon, points: [[x, y], ...]}
///       joints:                            # body_i/body_j: a body or ground; point_i/point_j
///         - {type: revolute, body_i: ground, body_j: crank, point_j: [-0.025, 0],
///            friction: {radius: 0.005, mu_static: 0.2, mu_kinetic: 0.15}}   # optional; μ = 0: none
///         # translational and point_on_line: axis_i (default [1, 0]); translational and
///         # fixed: theta0; clearance: a journal-bearing contact (keys as in contacts)
///       drivers:                           # theta_j - theta_i = angle(t); body_i default ground
///         - {body_j: crank, angle: w*t, rate: w, acceleration: 0}
///         # rate, acceleration omitted: five-point central differences of angle (rate)
///         - {body_j: slider, angle: 0}     # an angle without t holds the rotation: a
///                                          # scleronomic constraint (PlanarModel::addAngle)
///       forces:
///         - {type: force, body: crank, point: [0, 0], fx: -2*vx_crank, fy: 0}
///         - {type: force, body: crank, magnitude: 8*sin(2*t), direction: 0.2}  # angle [rad]
///         - {type: torque, body: crank, torque: -0.1*omega_crank}
///         - {type: spring_damper, body_i, point_i, body_j, point_j, stiffness, damping, rest_length}
///         - {type: rotational_spring_damper, body_i, body_j, stiffness, damping, theta0}
///         - {type: viscous_damping, body, translational, rotational}
///       contacts:
///         - {type: point_line, body_i: crank, point_i: [0, 0], radius: 0, body_j: ground,
///            line_point: [0, 0], line_normal: [0, 1], surface_speed: 0.1*t,
///            surface_acceleration: 0.1}    # surface_* of t; acceleration omitted: differentiated
///         - {type: journal_bearing, body_i: journal, journal_centre: [0, 0], body_j: ground,
///            bearing_centre: [0, 0], journal_radius: 0.0099, bearing_radius: 0.01}
///         # both: normal unilateral (default) | bilateral | compliant, restitution in [0, 1],
///         # mu (both coefficients) or mu_static >= mu_kinetic >= 0; unilateral: compliant_law
///         # optional, the law the penalty route gives it (dynamics/routes/penalty/penalty_route.hpp); compliant: compliant_law
///         # {type: hertz | hunt_crossley | lankarani_nikravesh | flores, stiffness, exponent,
///         # restitution, min_impact_velocity}, impact_velocity, and rigid_restitution: the
///         # Newton's e with which Moreau–Jean (rigid contacts only) takes it as unilateral
///         # compliant: smooth_friction {law: ambrosio, mu_k: 0.1, modified_v0: 1e-4, ...}, a
///         # regularized static law of the catalogue with its FrictionParameters by name in
///         # place of set-valued Coulomb (mu_k required; 0: none; mu_s defaults to mu_k)
///         # point_line, bilateral, radius 0: pin_friction {radius, mu_static, mu_kinetic}, the
///         # point a pin turning in the line as a slot (Blajer's pin-in-slot joint), its torque
///         # μ r |R| with R the slot's normal and friction force; named by its `name`, else
///         # "<contact>.pin"
///       initial:
///         independent: [y_roller]          # coordinates held at the bodies' values
///         preloaded: [clearance]           # journal_bearing contacts that start carrying the
///                                          # static load (dynamics/mechanism/clearance_preload.hpp)
///
/// Every number may be an expression of the parameters and pi. Expressions (muParser) of
/// forces and torques may use t, the parameters, pi and the state by body name: x_B, y_B,
/// theta_B, vx_B, vy_B, omega_B; drivers and surface speeds are functions of t only. Quote
/// an expression that contains a comma, a colon or starts with a YAML indicator.
/// Initial state: positions and velocities from the bodies (default 0); the coordinates in
/// initial.independent (and their velocities) are held, the others are corrected by kinematic
/// assembly at t = 0 (dynamics/model/model_assembly.hpp) so that every joint, driver and bilateral
/// contact is closed; then each preloaded journal is placed against its bearing as the
/// mechanism's static load pushes it, rolling.
///
/// The expressions keep their variables inside the scenario: run one loaded scenario from one
/// thread at a time (load it once per thread for parallel runs).
///
/// Errors are mechanisms::InputError: "FILE:LINE: model.KEY.PATH: what was expected", with
/// the nearest valid name for a misspelt key, type or body and muParser's message for an
/// expression.

#include <string>
#include <string_view>
#include <vector>

#include "dynamics/contact/rigid_contact.hpp"
#include "mechanisms/parameter_value.hpp"

namespace YAML {
class Node;
}

namespace stickslip::mechanisms {

/// The `model:` node of a parsed YAML document. `file` labels the errors. Throws InputError.
dynamics::RigidScenario loadPlanarModel(const YAML::Node& model, std::string_view file);

/// YAML text whose top-level key `model` describes the mechanism (other top-level keys are
/// the scenario file's and are not looked at), with `values` in place of those parameters.
/// `file` labels the errors. Throws InputError, also for a YAML syntax error and for a value
/// of a parameter the model does not have.
dynamics::RigidScenario loadPlanarModelText(std::string_view text, std::string_view file,
                                            const std::vector<ParameterValue>& values = {});

/// As loadPlanarModelText for the contents of the file at `path`.
dynamics::RigidScenario loadPlanarModelFile(const std::string& path);

}  // namespace stickslip::mechanisms
