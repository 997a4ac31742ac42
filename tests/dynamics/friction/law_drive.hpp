#pragma once
// A friction law's states driven alone, by a prescribed velocity history, at the belt block's
// load and Table 3.2's parameters: the tests of the catalogue's laws (laws_test.cpp,
// switching_laws_test.cpp).

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/friction/friction_parameters.hpp"

namespace stickslip::dynamics::test {

inline constexpr double kN = 9.81;  // the belt block's weight [N]
inline const FrictionParameters kDefaults{};
inline const double kFs = kDefaults.mu_s * kN, kFc = kDefaults.mu_k * kN;

// Fixed-step RK4 of the law's states alone, under a prescribed velocity v(t) and load N, the
// law's discrete switches committed after each step. Returns the force at the end.
inline double integrateStates(const FrictionLaw& law, std::vector<double>& s,
                              const std::function<double(double)>& v_of_t, double n, double t_end,
                              double h, double* max_abs_force = nullptr) {
  const std::size_t m = s.size();
  std::vector<double> k1(m), k2(m), k3(m), k4(m), tmp(m);
  const int steps = int(std::ceil(t_end / h));
  h = t_end / steps;
  auto rate = [&](double t, const std::vector<double>& y, std::vector<double>& d) {
    law.stateRate({v_of_t(t), n, 0.0}, y, d);
  };
  for (int i = 0; i < steps; ++i) {
    const double t = i * h;
    rate(t, s, k1);
    for (std::size_t j = 0; j < m; ++j) tmp[j] = s[j] + 0.5 * h * k1[j];
    rate(t + 0.5 * h, tmp, k2);
    for (std::size_t j = 0; j < m; ++j) tmp[j] = s[j] + 0.5 * h * k2[j];
    rate(t + 0.5 * h, tmp, k3);
    for (std::size_t j = 0; j < m; ++j) tmp[j] = s[j] + h * k3[j];
    rate(t + h, tmp, k4);
    for (std::size_t j = 0; j < m; ++j) s[j] += h / 6.0 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
    law.settle({v_of_t(t + h), n, 0.0}, s);
    if (max_abs_force)
      *max_abs_force =
          std::max(*max_abs_force, std::abs(law.force({v_of_t(t + h), n, 0.0}, s)));
  }
  return law.force({v_of_t(t_end), n, 0.0}, s);
}

inline std::vector<double> initial(const FrictionLaw& law, double v, double n) {
  std::vector<double> s(std::size_t(law.stateSize()));
  law.initialState({v, n, 0.0}, s);
  return s;
}

}  // namespace stickslip::dynamics::test
