#include "mechanisms/planar_model_file.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <utility>
#include <vector>

#include "dynamics/friction/friction_parameters.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/model/model_assembly.hpp"
#include "dynamics/mechanism/clearance_preload.hpp"
#include "dynamics/mechanism/planar_mechanism.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/model_file_reader.hpp"

namespace stickslip::mechanisms {
namespace {

using dynamics::BodyIndex;
using dynamics::kGround;
using namespace model_file;

class Loader : public ModelFileReader {
 public:
  using ModelFileReader::ModelFileReader;
  dynamics::RigidScenario load(const YAML::Node& model);

 private:
  Eigen::Vector2d vector2(const YAML::Node& parent, const std::string& path, const std::string& key,
                          const Eigen::Vector2d& fallback) const {
    return vector<2>(parent, path, key, fallback, "[x, y] (two numbers)");
  }

  void bodies(const YAML::Node& n);
  /// A body's `shape:` map (drawing only).
  dynamics::RigidScenario::BodyShape shape(const YAML::Node& n, const std::string& path) const;
  void joints(const YAML::Node& n);
  void drivers(const YAML::Node& n);
  void forces(const YAML::Node& n);
  void contact(const YAML::Node& n, const std::string& path, const std::string& type);
  /// A compliant contact's `smooth_friction:` map {law, mu_k, ...} into rc.smooth_friction.
  void smoothFriction(const YAML::Node& f, const std::string& fpath, dynamics::RigidContact& rc) const;
  /// A `friction:` / `pin_friction:` map {radius, mu_static, mu_kinetic (or mu)} read into
  /// `f` (its name and joint or slot set) and added to the joint frictions.
  void jointFriction(const YAML::Node& n, const std::string& path, dynamics::RevoluteFriction f,
                     const char* radius_meaning);
  void initial(const YAML::Node& n, const YAML::Node& model);

