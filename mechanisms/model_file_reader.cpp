#include "mechanisms/model_file_reader.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace stickslip::mechanisms::model_file {

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

void StateVariables::set(double time, const Eigen::Ref<const Eigen::VectorXd>& qq,
                         const Eigen::Ref<const Eigen::VectorXd>& vv) {
  t = time;
  std::copy(qq.data(), qq.data() + q.size(), q.begin());
  std::copy(vv.data(), vv.data() + v.size(), v.begin());
}

double firstDerivative(Expression& f, double t) {
  constexpr double h = 1e-3;
  return (f.at(t - 2 * h) - 8 * f.at(t - h) + 8 * f.at(t + h) - f.at(t + 2 * h)) / (12 * h);
}

double secondDerivative(Expression& f, double t) {
  constexpr double h = 1e-2;
  return (-f.at(t - 2 * h) + 16 * f.at(t - h) - 30 * f.at(t) + 16 * f.at(t + h) - f.at(t + 2 * h)) / (12 * h * h);
}

void ModelFileReader::fail(const YAML::Node& n, const std::string& path, const std::string& what) const {
  throw InputError(located(file_, lineOf(n), path, what));
}

void ModelFileReader::fail(int line, const std::string& path, const std::string& what) const {
  throw InputError(located(file_, line, path, what));
}

void ModelFileReader::requireMap(const YAML::Node& n, const std::string& path, const std::string& what) const {
  if (!n.IsMap()) fail(n, path, "expected " + what);
}

void ModelFileReader::checkKeys(const YAML::Node& n, const std::string& path, const std::vector<std::string>& valid,
                                const std::vector<std::string>& unlisted) const {
  std::vector<std::string> all = valid;
  all.insert(all.end(), unlisted.begin(), unlisted.end());
  std::set<std::string> seen;
  for (const auto& kv : n) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
    const std::string where = path + "." + key;
    if (!kv.first.IsScalar()) fail(kv.first, path, "expected a plain key (one of " + joined(valid) + ")");
    if (std::find(all.begin(), all.end(), key) == all.end())
      fail(kv.first, where, "unknown key (expected one of " + joined(valid) + ")" + didYouMean(key, all));
    if (!seen.insert(key).second) fail(kv.first, where, "given twice");
  }
}

YAML::Node ModelFileReader::required(const YAML::Node& n, const std::string& path, const std::string& key,
                                     const std::string& what) const {
  const YAML::Node v = n[key];
  if (!v.IsDefined() || v.IsNull()) fail(n, path + "." + key, "missing: give " + what);
  return v;
}

std::string ModelFileReader::scalar(const YAML::Node& n, const std::string& path) const {
  if (!n.IsScalar())
    fail(n, path, "expected a single value, got a " + std::string(n.IsMap() ? "map" : n.IsSequence() ? "list" : "null"));
  return n.Scalar();
}

std::string ModelFileReader::scalar(const YAML::Node& parent, const std::string& path, const std::string& key,
                                    const std::string& fallback) const {
  return parent[key].IsDefined() ? scalar(parent[key], path + "." + key) : fallback;
}

std::string ModelFileReader::printableName(const YAML::Node& parent, const std::string& path,
                                           const std::string& fallback) const {
  if (!parent["name"].IsDefined()) return fallback;
  std::string name = scalar(parent["name"], path + ".name");
  const auto unfit = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == ',' || c == '"'; };
  if (name.empty()) fail(parent["name"], path + ".name", "expected a name, got an empty one");
  if (std::any_of(name.begin(), name.end(), unfit))
    fail(parent["name"], path + ".name", "expected a name without control characters, commas or double quotes (it "
                                         "heads the CSV's columns)");
  try {
    (void)nlohmann::json(name).dump();  // throws on bytes that are not UTF-8
  } catch (const nlohmann::json::type_error&) {
    fail(parent["name"], path + ".name", "expected a name in UTF-8");
  }
  return name;
}

