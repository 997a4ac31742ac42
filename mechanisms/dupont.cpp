#include "mechanisms/dupont.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace stickslip::mechanisms {

void Dupont::validate() const {
  std::ostringstream os;
  if (!(m1 > 0.0) || !(m2 > 0.0)) os << "masses > 0, got " << m1 << ", " << m2;
  else if (!(mu_kinetic >= 0.0) || !(mu_static >= mu_kinetic))
    os << "0 <= mu_kinetic <= mu_static, got " << mu_kinetic << ", " << mu_static;
  else if (!std::isfinite(f1_amplitude + f1_frequency + f2_amplitude + f2_frequency))
    os << "finite force amplitudes and frequencies";
  if (!os.str().empty()) throw std::invalid_argument("Dupont: expected " + os.str());
}

dynamics::RigidScenario dupontRigid(const Dupont& d) {
  d.validate();
  dynamics::RigidScenario s;
  s.name = "dupont";
  const auto m1 = s.model.addBody("m1", d.m1, d.m1 * 1e-4);
  const auto m2 = s.model.addBody("m2", d.m2, d.m2 * 1e-4);
  s.model.addTranslational(dynamics::kGround, {0.0, 0.0}, {0.0, 1.0}, m2, {0.0, 0.0}, 0.0, "guide");
  const double a1 = d.f1_amplitude, w1 = d.f1_frequency, a2 = d.f2_amplitude, w2 = d.f2_frequency;
  s.model.addAppliedForce(m1, {0.0, 0.0}, [a1, w1](double t) { return Eigen::Vector2d(a1 * std::sin(w1 * t), 0.0); });
  s.model.addAppliedForce(m2, {0.0, 0.0}, [a2, w2](double t) { return Eigen::Vector2d(0.0, a2 * std::cos(w2 * t)); });
  dynamics::RigidContact slot;
  slot.name = "slot";
  slot.normal = dynamics::RigidContact::Normal::kBilateral;
  slot.body_i = m1;
  slot.body_j = m2;
  slot.mu_static = d.mu_static;
  slot.mu_kinetic = d.mu_kinetic;
  s.contacts.push_back(slot);
  s.q0 = Eigen::VectorXd::Zero(6);
  s.v0 = Eigen::VectorXd::Zero(6);
  return s;
}

namespace {

// First t in (t0, t_end] where f changes sign from its sign just after t0 (or reaches 0),
// bracketed on a 1 ms grid and bisected; t_end + 1 if none.
template <class F>
double firstRoot(F f, double t0, double t_end) {
  const double dt = 1e-3;
  double a = t0 + 1e-12, fa = f(a);
  while (a < t_end) {
    const double b = std::min(a + dt, t_end), fb = f(b);
    if ((fa > 0.0) != (fb > 0.0) || fb == 0.0) {
      double lo = a, hi = b;
      while (hi - lo > 1e-14) {
        const double mid = 0.5 * (lo + hi);
        if ((f(mid) > 0.0) == (fa > 0.0)) lo = mid;
        else hi = mid;
      }
      return 0.5 * (lo + hi);
    }
    a = b;
    fa = fb;
  }
  return t_end + 1.0;
}

}  // namespace

std::vector<std::pair<double, std::string>> dupontReference(const Dupont& d, double t_end) {
  d.validate();
  const double a1 = d.f1_amplitude, w1 = d.f1_frequency, a2 = d.f2_amplitude, w2 = d.f2_frequency;
  auto f1 = [&](double t) { return a1 * std::sin(w1 * t); };
  auto normal = [&](double t) { return d.m1 * std::abs(a2 * std::cos(w2 * t)) / (d.m1 + d.m2); };
  // I(t) = ∫₀ᵗ |cos ω₂τ| dτ: each half period of cos contributes 2/ω₂.
  auto integral = [&](double t) {
    const double u = w2 * t + M_PI / 2, m = std::floor(u / M_PI), r = u - m * M_PI;
    return (2.0 * m + 1.0 - std::cos(r) - 1.0) / w2;
  };
  std::vector<std::pair<double, std::string>> events;
  double t = 0.0;
  bool sticking = std::abs(f1(0.0)) <= d.mu_static * normal(0.0);
  double s = f1(0.0) >= 0.0 ? 1.0 : -1.0;
  while (t < t_end) {
    if (sticking) {
      t = firstRoot([&](double x) { return d.mu_static * normal(x) - std::abs(f1(x)); }, t, t_end);
      if (t > t_end) break;
      s = f1(t) >= 0.0 ? 1.0 : -1.0;
      sticking = false;
      events.emplace_back(t, s > 0 ? "slip+" : "slip-");
      continue;
    }
    const double t0 = t, sign = s;
    auto velocity = [&](double x) {
      return a1 / w1 * (std::cos(w1 * t0) - std::cos(w1 * x)) / d.m1 -
             sign * d.mu_kinetic * a2 * (integral(x) - integral(t0)) / (d.m1 + d.m2);
    };
    t = firstRoot(velocity, t0, t_end);
    if (t > t_end) break;
    if (std::abs(f1(t)) <= d.mu_static * normal(t)) {
      sticking = true;
      events.emplace_back(t, "stick");
    } else {
      s = -s;
      events.emplace_back(t, s > 0 ? "slip+" : "slip-");
    }
  }
  return events;
}

}  // namespace stickslip::mechanisms
