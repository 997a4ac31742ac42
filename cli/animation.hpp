#pragma once
/// \file What `stickslip animate` draws: the scene of a planar mechanism, taken from its model
/// (no drawing data of its own), and per run the frames of its motion with every contact's
/// point, force and mode.
///
/// Bodies are drawn from the points the model attaches to them, in the body's frame:
///  - a body with two or more distinct points (joint points, contact points, journal and
///    bearing centres) is a bar through them (their convex hull: a link, a triangle plate);
///    when its centroid lies outside that hull, the points' mirror images through the
///    centroid join them (a block held by its two bottom corners is drawn as its rectangle);
///  - every body's centroid is marked, where its mass is;
///  - a shape the model gives (RigidScenario::shapes: box, disk, polygon) replaces all this;
///  - a body with fewer is a block, a square of side `block_size` about its centroid, unless
///    it carries a disk (a disk–line contact of radius ρ > 0) centred at its centroid;
///  - disks, journals and bearings are circles; a line of a contact on a moving body a segment.
/// The ground's contact lines and translational guides are lines across the scene's box.
///
/// A contact's mode at a frame follows the run's events (run_result.hpp): the initial modes,
/// then each stick, slip and open event from its time on (at a time sampled twice, the event's
/// left and right values, it applies to the second row). A close event takes stick or slip
/// from the sliding velocity; an impact marks the frame at or after it. A history read from a
/// CSV has no events: modes come from the samples (N > 0 closed; |v_t| ≤ zero velocity stick).

#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

#include "dynamics/contact/rigid_contact.hpp"
#include "dynamics/routes/run_result.hpp"

namespace stickslip::cli {

struct AnimationBody {
  std::string name;
  /// Outline in the body's frame: a closed polygon (hull.size() ≥ 3), a bar (2 points), or
  /// none (a block, or a disk).
  std::vector<Eigen::Vector2d> hull;
  struct Circle { Eigen::Vector2d centre; double radius; std::string kind; };  ///< disk, journal, bearing
  std::vector<Circle> circles;
  std::vector<Eigen::Vector2d> joints;  ///< joint points, marked
  std::vector<std::pair<Eigen::Vector2d, Eigen::Vector2d>> segments;  ///< contact lines it carries
  bool block = false;  ///< drawn as a square of the scene's block_size (no hull, no disk at its centroid)
};

struct AnimationScene {
  std::vector<AnimationBody> bodies;  ///< the model's, in its order
  std::vector<std::pair<Eigen::Vector2d, Eigen::Vector2d>> ground_lines;  ///< world end points, on the box
  std::vector<Eigen::Vector2d> ground_joints;  ///< joints to the ground, world points
  std::vector<std::string> contacts;           ///< names, in the mechanism's order
  std::vector<double> mu_static;               ///< per contact; arrows are scaled to μs·N
  /// Per contact, its tangent t = s (n_y, −n_x) from its normal n: +1 disk–line, −1 journal
  /// in bearing (rigid_contact.hpp); F acts along t on the first body.
  std::vector<int> tangent_sign;
  Eigen::Vector2d lower, upper;                ///< world box the motion stays in, padded
  double block_size = 0.0;                     ///< [m]
};

/// One run's frames. Per frame f: t[f]; the bodies' poses pose(f, 3b + {0,1,2}) = (x, y, θ);
/// per contact k the world contact point and normal contact(f, 6k + {0,1,2,3}), N and F
/// contact(f, 6k + {4,5}), mode(f, k) (dynamics::ContactMode as int) and impact(f, k).
/// A spatial run's (animation_spatial.hpp) has 7 pose columns per body and 11 per contact.
struct AnimationTrack {
  std::string label;
  std::vector<double> t;
  Eigen::MatrixXd pose, contact;
  Eigen::MatrixXi mode, impact;
  std::vector<dynamics::ContactEvent> events;  ///< contact events only, as the run gave them
};

/// World position of point `local` of body `body` (kGround: `local` itself) at frame f.
Eigen::Vector2d worldPoint(const AnimationTrack& track, Eigen::Index f, int body, const Eigen::Vector2d& local);

/// The scene of `scenario`'s mechanism moving through `tracks`' poses (filled by
/// animationTrack; they set the box).
AnimationScene animationScene(const dynamics::RigidScenario& scenario, const std::vector<AnimationTrack>& tracks);

/// The frames of a history with `columns` (t, then every position "B.x", "B.y", "B.theta";
/// "C.N", "C.F", "C.v_t" per contact where present). `result` gives the events and initial
/// modes (nullptr: a CSV's samples decide, with `zero_velocity` [m/s]). At most `max_frames`
/// frames, evenly strided, plus the rows just before, at and after every event. Throws
/// std::invalid_argument naming a missing position column.
AnimationTrack animationTrack(const dynamics::RigidScenario& scenario, const std::string& label,
                              const std::vector<std::string>& columns, const Eigen::MatrixXd& history,
                              const dynamics::RunResult* result, std::size_t max_frames, double zero_velocity);

/// What animationTrack does for any mechanism `model` (named `name` in errors) whose contacts
/// are named `contacts`: fills `track`'s t, mode, impact and events, its pose with the positions
/// of each row drawn (their columns are required: std::invalid_argument("<label>: …") names a
/// missing one), and each contact's last two of its `contact_stride` contact columns with "C.N" and
/// "C.F" (NaN where absent); then calls draw(row, frame, q), q the row's positions, to fill the
/// rest of the contact columns.
void trackFrames(AnimationTrack& track, const dynamics::MultibodySystem& model, const std::string& name,
                 const std::vector<std::string>& contacts, const std::vector<std::string>& columns,
                 const Eigen::MatrixXd& history, const dynamics::RunResult* result, std::size_t max_frames,
                 double zero_velocity, Eigen::Index contact_stride,
                 const std::function<void(Eigen::Index row, Eigen::Index frame, const Eigen::VectorXd& q)>& draw);

}  // namespace stickslip::cli
