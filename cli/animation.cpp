#include "cli/animation.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>

namespace stickslip::cli {
namespace {

using dynamics::BodyIndex;
using dynamics::ContactMode;
using dynamics::EventKind;
using dynamics::JointType;
using dynamics::kGround;
using dynamics::RigidContact;
using Eigen::Vector2d;

double cross(const Vector2d& o, const Vector2d& a, const Vector2d& b) {
  return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
}

// Whether the origin lies in the convex polygon (or on the segment) `hull`, counterclockwise,
// within `tolerance`.
bool containsOrigin(const std::vector<Vector2d>& hull, double tolerance) {
  if (hull.size() == 2) {
    const Vector2d d = hull[1] - hull[0];
    const double s = std::clamp(-hull[0].dot(d) / d.squaredNorm(), 0.0, 1.0);
    return (hull[0] + s * d).norm() <= tolerance;
  }
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const Vector2d a = hull[i], e = hull[(i + 1) % hull.size()] - a;
    if (e.x() * (-a.y()) - e.y() * (-a.x()) < -tolerance * e.norm()) return false;
  }
  return true;
}

/// Convex hull (Andrew's monotone chain), counter-clockwise; collinear points give the two
/// ends, coincident ones a single point.
std::vector<Vector2d> convexHull(std::vector<Vector2d> p, double tolerance) {
  std::sort(p.begin(), p.end(), [](const Vector2d& a, const Vector2d& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  std::vector<Vector2d> unique;
  for (const Vector2d& x : p)
    if (unique.empty() || (x - unique.back()).norm() > tolerance) unique.push_back(x);
  if (unique.size() < 3) return unique;
  std::vector<Vector2d> hull(2 * unique.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < unique.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], unique[i]) <= tolerance * tolerance) --k;
    hull[k++] = unique[i];
  }
  for (std::size_t i = unique.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], unique[i]) <= tolerance * tolerance) --k;
    hull[k++] = unique[i];
  }
  hull.resize(k - 1);
  return hull;
}

ContactMode modeOfSample(double n, double v_t, double zero_velocity) {
  if (!(n > 0.0)) return ContactMode::kOpen;
  if (!std::isfinite(v_t) || std::abs(v_t) <= zero_velocity) return ContactMode::kStick;
  return v_t > 0.0 ? ContactMode::kSlipPositive : ContactMode::kSlipNegative;
}

// The part inside the box [lower, upper] of the line through `point` along the unit `direction`
// (Liang–Barsky), if any.
std::optional<std::pair<Vector2d, Vector2d>> clipped(const Vector2d& point, const Vector2d& direction,
                                                     const Vector2d& lower, const Vector2d& upper) {
  const Vector2d foot = point + direction * direction.dot(0.5 * (lower + upper) - point);
  const double reach = (upper - lower).norm();
  double s0 = -reach, s1 = reach;
  for (int axis = 0; axis < 2; ++axis) {
    const double d = direction(axis), x = foot(axis);
    if (d == 0.0) {
      if (x < lower(axis) || x > upper(axis)) return std::nullopt;
      continue;
    }
    const double a = (lower(axis) - x) / d, b = (upper(axis) - x) / d;
    s0 = std::max(s0, std::min(a, b));
    s1 = std::min(s1, std::max(a, b));
  }
  if (!(s0 < s1)) return std::nullopt;
  return std::pair{foot + s0 * direction, foot + s1 * direction};
}

// A body's outline: its attachment points' hull, or the shape its model gives.
void outline(AnimationBody& body, std::vector<Vector2d>& attached, const dynamics::RigidScenario::BodyShape* shape,
             double tolerance) {
  if (shape && shape->radius > 0.0) {
    body.circles.push_back({Vector2d::Zero(), shape->radius, "disk"});
    return;
  }
  if (shape && shape->outline.size() >= 3) {
    body.hull = shape->outline;
    return;
  }
  body.hull = convexHull(attached, tolerance);
  // A centroid outside its points' hull (a block held by its two bottom corners): the points
  // and their mirror images through it, so that the outline holds the mass at its centre.
  if (body.hull.size() >= 2 && !containsOrigin(body.hull, tolerance)) {
    for (std::size_t i = 0, n = attached.size(); i < n; ++i) attached.push_back(-attached[i]);
    body.hull = convexHull(attached, tolerance);
  }
  if (body.hull.size() < 2) body.hull.clear();
}

}  // namespace

