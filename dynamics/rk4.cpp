#include "dynamics/rk4.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace stickslip::dynamics {

Rk4::Rk4(Eigen::Index n) {
  if (n < 0) throw std::invalid_argument("Rk4: expected a state size >= 0, got " + std::to_string(n));
  k1_.setZero(n);
  k2_.setZero(n);
  k3_.setZero(n);
  k4_.setZero(n);
  stage_.setZero(n);
}

bool Rk4::step(const Derivative& f, double t, double h, Eigen::Ref<Eigen::VectorXd> y) {
  if (y.size() != size())
    throw std::invalid_argument("Rk4::step: expected y of size " + std::to_string(size()) +
                                ", got " + std::to_string(y.size()));
  if (!(h > 0.0) || !std::isfinite(h))
    throw std::invalid_argument("Rk4::step: expected a finite step h > 0, got " + std::to_string(h));
  const double half = 0.5 * h;
  if (!f(t, y, k1_)) return false;
  stage_ = y + half * k1_;
  if (!f(t + half, stage_, k2_)) return false;
  stage_ = y + half * k2_;
  if (!f(t + half, stage_, k3_)) return false;
  stage_ = y + h * k3_;
  if (!f(t + h, stage_, k4_)) return false;
  y += (h / 6.0) * (k1_ + 2.0 * k2_ + 2.0 * k3_ + k4_);
  return true;
}

}  // namespace stickslip::dynamics
