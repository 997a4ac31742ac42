#include "dynamics/integrators/rk4.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace stickslip::dynamics {

Rk4::Rk4(Eigen::Index n) {
  if (n < 0) throw std::invalid_argument("Rk4: expected a state size >= 0, got " + std::to_string(n));
  for (Eigen::VectorXd* w : {&k1_, &k2_, &k3_, &k4_, &stage_}) w->setZero(n);
}

double Rk4::relaxed(double y0, double drive, double decay, double tau) {
  const double x = decay * tau;
  if (x == 0.0) return y0 + tau * drive;
  return std::exp(-x) * y0 + tau * (-std::expm1(-x) / x) * drive;  // x = +∞: 0
}

void Rk4::checkStep(double h, Eigen::Index n) const {
  if (n != size())
    throw std::invalid_argument("Rk4::step: expected y of size " + std::to_string(size()) + ", got " +
                                std::to_string(n));
  if (!(h > 0.0) || !std::isfinite(h))
    throw std::invalid_argument("Rk4::step: expected a finite step h > 0, got " + std::to_string(h));
}

bool Rk4::step(const Derivative& f, double t, double h, Eigen::Ref<Eigen::VectorXd> y) {
  checkStep(h, y.size());
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

bool Rk4::relaxedStages(const RelaxingDerivative& f, double t, double h, const Eigen::Ref<const Eigen::VectorXd>& y,
                        bool first) {
  if (first && !f(t, y, {&relaxed_, 0.0, h}, k1_, a1_, d1_)) return false;
  const struct {
    double c;
    const Eigen::VectorXd& previous;
    Eigen::VectorXd &k, &a, &d;
  } stages[] = {{0.5, k1_, k2_, a2_, d2_}, {0.5, k2_, k3_, a3_, d3_}, {1.0, k3_, k4_, a4_, d4_}};
  for (const auto& s : stages) {
    // A relaxed component starts from y_j, relaxed over c h by f; the others take RK4's stage.
    stage_ = relaxed_.select(y, y + s.c * h * s.previous);
    if (!f(t + s.c * h, stage_, {&relaxed_, s.c * h, h}, s.k, s.a, s.d)) return false;
  }
  return true;
}

bool Rk4::step(const RelaxingDerivative& f, double t, double h, Eigen::Ref<Eigen::VectorXd> y) {
  checkStep(h, y.size());
  if (a1_.size() != size())
    for (Eigen::VectorXd* w : {&a1_, &a2_, &a3_, &a4_, &d1_, &d2_, &d3_, &d4_, &mismatch_}) w->setZero(size());
  // The first stage decides; it is evaluated again (its rates are the step's means) for the
  // components it relaxes.
  if (!f(t, y, {nullptr, 0.0, h}, k1_, a1_, d1_)) return false;
  relaxed_ = d1_.array() * h > kEnterRelaxed;
  if (!relaxedStages(f, t, h, y, relaxed_.any())) return false;
  // A decay that grew past RK4's reach within the step: redo the step with it relaxed.
  for (;;) {
    grown_ = !relaxed_ && (d2_.array().max(d3_.array()).max(d4_.array()) * h > kForceRelaxed);
    if (!grown_.any()) break;
    relaxed_ = relaxed_ || grown_;
    if (!relaxedStages(f, t, h, y, true)) return false;
  }
  for (Eigen::Index j = 0; j < size(); ++j) {
    mismatch_(j) = 0.0;
    if (relaxed_(j)) {
      const double start = y(j);
      const double decay = (d1_(j) + 2.0 * d2_(j) + 2.0 * d3_(j) + d4_(j)) / 6.0;
      if (d1_(j) > 0.0 && d4_(j) > 0.0) {
        // Towards the target s = a/d, taken linear from the first stage's to the last's.
        const double x = decay * h, s0 = a1_(j) / d1_(j), s1 = a4_(j) / d4_(j), gone = -std::expm1(-x);
        y(j) = (1.0 - gone) * y(j) + gone * s0 + (s1 - s0) * (1.0 - gone / x);
      } else {
        const double drive = (a1_(j) + 2.0 * a2_(j) + 2.0 * a3_(j) + a4_(j)) / 6.0;
        y(j) = relaxed(y(j), drive, decay, h);
      }
      mismatch_(j) = y(j) - start - (h / 6.0) * (k1_(j) + 2.0 * k2_(j) + 2.0 * k3_(j) + k4_(j));
    } else {
      y(j) += (h / 6.0) * (k1_(j) + 2.0 * k2_(j) + 2.0 * k3_(j) + k4_(j));
    }
  }
  if (relaxed_.any()) ++relaxed_steps_;
  return true;
}

}  // namespace stickslip::dynamics
