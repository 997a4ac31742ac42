#include "mechanisms/blajer.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "dynamics/routes/minimal_form/minimal_form_route.hpp"
#include "mechanisms/builtin_models.hpp"

namespace stickslip::mechanisms {
namespace {

void checkCommon(const char* who, std::initializer_list<double> positive, double mu_ts, double mu_tk,
                 double mu_rs, double mu_rk, double d) {
  std::ostringstream os;
  for (const double v : positive)
    if (!(v > 0.0) || !std::isfinite(v)) os << "masses and lengths > 0, got " << v;
  if (os.str().empty() && (!(mu_tk >= 0.0) || !(mu_ts >= mu_tk) || !(mu_rk >= 0.0) || !(mu_rs >= mu_rk)))
    os << "0 <= mu_k <= mu_s, got mu_t " << mu_ts << "/" << mu_tk << ", mu_r " << mu_rs << "/" << mu_rk;
  if (os.str().empty() && !(d > 0.0)) os << "d > 0, got " << d;
  if (!os.str().empty()) throw std::invalid_argument(std::string(who) + ": expected " + os.str());
}

}  // namespace

void Blajer1::validate() const {
  checkCommon("Blajer1", {m1, m2, m3, a1, a2, a3}, mu_ts, mu_tk, mu_rs, mu_rk, d);
  if (!(2 * a2 > 2 * a3 + 2 * a1))
    throw std::invalid_argument("Blajer1: expected a2 > a1 + a3 so that the crank turns fully, got a1 = " +
                                std::to_string(a1) + ", a2 = " + std::to_string(a2) + ", a3 = " + std::to_string(a3));
}

void Blajer2::validate() const {
  checkCommon("Blajer2", {m1, m2, m3, a1, a2}, mu_ts, mu_tk, mu_rs, mu_rk, d);
  if (!(a2 > a1)) throw std::invalid_argument("Blajer2: expected a rod longer than the crank (a2 > a1)");
  if (!std::isfinite(torque_amplitude + torque_frequency))
    throw std::invalid_argument("Blajer2: expected a finite torque amplitude and frequency");
}

MinimalFormScenario blajer1MinimalForm(const Blajer1& b) { return dynamics::minimalFormModel(blajer1Rigid(b)); }

dynamics::RigidScenario blajer1Rigid(const Blajer1& b) {
  b.validate();
  const auto on = [](bool x) { return x ? 1.0 : 0.0; };
  dynamics::RigidScenario s = builtinModel(
      "blajer-1", {{"m1", b.m1}, {"m2", b.m2}, {"m3", b.m3}, {"a1", b.a1}, {"a2", b.a2}, {"a3", b.a3}, {"g", b.g},
                   {"mu_ts", b.mu_ts}, {"mu_tk", b.mu_tk}, {"mu_rs", b.mu_rs}, {"mu_rk", b.mu_rk}, {"d", b.d},
                   {"friction_O", on(b.frictional.O)}, {"friction_A", on(b.frictional.A)},
                   {"friction_B", on(b.frictional.B)}, {"friction_guide", on(b.frictional.guide)},
                   {"friction", on(b.friction)}, {"theta1", b.theta1}});
  if (b.torque) s.model.addAppliedTorque(0, b.torque);  // on link 1
  return s;
}

MinimalFormScenario blajer2MinimalForm(const Blajer2& b) {
  b.validate();
  return dynamics::minimalFormModel(blajer2Rigid(b));
}

dynamics::RigidScenario blajer2Rigid(const Blajer2& b) {
  b.validate();
  const auto on = [](bool x) { return x ? 1.0 : 0.0; };
  std::vector<std::pair<std::string, double>> values{
      {"m1", b.m1}, {"m2", b.m2}, {"a1", b.a1}, {"a2", b.a2}, {"g", b.g}, {"mu_ts", b.mu_ts}, {"mu_tk", b.mu_tk},
      {"mu_rs", b.mu_rs}, {"mu_rk", b.mu_rk}, {"d", b.d}, {"friction_O", on(b.frictional.O)},
      {"friction_A", on(b.frictional.A)}, {"friction_B", on(b.frictional.B)},
      {"friction_guide", on(b.frictional.guide)}, {"torque_amplitude", b.torque_amplitude},
      {"torque_frequency", b.torque_frequency}};
  if (!b.pin_in_slot) values.push_back({"m3", b.m3});
  return builtinModel(b.pin_in_slot ? "blajer-2" : "blajer-2-slider", values);
}

MinimalFormScenario dupontMinimalForm(const Dupont& d) { return dynamics::minimalFormModel(dupontRigid(d)); }

}  // namespace stickslip::mechanisms
