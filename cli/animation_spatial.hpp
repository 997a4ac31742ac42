#pragma once
/// \file What `stickslip animate` draws of a spatial mechanism: its scene, taken from the model
/// (no drawing data of its own), and per run the frames of its motion with every contact's
/// point, sliding direction, forces and mode (the planar counterpart: animation.hpp).
///
/// Each body is a set of solids in its own axes:
///  - the shape its model gives (SpatialBodyShape: box, sphere, cylinder, capsule), or else
///    bars from its centroid to each of its attachment points (joint points, contact spheres'
///    centres, journal and bearing centres): a link is a bar through its joints with its mass
///    on it; a body with no attachment point away from its centroid is a cube of `block_size`;
///  - its centroid, a dot, where its mass is;
///  - its joints: a revolute or cylindrical joint an axle along its axis, others a pin;
///  - a clearance joint's journal (a solid cylinder) and bearing (an open, translucent one);
///    a contact sphere of radius ρ > 0; a contact plane on a moving body, a square patch.
/// The ground's planes are square patches across the scene; its translational guides lines.
///
/// A contact's frame columns: its world point (the sphere's or journal's deepest point), its
/// normal n and tangent t (the sliding direction while it slides: ContactKinematics::frame),
/// then N and F as the run's history gives them (F along t, ≤ 0 against the sliding; a stuck
/// contact's F is −‖F_T‖, whose direction the history does not hold).

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "cli/animation.hpp"
#include "mechanisms/spatial_model_file.hpp"

namespace stickslip::cli {

/// One solid, in its body's axes (the ground's: world).
struct SpatialPart {
  /// box: centre a, edge lengths size; sphere, pin, centroid: centre a, radius;
  /// cylinder, capsule, bar, axle, journal, bearing: from a to b, radius;
  /// plane: point a, unit normal b, half-width radius; guide: the line from a to b.
  enum class Kind { kBox, kSphere, kCylinder, kCapsule, kBar, kAxle, kPin, kCentroid, kJournal, kBearing, kPlane, kGuide };
  Kind kind = Kind::kPin;
  Eigen::Vector3d a = Eigen::Vector3d::Zero(), b = Eigen::Vector3d::Zero(), size = Eigen::Vector3d::Zero();
  double radius = 0.0;
};

struct SpatialAnimationScene {
  std::vector<std::string> bodies;               ///< names, in the model's order
  std::vector<std::vector<SpatialPart>> parts;   ///< per body
  std::vector<SpatialPart> ground;               ///< world
  std::vector<std::string> contacts;             ///< the mechanism's, in its order
  std::vector<double> mu_static;                 ///< per contact; arrows are scaled to μs·N
  Eigen::Vector3d lower, upper;                  ///< world box the motion stays in, padded
  double block_size = 0.0;                       ///< [m]
  double pin = 0.0;                              ///< a joint mark's radius [m]
};

/// The frames of a spatial history with `columns` (t, then every position "B.x" … "B.e3";
/// velocities "B.vx" … "B.wz" where present, for the sliding directions; "C.N", "C.F",
/// "C.v_t" per contact where present), as animationTrack: pose(f, 7b + {0..6}) = (r, e0..e3);
/// contact(f, 11k + {0,1,2}) its point, {3,4,5} n, {6,7,8} t (NaN without velocities), 9 N,
/// 10 F. Throws std::invalid_argument naming a missing position column.
AnimationTrack spatialAnimationTrack(const mechanisms::SpatialScenario& scenario, const std::string& label,
                                     const std::vector<std::string>& columns, const Eigen::MatrixXd& history, const dynamics::RunResult* result,
                                     std::size_t max_frames, double zero_velocity);

/// The scene of `scenario`'s mechanism moving through `tracks`' poses (they set the box).
SpatialAnimationScene spatialAnimationScene(const mechanisms::SpatialScenario& scenario,
                                            const std::vector<AnimationTrack>& tracks);

}  // namespace stickslip::cli
