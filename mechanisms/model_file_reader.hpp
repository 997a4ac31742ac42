#pragma once
/// \file What the planar and the spatial model files (planar_model_file.hpp,
/// spatial_model_file.hpp) read alike: the `model:` node's dimension, the parameters, numbers
/// and vectors that may be muParser expressions, bodies by name, lists of names, drivers'
/// functions of t with their derivatives, and the located errors
/// "FILE:LINE: model.KEY.PATH: what was expected" (InputError) with the nearest valid name.
/// Internal to the mechanisms library (it includes yaml-cpp and muParser).

#include <muParser.h>
#include <yaml-cpp/yaml.h>

#include <Eigen/Dense>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dynamics/contact/normal_law.hpp"
#include "dynamics/model/model_assembly.hpp"
#include "dynamics/model/planar_model.hpp"  // BodyIndex, kGround
#include "mechanisms/input_error.hpp"
#include "mechanisms/parameter_value.hpp"

namespace stickslip::mechanisms::model_file {

/// 1-based line of `n`, 0 when unknown.
int lineOf(const YAML::Node& n);
/// Letters, digits and '_', not starting with a digit.
bool isIdentifier(std::string_view s);
/// "a, b, c".
std::string joined(const std::vector<std::string>& names);

/// The state seen by expressions of the state: time and the coordinates and velocities, in
/// the order of the variables a loader defines (sized once, never resized: the parsers hold
/// pointers into it).
struct StateVariables {
  double t = 0.0;
  std::vector<double> q, v;
  void set(double time, const Eigen::Ref<const Eigen::VectorXd>& qq, const Eigen::Ref<const Eigen::VectorXd>& vv);
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
double firstDerivative(Expression& f, double t);
double secondDerivative(Expression& f, double t);

/// A prescribed function of t with its first two derivatives (a driver's angle).
struct TimeSignal {
  std::shared_ptr<Expression> expression;  ///< as written
  bool of_time = false;                    ///< false: a constant (its derivatives are 0)
  std::function<double(double)> value, rate, acceleration;
};

/// Reads the parts of a `model:` node; each loader derives from it and adds its bodies,
/// joints and forces. Every error is an InputError located in `file`.
class ModelFileReader {
 public:
  explicit ModelFileReader(std::string_view file) : file_(file) {}

  enum class Vars { kConstants, kTime, kState };

  [[noreturn]] void fail(const YAML::Node& n, const std::string& path, const std::string& what) const;
  [[noreturn]] void fail(int line, const std::string& path, const std::string& what) const;

