#include "cli/animation_spatial.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "dynamics/mechanism/spatial_mechanism.hpp"

namespace stickslip::cli {
namespace {

using dynamics::BodyIndex;
using dynamics::kGround;
using dynamics::SpatialJointType;
using Eigen::Vector3d;
using Kind = SpatialPart::Kind;
using Shape = mechanisms::SpatialBodyShape;

/// The pose of body b at frame f of a spatial track (the ground: identity).
dynamics::SpatialPose framePose(const AnimationTrack& track, Eigen::Index f, BodyIndex b) {
  dynamics::SpatialPose p;
  if (b == kGround) return p;
  const Eigen::Index c = 7 * Eigen::Index(b);
  p.r = track.pose.block<1, 3>(f, c).transpose();
  p.A = dynamics::rotationMatrix(track.pose.block<1, 4>(f, c + 3).transpose().normalized());
  return p;
}

SpatialPart part(Kind kind, const Vector3d& a, const Vector3d& b, double radius) {
  SpatialPart p;
  p.kind = kind;
  p.a = a;
  p.b = b;
  p.radius = radius;
  return p;
}

/// The solids of a shape the model gives.
std::vector<SpatialPart> shapeParts(const Shape& s) {
  const Vector3d half = 0.5 * s.length * s.axis;
  switch (s.type) {
    case Shape::Type::kBox: {
      SpatialPart p = part(Kind::kBox, s.centre, s.centre, 0.0);
      p.size = s.size;
      return {p};
    }
    case Shape::Type::kSphere: return {part(Kind::kSphere, s.centre, s.centre, s.radius)};
    case Shape::Type::kCylinder: return {part(Kind::kCylinder, s.centre - half, s.centre + half, s.radius)};
    case Shape::Type::kCapsule: return {part(Kind::kCapsule, s.centre - half, s.centre + half, s.radius)};
    case Shape::Type::kNone: break;
  }
  return {};
}

/// How far from the centroid a shape reaches [m].
double reachOf(const Shape& s) {
  switch (s.type) {
    case Shape::Type::kBox: return s.centre.norm() + 0.5 * s.size.norm();
    case Shape::Type::kSphere: return s.centre.norm() + s.radius;
    case Shape::Type::kCylinder:
    case Shape::Type::kCapsule: return s.centre.norm() + 0.5 * s.length + s.radius;
    case Shape::Type::kNone: break;
  }
  return 0.0;
}

/// A body's own solids: its shape, or bars from its centroid to each attachment point (a cube
/// when none is away from it); then its centroid.
void bodyParts(const Shape* shape, const std::vector<Vector3d>& points, double pin, double block_size,
               std::vector<SpatialPart>& parts) {
  if (shape && shape->type != Shape::Type::kNone) {
    for (const SpatialPart& p : shapeParts(*shape)) parts.push_back(p);
  } else {
    bool bar = false;
    for (const Vector3d& s : points)
      if (s.norm() > 1e-3 * pin) {
        parts.push_back(part(Kind::kBar, Vector3d::Zero(), s, 0.5 * pin));
        bar = true;
      }
    if (!bar) {
      SpatialPart cube = part(Kind::kBox, Vector3d::Zero(), Vector3d::Zero(), 0.0);
      cube.size.setConstant(block_size);
      parts.push_back(cube);
    }
  }
  parts.push_back(part(Kind::kCentroid, Vector3d::Zero(), Vector3d::Zero(), 0.8 * pin));
}

}  // namespace

AnimationTrack spatialAnimationTrack(const mechanisms::SpatialScenario& scenario, const std::string& label,
                                     const std::vector<std::string>& columns, const Eigen::MatrixXd& history, const dynamics::RunResult* result,
                                     std::size_t max_frames, double zero_velocity) {
  const dynamics::SpatialModel& model = scenario.model;
  std::vector<Eigen::Index> v_col;
  for (Eigen::Index i = 0; i < model.velocitySize(); ++i) {
    const auto it = std::find(columns.begin(), columns.end(), model.velocityName(i));
    v_col.push_back(it == columns.end() ? -1 : Eigen::Index(it - columns.begin()));
  }
  const bool velocities = std::none_of(v_col.begin(), v_col.end(), [](Eigen::Index c) { return c < 0; });

  const dynamics::SpatialMechanism mechanism(model, scenario.q0, scenario.friction, scenario.clearances,
                                             scenario.planes);
  const std::vector<dynamics::RigidContact>& contacts = mechanism.contacts();
  std::vector<std::string> names;
  for (const auto& c : contacts) names.push_back(c.name);
  const std::size_t nc = contacts.size(), clearance_contacts = 4 * scenario.clearances.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();

  AnimationTrack track;
  track.label = label;
  dynamics::ContactKinematics kin;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(model.velocitySize());
  dynamics::SpatialClearanceGeometry clearance;
  trackFrames(track, model, scenario.name, names, columns, history, result, max_frames, zero_velocity, 11,
              [&](Eigen::Index r, Eigen::Index f, const Eigen::VectorXd& q) {
                if (velocities)
                  for (std::size_t i = 0; i < v_col.size(); ++i) v(Eigen::Index(i)) = history(r, v_col[i]);
                if (nc > 0) mechanism.evaluateContacts(history(r, 0), q, v, kin, false);
                for (std::size_t k = 0; k < nc; ++k) {
                  // The deepest point of the journal or sphere (the mechanism's order: four
                  // candidates per clearance joint, then the plane contacts).
                  Vector3d point;
                  if (k < clearance_contacts) {
                    const dynamics::SpatialClearance& c = scenario.clearances[k / 4];
                    if (k % 4 == 0)  // one geometry for the joint's four candidates
                      clearance = dynamics::spatialClearanceGeometry(c.joint, framePose(track, f, c.journal_body),
                                                                     framePose(track, f, c.bearing_body));
                    point = clearance.contacts[k % 4].journal_point;
                  } else {
                    const dynamics::SpatialPlaneContact& c = scenario.planes[k - clearance_contacts];
                    point = dynamics::spherePlaneContact(c.geometry, framePose(track, f, c.body_i),
                                                         framePose(track, f, c.body_j))
                                .journal_point;
                  }
                  const Eigen::Index c = Eigen::Index(11 * k);
                  track.contact.block<1, 3>(f, c) = point.transpose();
                  track.contact.block<1, 3>(f, c + 3) = kin.frame[k].col(0).transpose();
                  track.contact.block<1, 3>(f, c + 6) =
                      velocities ? Eigen::RowVector3d(kin.frame[k].col(1).transpose()) : Eigen::RowVector3d::Constant(nan);
                }
              });
  return track;
}

SpatialAnimationScene spatialAnimationScene(const mechanisms::SpatialScenario& scenario,
                                            const std::vector<AnimationTrack>& tracks) {
  const dynamics::SpatialModel& model = scenario.model;
  const int nb = model.bodyCount();
  SpatialAnimationScene scene;
  scene.parts.resize(std::size_t(nb));
  std::vector<std::vector<Vector3d>> points(static_cast<std::size_t>(nb));  // attachment points, body axes
  for (int b = 0; b < nb; ++b) scene.bodies.push_back(model.body(b).name);
  auto on = [&](BodyIndex b) -> std::vector<SpatialPart>& {
    return b == kGround ? scene.ground : scene.parts[std::size_t(b)];
  };
  auto shape = [&](int b) -> const Shape* {
    return std::size_t(b) < scenario.shapes.size() ? &scenario.shapes[std::size_t(b)] : nullptr;
  };
  auto attach = [&](BodyIndex b, const Vector3d& s) {
    if (b != kGround) points[std::size_t(b)].push_back(s);
  };
  // Joints: marked on both bodies; a guide to the ground drawn later across the scene.
  struct Guide { BodyIndex body; Vector3d point, axis; };
  std::vector<Guide> guides;
  std::vector<SpatialPart> joint_marks;  // their radius set with the scene's size
  std::vector<BodyIndex> joint_bodies;
  for (const dynamics::SpatialJoint& j : model.joints()) {
    if (j.type == SpatialJointType::kDriver) continue;
    const bool axle = j.type == SpatialJointType::kRevolute || j.type == SpatialJointType::kCylindrical;
    for (auto [b, s, frame] : {std::tuple{j.body_i, j.s_i, j.frame_i}, std::tuple{j.body_j, j.s_j, j.frame_j}}) {
      attach(b, s);
      joint_marks.push_back(part(axle ? Kind::kAxle : Kind::kPin, s, frame.col(2), 0.0));
      joint_bodies.push_back(b);
    }
    if (j.type == SpatialJointType::kTranslational) guides.push_back({j.body_i, j.s_i, j.frame_i.col(2)});
  }
  for (const dynamics::SpatialClearance& c : scenario.clearances) {
    const auto& g = c.joint;
    const Vector3d half_j = 0.5 * g.journal_length * g.journal_axis, half_b = 0.5 * g.bearing_length * g.bearing_axis;
    on(c.journal_body).push_back(part(Kind::kJournal, g.journal_centre - half_j, g.journal_centre + half_j, g.journal_radius));
    on(c.bearing_body).push_back(part(Kind::kBearing, g.bearing_centre - half_b, g.bearing_centre + half_b, g.bearing_radius));
    attach(c.journal_body, g.journal_centre);
    attach(c.bearing_body, g.bearing_centre);
  }
  struct Plane { BodyIndex body; Vector3d point, normal; };
  std::vector<Plane> planes;
  // How far each body's solids reach from its centroid: its shape, its contact spheres.
  std::vector<double> reach(static_cast<std::size_t>(nb), 0.0);
  for (int b = 0; b < nb; ++b) reach[std::size_t(b)] = shape(b) ? reachOf(*shape(b)) : 0.0;
  for (const dynamics::SpatialPlaneContact& c : scenario.planes) {
    attach(c.body_i, c.geometry.centre);
    if (c.body_i != kGround)
      reach[std::size_t(c.body_i)] = std::max(reach[std::size_t(c.body_i)], c.geometry.centre.norm() + c.geometry.radius);
    if (c.geometry.radius > 0.0) on(c.body_i).push_back(part(Kind::kSphere, c.geometry.centre, c.geometry.centre, c.geometry.radius));
    planes.push_back({c.body_j, c.geometry.plane_point, c.geometry.plane_normal});
  }
  const dynamics::SpatialMechanism mechanism(model, scenario.q0, scenario.friction, scenario.clearances, scenario.planes);
  for (const auto& c : mechanism.contacts()) {
    scene.contacts.push_back(c.name);
    scene.mu_static.push_back(c.mu_static);
  }

  // The box the motion stays in: every body's centroid, attached points and solids at every frame.
  Vector3d lo = Vector3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  auto include = [&](const Vector3d& p, double pad) {
    lo = lo.cwiseMin(p - Vector3d::Constant(pad));
    hi = hi.cwiseMax(p + Vector3d::Constant(pad));
  };
  for (const AnimationTrack& tr : tracks)
    for (Eigen::Index f = 0; f < tr.pose.rows(); ++f)
      for (int b = 0; b < nb; ++b) {
        const dynamics::SpatialPose p = framePose(tr, f, b);
        include(p.r, reach[std::size_t(b)]);
        for (const Vector3d& s : points[std::size_t(b)]) include(p.r + p.A * s, 0.0);
      }
  for (std::size_t i = 0; i < joint_marks.size(); ++i)
    if (joint_bodies[i] == kGround) include(joint_marks[i].a, 0.0);
  if (!lo.allFinite()) lo = hi = Vector3d::Zero();
  double extent = (hi - lo).maxCoeff();
  if (!(extent > 0.0)) extent = 1.0;
  scene.block_size = 0.08 * extent;
  const double pin = scene.pin = 0.012 * extent;

  for (std::size_t i = 0; i < joint_marks.size(); ++i) {
    SpatialPart& m = joint_marks[i];
    if (m.kind == Kind::kAxle) m = part(Kind::kAxle, m.a - 2.0 * pin * m.b, m.a + 2.0 * pin * m.b, pin);
    else m.radius = pin;
    on(joint_bodies[i]).push_back(m);
  }
  for (int b = 0; b < nb; ++b)
    bodyParts(shape(b), points[std::size_t(b)], pin, scene.block_size, scene.parts[std::size_t(b)]);

  const double pad = 0.1 * extent + scene.block_size;
  scene.lower = lo - Vector3d::Constant(pad);
  scene.upper = hi + Vector3d::Constant(pad);
  const Vector3d centre = 0.5 * (scene.lower + scene.upper);
  const double half_diagonal = 0.5 * (scene.upper - scene.lower).norm();
  for (const Plane& p : planes) {
    // The ground's plane under the whole scene; a body's a patch about its point.
    const Vector3d n = p.normal.normalized();
    const Vector3d at = p.body == kGround ? Vector3d(centre - n * n.dot(centre - p.point)) : p.point;
    on(p.body).push_back(part(Kind::kPlane, at, n, p.body == kGround ? 0.5 * half_diagonal : 0.25 * extent));
  }
  for (const Guide& g : guides) {
    const Vector3d u = g.axis.normalized();
    if (g.body == kGround) {
      const Vector3d foot = g.point + u * u.dot(centre - g.point);
      scene.ground.push_back(part(Kind::kGuide, foot - half_diagonal * u, foot + half_diagonal * u, 0.0));
    } else {
      on(g.body).push_back(part(Kind::kGuide, g.point - 0.5 * extent * u, g.point + 0.5 * extent * u, 0.0));
    }
  }
  return scene;
}

}  // namespace stickslip::cli