std::string ModelFileReader::elementName(const YAML::Node& parent, const std::string& path,
                                         const std::string& fallback) {
  const auto owner = [&](const std::string& name) {
    return std::find_if(element_names_.begin(), element_names_.end(), [&](const auto& e) { return e.first == name; });
  };
  std::string name = printableName(parent, path, fallback);
  if (parent["name"].IsDefined()) {
    if (const auto it = owner(name); it != element_names_.end())
      fail(parent["name"], path + ".name",
           "'" + name + "' is already the name of " + it->second +
               ": joints, drivers and contacts need distinct names (they head the history's columns)");
  } else {
    for (int k = 2; owner(name) != element_names_.end(); ++k) name = fallback + "-" + std::to_string(k);
  }
  element_names_.emplace_back(name, path);
  return name;
}

std::string ModelFileReader::choice(const YAML::Node& parent, const std::string& path, const std::string& key,
                                    const std::vector<std::string>& valid, const std::string& noun) const {
  const std::string x = scalar(required(parent, path, key, "one of " + joined(valid)), path + "." + key);
  if (std::find(valid.begin(), valid.end(), x) == valid.end())
    fail(parent[key], path + "." + key,
         "unknown " + noun + " '" + x + "' (expected " + joined(valid) + ")" + didYouMean(x, valid));
  return x;
}

std::shared_ptr<Expression> ModelFileReader::expression(const YAML::Node& n, const std::string& path, Vars vars) const {
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
      for (const auto& [name, value] : state_variables_) {
        e->parser.DefineVar(name, value);
        names.push_back(name);
      }
    }
    e->parser.SetExpr(text);
    int results = 0;
    e->parser.Eval(results);  // parses now: syntax errors at load time
    // muParser takes "0.2,0.3" as two results and would give the last: a list is no value.
    if (results != 1)
      fail(n, path,
           "expression \"" + text + "\": expected one value, got " + std::to_string(results) +
               " separated by commas");
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
      else if (vars == Vars::kTime || state_hint_.empty()) what += " (a function of t and model.parameters only)";
      else what += " (variables: t, " + state_hint_ + ", and model.parameters)";
    }
    fail(n, path, what);
  }
  return e;
}

double ModelFileReader::number(const YAML::Node& n, const std::string& path) const {
  const std::string text = scalar(n, path);
  double x = 0.0;
  const char* begin = text.data() + (!text.empty() && text[0] == '+' ? 1 : 0);
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(begin, end, x);
  const bool literal = ec == std::errc() && ptr == end && begin != end;
  if (!literal) x = expression(n, path, Vars::kConstants)->evaluate();
  // A denormal value is a typo or an underflow; the dynamics would divide by it.
  if (!std::isfinite(x) || std::fpclassify(x) == FP_SUBNORMAL)
    fail(n, path, "expected a finite number of normal magnitude (0, or above 2.2250738585072014e-308), got " + text +
                      (literal ? "" : " = " + std::to_string(x)));
  return x;
}

double ModelFileReader::number(const YAML::Node& parent, const std::string& path, const std::string& key,
                               double fallback) const {
  const YAML::Node n = parent[key];
  if (!n.IsDefined()) return fallback;
  return number(n, path + "." + key);
}

std::optional<double> ModelFileReader::restitution(const YAML::Node& parent, const std::string& path,
                                                   const std::string& key) const {
  const YAML::Node n = parent[key];
  if (!n.IsDefined()) return std::nullopt;
  const double e = number(n, path + "." + key);
  if (!(e >= 0.0 && e <= 1.0))
    fail(n, path + "." + key, "expected a coefficient of restitution in [0, 1], got " + valueText(n, e));
  return e;
}