Vector2d worldPoint(const AnimationTrack& track, Eigen::Index f, int body, const Vector2d& local) {
  if (body == kGround) return local;
  const Eigen::Index c = 3 * Eigen::Index(body);
  return Vector2d(track.pose(f, c), track.pose(f, c + 1)) + Eigen::Rotation2Dd(track.pose(f, c + 2)) * local;
}

void trackFrames(AnimationTrack& track, const dynamics::MultibodySystem& model, const std::string& name,
                 const std::vector<std::string>& contacts, const std::vector<std::string>& columns,
                 const Eigen::MatrixXd& history, const dynamics::RunResult* result, std::size_t max_frames,
                 double zero_velocity, Eigen::Index contact_stride,
                 const std::function<void(Eigen::Index row, Eigen::Index frame, const Eigen::VectorXd& q)>& draw) {
  const std::size_t nc = contacts.size();
  auto find = [&](const std::string& column) -> Eigen::Index {
    const auto it = std::find(columns.begin(), columns.end(), column);
    return it == columns.end() ? -1 : Eigen::Index(it - columns.begin());
  };
  if (find("t") != 0) throw std::invalid_argument(track.label + ": the history's first column is not t");
  std::vector<Eigen::Index> q_col;
  for (Eigen::Index i = 0; i < model.positionSize(); ++i) {
    q_col.push_back(find(model.positionName(i)));
    if (q_col.back() < 0)
      throw std::invalid_argument(track.label + ": no column '" + model.positionName(i) +
                                  "' (the positions of every body of '" + name + "' are needed)");
  }
  std::vector<Eigen::Index> n_col(nc), f_col(nc), vt_col(nc);
  for (std::size_t k = 0; k < nc; ++k) {
    n_col[k] = find(contacts[k] + ".N");
    f_col[k] = find(contacts[k] + ".F");
    vt_col[k] = find(contacts[k] + ".v_t");
  }
  auto value = [&](Eigen::Index r, Eigen::Index c) {
    return c < 0 ? std::numeric_limits<double>::quiet_NaN() : history(r, c);
  };
  const Eigen::Index rows = history.rows();

  if (result)
    for (const auto& e : result->events)
      if (e.contact >= 0 && std::size_t(e.contact) < nc) track.events.push_back(e);
  std::stable_sort(track.events.begin(), track.events.end(),
                   [](const dynamics::ContactEvent& a, const dynamics::ContactEvent& b) { return a.t < b.t; });

  // The rows drawn: evenly strided, the last, and those at and just before every event.
  std::vector<char> keep(std::size_t(rows), 0);
  const Eigen::Index stride =
      std::max<Eigen::Index>(1, (rows + Eigen::Index(max_frames) - 1) / std::max<Eigen::Index>(1, Eigen::Index(max_frames)));
  for (Eigen::Index r = 0; r < rows; r += stride) keep[std::size_t(r)] = 1;
  if (rows > 0) keep[std::size_t(rows - 1)] = 1;
  const double* times = history.col(0).data();
  for (const auto& e : track.events) {
    const Eigen::Index r = Eigen::Index(std::lower_bound(times, times + rows, e.t) - times);
    for (Eigen::Index s = std::max<Eigen::Index>(0, r - 1); s <= std::min(rows - 1, r + 1); ++s) keep[std::size_t(s)] = 1;
  }
  const Eigen::Index frames = std::count(keep.begin(), keep.end(), 1);
  track.pose.resize(frames, model.positionSize());
  track.contact.resize(frames, contact_stride * Eigen::Index(nc));
  track.mode.resize(frames, Eigen::Index(nc));
  track.impact.setZero(frames, Eigen::Index(nc));

  std::vector<ContactMode> mode(nc, ContactMode::kOpen);
  const bool initial_given = result && result->initial_modes.size() >= nc;
  for (std::size_t k = 0; k < nc; ++k)
    mode[k] = initial_given ? result->initial_modes[k]
                            : (rows > 0 ? modeOfSample(value(0, n_col[k]), value(0, vt_col[k]), zero_velocity)
                                        : ContactMode::kOpen);
  std::size_t next_event = 0;
  Eigen::Index f = 0;
  std::vector<char> impact(nc, 0);
  Eigen::VectorXd q(model.positionSize());
  for (Eigen::Index r = 0; r < rows; ++r) {
    const double t = history(r, 0);
    const bool last_at_t = r + 1 == rows || history(r + 1, 0) != t;
    for (; next_event < track.events.size(); ++next_event) {
      const auto& e = track.events[next_event];
      if (!(e.t < t || (e.t == t && last_at_t))) break;
      const std::size_t k = std::size_t(e.contact);
      switch (e.kind) {
        case EventKind::kStick: mode[k] = ContactMode::kStick; break;
        case EventKind::kSlipPositive: mode[k] = ContactMode::kSlipPositive; break;
        case EventKind::kSlipNegative: mode[k] = ContactMode::kSlipNegative; break;
        case EventKind::kOpen: mode[k] = ContactMode::kOpen; break;
        case EventKind::kClose: mode[k] = modeOfSample(1.0, value(r, vt_col[k]), zero_velocity); break;
        case EventKind::kImpact: impact[k] = 1; break;
      }
    }
    if (!result)
      for (std::size_t k = 0; k < nc; ++k) mode[k] = modeOfSample(value(r, n_col[k]), value(r, vt_col[k]), zero_velocity);
    if (!keep[std::size_t(r)]) continue;
    track.t.push_back(t);
    for (std::size_t i = 0; i < q_col.size(); ++i) q(Eigen::Index(i)) = history(r, q_col[i]);
    track.pose.row(f) = q.transpose();
    for (std::size_t k = 0; k < nc; ++k) {
      track.mode(f, Eigen::Index(k)) = int(mode[k]);
      track.impact(f, Eigen::Index(k)) = impact[k];
      impact[k] = 0;
      track.contact(f, contact_stride * Eigen::Index(k + 1) - 2) = value(r, n_col[k]);
      track.contact(f, contact_stride * Eigen::Index(k + 1) - 1) = value(r, f_col[k]);
    }
    draw(r, f, q);
    ++f;
  }
}

