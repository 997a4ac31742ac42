#include "mechanisms/spatial_model_file.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include "dynamics/mechanism/spatial_mechanism.hpp"
#include "lcp/residual.hpp"
#include "mechanisms/model_file_reader.hpp"

namespace stickslip::mechanisms {
namespace {

using dynamics::BodyIndex;
using Eigen::Matrix3d;
using Eigen::Vector3d;
using Eigen::Vector4d;
using namespace model_file;

constexpr const char* kXyz = "[x, y, z] (three numbers)";

/// The ideal revolute joint a clearance joint stands for: the journal's centre and axis on the
/// bearing's.
void addIdealJoint(dynamics::SpatialModel& model, const dynamics::SpatialClearance& c) {
  model.addRevolute(c.journal_body, c.joint.journal_centre, c.joint.journal_axis, c.bearing_body,
                    c.joint.bearing_centre, c.joint.bearing_axis, c.name);
}

class Loader : public ModelFileReader {
 public:
  using ModelFileReader::ModelFileReader;
  SpatialScenario load(const YAML::Node& model);

 private:
  Vector3d vector3(const YAML::Node& parent, const std::string& path,
                   const std::string& key) const {
    return vector<3>(parent, path, key, Vector3d::Zero(), kXyz);
  }
  /// A joint's axis parent[key] in its body's axes: required, nonzero, normalized.
  Vector3d axis(const YAML::Node& parent, const std::string& path, const std::string& key) const {
    required(
        parent, path, key,
        "the joint axis in the axes of body " + key.substr(key.size() - 1) + ", e.g. [0, 0, 1]");
    return direction<3>(parent, path, key, Vector3d::UnitZ(), kXyz, " (a joint axis)");
  }
  Matrix3d inertia(const YAML::Node& n, const std::string& path) const;
  Vector4d orientation(const YAML::Node& b, const std::string& path) const;
  SpatialBodyShape shape(const YAML::Node& n, const std::string& path) const;
  void bodies(const YAML::Node& n);
  void joints(const YAML::Node& n);
  /// A joint's `friction:` map, for the joint just added.
  void jointFriction(const YAML::Node& n, const std::string& path, const std::string& type,
                     const std::string& name, BodyIndex bi, BodyIndex bj);
  /// A revolute joint's `clearance:` map: the joint becomes a clearance joint, journal on i.
  void clearance(const YAML::Node& n, const std::string& path, const std::string& name, BodyIndex bi,
                 const Vector3d& si, const Vector3d& ai, BodyIndex bj, const Vector3d& sj, const Vector3d& aj);
  void drivers(const YAML::Node& n);
  void forces(const YAML::Node& n);
  void contacts(const YAML::Node& n);
  /// Three expressions of t: parent[keys[c]], 0 when not given; at least one given.
  std::function<Vector3d(double)> components(const YAML::Node& parent, const std::string& path,
                                             const std::vector<std::string>& keys,
                                             const std::string& what) const;
  void initial(const YAML::Node& n, const YAML::Node& model);

