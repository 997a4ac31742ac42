#include "mechanisms/planar_model_file.hpp"

#include <muParser.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "dynamics/friction/friction_parameters.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/model_assembly.hpp"
#include "dynamics/nonsmooth/clearance_preload.hpp"
#include "dynamics/planar_mechanism.hpp"
#include "mechanisms/input_error.hpp"

namespace stickslip::mechanisms {
namespace {

using dynamics::BodyIndex;
using dynamics::kGround;

int lineOf(const YAML::Node& n) { return n.IsDefined() && n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

bool isIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

/// The state seen by expressions: time, and q, v of every body (sized once, never resized:
/// the parsers hold pointers into it).
struct StateVariables {
  double t = 0.0;
  std::vector<double> q, v;
  void set(double time, const Eigen::Ref<const Eigen::VectorXd>& qq, const Eigen::Ref<const Eigen::VectorXd>& vv) {
    t = time;
    std::copy(qq.data(), qq.data() + q.size(), q.begin());
    std::copy(vv.data(), vv.data() + v.size(), v.begin());
  }
};

/// One muParser expression. Expressions of t only keep their own t; expressions of the state
/// read the shared StateVariables (filled by the caller before evaluate()).
class Expression {
 public:
  Expression() = default;
  Expression(const Expression&) = delete;
  Expression& operator=(const Expression&) = delete;
  mu::Parser parser;
  double own_t = 0.0;
  std::shared_ptr<StateVariables> state;  ///< kept alive while the parser points into it
  bool uses_state = false;
  bool uses_time = false;
  double at(double t) {
    own_t = t;
    return parser.Eval();
  }
  double evaluate() const { return parser.Eval(); }
};

/// Five-point central differences of f at t: f′ with step 1e-3 and f″ with step 1e-2 (truncation
/// O(h⁴), round-off about 1e-13 and 1e-12 relative). Used when a driver or a belt speed omits
/// its rate or acceleration.
double firstDerivative(Expression& f, double t) {
  constexpr double h = 1e-3;
  return (f.at(t - 2 * h) - 8 * f.at(t - h) + 8 * f.at(t + h) - f.at(t + 2 * h)) / (12 * h);
}
double secondDerivative(Expression& f, double t) {
  constexpr double h = 1e-2;
  return (-f.at(t - 2 * h) + 16 * f.at(t - h) - 30 * f.at(t) + 16 * f.at(t + h) - f.at(t + 2 * h)) / (12 * h * h);
}

class Loader {
 public:
  Loader(std::string_view file) : file_(file) {}
  dynamics::RigidScenario load(const YAML::Node& model);

 private:
  enum class Vars { kConstants, kTime, kState };

  [[noreturn]] void fail(const YAML::Node& n, const std::string& path, const std::string& what) const {
    throw InputError(located(file_, lineOf(n), path, what));
  }
  [[noreturn]] void fail(int line, const std::string& path, const std::string& what) const {
    throw InputError(located(file_, line, path, what));
  }

  void requireMap(const YAML::Node& n, const std::string& path, const std::string& what) const;
  void checkKeys(const YAML::Node& n, const std::string& path, const std::vector<std::string>& valid) const;
  YAML::Node required(const YAML::Node& n, const std::string& path, const std::string& key,
                      const std::string& what) const;
  std::string scalar(const YAML::Node& n, const std::string& path) const;
  std::shared_ptr<Expression> expression(const YAML::Node& n, const std::string& path, Vars vars) const;
  double number(const YAML::Node& n, const std::string& path) const;
  /// The expression at `n` as written, with its value `x` when it is not a plain number.
  static std::string valueText(const YAML::Node& n, double x) {
    std::ostringstream os;
    os << x;
    return n.Scalar() == os.str() ? os.str() : n.Scalar() + " = " + os.str();
  }
  double number(const YAML::Node& parent, const std::string& path, const std::string& key, double fallback) const;
  double numberAtLeast(const YAML::Node& parent, const std::string& path, const std::string& key, double fallback,
                       double low, bool strict) const;
  Eigen::Vector2d vector2(const YAML::Node& parent, const std::string& path, const std::string& key,
                          const Eigen::Vector2d& fallback) const;
  BodyIndex body(const YAML::Node& parent, const std::string& path, const std::string& key, bool ground_default) const;
  std::function<double(double)> timeFunction(const std::shared_ptr<Expression>& e) const;
  /// Runs `build` for item `n` at `path`: an std::invalid_argument from the library (data the
  /// checks here did not foresee) becomes an InputError naming the item.
  template <typename Build>
  void item(const YAML::Node& n, const std::string& path, Build build) {
    try {
      build();
    } catch (const InputError&) {
      throw;
    } catch (const std::invalid_argument& e) {
      fail(n, path, e.what());
    }
  }

  void parameters(const YAML::Node& n);
  void bodies(const YAML::Node& n);
  void joints(const YAML::Node& n);
  void drivers(const YAML::Node& n);
  void forces(const YAML::Node& n);
  void contact(const YAML::Node& n, const std::string& path, const std::string& type);
  void friction(const YAML::Node& n, const std::string& path, double& mu_static, double& mu_kinetic) const;
  /// A `friction:` / `pin_friction:` map {radius, mu_static, mu_kinetic (or mu)} read into
  /// `f` (its name and joint or slot set) and added to the joint frictions.
  void jointFriction(const YAML::Node& n, const std::string& path, dynamics::RevoluteFriction f,
                     const char* radius_meaning);
  void initial(const YAML::Node& n, const YAML::Node& model);

  std::string file_;
  std::vector<std::pair<std::string, double>> parameters_;
  std::vector<std::string> body_names_;
  std::vector<std::string> state_names_;  ///< x_B, y_B, theta_B, vx_B, vy_B, omega_B per body
  std::shared_ptr<StateVariables> state_ = std::make_shared<StateVariables>();
  dynamics::RigidScenario s_;
  std::vector<int> contact_lines_, friction_lines_;
  std::vector<std::string> contact_paths_, friction_paths_;
};

void Loader::requireMap(const YAML::Node& n, const std::string& path, const std::string& what) const {
  if (!n.IsMap()) fail(n, path, "expected " + what);
}

void Loader::checkKeys(const YAML::Node& n, const std::string& path, const std::vector<std::string>& valid) const {
  std::set<std::string> seen;
  for (const auto& kv : n) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
    const std::string where = path + "." + key;
    if (!kv.first.IsScalar()) fail(kv.first, path, "expected a plain key (one of " + joined(valid) + ")");
    if (std::find(valid.begin(), valid.end(), key) == valid.end())
      fail(kv.first, where, "unknown key (expected one of " + joined(valid) + ")" + didYouMean(key, valid));
    if (!seen.insert(key).second) fail(kv.first, where, "given twice");
  }
}

YAML::Node Loader::required(const YAML::Node& n, const std::string& path, const std::string& key,
                            const std::string& what) const {
  const YAML::Node v = n[key];
  if (!v.IsDefined() || v.IsNull()) fail(n, path + "." + key, "missing: give " + what);
  return v;
}

std::string Loader::scalar(const YAML::Node& n, const std::string& path) const {
  if (!n.IsScalar())
    fail(n, path, "expected a single value, got a " + std::string(n.IsMap() ? "map" : n.IsSequence() ? "list" : "null"));
  return n.Scalar();
}

std::shared_ptr<Expression> Loader::expression(const YAML::Node& n, const std::string& path, Vars vars) const {
  const std::string text = scalar(n, path);
  auto e = std::make_shared<Expression>();
  std::vector<std::string> names{"pi"};
  try {
    e->parser.DefineConst("pi", M_PI);
    for (const auto& [name, value] : parameters_) {
      e->parser.DefineConst(name, value);
      names.push_back(name);
    }
    if (vars == Vars::kTime) {
      e->parser.DefineVar("t", &e->own_t);
      names.push_back("t");
    } else if (vars == Vars::kState) {
      e->state = state_;
      e->parser.DefineVar("t", &state_->t);
      names.push_back("t");
      for (std::size_t k = 0; k < body_names_.size(); ++k)
        for (int c = 0; c < 3; ++c) {
          e->parser.DefineVar(state_names_[6 * k + c], &state_->q[3 * k + c]);
          e->parser.DefineVar(state_names_[6 * k + 3 + c], &state_->v[3 * k + c]);
        }
      names.insert(names.end(), state_names_.begin(), state_names_.end());
    }
    e->parser.SetExpr(text);
    e->parser.Eval();  // parses now: syntax errors at load time
    for (const auto& used : e->parser.GetUsedVar())
      (used.first == "t" ? e->uses_time : e->uses_state) = true;
  } catch (const mu::Parser::exception_type& err) {
    std::string what = "expression \"" + text + "\": " + err.GetMsg();
    if (err.GetMsg().find("position") == std::string::npos && err.GetPos() >= 0)
      what += " (at position " + std::to_string(err.GetPos()) + ")";
    if (err.GetCode() == mu::ecUNASSIGNABLE_TOKEN) {
      const std::string hint = didYouMean(err.GetToken(), names);
      if (!hint.empty()) what += hint;
      else if (vars == Vars::kConstants) what += " (only numbers, pi and model.parameters here)";
      else if (vars == Vars::kTime) what += " (a function of t and model.parameters only)";
      else what += " (variables: t, x_B, y_B, theta_B, vx_B, vy_B, omega_B for each body B, and model.parameters)";
    }
    fail(n, path, what);
  }
  return e;
}

double Loader::number(const YAML::Node& n, const std::string& path) const {
  const std::string text = scalar(n, path);
  double x = 0.0;
  const char* begin = text.data() + (!text.empty() && text[0] == '+' ? 1 : 0);
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(begin, end, x);
  if (ec == std::errc() && ptr == end && begin != end) {
    if (!std::isfinite(x)) fail(n, path, "expected a finite number, got " + text);
    return x;
  }
  x = expression(n, path, Vars::kConstants)->evaluate();
  if (!std::isfinite(x)) fail(n, path, "expected a finite number, got " + text + " = " + std::to_string(x));
  return x;
}

double Loader::number(const YAML::Node& parent, const std::string& path, const std::string& key, double fallback) const {
  const YAML::Node n = parent[key];
  if (!n.IsDefined()) return fallback;
  return number(n, path + "." + key);
}

double Loader::numberAtLeast(const YAML::Node& parent, const std::string& path, const std::string& key,
                             double fallback, double low, bool strict) const {
  const YAML::Node n = parent[key];
  if (!n.IsDefined()) return fallback;
  const double x = number(n, path + "." + key);
  if (strict ? !(x > low) : !(x >= low)) {
    std::ostringstream os;
    os << "expected a number " << (strict ? "> " : ">= ") << low << ", got " << x;
    fail(n, path + "." + key, os.str());
  }
  return x;
}

Eigen::Vector2d Loader::vector2(const YAML::Node& parent, const std::string& path, const std::string& key,
                                const Eigen::Vector2d& fallback) const {
  const YAML::Node n = parent[key];
  if (!n.IsDefined()) return fallback;
  const std::string where = path + "." + key;
  if (!n.IsSequence() || n.size() != 2) fail(n, where, "expected [x, y] (two numbers)");
  return {number(n[0], where + "[0]"), number(n[1], where + "[1]")};
}

BodyIndex Loader::body(const YAML::Node& parent, const std::string& path, const std::string& key,
                       bool ground_default) const {
  const YAML::Node n = parent[key];
  const std::string where = path + "." + key;
  if (!n.IsDefined()) {
    if (ground_default) return kGround;
    fail(parent, where, "missing: name a body of model.bodies or ground");
  }
  const std::string name = scalar(n, where);
  if (name == "ground") return kGround;
  const auto it = std::find(body_names_.begin(), body_names_.end(), name);
  if (it == body_names_.end()) {
    std::vector<std::string> valid = body_names_;
    valid.push_back("ground");
    fail(n, where, "unknown body '" + name + "' (expected ground or one of model.bodies: " + joined(body_names_) + ")" +
                       didYouMean(name, valid));
  }
  return static_cast<BodyIndex>(it - body_names_.begin());
}

std::function<double(double)> Loader::timeFunction(const std::shared_ptr<Expression>& e) const {
  return [e](double t) { return e->at(t); };
}

void Loader::parameters(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return;
  requireMap(n, "model.parameters", "a map of name: value");
  std::set<std::string> seen;
  for (const auto& kv : n) {
    const std::string name = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
    const std::string path = "model.parameters." + name;
    if (!isIdentifier(name)) fail(kv.first, path, "expected a name of letters, digits and '_' (not starting with a digit)");
    if (!seen.insert(name).second) fail(kv.first, path, "given twice");
    if (name == "t" || name == "pi" ||
        std::find(state_names_.begin(), state_names_.end(), name) != state_names_.end())
      fail(kv.first, path, "reserved name (t, pi and the state variables x_B, y_B, theta_B, vx_B, vy_B, omega_B); "
                           "choose another");
    // May use the parameters above it; true and false are 1 and 0 (a switch: μ·switch).
    const bool flag = kv.second.IsScalar() && (kv.second.Scalar() == "true" || kv.second.Scalar() == "false");
    const double x = flag ? double(kv.second.Scalar() == "true") : number(kv.second, path);
    parameters_.emplace_back(name, x);
  }
}

void Loader::bodies(const YAML::Node& n) {
  const std::vector<std::string> keys{"name", "mass", "inertia", "position", "velocity"};
  const std::size_t nb = body_names_.size();
  s_.q0 = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(3 * nb));
  s_.v0 = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(3 * nb));
  for (std::size_t k = 0; k < nb; ++k) {
    const YAML::Node b = n[k];
    const std::string path = "model.bodies[" + std::to_string(k) + "]";
    checkKeys(b, path, keys);
    const double mass = number(required(b, path, "mass", "the mass [kg] > 0"), path + ".mass");
    if (!(mass > 0.0)) fail(b["mass"], path + ".mass", "expected a mass > 0 [kg], got " + valueText(b["mass"], mass));
    const double inertia = number(required(b, path, "inertia", "the moment of inertia about the centroid [kg m^2] > 0"),
                                  path + ".inertia");
    if (!(inertia > 0.0))
      fail(b["inertia"], path + ".inertia",
           "expected a moment of inertia > 0 [kg m^2], got " + valueText(b["inertia"], inertia));
    item(b, path, [&] { s_.model.addBody(body_names_[k], mass, inertia); });
    for (const char* key : {"position", "velocity"}) {
      const YAML::Node p = b[key];
      if (!p.IsDefined()) continue;
      const std::string where = path + "." + key;
      if (!p.IsSequence() || p.size() != 3)
        fail(p, where, std::string("expected [") + (key == std::string("position") ? "x, y, theta" : "vx, vy, omega") +
                           "] (three numbers)");
      Eigen::VectorXd& target = key == std::string("position") ? s_.q0 : s_.v0;
      for (int c = 0; c < 3; ++c)
        target(static_cast<Eigen::Index>(3 * k + c)) = number(p[c], where + "[" + std::to_string(c) + "]");
    }
  }
}