  void requireMap(const YAML::Node& n, const std::string& path, const std::string& what) const;
  /// Every key of map `n` is one of `valid` (listed in the error) or of `unlisted` (accepted,
  /// suggested for a misspelling, not listed), and given once.
  void checkKeys(const YAML::Node& n, const std::string& path, const std::vector<std::string>& valid,
                 const std::vector<std::string>& unlisted = {}) const;
  YAML::Node required(const YAML::Node& n, const std::string& path, const std::string& key,
                      const std::string& what) const;
  std::string scalar(const YAML::Node& n, const std::string& path) const;
  /// The scalar at parent[key] if given, else `fallback`.
  std::string scalar(const YAML::Node& parent, const std::string& path, const std::string& key,
                     const std::string& fallback) const;
  /// parent["name"] if given, else `fallback`. It heads CSV columns and JSON strings, so it must
  /// be UTF-8 and not empty, with no control character, comma or double quote.
  std::string printableName(const YAML::Node& parent, const std::string& path, const std::string& fallback) const;
  /// The name of the joint, driver, contact or pin at `path`: parent["name"], else `fallback`,
  /// numbered "fallback-2", "fallback-3", … when an earlier one took it. The names head the
  /// history's columns, so a given name already taken is an error naming its owner.
  std::string elementName(const YAML::Node& parent, const std::string& path, const std::string& fallback);
  /// The value of parent[key] (required), one of `valid`; "unknown NOUN 'x' (expected ...)".
  std::string choice(const YAML::Node& parent, const std::string& path, const std::string& key,
                     const std::vector<std::string>& valid, const std::string& noun) const;
  std::shared_ptr<Expression> expression(const YAML::Node& n, const std::string& path, Vars vars) const;
  double number(const YAML::Node& n, const std::string& path) const;
  double number(const YAML::Node& parent, const std::string& path, const std::string& key, double fallback) const;
  /// Coulomb's coefficients of a map: mu (both), or mu_static and mu_kinetic together with
  /// 0 <= mu_kinetic <= mu_static.
  void coulomb(const YAML::Node& n, const std::string& path, double& mu_static, double& mu_kinetic) const;
  /// A compliant normal law's map {type, stiffness, exponent (restitution, min_impact_velocity)},
  /// type one of hertz, hunt_crossley, lankarani_nikravesh, flores (contact/normal_law.hpp).
  dynamics::NormalLaw normalLaw(const YAML::Node& law, const std::string& path) const;
  double numberAtLeast(const YAML::Node& parent, const std::string& path, const std::string& key, double fallback,
                       double low, bool strict) const;
  /// parent[key] as a coefficient of restitution in [0, 1]; nothing when not given.
  std::optional<double> restitution(const YAML::Node& parent, const std::string& path, const std::string& key) const;
  /// The expression at `n` as written, with its value `x` when it is not a plain number.
  static std::string valueText(const YAML::Node& n, double x);
  /// The list at `n` of exactly `count` numbers into `out`; else "expected `shape`".
  void numbers(const YAML::Node& n, const std::string& path, int count, double* out, const std::string& shape) const;
  /// parent[key] as N numbers (`shape` names them in the error), `fallback` when not given.
  template <int N>
  Eigen::Matrix<double, N, 1> vector(const YAML::Node& parent, const std::string& path, const std::string& key,
                                     const Eigen::Matrix<double, N, 1>& fallback, const std::string& shape) const {
    const YAML::Node n = parent[key];
    if (!n.IsDefined()) return fallback;
    Eigen::Matrix<double, N, 1> x;
    numbers(n, path + "." + key, N, x.data(), shape);
    return x;
  }
  /// The same, and a direction: nonzero (`what` says which), returned as a unit vector.
  template <int N>
  Eigen::Matrix<double, N, 1> direction(const YAML::Node& parent, const std::string& path, const std::string& key,
                                        const Eigen::Matrix<double, N, 1>& fallback, const std::string& shape,
                                        const std::string& what) const {
    Eigen::Matrix<double, N, 1> u = vector<N>(parent, path, key, fallback, shape);
    checkDirection(parent[key], path + "." + key, u.norm(), what);
    if (std::abs(u.norm() - 1.0) > 1e-12) u /= u.norm();
    return u;
  }
  /// A body's `mass` (required, > 0) [kg].
  double bodyMass(const YAML::Node& b, const std::string& path) const;
  /// For each body k of `bodies` (named by readBodyNames): its keys checked against `keys`,
  /// `read(k, body, path, mass)`.
  void forEachBody(const YAML::Node& bodies, const std::vector<std::string>& keys,
                   const std::function<void(std::size_t, const YAML::Node&, const std::string&, double)>& read) const;
  /// The generalized loads at (0, q0, v0) are finite: a mass, gravity or force whose product
  /// overflows double precision (a weight of 1e308 kg × 9.81) fails at the first body whose
  /// velocities it makes infinite, before a route meets it as a solver failure.
  void requireFiniteLoads(const YAML::Node& bodies, const dynamics::MultibodySystem& system,
                          const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) const;
  dynamics::BodyIndex body(const YAML::Node& parent, const std::string& path, const std::string& key,
                           bool ground_default) const;
  /// parent["body"] (required), the moving body a force, torque or damping acts on: not ground.
  dynamics::BodyIndex loadedBody(const YAML::Node& parent, const std::string& path) const;
  /// body_i and body_j (both required), different ("a body other than body_i" + `why`).
  std::pair<dynamics::BodyIndex, dynamics::BodyIndex> bodyPair(const YAML::Node& n, const std::string& path,
                                                               const std::string& why = "") const;
  /// A spring–damper's stiffness [N/m], damping [N s/m] and rest length [m], each >= 0
  /// (default 0).
  struct SpringDamper {
    double stiffness = 0.0, damping = 0.0, rest_length = 0.0;
  };
  SpringDamper springDamper(const YAML::Node& f, const std::string& path) const;
  static std::function<double(double)> timeFunction(const std::shared_ptr<Expression>& e);
  /// d[key] as a function of t and its derivatives: d[rate_key] and d[acceleration_key] if
  /// given, else five-point differences; an expression without t is a constant whose rate and
  /// acceleration, if given, must be 0. `what` describes the value for the missing-key error.
  TimeSignal timeSignal(const YAML::Node& d, const std::string& path, const std::string& key,
                        const std::string& rate_key, const std::string& acceleration_key,
                        const std::string& what) const;

