#pragma once
/// \file A planar mechanism described in a YAML file (`model:` section), built into a
/// dynamics::RigidScenario that the event-driven and Moreau–Jean formulations run.
///
///     model:
///       name: slider-crank
///       parameters: {L: 0.3, w: 10}      # named constants for every number and expression
///       gravity: [0, -9.81]
///       bodies:                          # position/velocity: [x, y, theta], [vx, vy, omega]
///         - {name: crank, mass: 1, inertia: 0.01, position: [0.05, 0, 0]}
///       joints:                          # revolute | translational | point_on_line | fixed
///         - {type: revolute, body_i: ground, point_i: [0, 0], body_j: crank, point_j: [-0.05, 0],
///            friction: {radius: 0.01, mu_static: 0.2, mu_kinetic: 0.15}}
///         - {type: clearance, ...}       # a journal-bearing contact (as in contacts:)
///       drivers:                         # theta_j - theta_i = angle(t)
///         - {body_i: ground, body_j: crank, angle: "w*t"}   # rate, acceleration optional
///       forces:                          # force | torque | spring_damper |
///         - {type: force, body: crank, fx: "-2*x_crank"}  #   rotational_spring_damper | viscous_damping
///       contacts:                        # point_line | journal_bearing
///         - {type: point_line, body_i: slider, body_j: ground, line_normal: [0, 1], mu_static: 0.3}
///       initial:
///         independent: [theta_crank]     # held; the rest closed by kinematic assembly
///
/// Expressions (muParser) may use t, the parameters, pi, and the state by body name:
/// x_B, y_B, theta_B, vx_B, vy_B, omega_B. Errors are mechanisms::InputError naming
/// "FILE:LINE: model.KEY.PATH: what was expected (and the fix)".

#include <string>
#include <string_view>

#include "dynamics/nonsmooth/rigid_contact.hpp"

namespace YAML {
class Node;
}

namespace stickslip::mechanisms {

/// The `model:` node of a parsed YAML document. `file` labels the errors. Throws InputError.
dynamics::RigidScenario loadPlanarModel(const YAML::Node& model, std::string_view file);

/// YAML text whose top-level key `model` describes the mechanism (other top-level keys are
/// the scenario file's and are not looked at). `file` labels the errors. Throws InputError,
/// also for a YAML syntax error.
dynamics::RigidScenario loadPlanarModelText(std::string_view text, std::string_view file);

/// As loadPlanarModelText for the contents of the file at `path`.
dynamics::RigidScenario loadPlanarModelFile(const std::string& path);

}  // namespace stickslip::mechanisms