AnimationTrack animationTrack(const dynamics::RigidScenario& scenario, const std::string& label,
                              const std::vector<std::string>& columns, const Eigen::MatrixXd& history,
                              const dynamics::RunResult* result, std::size_t max_frames, double zero_velocity) {
  const dynamics::PlanarModel& model = scenario.model;
  const auto& contacts = scenario.contacts;
  std::vector<std::string> names;
  for (const RigidContact& c : contacts) names.push_back(c.name);
  AnimationTrack track;
  track.label = label;
  dynamics::ContactKinematics kin;
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(model.velocitySize());
  trackFrames(track, model, scenario.name, names, columns, history, result, max_frames, zero_velocity, 6,
              [&](Eigen::Index r, Eigen::Index f, const Eigen::VectorXd& q) {
                if (!contacts.empty()) dynamics::evaluateContacts(model, contacts, history(r, 0), q, v, kin, false);
                for (std::size_t k = 0; k < contacts.size(); ++k) {
                  track.contact.block<1, 2>(f, Eigen::Index(6 * k)) = kin.point[k].transpose();
                  track.contact.block<1, 2>(f, Eigen::Index(6 * k) + 2) = kin.normal[k].transpose();
                }
              });
  return track;
}

AnimationScene animationScene(const dynamics::RigidScenario& scenario, const std::vector<AnimationTrack>& tracks) {
  const dynamics::PlanarModel& model = scenario.model;
  const int nb = model.bodyCount();
  AnimationScene scene;
  scene.bodies.resize(std::size_t(nb));
  std::vector<std::vector<Vector2d>> points(static_cast<std::size_t>(nb));
  for (int b = 0; b < nb; ++b) scene.bodies[std::size_t(b)].name = model.body(b).name;
  auto attach = [&](BodyIndex b, const Vector2d& s, bool joint) {
    if (b == kGround) {
      if (joint) scene.ground_joints.push_back(s);
      return;
    }
    points[std::size_t(b)].push_back(s);
    if (joint) scene.bodies[std::size_t(b)].joints.push_back(s);
  };
  // Lines (contact lines, guides): a body's as segments, the ground's across the scene later.
  struct Line { BodyIndex body; Vector2d point, direction; };
  std::vector<Line> lines;
  for (const auto& j : model.joints()) {
    switch (j.type) {
      case JointType::kRevolute:
      case JointType::kFixed:
        attach(j.body_i, j.s_i, true);
        attach(j.body_j, j.s_j, true);
        break;
      case JointType::kTranslational:
      case JointType::kPointOnLine:
        lines.push_back({j.body_i, j.s_i, j.u_i.normalized()});
        if (j.body_i != kGround) points[std::size_t(j.body_i)].push_back(j.s_i);
        attach(j.body_j, j.s_j, true);
        break;
      case JointType::kAngle:
      case JointType::kRheonomicDriver:
        break;
    }
  }
  for (const RigidContact& c : scenario.contacts) {
    scene.contacts.push_back(c.name);
    scene.mu_static.push_back(c.mu_static);
    scene.tangent_sign.push_back(c.shape == RigidContact::Shape::kJournalBearing ? -1 : 1);
    if (c.shape == RigidContact::Shape::kJournalBearing) {
      const auto& jb = c.journal_bearing;
      for (auto [b, s, r, kind] : {std::tuple{c.body_i, jb.journal_centre_on_i, jb.journal_radius, "journal"},
                                   std::tuple{c.body_j, jb.bearing_centre_on_j, jb.bearing_radius, "bearing"}}) {
        if (b == kGround) {
          scene.ground_joints.push_back(s);
          continue;
        }
        points[std::size_t(b)].push_back(s);
        scene.bodies[std::size_t(b)].circles.push_back({s, r, kind});
      }
    } else {
      const Vector2d& n = c.geometry.line_normal_on_j;
      lines.push_back({c.body_j, c.geometry.line_point_on_j, Vector2d(n.y(), -n.x())});
      if (c.body_i != kGround) {
        points[std::size_t(c.body_i)].push_back(c.geometry.point_on_i);
        if (c.radius > 0.0) scene.bodies[std::size_t(c.body_i)].circles.push_back({c.geometry.point_on_i, c.radius, "disk"});
      }
    }
  }

  // Outlines: each body's attachment points' hull, or the shape its model gives.
  double size = 1e-3;  // the bodies' size, for the hull's tolerance
  for (const auto& body_points : points)
    for (const Vector2d& s : body_points) size = std::max(size, s.norm());
  const double tolerance = 1e-9 * size;
  for (int b = 0; b < nb; ++b)
    outline(scene.bodies[std::size_t(b)], points[std::size_t(b)],
            std::size_t(b) < scenario.shapes.size() ? &scenario.shapes[std::size_t(b)] : nullptr, tolerance);

  // The box the motion stays in: every body's centroid, attached points and outline at every frame.
  Vector2d lo = Vector2d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  auto include = [&](const Vector2d& p, double pad) {
    lo = lo.cwiseMin(p - Vector2d::Constant(pad));
    hi = hi.cwiseMax(p + Vector2d::Constant(pad));
  };
  for (const AnimationTrack& tr : tracks)
    for (Eigen::Index f = 0; f < tr.pose.rows(); ++f)
      for (int b = 0; b < nb; ++b) {
        const AnimationBody& body = scene.bodies[std::size_t(b)];
        include(worldPoint(tr, f, b, Vector2d::Zero()), 0.0);
        for (const Vector2d& s : points[std::size_t(b)]) include(worldPoint(tr, f, b, s), 0.0);
        for (const Vector2d& s : body.hull) include(worldPoint(tr, f, b, s), 0.0);
        for (const auto& c : body.circles) include(worldPoint(tr, f, b, c.centre), c.radius);
      }
  for (const Vector2d& g : scene.ground_joints) include(g, 0.0);
  if (!lo.allFinite()) lo = hi = Vector2d::Zero();
  double extent = (hi - lo).maxCoeff();
  if (!(extent > 0.0)) extent = 1.0;
  scene.block_size = 0.08 * extent;
  for (AnimationBody& body : scene.bodies)
    body.block = body.hull.empty() && std::none_of(body.circles.begin(), body.circles.end(), [](const auto& c) {
                   return c.kind == "disk" && c.centre.isZero(0.0);
                 });
  const double pad = 0.1 * extent + scene.block_size;
  scene.lower = lo - Vector2d::Constant(pad);
  scene.upper = hi + Vector2d::Constant(pad);
  for (const Line& l : lines) {
    if (l.body == kGround) {
      if (const auto inside = clipped(l.point, l.direction, scene.lower, scene.upper)) scene.ground_lines.push_back(*inside);
    } else {
      const double half = 0.5 * extent;
      scene.bodies[std::size_t(l.body)].segments.push_back({l.point - half * l.direction, l.point + half * l.direction});
    }
  }
  return scene;
}

}  // namespace stickslip::cli
