#pragma once
/// \file A spatial mechanism described in a YAML file (`model:` section with `dimension: 3`),
/// built into a dynamics::SpatialModel (dynamics/model/spatial_model.hpp) with its assembled initial
/// state and its joints' friction, which dynamics::SpatialMechanism gives the routes. Example:
/// mechanisms/scenarios/spatial-slider-crank.yaml.
///
///     model:
///       dimension: 3                       # required: without it (or with 2) a model is planar
///       name: spatial-slider-crank         # the scenario's name (default "model")
///       parameters: {L: 0.29, w: 6.2832}   # constants; a value may use those above it;
///                                          # true and false are 1 and 0
///       gravity: [0, 0, -9.81]             # [m/s²] (default none)
///       bodies:                            # name, mass > 0, inertia about the centroid in body
///       axes
///         - name: crank
///           mass: 0.12
///           inertia: [1e-4, 1e-4, 1e-5]    # principal moments [Ixx, Iyy, Izz], or the tensor as
///           six
///                                          # values [Ixx, Iyy, Izz, Ixy, Iyz, Ixz] or a 3 x 3
///                                          list; # symmetric positive definite, J1 + J2 >= J3
///           position: [0, 0, 0.05]         # the centroid r [m] (default 0)
///           orientation: [1, 0, 0, 0]      # Euler parameters (e0, e1, e2, e3), unit to 1e-6, or
///                                          # {axis: [0, 1, 0], angle: 0.3}: a rotation [rad] about
///                                          a # nonzero axis (global); default: body axes = global
///           velocity: [-0.3142, 0, 0]      # ṙ [m/s], global (default 0)
///           angular_velocity: [0, -6.2832, 0]   # ω [rad/s] in GLOBAL axes; the model's v holds
///                                               # ω′ = Aᵀ ω (body axes)
///           shape: {type: box, size: [0.2, 0.1, 0.05]}   # drawing only (animate), body axes,
///                                          # about the centroid (centre: [x, y, z] moves it):
///                                          # box {size: edge lengths}, sphere {radius},
///                                          # cylinder or capsule {radius, length, axis (default
///                                          # [0, 0, 1])}; a capsule's length is its cylinder's
///       joints:                            # body_i/body_j: a body or ground; point_i/point_j: the
///                                          # joint's point in each body's axes (default [0, 0,
///                                          0]); # name (default the type)
///         - {type: revolute, name: crank-pin, body_i: ground, axis_i: [0, 1, 0], body_j: crank,
///            point_j: [0, 0, -0.05], axis_j: [0, 1, 0]}      # axes parallel (5 rows)
///         - {type: spherical, body_i: crank, point_i: [0, 0, 0.05], body_j: rod, point_j: [0,
///         -0.145, 0]} # revolute: friction {radius, mu_static, mu_kinetic (or mu)}, Coulomb
///         friction torque # μ r |R| in the pin; translational: friction {slider_length, mu_static,
///         mu_kinetic (or # mu)}, μ times the load of a slider of that length, its couples' wall
///         forces included # (dynamics/mechanism/spatial_mechanism.hpp; 0: a point slider), the ground its
///         guide # universal: axis_i, axis_j its two cross axes (kept perpendicular; 4 rows); #
///         cylindrical: axis_i, axis_j along the joint (4 rows); translational: axis_i, the #
///         sliding axis on i, the relative orientation of the bodies' given poses held (5 rows); #
///         fixed: the given relative pose held (6 rows). Axes: nonzero, normalized.
///         # revolute with clearance: {journal_radius, bearing_radius, journal_length,
///         # bearing_length, compliant_law: {type, stiffness, exponent, restitution}, mu_static,
///         # mu_kinetic (or mu; default 0), alignment_tolerance, start}: no joint rows; the journal
///         # (point_i, axis_i: its centre and axis on body_i) moves in the bearing (point_j,
///         # axis_j on body_j) against four compliant contacts (dynamics/mechanism/spatial_mechanism.hpp);
///         # start: ideal (default; the initial assembly closes the joint as an ideal one: the
///         # journal centred, aligned, moving with the bearing) or as-placed (pose and velocity
///         # as given)
///       drivers:                           # a revolute joint driven: body_j's rotation about its
///         - {joint: crank-pin, angle: w*t, rate: w, acceleration: 0}   # axis relative to body_i,
///                                          # measured from the bodies' given poses (angle 0
///                                          there); # rate, acceleration omitted: five-point
///                                          differences
///       forces:                            # components global; expressions of t and parameters
///         - {type: force, body: slider, point: [0, 0, 0], fx: 0, fy: 0, fz: -2*sin(t)}   # [N]
///         - {type: torque, body: crank, tx: 0, ty: -0.1, tz: 0}                          # [N m]
///         - {type: spring_damper, body_i, point_i, body_j, point_j, stiffness, damping,
///         rest_length}
///       contacts:                          # a sphere (radius >= 0, default 0: a point) of body_i on
///         - {type: sphere_plane, name: foot, body_i: block, centre: [0, 0, -0.1], radius: 0,
///            body_j: ground, plane_point: [0, 0, 0], plane_normal: [0, 0, 1],
///            restitution: 0.5, mu_static: 0.3, mu_kinetic: 0.2, compliant_law: {...}}
///                                          # a plane of body_j (default ground): centre on i,
///                                          # plane_point and plane_normal (towards the free side)
///                                          # on j, in their bodies' axes; Newton's e (default 0);
///                                          # Coulomb mu or mu_static, mu_kinetic (default 0);
///                                          # compliant_law for the penalty route (default: its own)
///       initial:
///         independent: [crank.wy]          # velocities held (with their rotation or translation)
///
/// Velocity names are the model's: B.vx, B.vy, B.vz (the centroid's velocity, global) and B.wx,
/// B.wy, B.wz (the angular velocity in body axes). Initial state: the bodies' poses and
/// velocities as given; the velocities in initial.independent (and the coordinates they move)
/// are held, the rest corrected by kinematic assembly at t = 0 (dynamics/model/model_assembly.hpp)
/// so that every joint and driver is closed; none held when the list is omitted (as in the
/// planar files). A failed assembly is an error on model.initial with its residual.
///
/// Every number may be an expression of the parameters and pi; forces, torques and drivers of
/// t too (the state is not among their variables). The expressions keep their variables inside
/// the scenario: use one loaded scenario from one thread at a time.
///
/// Errors are mechanisms::InputError: "FILE:LINE: model.KEY.PATH: what was expected", with
/// the nearest valid name for a misspelt key, type, body or joint and muParser's message for
/// an expression.