  /// Refuses `derivative` (given at `n`, `path`) unless it is f′, `of` naming f: compared
  /// with five-point differences of f, within their own error and 1e-6 of the largest |f′|
  /// seen, at three pairs of nearby times; refused when both times of a pair differ (a kink
  /// spoils one at most). Samples where either is not finite are skipped.
  void checkDerivative(const std::function<double(double)>& f, const std::function<double(double)>& derivative,
                       const YAML::Node& n, const std::string& path, const std::string& of) const;

  /// Runs `build` for item `n` at `path`: an std::invalid_argument from the library (data the
  /// checks here did not foresee) becomes an InputError naming the item.
  template <typename Build>
  void item(const YAML::Node& n, const std::string& path, Build build) const {
    try {
      build();
    } catch (const InputError&) {
      throw;
    } catch (const std::invalid_argument& e) {
      fail(n, path, e.what());
    }
  }

  /// model[key] as a list (empty when not given); "expected a list" otherwise.
  YAML::Node list(const YAML::Node& model, const std::string& key) const;
  /// The names of `bodies` (a non-empty list of maps, each with an identifier `name`, not
  /// ground, distinct) into body_names_; `list_fields` and `map_fields` name a body's keys in
  /// the errors, `variable(name)` the variables a name makes (for a name that is no identifier).
  void readBodyNames(const YAML::Node& bodies, const std::string& list_fields, const std::string& map_fields,
                     const std::function<std::string(const std::string&)>& variable);
  /// model.parameters into parameters_; `reserved` are names a parameter must not take
  /// (besides t and pi), described by `reserved_what`.
  void readParameters(const YAML::Node& n, const std::vector<std::string>& reserved, const std::string& reserved_what);
  /// The list `n` at `path` of distinct names out of `names`, as their indices; `list_what`
  /// describes the list and `noun`/`expected` an unknown name.
  std::vector<Eigen::Index> nameIndices(const YAML::Node& n, const std::string& path,
                                        const std::vector<std::string>& names, const std::string& list_what,
                                        const std::string& noun, const std::string& expected) const;
  /// "kinematic assembly cannot close `what` at t = 0 ...": the error of a failed assembly.
  static std::string assemblyFailure(const dynamics::AssemblyResult& r, const std::string& what);

 protected:
  /// The variables of Vars::kState: name and where its value is (in state_).
  std::vector<std::pair<std::string, double*>> state_variables_;
  std::string state_hint_;  ///< how the error lists them: "x_B, y_B, ... for each body B"
  std::shared_ptr<StateVariables> state_ = std::make_shared<StateVariables>();
  std::string file_;
  std::vector<std::pair<std::string, double>> parameters_;
  std::vector<std::string> body_names_;

 private:
  std::vector<std::pair<std::string, std::string>> element_names_;  ///< (name, path) of each element so far
  void checkDirection(const YAML::Node& n, const std::string& path, double norm, const std::string& what) const;
};

/// model.dimension: 2 (planar, the default when not given) or 3 (spatial); an InputError for
/// anything else, or when it is not `expected` (then `refusal` says what reads it instead).
int modelDimension(const YAML::Node& model, std::string_view file, int expected, const std::string& refusal);

/// The YAML document of `text`. A file holds one: a second (after `---`) is an InputError at its
/// line of `file`, as a syntax error is.
YAML::Node loadDocument(std::string_view text, std::string_view file);

/// Runs `load` turning a yaml-cpp exception (a shape the checks did not foresee) into an
/// InputError at its line of `file`.
void withYamlErrors(std::string_view file, const std::function<void()>& load);

/// YAML text whose top-level key `model` is passed to `load`, with `values` in place of those
/// of its model.parameters; an error a value causes is located where it was given (the
/// scenario file, --set). Throws InputError, also for a YAML syntax error and for a value of a
/// parameter the model does not have.
void loadModelText(std::string_view text, std::string_view file, const std::vector<ParameterValue>& values,
                   const std::function<void(const YAML::Node& model)>& load);

/// An InputError when `file` is a character or block device, whose stream may never end
/// (/dev/zero).
void refuseDevice(std::string_view file);

/// The contents of the model file at `path`; InputError when it cannot be read or is a device.
std::string readModelFile(const std::string& path);

}  // namespace stickslip::mechanisms::model_file
