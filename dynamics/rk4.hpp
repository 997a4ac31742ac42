#pragma once
/// \file Classic fixed-step fourth-order Runge–Kutta (the thesis' integrator, §2.4).
///
/// For ẏ = f(t, y), one step of size h:
///   k₁ = f(t, y),  k₂ = f(t + h/2, y + h/2 k₁),  k₃ = f(t + h/2, y + h/2 k₂),
///   k₄ = f(t + h, y + h k₃),  y ← y + h/6 (k₁ + 2k₂ + 2k₃ + k₄);
/// local error O(h⁵), global O(h⁴). The four stages and the stage state are sized once.

#include <Eigen/Dense>
#include <functional>

namespace stickslip::dynamics {

class Rk4 {
 public:
  /// f(t, y, ẏ) writes ẏ and returns false to stop the step (e.g. a singular EOM solve).
  using Derivative = std::function<bool(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                                        Eigen::Ref<Eigen::VectorXd> ydot)>;

  /// Workspace for states of size n ≥ 0 (throws std::invalid_argument otherwise).
  explicit Rk4(Eigen::Index n);

  /// Advances y (size n) from t by h > 0 in place. Returns false, leaving y unchanged, when
  /// f does. Throws std::invalid_argument on a size mismatch or h not finite and positive.
  bool step(const Derivative& f, double t, double h, Eigen::Ref<Eigen::VectorXd> y);

  Eigen::Index size() const { return k1_.size(); }

 private:
  Eigen::VectorXd k1_, k2_, k3_, k4_, stage_;
};

}  // namespace stickslip::dynamics