#include <Eigen/Dense>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dynamics/model/model_assembly.hpp"
#include "dynamics/mechanism/spatial_mechanism.hpp"
#include "dynamics/model/spatial_model.hpp"
#include "mechanisms/parameter_value.hpp"

namespace YAML {
class Node;
}

namespace stickslip::mechanisms {

/// How a body is drawn (`shape:`, drawing only): in its axes, about `centre`.
struct SpatialBodyShape {
  enum class Type { kNone, kBox, kSphere, kCylinder, kCapsule };
  Type type = Type::kNone;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  ///< [m]
  Eigen::Vector3d size = Eigen::Vector3d::Zero();    ///< box: its edge lengths [m]
  double radius = 0.0;                               ///< sphere, cylinder, capsule [m]
  double length = 0.0;                               ///< cylinder, capsule (without its caps) [m]
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();   ///< cylinder, capsule: unit
};

/// A spatial mechanism and its assembled initial state.
struct SpatialScenario {
  std::string name;
  dynamics::SpatialModel model;
  Eigen::VectorXd q0, v0;  ///< sizes model.positionSize(), model.velocitySize()
  std::vector<std::pair<std::string, double>> parameters;  ///< model.parameters with their values
  std::vector<dynamics::SpatialJointFriction> friction;    ///< the joints' Coulomb friction
  std::vector<dynamics::SpatialClearance> clearances;      ///< revolute joints with clearance
  std::vector<dynamics::SpatialPlaneContact> planes;       ///< spheres and points on planes
  dynamics::AssemblyResult
      assembly;  ///< how q0, v0 were assembled (success; 0 iterations without joints)
  std::vector<SpatialBodyShape> shapes;  ///< per body: how animate draws it (kNone: from its points)
};

/// The `model:` node of a parsed YAML document. `file` labels the errors. Throws InputError.
SpatialScenario loadSpatialModel(const YAML::Node& model, std::string_view file);

/// YAML text whose top-level key `model` describes the mechanism, with `values` in place of
/// those parameters (as loadPlanarModelText). Throws InputError.
SpatialScenario loadSpatialModelText(std::string_view text, std::string_view file,
                                     const std::vector<ParameterValue>& values = {});

/// As loadSpatialModelText for the contents of the file at `path`.
SpatialScenario loadSpatialModelFile(const std::string& path);

/// `s` with each clearance joint made an ideal revolute joint (the journal's centre and axis on
/// the bearing's), for comparison with the ideal mechanism (--ideal). Throws
/// std::invalid_argument("<who>: …") when `s` has no clearance joint, or when its initial state
/// does not close the ideal joint (a journal started off centre or tilted), with the residual.
SpatialScenario withIdealClearanceJoints(const SpatialScenario& s, std::string_view who);

/// The dimension the model file `text` declares (model.dimension): 3 for a spatial model, else
/// 2 (planar, also when the text does not parse or says something else: its loader reports it).
int modelFileDimension(std::string_view text);

}  // namespace stickslip::mechanisms