void Loader::jointFriction(const YAML::Node& n, const std::string& path, dynamics::RevoluteFriction f,
                           const char* radius_meaning) {
  requireMap(n, path, "a map with radius, mu_static, mu_kinetic (or mu)");
  if (f.slot >= 0) {  // a pin may be named (default "<contact>.pin")
    checkKeys(n, path, {"radius", "mu", "mu_static", "mu_kinetic", "name"});
    if (n["name"].IsDefined()) f.name = scalar(n["name"], path + ".name");
  } else {
    checkKeys(n, path, {"radius", "mu", "mu_static", "mu_kinetic"});
  }
  required(n, path, "radius", radius_meaning);
  f.radius = numberAtLeast(n, path, "radius", 0.0, 0.0, true);
  friction(n, path, f.mu_static, f.mu_kinetic);
  if (f.mu_static == 0.0) return;  // μs = μk = 0: an ideal joint, no friction element
  s_.joint_friction.push_back(std::move(f));
  friction_lines_.push_back(lineOf(n));
  friction_paths_.push_back(path);
}

void Loader::friction(const YAML::Node& n, const std::string& path, double& mu_static, double& mu_kinetic) const {
  const bool both = n["mu"].IsDefined(), s = n["mu_static"].IsDefined(), k = n["mu_kinetic"].IsDefined();
  if (both && (s || k)) fail(n["mu"], path + ".mu", "give either mu (both coefficients) or mu_static and mu_kinetic");
  if (both) {
    mu_static = mu_kinetic = numberAtLeast(n, path, "mu", 0.0, 0.0, false);
    return;
  }
  if (s != k)
    fail(n[s ? "mu_static" : "mu_kinetic"], path + (s ? ".mu_static" : ".mu_kinetic"),
         std::string("give mu_kinetic and mu_static together (or mu for both); ") + (s ? "mu_kinetic" : "mu_static") +
             " is missing");
  mu_kinetic = numberAtLeast(n, path, "mu_kinetic", 0.0, 0.0, false);
  mu_static = numberAtLeast(n, path, "mu_static", 0.0, 0.0, false);
  if (!(mu_kinetic <= mu_static)) {
    std::ostringstream os;
    os << "expected mu_kinetic <= mu_static, got mu_kinetic = " << mu_kinetic << " > mu_static = " << mu_static
       << "; lower mu_kinetic or raise mu_static";
    fail(n["mu_kinetic"], path + ".mu_kinetic", os.str());
  }
}