  std::vector<std::string> state_names_;  ///< x_B, y_B, theta_B, vx_B, vy_B, omega_B per body
  dynamics::RigidScenario s_;
  std::vector<int> contact_lines_, friction_lines_;
  std::vector<std::string> contact_paths_, friction_paths_;
};

void Loader::bodies(const YAML::Node& n) {
  const auto nb = static_cast<Eigen::Index>(body_names_.size());
  s_.q0 = Eigen::VectorXd::Zero(3 * nb);
  s_.v0 = Eigen::VectorXd::Zero(3 * nb);
  s_.shapes.assign(body_names_.size(), {});
  forEachBody(n, {"name", "mass", "inertia", "position", "velocity", "shape"}, [&](std::size_t k, const YAML::Node& b,
                                                                                  const std::string& path, double mass) {
    if (b["shape"].IsDefined()) s_.shapes[k] = shape(b["shape"], path + ".shape");
    const double inertia = number(required(b, path, "inertia", "the moment of inertia about the centroid [kg m^2] > 0"),
                                  path + ".inertia");
    if (!(inertia > 0.0))
      fail(b["inertia"], path + ".inertia",
           "expected a moment of inertia > 0 [kg m^2], got " + valueText(b["inertia"], inertia));
    item(b, path, [&] { s_.model.addBody(body_names_[k], mass, inertia); });
    const auto at = static_cast<Eigen::Index>(3 * k);
    s_.q0.segment<3>(at) = vector<3>(b, path, "position", Eigen::Vector3d::Zero(), "[x, y, theta] (three numbers)");
    s_.v0.segment<3>(at) = vector<3>(b, path, "velocity", Eigen::Vector3d::Zero(), "[vx, vy, omega] (three numbers)");
  });
}

dynamics::RigidScenario::BodyShape Loader::shape(const YAML::Node& n, const std::string& path) const {
  requireMap(n, path, "a map {type: box, size: [w, h]}, {type: disk, radius: r} or {type: polygon, points: [[x, y], ...]}");
  const std::string type = choice(n, path, "type", {"box", "disk", "polygon"}, "shape");
  dynamics::RigidScenario::BodyShape s;
  if (type == "box") {
    checkKeys(n, path, {"type", "size"});
    required(n, path, "size", "[width, height] [m]");
    const Eigen::Vector2d size = vector<2>(n, path, "size", Eigen::Vector2d::Zero(), "[width, height] (two numbers > 0)");
    if (!(size.minCoeff() > 0.0)) fail(n["size"], path + ".size", "expected a width and a height > 0");
    const Eigen::Vector2d h = 0.5 * size;
    s.outline = {{-h.x(), -h.y()}, {h.x(), -h.y()}, {h.x(), h.y()}, {-h.x(), h.y()}};
  } else if (type == "disk") {
    checkKeys(n, path, {"type", "radius"});
    required(n, path, "radius", "[m] > 0");
    s.radius = numberAtLeast(n, path, "radius", 0.0, 0.0, true);
  } else {
    checkKeys(n, path, {"type", "points"});
    const YAML::Node points = required(n, path, "points", "the outline's vertices [[x, y], ...] in the body's frame");
    if (!points.IsSequence() || points.size() < 3) fail(points, path + ".points", "expected three or more [x, y]");
    double area = 0.0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      Eigen::Vector2d p;
      numbers(points[i], path + ".points[" + std::to_string(i) + "]", 2, p.data(), "[x, y] (two numbers)");
      s.outline.push_back(p);
    }
    for (std::size_t i = 0; i < s.outline.size(); ++i) {
      const Eigen::Vector2d &a = s.outline[i], &b = s.outline[(i + 1) % s.outline.size()];
      area += 0.5 * (a.x() * b.y() - a.y() * b.x());
    }
    if (!(std::abs(area) > 0.0)) fail(points, path + ".points", "expected a polygon of nonzero area");
  }
  return s;
}

void Loader::jointFriction(const YAML::Node& n, const std::string& path, dynamics::RevoluteFriction f,
                           const char* radius_meaning) {
  requireMap(n, path, "a map with radius, mu_static, mu_kinetic (or mu)");
  if (f.slot >= 0) {  // a pin may be named (default "<contact>.pin")
    checkKeys(n, path, {"radius", "mu", "mu_static", "mu_kinetic", "name"});
    f.name = elementName(n, path, f.name);
  } else {
    checkKeys(n, path, {"radius", "mu", "mu_static", "mu_kinetic"});
  }
  required(n, path, "radius", radius_meaning);
  f.radius = numberAtLeast(n, path, "radius", 0.0, 0.0, true);
  coulomb(n, path, f.mu_static, f.mu_kinetic);
  if (f.mu_static == 0.0) return;  // μs = μk = 0: an ideal joint, no friction element
  s_.joint_friction.push_back(std::move(f));
  friction_lines_.push_back(lineOf(n));
  friction_paths_.push_back(path);
}

void Loader::joints(const YAML::Node& n) {
  const std::vector<std::string> types{"revolute", "translational", "point_on_line", "fixed", "clearance"};
  for (std::size_t k = 0; k < n.size(); ++k) {
    const YAML::Node j = n[k];
    const std::string path = "model.joints[" + std::to_string(k) + "]";
    item(j, path, [&] {
    requireMap(j, path, "a map with type, body_i, point_i, body_j, point_j");
    const std::string type = choice(j, path, "type", types, "joint type");
    if (type == "clearance") {
      contact(j, path, "journal_bearing");
      return;
    }
    std::vector<std::string> keys{"type", "name", "body_i", "point_i", "body_j", "point_j"};
    if (type == "translational" || type == "point_on_line") keys.push_back("axis_i");
    if (type == "translational" || type == "fixed") keys.push_back("theta0");
    if (type == "revolute") keys.push_back("friction");
    checkKeys(j, path, keys);
    const std::string name = elementName(j, path, type);
    const auto [bi, bj] = bodyPair(j, path, " (a joint connects two bodies)");
    const Eigen::Vector2d si = vector2(j, path, "point_i", Eigen::Vector2d::Zero());
    const Eigen::Vector2d sj = vector2(j, path, "point_j", Eigen::Vector2d::Zero());
    const double theta0 = number(j, path, "theta0", 0.0);
    const Eigen::Vector2d u = type == "translational" || type == "point_on_line"
                                  ? direction<2>(j, path, "axis_i", Eigen::Vector2d::UnitX(), "[x, y] (two numbers)", "")
                                  : Eigen::Vector2d::UnitX();
    int index = 0;
    if (type == "revolute") index = s_.model.addRevolute(bi, si, bj, sj, name);
    else if (type == "translational") index = s_.model.addTranslational(bi, si, u, bj, sj, theta0, name);
    else if (type == "point_on_line") index = s_.model.addPointOnLine(bi, si, u, bj, sj, name);
    else index = s_.model.addFixed(bi, si, bj, sj, theta0, name);
    if (const YAML::Node f = j["friction"]; f.IsDefined()) {
      dynamics::RevoluteFriction rf;
      rf.name = name;
      rf.joint = index;
      jointFriction(f, path + ".friction", rf, "the journal radius [m] > 0 (the friction torque's lever arm)");
    }
    });
  }
}

void Loader::drivers(const YAML::Node& n) {
  for (std::size_t k = 0; k < n.size(); ++k) {
    const YAML::Node d = n[k];
    const std::string path = "model.drivers[" + std::to_string(k) + "]";
    item(d, path, [&] {
    requireMap(d, path, "a map with body_i, body_j, angle (and rate, acceleration)");
    checkKeys(d, path, {"name", "body_i", "body_j", "angle", "rate", "acceleration"});
    const std::string name = elementName(d, path, "driver");
    const BodyIndex bi = body(d, path, "body_i", true), bj = body(d, path, "body_j", false);
    if (bi == bj) fail(d["body_j"], path + ".body_j", "expected a body other than body_i");
    TimeSignal angle = timeSignal(d, path, "angle", "rate", "acceleration", "theta_j - theta_i as an expression of t [rad]");
    // An angle that does not depend on t holds the bodies' relative rotation: a scleronomic
    // constraint, which keeps the mechanism's motion free (the minimal form needs that).
    if (!angle.of_time) s_.model.addAngle(bi, bj, angle.value(0.0), name);
    else
      s_.model.addRheonomicDriver(bi, bj, std::move(angle.value), std::move(angle.rate), std::move(angle.acceleration),
                                  name);
    });
  }
}

void Loader::forces(const YAML::Node& n) {
  const std::vector<std::string> types{"force", "torque", "spring_damper", "rotational_spring_damper", "viscous_damping"};
  for (std::size_t k = 0; k < n.size(); ++k) {
    const YAML::Node f = n[k];
    const std::string path = "model.forces[" + std::to_string(k) + "]";
    item(f, path, [&] {
    requireMap(f, path, "a map with type and its data");
    const std::string type = choice(f, path, "type", types, "force type");
    if (type == "force") {
      checkKeys(f, path, {"type", "body", "point", "fx", "fy", "magnitude", "direction"});
      const BodyIndex b = loadedBody(f, path);
      const Eigen::Vector2d s = vector2(f, path, "point", Eigen::Vector2d::Zero());
      std::shared_ptr<Expression> fx, fy, magnitude;
      Eigen::Vector2d direction = Eigen::Vector2d::Zero();
      if (f["magnitude"].IsDefined()) {
        if (f["fx"].IsDefined() || f["fy"].IsDefined())
          fail(f["magnitude"], path + ".magnitude", "give either fx, fy or magnitude and direction, not both");
        magnitude = expression(f["magnitude"], path + ".magnitude", Vars::kState);
        const double angle = number(required(f, path, "direction", "the force's angle from +x [rad]"), path + ".direction");
        direction = Eigen::Vector2d(std::cos(angle), std::sin(angle));
      } else {
        if (f["direction"].IsDefined())
          fail(f["direction"], path + ".direction", "direction goes with magnitude; give magnitude too, or fx and fy");
        if (!f["fx"].IsDefined() && !f["fy"].IsDefined())
          fail(f, path, "missing: give fx and/or fy (global components [N]), or magnitude and direction");
        if (f["fx"].IsDefined()) fx = expression(f["fx"], path + ".fx", Vars::kState);
        if (f["fy"].IsDefined()) fy = expression(f["fy"], path + ".fy", Vars::kState);
      }
      const bool of_state = (fx && fx->uses_state) || (fy && fy->uses_state) || (magnitude && magnitude->uses_state);
      const auto value = [fx, fy, magnitude, direction]() -> Eigen::Vector2d {
        if (magnitude) return magnitude->evaluate() * direction;
        return {fx ? fx->evaluate() : 0.0, fy ? fy->evaluate() : 0.0};
      };
      if (!of_state) {
        auto st = state_;
        s_.model.addAppliedForce(b, s, [st, value](double t) {
          st->t = t;
          return value();
        });
      } else {
        auto st = state_;
        s_.model.addGeneralizedForce([st, value, b, s](double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                                       Eigen::Ref<Eigen::VectorXd> out) {
          st->set(t, q, v);
          const Eigen::Vector2d force = value();
          const Eigen::Index i = 3 * b;
          const double c = std::cos(q(i + 2)), sn = std::sin(q(i + 2));
          const Eigen::Vector2d arm(c * s.x() - sn * s.y(), sn * s.x() + c * s.y());
          out(i) += force.x();
          out(i + 1) += force.y();
          out(i + 2) += arm.x() * force.y() - arm.y() * force.x();
        });
      }
    } else if (type == "torque") {
      checkKeys(f, path, {"type", "body", "torque"});
      const BodyIndex b = loadedBody(f, path);
      const auto tau = expression(required(f, path, "torque", "the torque [N m] as an expression"), path + ".torque",
                                  Vars::kState);
      auto st = state_;
      if (!tau->uses_state) {
        s_.model.addAppliedTorque(b, [st, tau](double t) {
          st->t = t;
          return tau->evaluate();
        });
      } else {
        s_.model.addGeneralizedForce([st, tau, b](double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                                  const Eigen::Ref<const Eigen::VectorXd>& v,
                                                  Eigen::Ref<Eigen::VectorXd> out) {
          st->set(t, q, v);
          out(3 * b + 2) += tau->evaluate();
        });
      }
    } else if (type == "spring_damper") {
      checkKeys(f, path, {"type", "body_i", "point_i", "body_j", "point_j", "stiffness", "damping", "rest_length"});
      const auto [bi, bj] = bodyPair(f, path);
      const SpringDamper c = springDamper(f, path);
      s_.model.addSpringDamper(bi, vector2(f, path, "point_i", Eigen::Vector2d::Zero()), bj,
                               vector2(f, path, "point_j", Eigen::Vector2d::Zero()), c.stiffness, c.damping,
                               c.rest_length);
    } else if (type == "rotational_spring_damper") {
      checkKeys(f, path, {"type", "body_i", "body_j", "stiffness", "damping", "theta0"});
      const auto [bi, bj] = bodyPair(f, path);
      s_.model.addRotationalSpringDamper(bi, bj, numberAtLeast(f, path, "stiffness", 0.0, 0.0, false),
                                         numberAtLeast(f, path, "damping", 0.0, 0.0, false),
                                         number(f, path, "theta0", 0.0));
    } else {
      checkKeys(f, path, {"type", "body", "translational", "rotational"});
      const BodyIndex b = loadedBody(f, path);
      s_.model.addViscousDamping(b, numberAtLeast(f, path, "translational", 0.0, 0.0, false),
                                 numberAtLeast(f, path, "rotational", 0.0, 0.0, false));
    }
    });
  }
}

void Loader::smoothFriction(const YAML::Node& f, const std::string& fpath, dynamics::RigidContact& rc) const {
  // A regularized law of the catalogue in place of set-valued Coulomb; mu_k = 0: none.
  if (rc.normal != dynamics::RigidContact::Normal::kCompliant)
    fail(f, fpath, "only for normal: compliant (a rigid contact's friction is set-valued)");
  requireMap(f, fpath, "a map with law and the law's parameters (mu_k, ...)");
  std::vector<std::string> names{"law"}, laws;
  for (std::string_view n : dynamics::frictionParameterNames()) names.emplace_back(n);
  for (std::string_view n : dynamics::frictionLawNames()) laws.emplace_back(n);
  checkKeys(f, fpath, names);
  const std::string law = scalar(required(f, fpath, "law", "a friction law of the catalogue, e.g. ambrosio"), fpath + ".law");
  if (std::find(laws.begin(), laws.end(), law) == laws.end())
    fail(f["law"], fpath + ".law", "unknown friction law '" + law + "'" + didYouMean(law, laws));
  required(f, fpath, "mu_k", "the law's kinetic coefficient (0: no friction)");
  dynamics::FrictionParameters p;
  for (std::size_t k = 1; k < names.size(); ++k)
    if (f[names[k]].IsDefined()) p.set(names[k], number(f[names[k]], fpath + "." + names[k]));
  if (!f["mu_s"].IsDefined()) p.mu_s = p.mu_k;
  if (p.mu_k != 0.0) {
    try {
      rc.smooth_friction = dynamics::makeFrictionLaw(law, p);
    } catch (const std::invalid_argument& e) {
      fail(f, fpath, e.what());
    }
  }
}

void Loader::contact(const YAML::Node& c, const std::string& path, const std::string& type) {
  using dynamics::RigidContact;
  std::vector<std::string> keys{"type", "name", "body_i", "body_j", "normal", "restitution", "mu", "mu_static",
                                "mu_kinetic", "compliant_law", "impact_velocity", "rigid_restitution",
                                "smooth_friction"};
  if (type == "point_line")
    keys.insert(keys.end(), {"point_i", "radius", "line_point", "line_normal", "surface_speed", "surface_acceleration",
                             "pin_friction"});
  else
    keys.insert(keys.end(), {"journal_centre", "bearing_centre", "journal_radius", "bearing_radius", "centres_slip"});
  checkKeys(c, path, keys);
  RigidContact rc;
  rc.name = elementName(c, path, path.substr(6));
  rc.body_i = body(c, path, "body_i", false);
  rc.body_j = body(c, path, "body_j", true);
  if (rc.body_i == rc.body_j) fail(c["body_j"], path + ".body_j", "expected a body other than body_i");
  if (type == "point_line") {
    rc.shape = RigidContact::Shape::kDiskLine;
    rc.geometry.point_on_i = vector2(c, path, "point_i", Eigen::Vector2d::Zero());
    rc.geometry.line_point_on_j = vector2(c, path, "line_point", Eigen::Vector2d::Zero());
    rc.geometry.line_normal_on_j = direction<2>(c, path, "line_normal", Eigen::Vector2d::UnitY(), "[x, y] (two numbers)",
                                                " (the line's normal, towards the free side)");
    rc.radius = numberAtLeast(c, path, "radius", 0.0, 0.0, false);
    if (c["surface_acceleration"].IsDefined() && !c["surface_speed"].IsDefined())
      fail(c["surface_acceleration"], path + ".surface_acceleration", "goes with surface_speed; give surface_speed too");
    if (c["surface_speed"].IsDefined()) {
      const auto speed = expression(c["surface_speed"], path + ".surface_speed", Vars::kTime);
      rc.surface_speed = timeFunction(speed);
      if (c["surface_acceleration"].IsDefined()) {
        rc.surface_acceleration =
            timeFunction(expression(c["surface_acceleration"], path + ".surface_acceleration", Vars::kTime));
        checkDerivative(rc.surface_speed, rc.surface_acceleration, c["surface_acceleration"],
                        path + ".surface_acceleration", "surface_speed");
      } else  // not given: differentiated
        rc.surface_acceleration = [speed](double t) { return firstDerivative(*speed, t); };
    }
  } else {
    rc.shape = RigidContact::Shape::kJournalBearing;
    rc.journal_bearing.journal_centre_on_i = vector2(c, path, "journal_centre", Eigen::Vector2d::Zero());
    rc.journal_bearing.bearing_centre_on_j = vector2(c, path, "bearing_centre", Eigen::Vector2d::Zero());
    required(c, path, "journal_radius", "the journal's radius [m] > 0");
    required(c, path, "bearing_radius", "the bearing's radius [m] > journal_radius");
    rc.journal_bearing.journal_radius = numberAtLeast(c, path, "journal_radius", 0.0, 0.0, true);
    rc.journal_bearing.bearing_radius = number(c, path, "bearing_radius", 0.0);
    if (const YAML::Node f = c["centres_slip"]; f.IsDefined()) {  // true, false, or a 0/1 expression
      const bool word = f.IsScalar() && (f.Scalar() == "true" || f.Scalar() == "false");
      const double x = word ? double(f.Scalar() == "true") : number(f, path + ".centres_slip");
      if (x != 0.0 && x != 1.0) fail(f, path + ".centres_slip", "expected true or false (1 or 0), got " + f.Scalar());
      rc.centres_slip = x == 1.0;
    }
    if (!(rc.journal_bearing.bearing_radius > rc.journal_bearing.journal_radius)) {
      std::ostringstream os;
      os << "expected bearing_radius > journal_radius (a clearance > 0), got " << rc.journal_bearing.bearing_radius
         << " <= " << rc.journal_bearing.journal_radius;
      fail(c["bearing_radius"], path + ".bearing_radius", os.str());
    }
  }
  const std::vector<std::string> normals{"unilateral", "bilateral", "compliant"};
  const std::string normal = c["normal"].IsDefined() ? scalar(c["normal"], path + ".normal") : "unilateral";
  if (normal == "unilateral") rc.normal = RigidContact::Normal::kUnilateral;
  else if (normal == "bilateral") rc.normal = RigidContact::Normal::kBilateral;
  else if (normal == "compliant") rc.normal = RigidContact::Normal::kCompliant;
  else
    fail(c["normal"], path + ".normal", "unknown normal law '" + normal + "' (expected " + joined(normals) + ")" +
                                            didYouMean(normal, normals));
  if (c["restitution"].IsDefined() && rc.normal != RigidContact::Normal::kUnilateral)
    fail(c["restitution"], path + ".restitution",
         rc.normal == RigidContact::Normal::kBilateral
             ? "only for normal: unilateral (a bilateral contact never separates: it has no impacts)"
             : "only for normal: unilateral (a compliant contact's is its compliant_law's restitution, and "
               "rigid_restitution the one a route that takes it as rigid uses)");
  rc.restitution = restitution(c, path, "restitution").value_or(rc.restitution);
  coulomb(c, path, rc.mu_static, rc.mu_kinetic);
  for (const char* key : {"impact_velocity", "rigid_restitution"})
    if (c[key].IsDefined() && rc.normal != RigidContact::Normal::kCompliant)
      fail(c[key], path + "." + key, "only for normal: compliant");
  rc.rigid_restitution = restitution(c, path, "rigid_restitution");
  if (c["compliant_law"].IsDefined() && rc.normal == RigidContact::Normal::kBilateral)
    fail(c["compliant_law"], path + ".compliant_law", "only for normal: compliant or unilateral (the penalty route's law)");
  // A unilateral contact's compliant_law is the one the penalty route gives it.
  if (rc.normal == RigidContact::Normal::kCompliant || c["compliant_law"].IsDefined()) {
    const std::string lpath = path + ".compliant_law";
    const YAML::Node law = required(c, path, "compliant_law", "the normal law: {type, stiffness, exponent, ...}");
    rc.compliant_law = normalLaw(law, lpath);
    if (rc.normal == RigidContact::Normal::kCompliant)
      rc.impact_velocity = numberAtLeast(c, path, "impact_velocity", rc.impact_velocity, 0.0, true);
  }
  if (const YAML::Node f = c["smooth_friction"]; f.IsDefined()) {
    smoothFriction(f, path + ".smooth_friction", rc);
    for (const char* key : {"mu", "mu_static", "mu_kinetic"})
      if (rc.smooth_friction && rc.frictional() && c[key].IsDefined())
        fail(c[key], path + "." + key, "not with smooth_friction, whose law's mu_k (and mu_s) carry the coefficient");
  }
  if (const YAML::Node f = c["pin_friction"]; f.IsDefined()) {
    // Blajer's pin-in-slot joint: the point a pin turning with friction in the slot the line is.
    const std::string fpath = path + ".pin_friction";
    if (rc.normal != RigidContact::Normal::kBilateral || rc.radius != 0.0)
      fail(f, fpath, "a pin turns in a slot: only on a bilateral contact of a point (normal: bilateral, radius 0)");
    dynamics::RevoluteFriction pin;
    pin.name = rc.name + ".pin";
    pin.slot = int(s_.contacts.size());
    jointFriction(f, fpath, pin, "the pin's radius [m] > 0 (the friction torque's lever arm)");
  }
  s_.contacts.push_back(std::move(rc));
  contact_lines_.push_back(lineOf(c));
  contact_paths_.push_back(path);
}

void Loader::initial(const YAML::Node& n, const YAML::Node& model) {
  std::vector<Eigen::Index>& held = s_.initial_held;
  if (n.IsDefined() && !n.IsNull()) {
    requireMap(n, "model.initial", "a map with independent: [coordinate names], preloaded: [contact names]");
    checkKeys(n, "model.initial", {"independent", "preloaded"});
    std::vector<std::string> coordinates;
    for (std::size_t k = 0; k < body_names_.size(); ++k)
      for (int c = 0; c < 3; ++c) coordinates.push_back(state_names_[6 * k + c]);
    held = nameIndices(n["independent"], "model.initial.independent", coordinates,
                       "a list of coordinates, e.g. [theta_crank]", "coordinate", "x_B, y_B or theta_B for a body B");
    const YAML::Node pre = n["preloaded"];
    if (pre.IsDefined() && !pre.IsNull()) {
      if (!pre.IsSequence()) fail(pre, "model.initial.preloaded", "expected a list of journal_bearing contacts, e.g. [clearance]");
      std::vector<std::string> journals;
      for (const dynamics::RigidContact& c : s_.contacts)
        if (c.shape == dynamics::RigidContact::Shape::kJournalBearing) journals.push_back(c.name);
      for (std::size_t k = 0; k < pre.size(); ++k) {
        const std::string path = "model.initial.preloaded[" + std::to_string(k) + "]";
        const std::string name = scalar(pre[k], path);
        auto it = std::find_if(s_.contacts.begin(), s_.contacts.end(), [&](const auto& c) { return c.name == name; });
        if (it == s_.contacts.end() || it->shape != dynamics::RigidContact::Shape::kJournalBearing)
          fail(pre[k], path, "expected the name of a journal_bearing contact, got '" + name + "'" +
                                 didYouMean(name, journals));
        if (it->preloaded) fail(pre[k], path, "given twice");
        it->preloaded = true;
      }
    }
  }
  const dynamics::PlanarModel closed = dynamics::withClosingJoints(s_.model, s_.contacts);
  const int line = n.IsDefined() ? lineOf(n) : lineOf(model);
  if (closed.constraintCount() > 0) {
    const dynamics::AssemblyResult r = dynamics::assemble(closed, 0.0, held, s_.q0, s_.v0);
    if (!r.ok()) fail(line, "model.initial", assemblyFailure(r, "the joints, drivers and bilateral contacts"));
  }
  try {
    dynamics::preloadClearanceJoints(s_);
  } catch (const std::invalid_argument& e) {
    fail(line, "model.initial.preloaded", e.what());
  }
}

dynamics::RigidScenario Loader::load(const YAML::Node& model) {
  if (!model.IsDefined() || model.IsNull()) fail(0, "model", "missing: describe the mechanism (bodies, joints, ...)");
  requireMap(model, "model", "a map with bodies, joints, drivers, forces, contacts, initial");
  modelDimension(model, file_, 2,
                 "a spatial mechanism (dimension: 3): the command line does not run one yet (run, compare, sweep, "
                 "hold and animate take planar ones, dimension: 2); mechanisms::loadSpatialModel "
                 "(mechanisms/spatial_model_file.hpp) loads it for the library's routes");
  checkKeys(model, "model",
            {"name", "parameters", "gravity", "baumgarte", "bodies", "joints", "drivers", "forces", "contacts",
             "initial"},
            {"dimension"});
  s_.name = printableName(model, "model", "model");

  // Body names first: they make the state variables that parameters must not shadow.
  const YAML::Node bs = required(model, "model", "bodies", "a list of bodies {name, mass, inertia}");
  readBodyNames(bs, "name, mass, inertia", "name, mass, inertia (position, velocity)",
                [](const std::string& name) { return "the state variables x_" + name; });
  for (const std::string& name : body_names_) {
    for (const char* c : {"x_", "y_", "theta_"}) state_names_.push_back(c + name);
    for (const char* c : {"vx_", "vy_", "omega_"}) state_names_.push_back(c + name);
  }
  state_->q.assign(3 * body_names_.size(), 0.0);
  state_->v.assign(3 * body_names_.size(), 0.0);
  for (std::size_t k = 0; k < body_names_.size(); ++k)
    for (std::size_t c = 0; c < 3; ++c) {
      state_variables_.emplace_back(state_names_[6 * k + c], &state_->q[3 * k + c]);
      state_variables_.emplace_back(state_names_[6 * k + 3 + c], &state_->v[3 * k + c]);
    }
  state_hint_ = "x_B, y_B, theta_B, vx_B, vy_B, omega_B for each body B";

  readParameters(model["parameters"], state_names_,
                 "t, pi and the state variables x_B, y_B, theta_B, vx_B, vy_B, omega_B");
  bodies(bs);
  if (model["gravity"].IsDefined()) s_.model.setGravity(vector2(model, "model", "gravity", Eigen::Vector2d::Zero()));
  if (const YAML::Node b = model["baumgarte"]; b.IsDefined()) {
    requireMap(b, "model.baumgarte", "a map with alpha and beta [1/s] >= 0");
    checkKeys(b, "model.baumgarte", {"alpha", "beta"});
    s_.baumgarte_alpha = numberAtLeast(b, "model.baumgarte", "alpha", s_.baumgarte_alpha, 0.0, false);
    s_.baumgarte_beta = numberAtLeast(b, "model.baumgarte", "beta", s_.baumgarte_beta, 0.0, false);
  }
  joints(list(model, "joints"));
  drivers(list(model, "drivers"));
  forces(list(model, "forces"));
  const YAML::Node cs = list(model, "contacts");
  for (std::size_t k = 0; k < cs.size(); ++k) {
    const std::string path = "model.contacts[" + std::to_string(k) + "]";
    requireMap(cs[k], path, "a map with type (point_line or journal_bearing), body_i, body_j, ...");
    contact(cs[k], path, choice(cs[k], path, "type", {"point_line", "journal_bearing"}, "contact type"));
  }
  // The library's own checks (none should fire after the ones above; they name the item).
  for (std::size_t k = 0; k < s_.contacts.size(); ++k) {
    try {
      s_.contacts[k].validate(s_.model);
    } catch (const std::invalid_argument& e) {
      fail(contact_lines_[k], contact_paths_[k], e.what());
    }
  }
  for (std::size_t k = 0; k < s_.joint_friction.size(); ++k) {
    try {
      s_.joint_friction[k].validate(s_.model, s_.contacts);
    } catch (const std::invalid_argument& e) {
      fail(friction_lines_[k], friction_paths_[k], e.what());
    }
  }
  initial(model["initial"], model);
  requireFiniteLoads(bs, s_.model, s_.q0, s_.v0);
  // A unilateral contact must not start penetrating: its first impact would be meaningless.
  // (A bilateral one is closed by the assembly, unless its bodies' coordinates are all held.)
  if (const auto found = dynamics::initialPenetration(dynamics::PlanarMechanism(s_.model, s_.contacts), s_.q0, 1e-9)) {
    std::ostringstream os;
    if (s_.contacts[found->first].normal == dynamics::RigidContact::Normal::kBilateral)
      os << "the bilateral contact starts apart: gap " << found->second
         << " m at t = 0; place its bodies on the line or hold fewer coordinates in initial.independent";
    else
      os << "the contact starts penetrating: gap " << found->second
         << " m < 0 at t = 0; move the bodies apart in their positions (or make the contact compliant)";
    fail(contact_lines_[found->first], contact_paths_[found->first], os.str());
  }
  s_.parameters = parameters_;
  return std::move(s_);
}

}  // namespace

dynamics::RigidScenario loadPlanarModel(const YAML::Node& model, std::string_view file) {
  dynamics::RigidScenario s;
  withYamlErrors(file, [&] { s = Loader(file).load(model); });
  return s;
}

dynamics::RigidScenario loadPlanarModelText(std::string_view text, std::string_view file,
                                            const std::vector<ParameterValue>& values) {
  dynamics::RigidScenario s;
  model_file::loadModelText(text, file, values, [&](const YAML::Node& model) { s = loadPlanarModel(model, file); });
  return s;
}

dynamics::RigidScenario loadPlanarModelFile(const std::string& path) {
  return loadPlanarModelText(model_file::readModelFile(path), path);
}

}  // namespace stickslip::mechanisms