double ModelFileReader::numberAtLeast(const YAML::Node& parent, const std::string& path, const std::string& key,
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

std::string ModelFileReader::valueText(const YAML::Node& n, double x) {
  std::ostringstream os;
  os << x;
  return n.Scalar() == os.str() ? os.str() : n.Scalar() + " = " + os.str();
}

void ModelFileReader::numbers(const YAML::Node& n, const std::string& path, int count, double* out,
                              const std::string& shape) const {
  if (!n.IsSequence() || n.size() != static_cast<std::size_t>(count)) fail(n, path, "expected " + shape);
  for (int c = 0; c < count; ++c) out[c] = number(n[static_cast<std::size_t>(c)], path + "[" + std::to_string(c) + "]");
}

void ModelFileReader::checkDirection(const YAML::Node& n, const std::string& path, double norm,
                                     const std::string& what) const {
  if (!(norm > 0.0) || !std::isfinite(norm)) fail(n, path, "expected a nonzero direction" + what);
}

double ModelFileReader::bodyMass(const YAML::Node& b, const std::string& path) const {
  const double mass = number(required(b, path, "mass", "the mass [kg] > 0"), path + ".mass");
  if (!(mass > 0.0)) fail(b["mass"], path + ".mass", "expected a mass > 0 [kg], got " + valueText(b["mass"], mass));
  return mass;
}

void ModelFileReader::forEachBody(
    const YAML::Node& bodies, const std::vector<std::string>& keys,
    const std::function<void(std::size_t, const YAML::Node&, const std::string&, double)>& read) const {
  for (std::size_t k = 0; k < body_names_.size(); ++k) {
    const YAML::Node b = bodies[k];
    const std::string path = "model.bodies[" + std::to_string(k) + "]";
    checkKeys(b, path, keys);
    read(k, b, path, bodyMass(b, path));
  }
}

void ModelFileReader::requireFiniteLoads(const YAML::Node& bodies, const dynamics::MultibodySystem& system,
                                         const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) const {
  Eigen::VectorXd loads(system.velocitySize());
  system.generalizedForces(0.0, q0, v0, loads);
  for (Eigen::Index i = 0; i < loads.size(); ++i) {
    if (std::isfinite(loads(i))) continue;
    const std::size_t k = std::size_t(i) / (std::size_t(loads.size()) / body_names_.size());
    std::ostringstream os;
    os << "the loads on body '" << body_names_[k] << "' at t = 0 ";
    if (std::isnan(loads(i)))
      os << "are not a number (NaN along " << system.velocityName(i) << "): a force on it (model.forces) is "
         << "undefined there, as the square root or logarithm of a negative number or 0/0 is";
    else
      os << "overflow (" << loads(i) << " along " << system.velocityName(i) << "): its mass, the gravity or a "
         << "force on it is too large for double precision; give the model in other units";
    fail(bodies[k], "model.bodies[" + std::to_string(k) + "]", os.str());
  }
}

BodyIndex ModelFileReader::body(const YAML::Node& parent, const std::string& path, const std::string& key,
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

BodyIndex ModelFileReader::loadedBody(const YAML::Node& parent, const std::string& path) const {
  const BodyIndex b = body(parent, path, "body", false);
  if (b == kGround)
    fail(parent["body"], path + ".body", "expected a body of model.bodies, got ground (it does not move: a load on it does nothing)");
  return b;
}

std::pair<BodyIndex, BodyIndex> ModelFileReader::bodyPair(const YAML::Node& n, const std::string& path,
                                                          const std::string& why) const {
  const BodyIndex bi = body(n, path, "body_i", false), bj = body(n, path, "body_j", false);
  if (bi == bj) fail(n["body_j"], path + ".body_j", "expected a body other than body_i" + why);
  return {bi, bj};
}

ModelFileReader::SpringDamper ModelFileReader::springDamper(const YAML::Node& f, const std::string& path) const {
  SpringDamper s;
  s.stiffness = numberAtLeast(f, path, "stiffness", 0.0, 0.0, false);
  s.damping = numberAtLeast(f, path, "damping", 0.0, 0.0, false);
  s.rest_length = numberAtLeast(f, path, "rest_length", 0.0, 0.0, false);
  return s;
}

std::function<double(double)> ModelFileReader::timeFunction(const std::shared_ptr<Expression>& e) {
  return [e](double t) { return e->at(t); };
}

TimeSignal ModelFileReader::timeSignal(const YAML::Node& d, const std::string& path, const std::string& key,
                                       const std::string& rate_key, const std::string& acceleration_key,
                                       const std::string& what) const {
  TimeSignal s;
  s.expression = expression(required(d, path, key, what), path + "." + key, Vars::kTime);
  s.of_time = s.expression->uses_time;
  s.value = timeFunction(s.expression);
  if (!s.of_time) {  // a constant: its rate and acceleration, if given, must say so
    for (const std::string& k : {rate_key, acceleration_key})
      if (d[k].IsDefined() && number(d[k], path + "." + k) != 0.0)
        fail(d[k], path + "." + k, "expected 0: the " + key + " does not change with t");
    s.rate = s.acceleration = [](double) { return 0.0; };
    return s;
  }
  // Rate and acceleration not given: differentiated numerically (five-point differences);
  // given: checked against those differences.
  std::shared_ptr<Expression> r;
  const std::shared_ptr<Expression> value = s.expression;
  if (d[rate_key].IsDefined()) {
    r = expression(d[rate_key], path + "." + rate_key, Vars::kTime);
    s.rate = timeFunction(r);
    checkDerivative(s.value, s.rate, d[rate_key], path + "." + rate_key, key);
  } else {
    s.rate = [value](double t) { return firstDerivative(*value, t); };
  }
  if (d[acceleration_key].IsDefined()) {
    s.acceleration = timeFunction(expression(d[acceleration_key], path + "." + acceleration_key, Vars::kTime));
    checkDerivative(s.rate, s.acceleration, d[acceleration_key], path + "." + acceleration_key,
                    r ? rate_key : key + "'s rate");
  } else if (r) {
    s.acceleration = [r](double t) { return firstDerivative(*r, t); };
  } else {
    s.acceleration = [value](double t) { return secondDerivative(*value, t); };
  }
  return s;
}

void ModelFileReader::checkDerivative(const std::function<double(double)>& f,
                                      const std::function<double(double)>& derivative, const YAML::Node& n,
                                      const std::string& path, const std::string& of) const {
  // Five-point differences with steps h and h/2: the second is within |d_h − d_h/2| / 15 of
  // f′ (truncation O(h⁴)). Three pairs of nearby times: a kink can spoil one of a pair, a
  // wrong derivative fails both.
  const auto difference = [&](double t, double h) {
    return (f(t - 2 * h) - 8 * f(t - h) + 8 * f(t + h) - f(t + 2 * h)) / (12 * h);
  };
  constexpr int kSamples = 6;
  const double times[kSamples] = {0.1234567, 0.1371234, 0.7654321, 0.7791234, 2.3456789, 2.3593456};
  double fine[kSamples], given[kSamples], size = 0.0;
  bool wrong[kSamples];
  for (int k = 0; k < kSamples; ++k) {
    fine[k] = difference(times[k], 5e-4);
    if (std::isfinite(fine[k])) size = std::max(size, std::abs(fine[k]));
  }
  for (int k = 0; k < kSamples; ++k) {
    given[k] = derivative(times[k]);
    const double allowance = 10.0 * std::abs(difference(times[k], 1e-3) - fine[k]);
    wrong[k] = std::isfinite(given[k]) && std::isfinite(fine[k]) && std::isfinite(allowance) &&
               std::abs(given[k] - fine[k]) > allowance + 1e-6 * (size + std::abs(given[k]));
  }
  for (int k = 0; k < kSamples; k += 2) {
    if (!wrong[k] || !wrong[k + 1]) continue;
    std::ostringstream os;
    os << "expected the derivative of " << of << ": at t = " << times[k] << " it is " << given[k] << ", but " << of
       << " changes at " << fine[k] << " (five-point differences); correct it, or leave it out to have it "
       << "differentiated";
    fail(n, path, os.str());
  }
}

YAML::Node ModelFileReader::list(const YAML::Node& model, const std::string& key) const {
  const YAML::Node n = model[key];
  if (n.IsDefined() && !n.IsNull() && !n.IsSequence()) fail(n, "model." + key, "expected a list (- item per line)");
  return n.IsDefined() && !n.IsNull() ? n : YAML::Node(YAML::NodeType::Sequence);
}

void ModelFileReader::readBodyNames(const YAML::Node& bs, const std::string& list_fields,
                                    const std::string& map_fields,
                                    const std::function<std::string(const std::string&)>& variable) {
  if (!bs.IsSequence() || bs.size() == 0) fail(bs, "model.bodies", "expected a list of bodies {" + list_fields + "}");
  for (std::size_t k = 0; k < bs.size(); ++k) {
    const std::string path = "model.bodies[" + std::to_string(k) + "]";
    requireMap(bs[k], path, "a map with " + map_fields);
    const std::string name = scalar(required(bs[k], path, "name", "the body's name"), path + ".name");
    if (!isIdentifier(name))
      fail(bs[k]["name"], path + ".name", "expected a name of letters, digits and '_' (it names " + variable(name) +
                                              ", ...)");
    if (name == "ground") fail(bs[k]["name"], path + ".name", "'ground' is the fixed frame; choose another name");
    if (std::find(body_names_.begin(), body_names_.end(), name) != body_names_.end())
      fail(bs[k]["name"], path + ".name", "body '" + name + "' given twice");
    body_names_.push_back(name);
  }
}

void ModelFileReader::readParameters(const YAML::Node& n, const std::vector<std::string>& reserved,
                                     const std::string& reserved_what) {
  if (!n.IsDefined() || n.IsNull()) return;
  requireMap(n, "model.parameters", "a map of name: value");
  std::set<std::string> seen;
  for (const auto& kv : n) {
    const std::string name = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
    const std::string path = "model.parameters." + name;
    if (!isIdentifier(name)) fail(kv.first, path, "expected a name of letters, digits and '_' (not starting with a digit)");
    if (!seen.insert(name).second) fail(kv.first, path, "given twice");
    if (name == "t" || name == "pi" || std::find(reserved.begin(), reserved.end(), name) != reserved.end())
      fail(kv.first, path, "reserved name (" + reserved_what + "); choose another");
    // May use the parameters above it; true and false are 1 and 0 (a switch: μ·switch).
    const bool flag = kv.second.IsScalar() && (kv.second.Scalar() == "true" || kv.second.Scalar() == "false");
    const double x = flag ? double(kv.second.Scalar() == "true") : number(kv.second, path);
    parameters_.emplace_back(name, x);
  }
}

std::vector<Eigen::Index> ModelFileReader::nameIndices(const YAML::Node& n, const std::string& path,
                                                       const std::vector<std::string>& names,
                                                       const std::string& list_what, const std::string& noun,
                                                       const std::string& expected) const {
  std::vector<Eigen::Index> indices;
  if (!n.IsDefined() || n.IsNull()) return indices;
  if (!n.IsSequence()) fail(n, path, "expected " + list_what);
  for (std::size_t k = 0; k < n.size(); ++k) {
    const std::string where = path + "[" + std::to_string(k) + "]";
    const std::string name = scalar(n[k], where);
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
      fail(n[k], where, "unknown " + noun + " '" + name + "' (expected " + expected + ")" + didYouMean(name, names));
    const auto index = static_cast<Eigen::Index>(it - names.begin());
    if (std::find(indices.begin(), indices.end(), index) != indices.end()) fail(n[k], where, "given twice");
    indices.push_back(index);
  }
  return indices;
}

std::string ModelFileReader::assemblyFailure(const dynamics::AssemblyResult& r, const std::string& what) {
  std::ostringstream os;
  os << "kinematic assembly cannot close " << what << " at t = 0 from the bodies' positions ("
     << dynamics::toString(r.status) << ": " << r.message << "; residual " << r.position_residual
     << "): give positions nearer to an assembled configuration, or hold fewer or other coordinates in "
        "initial.independent";
  return os.str();
}

int modelDimension(const YAML::Node& model, std::string_view file, int expected, const std::string& refusal) {
  const YAML::Node n = model.IsMap() ? model["dimension"] : YAML::Node();
  if (!n.IsDefined() || n.IsNull()) {
    if (expected == 2) return 2;
    throw InputError(located(file, lineOf(model), "model.dimension", "missing: " + refusal));
  }
  const std::string text = n.IsScalar() ? n.Scalar() : std::string();
  const int dimension = text == "2" ? 2 : text == "3" ? 3 : 0;
  if (dimension == 0)
    throw InputError(located(file, lineOf(n), "model.dimension",
                             "expected 2 (a planar mechanism) or 3 (a spatial one), got " +
                                 (n.IsScalar() ? "'" + text + "'" : std::string(n.IsMap() ? "a map" : "a list"))));
  if (dimension != expected) throw InputError(located(file, lineOf(n), "model.dimension", refusal));
  return dimension;
}

void withYamlErrors(std::string_view file, const std::function<void()>& load) {
  try {
    load();
  } catch (const YAML::Exception& e) {  // a shape the checks did not foresee
    throw InputError(located(file, e.mark.line >= 0 ? e.mark.line + 1 : 0, "model", "unexpected YAML: " + e.msg));
  }
}

YAML::Node loadDocument(std::string_view text, std::string_view file) {
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(std::string(text));
  } catch (const YAML::ParserException& e) {
    throw InputError(located(file, e.mark.line + 1, "", "YAML syntax error: " + e.msg));
  } catch (const YAML::Exception& e) {
    throw InputError(located(file, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", "YAML error: " + e.msg));
  }
  if (documents.size() > 1)
    throw InputError(located(file, lineOf(documents[1]), "",
                             "a second YAML document (after '---'): a file holds one"));
  return documents.empty() ? YAML::Node() : documents[0];
}

void loadModelText(std::string_view text, std::string_view file, const std::vector<ParameterValue>& values,
                   const std::function<void(const YAML::Node& model)>& load) {
  const YAML::Node root = loadDocument(text, file);
  if (!root.IsMap()) throw InputError(located(file, lineOf(root), "", "expected a map with the key model"));
  if (values.empty()) return load(root["model"]);
  YAML::Node constants = root["model"]["parameters"];
  std::vector<std::string> names;
  if (constants.IsMap())
    for (const auto& kv : constants) names.push_back(kv.first.Scalar());
  for (const ParameterValue& v : values) {
    if (std::find(names.begin(), names.end(), v.name) == names.end())
      throw InputError(located(v.origin, v.line, v.key,
                               "no such parameter in " + std::string(file) + didYouMean(v.name, names) +
                                   " (it has: " + joined(names) + ")"));
    constants[v.name] = v.value;
  }
  try {
    load(root["model"]);
  } catch (const InputError& e) {
    // Located where the value was given: the one the message names as a parameter, else the
    // last given of those it names at all, else the only one.
    const std::string what = e.what();
    const ParameterValue* blamed = values.size() == 1 ? &values.front() : nullptr;
    for (const ParameterValue& v : values)
      if (mentions(what, v.name)) blamed = &v;
    for (const ParameterValue& v : values)
      if (what.find("model.parameters." + v.name + ":") != std::string::npos) blamed = &v;
    if (!blamed) throw;
    throw InputError(located(blamed->origin, blamed->line, blamed->key,
                             "the value " + blamed->value + " is rejected by " + what));
  }
}

void refuseDevice(std::string_view file) {
  const std::filesystem::path path(file);
  if (std::filesystem::is_character_file(path) || std::filesystem::is_block_file(path))
    throw InputError(located(file, 0, "", "is a device, not a file"));
}

std::string readModelFile(const std::string& path) {
  refuseDevice(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(located(path, 0, "", "cannot read the model file (missing or unreadable)"));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

dynamics::NormalLaw ModelFileReader::normalLaw(const YAML::Node& law, const std::string& lpath) const {
  requireMap(law, lpath, "a map with type, stiffness, exponent (restitution, min_impact_velocity)");
  const std::vector<std::string> laws{"hertz", "hunt_crossley", "lankarani_nikravesh", "flores"};
  const std::string lt = choice(law, lpath, "type", laws, "normal law");
  if (lt == "hertz") checkKeys(law, lpath, {"type", "stiffness", "exponent"});
  else checkKeys(law, lpath, {"type", "stiffness", "exponent", "restitution", "min_impact_velocity"});
  required(law, lpath, "stiffness", "K [N/m^n] > 0");
  const double K = numberAtLeast(law, lpath, "stiffness", 0.0, 0.0, true);
  const double n = numberAtLeast(law, lpath, "exponent", 1.5, 1.0, false);
  if (lt == "hertz") return dynamics::HertzLaw{K, n};
  dynamics::DissipativeHertzParameters p;
  p.stiffness = K;
  p.exponent = n;
  p.restitution = number(law, lpath, "restitution", p.restitution);
  if (!(p.restitution >= 0.0 && p.restitution <= 1.0) || (lt == "flores" && p.restitution == 0.0))
    fail(law["restitution"], lpath + ".restitution",
         std::string("expected a coefficient of restitution in ") + (lt == "flores" ? "(0, 1]" : "[0, 1]"));
  p.min_impact_velocity = numberAtLeast(law, lpath, "min_impact_velocity", p.min_impact_velocity, 0.0, true);
  if (lt == "hunt_crossley") return dynamics::HuntCrossleyLaw{p};
  if (lt == "lankarani_nikravesh") return dynamics::LankaraniNikraveshLaw{p};
  return dynamics::FloresLaw{p};
}

void ModelFileReader::coulomb(const YAML::Node& n, const std::string& path, double& mu_static, double& mu_kinetic) const {
  const bool both = n["mu"].IsDefined(), s = n["mu_static"].IsDefined(), k = n["mu_kinetic"].IsDefined();
  if (both && (s || k)) fail(n["mu"], path + ".mu", "give either mu (both coefficients) or mu_static and mu_kinetic");
  // μ N must stay a number: μ = 1e308 made the contact problem at t = 0 overflow. A bound far
  // above any surface's still holds a body as firmly as one wants.
  constexpr double kLargest = 1e100;
  const auto coefficient = [&](const char* key) {
    const double mu = numberAtLeast(n, path, key, 0.0, 0.0, false);
    if (mu > kLargest)
      fail(n[key], path + "." + key,
           "expected a friction coefficient <= 1e+100 (mu times a load must not overflow), got " +
               valueText(n[key], mu));
    return mu;
  };
  if (both) {
    mu_static = mu_kinetic = coefficient("mu");
    return;
  }
  if (s != k)
    fail(n[s ? "mu_static" : "mu_kinetic"], path + (s ? ".mu_static" : ".mu_kinetic"),
         std::string("give mu_kinetic and mu_static together (or mu for both); ") + (s ? "mu_kinetic" : "mu_static") +
             " is missing");
  mu_kinetic = coefficient("mu_kinetic");
  mu_static = coefficient("mu_static");
  if (!(mu_kinetic <= mu_static)) {
    std::ostringstream os;
    os << "expected mu_kinetic <= mu_static, got mu_kinetic = " << mu_kinetic << " > mu_static = " << mu_static
       << "; lower mu_kinetic or raise mu_static";
    fail(n["mu_kinetic"], path + ".mu_kinetic", os.str());
  }
}

}  // namespace stickslip::mechanisms::model_file
