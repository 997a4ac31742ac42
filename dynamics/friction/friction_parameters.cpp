#include "dynamics/friction/friction_parameters.hpp"

#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace stickslip::dynamics {
namespace {

struct Field {
  std::string_view name;
  double FrictionParameters::*member;
};

constexpr std::array kFields = {
    Field{"mu_s", &FrictionParameters::mu_s},
    Field{"mu_k", &FrictionParameters::mu_k},
    Field{"viscous", &FrictionParameters::viscous},
    Field{"stribeck_velocity", &FrictionParameters::stribeck_velocity},
    Field{"stribeck_exponent", &FrictionParameters::stribeck_exponent},
    Field{"karnopp_velocity", &FrictionParameters::karnopp_velocity},
    Field{"tolerance_velocity", &FrictionParameters::tolerance_velocity},
    Field{"modified_v0", &FrictionParameters::modified_v0},
    Field{"modified_v1", &FrictionParameters::modified_v1},
    Field{"xi", &FrictionParameters::xi},
    Field{"stiction_coefficient", &FrictionParameters::stiction_coefficient},
    Field{"sigma0", &FrictionParameters::sigma0},
    Field{"sigma1", &FrictionParameters::sigma1},
    Field{"sigma2", &FrictionParameters::sigma2},
    Field{"dwell_time", &FrictionParameters::dwell_time},
    Field{"bristle_stiffness", &FrictionParameters::bristle_stiffness},
    Field{"threshold_velocity", &FrictionParameters::threshold_velocity},
    Field{"bristle_damping", &FrictionParameters::bristle_damping},
    Field{"switch_damping", &FrictionParameters::switch_damping},
    Field{"reference_normal_force", &FrictionParameters::reference_normal_force},
    Field{"breakaway_ratio", &FrictionParameters::breakaway_ratio},
    Field{"bliman_sorine_length", &FrictionParameters::bliman_sorine_length},
    Field{"bliman_sorine_eta", &FrictionParameters::bliman_sorine_eta},
    Field{"gms_attraction", &FrictionParameters::gms_attraction},
    Field{"lag_time", &FrictionParameters::lag_time},
    Field{"breakaway_rise", &FrictionParameters::breakaway_rise},
    Field{"transition_eccentricity", &FrictionParameters::transition_eccentricity},
    Field{"transition_exponent", &FrictionParameters::transition_exponent},
};

constexpr auto kFieldNames = [] {
  std::array<std::string_view, kFields.size()> names{};
  for (std::size_t i = 0; i < kFields.size(); ++i) names[i] = kFields[i].name;
  return names;
}();

const Field& findField(std::string_view name) {
  for (const Field& f : kFields)
    if (f.name == name) return f;
  std::ostringstream os;
  os << "FrictionParameters: expected one of";
  for (std::string_view n : kFieldNames) os << ' ' << n;
  os << ", got '" << name << "'";
  throw std::invalid_argument(os.str());
}

std::string number(double x) {
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}

[[noreturn]] void fail(std::string_view who, std::string_view expected, std::string_view field,
                       double value) {
  throw std::invalid_argument(std::string(who) + ": expected " + std::string(expected) + ", got " +
                              std::string(field) + " = " + number(value));
}

}  // namespace

std::span<const std::string_view> frictionParameterNames() { return kFieldNames; }

void FrictionParameters::set(std::string_view name, double value) {
  this->*findField(name).member = value;
}

double FrictionParameters::get(std::string_view name) const { return this->*findField(name).member; }

void FrictionParameters::validate(std::string_view who) const {
  for (const Field& f : kFields)
    if (!std::isfinite(this->*f.member)) fail(who, "finite parameters", f.name, this->*f.member);
  for (const Field& f : kFields)
    if (this->*f.member < 0.0) fail(who, "non-negative parameters", f.name, this->*f.member);
  if (mu_k > mu_s)
    throw std::invalid_argument(std::string(who) + ": expected mu_k <= mu_s, got mu_k = " +
                                number(mu_k) + ", mu_s = " + number(mu_s));
  // Velocity scales and stiffnesses divide: they must be positive.
  for (std::string_view name :
       {"stribeck_velocity", "stribeck_exponent", "karnopp_velocity", "tolerance_velocity",
        "modified_v1", "sigma0", "dwell_time", "bristle_stiffness", "threshold_velocity",
        "bristle_damping", "reference_normal_force", "bliman_sorine_length",
        "bliman_sorine_eta", "gms_attraction", "lag_time", "transition_eccentricity",
        "transition_exponent"})
    if (!(get(name) > 0.0)) fail(who, "a positive value", name, get(name));
  if (!(modified_v0 < modified_v1))
    throw std::invalid_argument(std::string(who) +
                                ": expected modified_v0 < modified_v1, got modified_v0 = " +
                                number(modified_v0) + ", modified_v1 = " + number(modified_v1));
  if (!(breakaway_ratio < 1.0)) fail(who, "breakaway_ratio < 1", "breakaway_ratio", breakaway_ratio);
  if (!(transition_eccentricity < kMaxEccentricity))
    fail(who, "transition_eccentricity < 0.999 (the film's thinnest)", "transition_eccentricity",
         transition_eccentricity);
  if (!(bliman_sorine_eta < 1.0))
    fail(who, "bliman_sorine_eta < 1", "bliman_sorine_eta", bliman_sorine_eta);
}

}  // namespace stickslip::dynamics
