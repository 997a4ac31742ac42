#include "mechanisms/coulomb_reference.hpp"

#include <algorithm>
#include <cmath>

namespace stickslip::mechanisms {
namespace {

// First t in (t0, t_end] where f leaves its sign just after t0; t_end + 1 if none.
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

std::vector<std::pair<double, std::string>> coulombReference(const CoulombCoordinate& c, double t_end) {
  std::vector<std::pair<double, std::string>> events;
  double t = 0.0;
  bool sticking = std::abs(c.force(0.0)) <= c.mu_static * c.normal(0.0);
  double s = c.force(0.0) >= 0.0 ? 1.0 : -1.0;
  while (t < t_end) {
    if (sticking) {
      t = firstRoot([&](double x) { return c.mu_static * c.normal(x) - std::abs(c.force(x)); }, t, t_end);
      if (t > t_end) break;
      s = c.force(t) >= 0.0 ? 1.0 : -1.0;
      sticking = false;
      events.emplace_back(t, s > 0 ? "slip+" : "slip-");
      continue;
    }
    const double t0 = t, sign = s;
    auto velocity = [&](double x) {
      return (c.force_integral(x) - c.force_integral(t0) -
              sign * c.mu_kinetic * (c.normal_integral(x) - c.normal_integral(t0))) / c.mass;
    };
    t = firstRoot(velocity, t0, t_end);
    if (t > t_end) break;
    if (std::abs(c.force(t)) <= c.mu_static * c.normal(t)) {
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