void Loader::joints(const YAML::Node& n) {
  const std::vector<std::string> types{"revolute", "translational", "point_on_line", "fixed", "clearance"};
  for (std::size_t k = 0; k < n.size(); ++k) {
    const YAML::Node j = n[k];
    const std::string path = "model.joints[" + std::to_string(k) + "]";
    item(j, path, [&] {
    requireMap(j, path, "a map with type, body_i, point_i, body_j, point_j");
    const std::string type = scalar(required(j, path, "type", "one of " + joined(types)), path + ".type");
    if (std::find(types.begin(), types.end(), type) == types.end())
      fail(j["type"], path + ".type", "unknown joint type '" + type + "' (expected " + joined(types) + ")" +
                                          didYouMean(type, types));
    if (type == "clearance") {
      contact(j, path, "journal_bearing");
      return;
    }
    std::vector<std::string> keys{"type", "name", "body_i", "point_i", "body_j", "point_j"};
    if (type == "translational" || type == "point_on_line") keys.push_back("axis_i");
    if (type == "translational" || type == "fixed") keys.push_back("theta0");
    if (type == "revolute") keys.push_back("friction");
    checkKeys(j, path, keys);
    const std::string name = j["name"].IsDefined() ? scalar(j["name"], path + ".name") : type;
    const BodyIndex bi = body(j, path, "body_i", false), bj = body(j, path, "body_j", false);
    if (bi == bj) fail(j["body_j"], path + ".body_j", "expected a body other than body_i (a joint connects two bodies)");
    const Eigen::Vector2d si = vector2(j, path, "point_i", Eigen::Vector2d::Zero());
    const Eigen::Vector2d sj = vector2(j, path, "point_j", Eigen::Vector2d::Zero());
    const double theta0 = number(j, path, "theta0", 0.0);
    Eigen::Vector2d u = vector2(j, path, "axis_i", Eigen::Vector2d::UnitX());
    if ((type == "translational" || type == "point_on_line")) {
      if (!(u.norm() > 0.0) || !std::isfinite(u.norm())) fail(j["axis_i"], path + ".axis_i", "expected a nonzero direction");
      if (std::abs(u.norm() - 1.0) > 1e-12) u /= u.norm();
    }
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
    const std::string name = d["name"].IsDefined() ? scalar(d["name"], path + ".name") : "driver";
    const BodyIndex bi = body(d, path, "body_i", true), bj = body(d, path, "body_j", false);
    if (bi == bj) fail(d["body_j"], path + ".body_j", "expected a body other than body_i");
    const auto angle = expression(required(d, path, "angle", "theta_j - theta_i as an expression of t [rad]"),
                                  path + ".angle", Vars::kTime);
    // An angle that does not depend on t holds the bodies' relative rotation: a scleronomic
    // constraint, which keeps the mechanism's motion free (the minimal form needs that).
    if (!angle->uses_time) {
      for (const char* key : {"rate", "acceleration"})
        if (d[key].IsDefined() && number(d[key], path + "." + key) != 0.0)
          fail(d[key], path + "." + key, "expected 0: the angle does not change with t");
      s_.model.addAngle(bi, bj, angle->at(0.0), name);
      return;
    }
    // Rate and acceleration not given: differentiated numerically (five-point differences).
    std::function<double(double)> rate, acceleration;
    std::shared_ptr<Expression> r;
    if (d["rate"].IsDefined()) {
      r = expression(d["rate"], path + ".rate", Vars::kTime);
      rate = timeFunction(r);
    } else {
      rate = [angle](double t) { return firstDerivative(*angle, t); };
    }
    if (d["acceleration"].IsDefined())
      acceleration = timeFunction(expression(d["acceleration"], path + ".acceleration", Vars::kTime));
    else if (r)
      acceleration = [r](double t) { return firstDerivative(*r, t); };
    else
      acceleration = [angle](double t) { return secondDerivative(*angle, t); };
    s_.model.addRheonomicDriver(bi, bj, timeFunction(angle), std::move(rate), std::move(acceleration), name);
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
    const std::string type = scalar(required(f, path, "type", "one of " + joined(types)), path + ".type");
    if (std::find(types.begin(), types.end(), type) == types.end())
      fail(f["type"], path + ".type", "unknown force type '" + type + "' (expected " + joined(types) + ")" +
                                          didYouMean(type, types));
    if (type == "force") {
      checkKeys(f, path, {"type", "body", "point", "fx", "fy", "magnitude", "direction"});
      const BodyIndex b = body(f, path, "body", false);
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
      const BodyIndex b = body(f, path, "body", false);
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
      const BodyIndex bi = body(f, path, "body_i", false), bj = body(f, path, "body_j", false);
      if (bi == bj) fail(f["body_j"], path + ".body_j", "expected a body other than body_i");
      s_.model.addSpringDamper(bi, vector2(f, path, "point_i", Eigen::Vector2d::Zero()), bj,
                               vector2(f, path, "point_j", Eigen::Vector2d::Zero()),
                               numberAtLeast(f, path, "stiffness", 0.0, 0.0, false),
                               numberAtLeast(f, path, "damping", 0.0, 0.0, false),
                               numberAtLeast(f, path, "rest_length", 0.0, 0.0, false));
    } else if (type == "rotational_spring_damper") {
      checkKeys(f, path, {"type", "body_i", "body_j", "stiffness", "damping", "theta0"});
      const BodyIndex bi = body(f, path, "body_i", false), bj = body(f, path, "body_j", false);
      if (bi == bj) fail(f["body_j"], path + ".body_j", "expected a body other than body_i");
      s_.model.addRotationalSpringDamper(bi, bj, numberAtLeast(f, path, "stiffness", 0.0, 0.0, false),
                                         numberAtLeast(f, path, "damping", 0.0, 0.0, false),
                                         number(f, path, "theta0", 0.0));
    } else {
      checkKeys(f, path, {"type", "body", "translational", "rotational"});
      const BodyIndex b = body(f, path, "body", false);
      s_.model.addViscousDamping(b, numberAtLeast(f, path, "translational", 0.0, 0.0, false),
                                 numberAtLeast(f, path, "rotational", 0.0, 0.0, false));
    }
    });
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
    keys.insert(keys.end(), {"journal_centre", "bearing_centre", "journal_radius", "bearing_radius"});
  checkKeys(c, path, keys);
  RigidContact rc;
  rc.name = c["name"].IsDefined() ? scalar(c["name"], path + ".name") : path.substr(6);
  rc.body_i = body(c, path, "body_i", false);
  rc.body_j = body(c, path, "body_j", true);
  if (rc.body_i == rc.body_j) fail(c["body_j"], path + ".body_j", "expected a body other than body_i");
  if (type == "point_line") {
    rc.shape = RigidContact::Shape::kDiskLine;
    rc.geometry.point_on_i = vector2(c, path, "point_i", Eigen::Vector2d::Zero());
    rc.geometry.line_point_on_j = vector2(c, path, "line_point", Eigen::Vector2d::Zero());
    Eigen::Vector2d nrm = vector2(c, path, "line_normal", Eigen::Vector2d::UnitY());
    if (!(nrm.norm() > 0.0) || !std::isfinite(nrm.norm()))
      fail(c["line_normal"], path + ".line_normal", "expected a nonzero direction (the line's normal, towards the free side)");
    if (std::abs(nrm.norm() - 1.0) > 1e-12) nrm /= nrm.norm();
    rc.geometry.line_normal_on_j = nrm;
    rc.radius = numberAtLeast(c, path, "radius", 0.0, 0.0, false);
    if (c["surface_acceleration"].IsDefined() && !c["surface_speed"].IsDefined())
      fail(c["surface_acceleration"], path + ".surface_acceleration", "goes with surface_speed; give surface_speed too");
    if (c["surface_speed"].IsDefined()) {
      const auto speed = expression(c["surface_speed"], path + ".surface_speed", Vars::kTime);
      rc.surface_speed = timeFunction(speed);
      if (c["surface_acceleration"].IsDefined())
        rc.surface_acceleration =
            timeFunction(expression(c["surface_acceleration"], path + ".surface_acceleration", Vars::kTime));
      else  // not given: differentiated
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
  if (c["restitution"].IsDefined()) {
    rc.restitution = number(c["restitution"], path + ".restitution");
    if (!(rc.restitution >= 0.0 && rc.restitution <= 1.0))
      fail(c["restitution"], path + ".restitution", "expected a coefficient of restitution in [0, 1], got " +
                                                        valueText(c["restitution"], rc.restitution));
  }
  friction(c, path, rc.mu_static, rc.mu_kinetic);
  for (const char* key : {"impact_velocity", "rigid_restitution"})
    if (c[key].IsDefined() && rc.normal != RigidContact::Normal::kCompliant)
      fail(c[key], path + "." + key, "only for normal: compliant");
  if (c["rigid_restitution"].IsDefined()) {
    const double e = number(c["rigid_restitution"], path + ".rigid_restitution");
    if (!(e >= 0.0 && e <= 1.0))
      fail(c["rigid_restitution"], path + ".rigid_restitution",
           "expected a coefficient of restitution in [0, 1], got " + valueText(c["rigid_restitution"], e));
    rc.rigid_restitution = e;
  }
  if (c["compliant_law"].IsDefined() && rc.normal == RigidContact::Normal::kBilateral)
    fail(c["compliant_law"], path + ".compliant_law", "only for normal: compliant or unilateral (the penalty route's law)");
  // A unilateral contact's compliant_law is the one the penalty route gives it.
  if (rc.normal == RigidContact::Normal::kCompliant || c["compliant_law"].IsDefined()) {
    const std::string lpath = path + ".compliant_law";
    const YAML::Node law = required(c, path, "compliant_law", "the normal law: {type, stiffness, exponent, ...}");
    requireMap(law, lpath, "a map with type, stiffness, exponent (restitution, min_impact_velocity)");
    const std::vector<std::string> laws{"hertz", "hunt_crossley", "lankarani_nikravesh", "flores"};
    const std::string lt = scalar(required(law, lpath, "type", "one of " + joined(laws)), lpath + ".type");
    if (std::find(laws.begin(), laws.end(), lt) == laws.end())
      fail(law["type"], lpath + ".type", "unknown normal law '" + lt + "' (expected " + joined(laws) + ")" +
                                             didYouMean(lt, laws));
    if (lt == "hertz") checkKeys(law, lpath, {"type", "stiffness", "exponent"});
    else checkKeys(law, lpath, {"type", "stiffness", "exponent", "restitution", "min_impact_velocity"});
    required(law, lpath, "stiffness", "K [N/m^n] > 0");
    const double K = numberAtLeast(law, lpath, "stiffness", 0.0, 0.0, true);
    const double n = numberAtLeast(law, lpath, "exponent", 1.5, 1.0, false);
    if (lt == "hertz") {
      rc.compliant_law = dynamics::HertzLaw{K, n};
    } else {
      dynamics::DissipativeHertzParameters p;
      p.stiffness = K;
      p.exponent = n;
      p.restitution = number(law, lpath, "restitution", p.restitution);
      if (!(p.restitution >= 0.0 && p.restitution <= 1.0) || (lt == "flores" && p.restitution == 0.0))
        fail(law["restitution"], lpath + ".restitution",
             std::string("expected a coefficient of restitution in ") + (lt == "flores" ? "(0, 1]" : "[0, 1]"));
      p.min_impact_velocity = numberAtLeast(law, lpath, "min_impact_velocity", p.min_impact_velocity, 0.0, true);
      if (lt == "hunt_crossley") rc.compliant_law = dynamics::HuntCrossleyLaw{p};
      else if (lt == "lankarani_nikravesh") rc.compliant_law = dynamics::LankaraniNikraveshLaw{p};
      else rc.compliant_law = dynamics::FloresLaw{p};
    }
    if (rc.normal == RigidContact::Normal::kCompliant)
      rc.impact_velocity = numberAtLeast(c, path, "impact_velocity", rc.impact_velocity, 0.0, true);
  }
  if (const YAML::Node f = c["smooth_friction"]; f.IsDefined()) {
    // A regularized law of the catalogue in place of set-valued Coulomb; mu_k = 0: none.
    const std::string fpath = path + ".smooth_friction";
    if (rc.normal != RigidContact::Normal::kCompliant)
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
    const YAML::Node ind = n["independent"];
    if (ind.IsDefined() && !ind.IsNull()) {
      if (!ind.IsSequence()) fail(ind, "model.initial.independent", "expected a list of coordinates, e.g. [theta_crank]");
      std::vector<std::string> coordinates;
      for (std::size_t k = 0; k < body_names_.size(); ++k)
        for (int c = 0; c < 3; ++c) coordinates.push_back(state_names_[6 * k + c]);
      for (std::size_t k = 0; k < ind.size(); ++k) {
        const std::string path = "model.initial.independent[" + std::to_string(k) + "]";
        const std::string name = scalar(ind[k], path);
        const auto it = std::find(coordinates.begin(), coordinates.end(), name);
        if (it == coordinates.end())
          fail(ind[k], path, "unknown coordinate '" + name + "' (expected x_B, y_B or theta_B for a body B)" +
                                 didYouMean(name, coordinates));
        const auto index = static_cast<Eigen::Index>(it - coordinates.begin());
        if (std::find(held.begin(), held.end(), index) != held.end()) fail(ind[k], path, "given twice");
        held.push_back(index);
      }
    }
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
    if (!r.ok()) {
      std::ostringstream os;
      os << "kinematic assembly cannot close the joints, drivers and bilateral contacts at t = 0 from the bodies' "
            "positions ("
         << dynamics::toString(r.status) << ": " << r.message << "; residual " << r.position_residual
         << "): give positions nearer to an assembled configuration, or hold fewer or other coordinates in "
            "initial.independent";
      fail(line, "model.initial", os.str());
    }
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
  checkKeys(model, "model",
            {"name", "parameters", "gravity", "baumgarte", "bodies", "joints", "drivers", "forces", "contacts",
             "initial"});
  s_.name = model["name"].IsDefined() ? scalar(model["name"], "model.name") : "model";

  // Body names first: they make the state variables that parameters must not shadow.
  const YAML::Node bs = required(model, "model", "bodies", "a list of bodies {name, mass, inertia}");
  if (!bs.IsSequence() || bs.size() == 0) fail(bs, "model.bodies", "expected a list of bodies {name, mass, inertia}");
  for (std::size_t k = 0; k < bs.size(); ++k) {
    const std::string path = "model.bodies[" + std::to_string(k) + "]";
    requireMap(bs[k], path, "a map with name, mass, inertia (position, velocity)");
    const std::string name = scalar(required(bs[k], path, "name", "the body's name"), path + ".name");
    if (!isIdentifier(name))
      fail(bs[k]["name"], path + ".name", "expected a name of letters, digits and '_' (it names the state variables x_" +
                                              name + ", ...)");
    if (name == "ground") fail(bs[k]["name"], path + ".name", "'ground' is the fixed frame; choose another name");
    if (std::find(body_names_.begin(), body_names_.end(), name) != body_names_.end())
      fail(bs[k]["name"], path + ".name", "body '" + name + "' given twice");
    body_names_.push_back(name);
    for (const char* c : {"x_", "y_", "theta_"}) state_names_.push_back(c + name);
    for (const char* c : {"vx_", "vy_", "omega_"}) state_names_.push_back(c + name);
  }
  state_->q.assign(3 * body_names_.size(), 0.0);
  state_->v.assign(3 * body_names_.size(), 0.0);

  parameters(model["parameters"]);
  bodies(bs);
  if (model["gravity"].IsDefined()) s_.model.setGravity(vector2(model, "model", "gravity", Eigen::Vector2d::Zero()));
  if (const YAML::Node b = model["baumgarte"]; b.IsDefined()) {
    requireMap(b, "model.baumgarte", "a map with alpha and beta [1/s] >= 0");
    checkKeys(b, "model.baumgarte", {"alpha", "beta"});
    s_.baumgarte_alpha = numberAtLeast(b, "model.baumgarte", "alpha", s_.baumgarte_alpha, 0.0, false);
    s_.baumgarte_beta = numberAtLeast(b, "model.baumgarte", "beta", s_.baumgarte_beta, 0.0, false);
  }
  const auto list = [&](const char* key) {
    const YAML::Node n = model[key];
    if (n.IsDefined() && !n.IsNull() && !n.IsSequence())
      fail(n, std::string("model.") + key, "expected a list (- item per line)");
    return n.IsDefined() && !n.IsNull() ? n : YAML::Node(YAML::NodeType::Sequence);
  };
  joints(list("joints"));
  drivers(list("drivers"));
  forces(list("forces"));
  const YAML::Node cs = list("contacts");
  const std::vector<std::string> contact_types{"point_line", "journal_bearing"};
  for (std::size_t k = 0; k < cs.size(); ++k) {
    const std::string path = "model.contacts[" + std::to_string(k) + "]";
    requireMap(cs[k], path, "a map with type (point_line or journal_bearing), body_i, body_j, ...");
    const std::string type = scalar(required(cs[k], path, "type", "point_line or journal_bearing"), path + ".type");
    if (std::find(contact_types.begin(), contact_types.end(), type) == contact_types.end())
      fail(cs[k]["type"], path + ".type", "unknown contact type '" + type + "' (expected point_line, journal_bearing)" +
                                              didYouMean(type, contact_types));
    contact(cs[k], path, type);
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
  try {
    return Loader(file).load(model);
  } catch (const YAML::Exception& e) {  // a shape the checks above did not foresee
    throw InputError(located(file, e.mark.line >= 0 ? e.mark.line + 1 : 0, "model", "unexpected YAML: " + e.msg));
  }
}

dynamics::RigidScenario loadPlanarModelText(std::string_view text, std::string_view file,
                                            const std::vector<ParameterValue>& values) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException& e) {
    throw InputError(located(file, e.mark.line + 1, "", "YAML syntax error: " + e.msg));
  } catch (const YAML::Exception& e) {
    throw InputError(located(file, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", "YAML error: " + e.msg));
  }
  if (!root.IsMap()) throw InputError(located(file, lineOf(root), "", "expected a map with the key model"));
  if (values.empty()) return loadPlanarModel(root["model"], file);
  YAML::Node constants = root["model"]["parameters"];
  std::vector<std::string> names;
  if (constants.IsMap())
    for (const auto& kv : constants) names.push_back(kv.first.Scalar());
  for (const ParameterValue& v : values) {
    if (std::find(names.begin(), names.end(), v.name) == names.end()) {
      std::string all;
      for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
      throw InputError(located(v.origin, v.line, v.key,
                               "no such parameter in " + std::string(file) + didYouMean(v.name, names) +
                                   " (it has: " + all + ")"));
    }
    constants[v.name] = v.value;
  }
  try {
    return loadPlanarModel(root["model"], file);
  } catch (const InputError& e) {
    // Located where the value was given: the one the message names as a parameter, else the
    // last given of those it names at all, else the only one.
    const std::string what = e.what();
    const ParameterValue* blamed = values.size() == 1 ? &values.front() : nullptr;
    const auto names = [&](const std::string& word) {
      for (std::size_t at = what.find(word); at != std::string::npos; at = what.find(word, at + 1)) {
        const auto part = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
        if ((at == 0 || !part(what[at - 1])) && (at + word.size() == what.size() || !part(what[at + word.size()])))
          return true;
      }
      return false;
    };
    for (const ParameterValue& v : values)
      if (names(v.name)) blamed = &v;
    for (const ParameterValue& v : values)
      if (what.find("model.parameters." + v.name + ":") != std::string::npos) blamed = &v;
    if (!blamed) throw;
    throw InputError(located(blamed->origin, blamed->line, blamed->key,
                             "the value " + blamed->value + " is rejected by " + what));
  }
}

dynamics::RigidScenario loadPlanarModelFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(located(path, 0, "", "cannot read the model file (missing or unreadable)"));
  std::ostringstream text;
  text << in.rdbuf();
  return loadPlanarModelText(text.str(), path);
}

}  // namespace stickslip::mechanisms