  SpatialScenario s_;
  std::vector<char> starts_ideal_;  ///< per clearance joint: its `start: ideal`
  std::vector<int> contact_lines_;  ///< per plane contact
};

Matrix3d Loader::inertia(const YAML::Node& n, const std::string& path) const {
  const std::string shape =
      "the inertia tensor about the centroid in body axes [kg m^2]: principal moments [Ixx, Iyy, "
      "Izz], six values "
      "[Ixx, Iyy, Izz, Ixy, Iyz, Ixz] or a 3 x 3 list [[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, "
      "Iyz, Izz]]";
  Matrix3d j = Matrix3d::Zero();
  if (n.IsSequence() && n.size() == 3 && n[0].IsSequence()) {
    for (std::size_t r = 0; r < 3; ++r) {
      Vector3d row;
      numbers(n[r], path + "[" + std::to_string(r) + "]", 3, row.data(),
              "a row of three numbers of " + shape);
      j.row(static_cast<Eigen::Index>(r)) = row.transpose();
    }
    return j;
  }
  if (n.IsSequence() && n.size() == 6) {
    Eigen::Matrix<double, 6, 1> x;
    numbers(n, path, 6, x.data(), shape);
    j << x(0), x(3), x(5), x(3), x(1), x(4), x(5), x(4), x(2);
    return j;
  }
  Vector3d moments;
  numbers(n, path, 3, moments.data(), shape);
  return moments.asDiagonal();
}

Vector4d Loader::orientation(const YAML::Node& b, const std::string& parent_path) const {
  const YAML::Node n = b["orientation"];
  const std::string path = parent_path + ".orientation";
  if (!n.IsDefined()) return Vector4d(1.0, 0.0, 0.0, 0.0);
  if (n.IsMap()) {
    checkKeys(n, path, {"axis", "angle"});
    required(n, path, "axis", "the rotation's axis [x, y, z] (global)");
    const Vector3d u =
        direction<3>(n, path, "axis", Vector3d::UnitZ(), kXyz, " (the rotation's axis)");
    return dynamics::eulerParameters(
        u, number(required(n, path, "angle", "the rotation's angle [rad]"), path + ".angle"));
  }
  Vector4d p;
  numbers(n, path, 4, p.data(),
          "Euler parameters [e0, e1, e2, e3] (four numbers, unit) or {axis: [x, y, z], angle: "
          "radians}");
  const double norm = p.norm();
  if (!(std::abs(norm - 1.0) <= 1e-6)) {
    std::ostringstream os;
    os.precision(10);
    os << "expected unit Euler parameters (e0² + e1² + e2² + e3² = 1 to 1e-6), got norm " << norm
       << "; give more digits or {axis: [x, y, z], angle: radians}";
    fail(n, path, os.str());
  }
  return p / norm;
}

SpatialBodyShape Loader::shape(const YAML::Node& n, const std::string& path) const {
  requireMap(n, path,
             "a map {type: box, size: [a, b, c]}, {type: sphere, radius: r} or {type: cylinder (or capsule), "
             "radius: r, length: l, axis: [x, y, z]}");
  const std::string type = choice(n, path, "type", {"box", "sphere", "cylinder", "capsule"}, "shape");
  SpatialBodyShape s;
  s.centre = vector3(n, path, "centre");
  if (type == "box") {
    checkKeys(n, path, {"type", "centre", "size"});
    required(n, path, "size", "the edge lengths [a, b, c] [m] along the body's axes");
    s.type = SpatialBodyShape::Type::kBox;
    s.size = vector<3>(n, path, "size", Vector3d::Zero(), "[a, b, c] (three numbers > 0)");
    if (!(s.size.minCoeff() > 0.0)) fail(n["size"], path + ".size", "expected three edge lengths > 0");
    return s;
  }
  required(n, path, "radius", "[m] > 0");
  s.radius = numberAtLeast(n, path, "radius", 0.0, 0.0, true);
  if (type == "sphere") {
    checkKeys(n, path, {"type", "centre", "radius"});
    s.type = SpatialBodyShape::Type::kSphere;
    return s;
  }
  checkKeys(n, path, {"type", "centre", "radius", "length", "axis"});
  s.type = type == "cylinder" ? SpatialBodyShape::Type::kCylinder : SpatialBodyShape::Type::kCapsule;
  required(n, path, "length", type == "cylinder" ? "[m] > 0" : "[m] >= 0, between the centres of its caps");
  s.length = numberAtLeast(n, path, "length", 0.0, 0.0, type == "cylinder");
  s.axis = direction<3>(n, path, "axis", Vector3d::UnitZ(), kXyz, " (the shape's axis)");
  return s;
}

void Loader::bodies(const YAML::Node& n) {
  const auto nb = static_cast<Eigen::Index>(body_names_.size());
  s_.q0 = Eigen::VectorXd::Zero(7 * nb);
  s_.v0 = Eigen::VectorXd::Zero(6 * nb);
  s_.shapes.assign(body_names_.size(), {});
  const std::vector<std::string> keys{"name",     "mass",     "inertia",          "position", "orientation",
                                      "velocity", "angular_velocity", "shape"};
  forEachBody(
      n, keys, [&](std::size_t k, const YAML::Node& b, const std::string& path, double mass) {
        const YAML::Node j = required(
            b, path, "inertia", "the inertia about the centroid [kg m^2], e.g. [1e-4, 1e-4, 1e-5]");
        const Matrix3d tensor = inertia(j, path + ".inertia");
        item(j, path + ".inertia", [&] { s_.model.addBody(body_names_[k], mass, tensor); });
        const auto b_index = static_cast<BodyIndex>(k);
        const Vector4d p = orientation(b, path);
        s_.q0.segment<3>(dynamics::SpatialModel::positionIndex(b_index, 0)) =
            vector3(b, path, "position");
        s_.q0.segment<4>(dynamics::SpatialModel::positionIndex(b_index, 3)) = p;
        s_.v0.segment<3>(dynamics::SpatialModel::velocityIndex(b_index, 0)) =
            vector3(b, path, "velocity");
        s_.v0.segment<3>(dynamics::SpatialModel::velocityIndex(b_index, 3)) =
            dynamics::rotationMatrix(p).transpose() *
            vector3(b, path, "angular_velocity");  // ω′ = Aᵀ ω
        if (b["shape"].IsDefined()) s_.shapes[k] = shape(b["shape"], path + ".shape");
      });
}

void Loader::joints(const YAML::Node& n) {
  const std::vector<std::string> types{"spherical",   "revolute",      "universal",
                                       "cylindrical", "translational", "fixed"};
  for (std::size_t k = 0; k < n.size(); ++k) {
    const YAML::Node j = n[k];
    const std::string path = "model.joints[" + std::to_string(k) + "]";
    requireMap(j, path, "a map with type, body_i, point_i, body_j, point_j (axis_i, axis_j)");
    const std::string type = choice(j, path, "type", types, "joint type");
    std::vector<std::string> keys{"type", "name", "body_i", "point_i", "body_j", "point_j"};
    const bool two_axes = type == "revolute" || type == "universal" || type == "cylindrical";
    if (two_axes || type == "translational") keys.push_back("axis_i");
    if (two_axes) keys.push_back("axis_j");
    if (type == "revolute" || type == "translational") keys.push_back("friction");
    if (type == "revolute") keys.push_back("clearance");
    checkKeys(j, path, keys);
    const std::string name = elementName(j, path, type);
    const std::pair<BodyIndex, BodyIndex> pair =
        bodyPair(j, path, " (a joint connects two bodies)");
    const BodyIndex bi = pair.first, bj = pair.second;
    const Vector3d si = vector3(j, path, "point_i"), sj = vector3(j, path, "point_j");
    const Vector3d ai =
        type == "spherical" || type == "fixed" ? Vector3d::UnitZ() : axis(j, path, "axis_i");
    const Vector3d aj = two_axes ? axis(j, path, "axis_j") : Vector3d::UnitZ();
    if (const YAML::Node c = j["clearance"]; c.IsDefined()) {
      if (j["friction"].IsDefined())
        fail(j["friction"], path + ".friction", "a clearance joint's friction is in its clearance map (mu_static, mu_kinetic)");
      clearance(c, path + ".clearance", name, bi, si, ai, bj, sj, aj);
      continue;
    }
    item(j, path, [&] {
      dynamics::SpatialModel& m = s_.model;
      if (type == "spherical")
        m.addSpherical(bi, si, bj, sj, name);
      else if (type == "revolute")
        m.addRevolute(bi, si, ai, bj, sj, aj, name);
      else if (type == "universal")
        m.addUniversal(bi, si, ai, bj, sj, aj, name);
      else if (type == "cylindrical")
        m.addCylindrical(bi, si, ai, bj, sj, aj, name);
      else if (type == "translational")
        m.addTranslational(bi, si, ai, bj, sj, s_.q0, name);
      else
        m.addFixed(bi, si, bj, sj, s_.q0, name);
    });
    if (const YAML::Node f = j["friction"]; f.IsDefined())
      jointFriction(f, path + ".friction", type, name, bi, bj);
  }
}

void Loader::clearance(const YAML::Node& n, const std::string& path, const std::string& name, BodyIndex bi,
                       const Vector3d& si, const Vector3d& ai, BodyIndex bj, const Vector3d& sj, const Vector3d& aj) {
  requireMap(n, path,
             "a map with journal_radius, bearing_radius, journal_length, bearing_length, compliant_law "
             "(mu_static, mu_kinetic, rigid_restitution, alignment_tolerance, start)");
  checkKeys(n, path,
            {"journal_radius", "bearing_radius", "journal_length", "bearing_length", "compliant_law", "mu", "mu_static",
             "mu_kinetic", "rigid_restitution", "alignment_tolerance", "start"});
  dynamics::SpatialClearance c;
  c.name = name;
  c.journal_body = bi;
  c.bearing_body = bj;
  c.joint.journal_centre = si;
  c.joint.journal_axis = ai;
  c.joint.bearing_centre = sj;
  c.joint.bearing_axis = aj;
  for (const char* key : {"journal_radius", "bearing_radius", "journal_length", "bearing_length"})
    required(n, path, key, "[m] > 0");
  c.joint.journal_radius = numberAtLeast(n, path, "journal_radius", 0.0, 0.0, true);
  c.joint.bearing_radius = numberAtLeast(n, path, "bearing_radius", 0.0, 0.0, true);
  c.joint.journal_length = numberAtLeast(n, path, "journal_length", 0.0, 0.0, true);
  c.joint.bearing_length = numberAtLeast(n, path, "bearing_length", 0.0, 0.0, true);
  if (!(c.joint.bearing_radius > c.joint.journal_radius))
    fail(n["bearing_radius"], path + ".bearing_radius",
         "expected bearing_radius > journal_radius (a radial clearance), got " +
             valueText(n["bearing_radius"], c.joint.bearing_radius));
  if (!(c.joint.bearing_length > c.joint.journal_length))
    fail(n["bearing_length"], path + ".bearing_length",
         "expected bearing_length > journal_length (an axial clearance), got " +
             valueText(n["bearing_length"], c.joint.bearing_length));
  c.joint.alignment_tolerance = numberAtLeast(n, path, "alignment_tolerance", 0.0, 0.0, false);
  c.law = normalLaw(required(n, path, "compliant_law", "the normal law: {type, stiffness, exponent, ...}"),
                    path + ".compliant_law");
  coulomb(n, path, c.mu_static, c.mu_kinetic);
  c.rigid_restitution = restitution(n, path, "rigid_restitution");
  item(n, path, [&] { c.joint.validate(name); });
  starts_ideal_.push_back(!n["start"].IsDefined() ||
                          choice(n, path, "start", {"ideal", "as-placed"}, "initial state") == "ideal");
  s_.clearances.push_back(std::move(c));
}

void Loader::jointFriction(const YAML::Node& n, const std::string& path, const std::string& type,
                           const std::string& name, BodyIndex bi, BodyIndex bj) {
  dynamics::SpatialJointFriction f;
  f.name = name;
  f.joint = static_cast<int>(s_.model.joints().size()) - 1;
  if (type == "revolute") {
    requireMap(n, path, "a map with radius, mu_static, mu_kinetic (or mu)");
    checkKeys(n, path, {"radius", "mu", "mu_static", "mu_kinetic"});
    required(n, path, "radius", "the pin radius [m] > 0 (the friction torque's lever arm)");
    f.radius = numberAtLeast(n, path, "radius", 0.0, 0.0, true);
  } else {
    requireMap(n, path, "a map with mu_static, mu_kinetic (or mu), slider_length");
    checkKeys(n, path, {"slider_length", "mu", "mu_static", "mu_kinetic"});
    if (bi != dynamics::kGround && bj != dynamics::kGround)
      fail(n, path,
           "friction in a translational joint needs the ground as its guide (body_i or body_j: "
           "ground)");
    f.slider_length = numberAtLeast(n, path, "slider_length", 0.0, 0.0, false);
  }
  coulomb(n, path, f.mu_static, f.mu_kinetic);
  if (f.mu_static == 0.0) return;  // μs = μk = 0: an ideal joint
  s_.friction.push_back(std::move(f));
}

void Loader::drivers(const YAML::Node& n) {
  std::vector<std::string> revolutes;  // the names a driver may take
  for (const dynamics::SpatialJoint& jt : s_.model.joints())
    if (jt.type == dynamics::SpatialJointType::kRevolute) revolutes.push_back(jt.name);
  for (std::size_t k = 0; k < n.size(); ++k) {
    const YAML::Node d = n[k];
    const std::string path = "model.drivers[" + std::to_string(k) + "]";
    requireMap(d, path,
               "a map with joint (a revolute joint's name), angle (and rate, acceleration)");
    checkKeys(d, path, {"name", "joint", "angle", "rate", "acceleration"});
    const std::string name = elementName(d, path, "driver");
    const std::string joint = scalar(
        required(d, path, "joint", "the name of the revolute joint it drives"), path + ".joint");
    const auto& all = s_.model.joints();
    const auto found = std::find_if(all.begin(), all.end(), [&](const dynamics::SpatialJoint& jt) {
      return jt.type == dynamics::SpatialJointType::kRevolute && jt.name == joint;
    });
    if (found == all.end() && revolutes.empty())
      fail(d["joint"], path + ".joint",
           "no revolute joint to drive: '" + joint + "' is not one, and model.joints has none (a driver turns a "
           "revolute joint)");
    if (found == all.end())
      fail(d["joint"], path + ".joint",
           "unknown revolute joint '" + joint + "' (expected one of model.joints' revolute joints: " +
               joined(revolutes) + ")" + didYouMean(joint, revolutes));
    TimeSignal angle = timeSignal(
        d, path, "angle", "rate", "acceleration",
        "body_j's rotation about the joint's axis from the given pose, an expression of t [rad]");
    const int index = static_cast<int>(found - all.begin());
    item(d, path, [&] {
      s_.model.addDriver(index, s_.q0, std::move(angle.value), std::move(angle.rate),
                         std::move(angle.acceleration), name);
    });
  }
}

std::function<Vector3d(double)> Loader::components(const YAML::Node& parent,
                                                   const std::string& path,
                                                   const std::vector<std::string>& keys,
                                                   const std::string& what) const {
  std::vector<std::shared_ptr<Expression>> e(3);
  for (std::size_t c = 0; c < 3; ++c)
    if (parent[keys[c]].IsDefined())
      e[c] = expression(parent[keys[c]], path + "." + keys[c], Vars::kTime);
  if (!e[0] && !e[1] && !e[2])
    fail(parent, path, "missing: give " + joined(keys) + " (any of them; " + what + ")");
  return [e](double t) {
    Vector3d x;
    for (int c = 0; c < 3; ++c)
      x(c) = e[static_cast<std::size_t>(c)] ? e[static_cast<std::size_t>(c)]->at(t) : 0.0;
    return x;
  };
}

void Loader::forces(const YAML::Node& n) {
  const std::vector<std::string> types{"force", "torque", "spring_damper"};
  for (std::size_t k = 0; k < n.size(); ++k) {
    const YAML::Node f = n[k];
    const std::string path = "model.forces[" + std::to_string(k) + "]";
    requireMap(f, path, "a map with type and its data");
    const std::string type = choice(f, path, "type", types, "force type");
    item(f, path, [&] {
      if (type == "force") {
        checkKeys(f, path, {"type", "body", "point", "fx", "fy", "fz"});
        const BodyIndex b = loadedBody(f, path);
        s_.model.addAppliedForce(
            b, vector3(f, path, "point"),
            components(f, path, {"fx", "fy", "fz"}, "global components [N], functions of t"));
      } else if (type == "torque") {
        checkKeys(f, path, {"type", "body", "tx", "ty", "tz"});
        const BodyIndex b = loadedBody(f, path);
        s_.model.addAppliedTorque(
            b, components(f, path, {"tx", "ty", "tz"}, "global components [N m], functions of t"));
      } else {
        checkKeys(f, path,
                  {"type", "body_i", "point_i", "body_j", "point_j", "stiffness", "damping",
                   "rest_length"});
        const auto [bi, bj] = bodyPair(f, path);
        const SpringDamper c = springDamper(f, path);
        s_.model.addSpringDamper(bi, vector3(f, path, "point_i"), bj, vector3(f, path, "point_j"),
                                 c.stiffness, c.damping, c.rest_length);
      }
    });
  }
}

void Loader::contacts(const YAML::Node& n) {
  for (std::size_t k = 0; k < n.size(); ++k) {
    const YAML::Node c = n[k];
    const std::string path = "model.contacts[" + std::to_string(k) + "]";
    requireMap(c, path, "a map with type: sphere_plane and its data");
    choice(c, path, "type", {"sphere_plane"}, "contact type");
    checkKeys(c, path,
              {"type", "name", "body_i", "centre", "radius", "body_j", "plane_point", "plane_normal", "restitution",
               "mu", "mu_static", "mu_kinetic", "compliant_law"});
    item(c, path, [&] {
      dynamics::SpatialPlaneContact pc;
      pc.name = elementName(c, path, "contact" + std::to_string(k));
      pc.body_i = body(c, path, "body_i", false);
      pc.body_j = body(c, path, "body_j", true);
      if (pc.body_i == pc.body_j) fail(c["body_j"], path + ".body_j", "expected a body other than body_i");
      pc.geometry.centre = vector3(c, path, "centre");
      pc.geometry.radius = numberAtLeast(c, path, "radius", 0.0, 0.0, false);
      pc.geometry.plane_point = vector3(c, path, "plane_point");
      required(c, path, "plane_normal", "the plane's normal in body_j's axes, towards the free side, e.g. [0, 0, 1]");
      pc.geometry.plane_normal = direction<3>(c, path, "plane_normal", Vector3d::UnitZ(), kXyz, " (a plane normal)");
      pc.restitution = restitution(c, path, "restitution").value_or(0.0);
      coulomb(c, path, pc.mu_static, pc.mu_kinetic);
      if (c["compliant_law"].IsDefined()) pc.law = normalLaw(c["compliant_law"], path + ".compliant_law");
      s_.planes.push_back(std::move(pc));
      contact_lines_.push_back(lineOf(c));
    });
  }
}

void Loader::initial(const YAML::Node& n, const YAML::Node& model) {
  std::vector<Eigen::Index> held;
  if (n.IsDefined() && !n.IsNull()) {
    requireMap(n, "model.initial", "a map with independent: [velocity names]");
    checkKeys(n, "model.initial", {"independent"});
    std::vector<std::string> velocities;
    for (Eigen::Index i = 0; i < s_.model.velocitySize(); ++i)
      velocities.push_back(s_.model.velocityName(i));
    held = nameIndices(
        n["independent"], "model.initial.independent", velocities,
        "a list of velocities, e.g. [crank.wy]", "velocity",
        "B.vx, B.vy, B.vz (the centroid's, global) or B.wx, B.wy, B.wz (body axes) for a body B");
  }
  s_.assembly.status = dynamics::AssemblyStatus::kSuccess;
  // A clearance joint that starts ideal (the thesis' runs share the ideal mechanism's initial
  // state) is assembled as an ideal revolute joint: the journal centred, aligned, moving with it.
  dynamics::SpatialModel closed = s_.model;
  for (std::size_t k = 0; k < s_.clearances.size(); ++k) {
    const dynamics::SpatialClearance& c = s_.clearances[k];
    if (starts_ideal_[k]) addIdealJoint(closed, c);
  }
  if (closed.constraintCount() == 0) return;
  s_.assembly = dynamics::assemble(closed, 0.0, held, s_.q0, s_.v0);
  if (!s_.assembly.ok())
    fail(n.IsDefined() ? lineOf(n) : lineOf(model), "model.initial",
         assemblyFailure(s_.assembly, "the joints and drivers"));
}

SpatialScenario Loader::load(const YAML::Node& model) {
  if (!model.IsDefined() || model.IsNull())
    fail(0, "model", "missing: describe the mechanism (bodies, joints, ...)");
  requireMap(model, "model", "a map with dimension: 3, bodies, joints, drivers, forces, initial");
  modelDimension(model, file_, 3,
                 "a spatial model says dimension: 3 (a model without it, or with 2, is planar: "
                 "mechanisms::loadPlanarModel reads it)");
  checkKeys(model, "model",
            {"dimension", "name", "parameters", "gravity", "bodies", "joints", "drivers", "forces",
             "contacts", "initial"});
  s_.name = printableName(model, "model", "model");
  const YAML::Node bs =
      required(model, "model", "bodies", "a list of bodies {name, mass, inertia}");
  readBodyNames(bs, "name, mass, inertia",
                "name, mass, inertia (position, orientation, velocity, angular_velocity)",
                [](const std::string& name) { return "the coordinates " + name + ".x"; });
  readParameters(model["parameters"], {}, "t and pi");
  bodies(bs);
  s_.model.setGravity(vector3(model, "model", "gravity"));
  joints(list(model, "joints"));
  drivers(list(model, "drivers"));
  forces(list(model, "forces"));
  contacts(list(model, "contacts"));
  initial(model["initial"], model);
  requireFiniteLoads(bs, s_.model, s_.q0, s_.v0);
  // A plane contact must not start penetrating: the nonsmooth routes take it as rigid.
  if (!s_.planes.empty()) {
    const auto found =
        dynamics::initialPenetration(dynamics::SpatialMechanism(s_.model, s_.q0, {}, {}, s_.planes), s_.q0, 1e-9);
    if (found) {
      std::ostringstream os;
      os << "the contact starts penetrating: gap " << found->second
         << " m < 0 at t = 0; move the sphere or the plane apart in their bodies' positions";
      fail(contact_lines_[found->first], "model.contacts[" + std::to_string(found->first) + "]", os.str());
    }
  }
  s_.parameters = parameters_;
  return std::move(s_);
}

}  // namespace

SpatialScenario loadSpatialModel(const YAML::Node& model, std::string_view file) {
  SpatialScenario s;
  withYamlErrors(file, [&] { s = Loader(file).load(model); });
  return s;
}

SpatialScenario loadSpatialModelText(std::string_view text, std::string_view file,
                                     const std::vector<ParameterValue>& values) {
  SpatialScenario s;
  model_file::loadModelText(text, file, values,
                            [&](const YAML::Node& model) { s = loadSpatialModel(model, file); });
  return s;
}

SpatialScenario loadSpatialModelFile(const std::string& path) {
  return loadSpatialModelText(model_file::readModelFile(path), path);
}

SpatialScenario withIdealClearanceJoints(const SpatialScenario& s, std::string_view who) {
  if (s.clearances.empty())
    throw std::invalid_argument(std::string(who) + ": '" + s.name + "' has no clearance joint to make ideal");
  SpatialScenario ideal = s;
  for (const dynamics::SpatialClearance& c : s.clearances) addIdealJoint(ideal.model, c);
  ideal.clearances.clear();
  const dynamics::SpatialModel& m = ideal.model;
  Eigen::VectorXd phi(m.constraintCount()), rate(m.constraintCount());
  Eigen::MatrixXd jac(m.constraintCount(), m.velocitySize());
  m.constraints(0.0, ideal.q0, phi);
  m.jacobian(0.0, ideal.q0, jac);
  m.constraintTimeDerivative(0.0, ideal.q0, rate);
  rate += jac * ideal.v0;
  const double residual = std::max(phi.lpNorm<Eigen::Infinity>(), rate.lpNorm<Eigen::Infinity>());
  if (residual > 1e-9)
    throw std::invalid_argument(
        std::string(who) + ": the initial state of '" + s.name +
        "' does not close its clearance joints as ideal ones (residual " +
        lcp::scientific(residual) +
        "): start the journal centred and aligned in its bearing, moving with it");
  return ideal;
}

int modelFileDimension(std::string_view text) {
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    const YAML::Node d =
        root.IsMap() && root["model"].IsMap() ? root["model"]["dimension"] : YAML::Node();
    return d.IsDefined() && d.IsScalar() && d.Scalar() == "3" ? 3 : 2;
  } catch (const YAML::Exception&) {
    return 2;
  }
}

}  // namespace stickslip::mechanisms
