#include "dynamics/eom_methods/eom_integration.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "dynamics/integrators/rk4.hpp"

namespace stickslip::dynamics {

EomRunResult integrateRk4(EomSolver& solver, double t0, double t_end, double h,
                          Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> v,
                          const EomObserver& observer) {
  const MultibodySystem& sys = solver.system();
  const Eigen::Index nq = sys.positionSize(), nv = sys.velocitySize();
  if (q.size() != nq || v.size() != nv)
    throw std::invalid_argument("integrateRk4: expected q of size " + std::to_string(nq) +
                                " and v of size " + std::to_string(nv) + ", got " +
                                std::to_string(q.size()) + " and " + std::to_string(v.size()));
  if (!(h > 0.0) || !std::isfinite(h) || !(t_end >= t0))
    throw std::invalid_argument("integrateRk4: expected h > 0 and t_end >= t0, got h = " +
                                std::to_string(h) + ", [" + std::to_string(t0) + ", " +
                                std::to_string(t_end) + "]");
  const long n = static_cast<long>(std::ceil((t_end - t0) / h * (1.0 - 1e-12)));
  const double step = n > 0 ? (t_end - t0) / static_cast<double>(n) : h;
  Eigen::VectorXd y(nq + nv);
  y << q, v;
  Rk4 rk4(nq + nv);
  EomStatus status = EomStatus::kSuccess;
  const Rk4::Derivative f = [&](double t, const Eigen::Ref<const Eigen::VectorXd>& state,
                                Eigen::Ref<Eigen::VectorXd> rate) {
    status = solver.derivative(t, state, rate);
    return status == EomStatus::kSuccess;
  };
  EomRunResult result;
  result.t = t0;
  if (observer) observer(t0, q, v);
  for (long k = 0; k < n; ++k) {
    const double t = t0 + static_cast<double>(k) * step;
    if (!rk4.step(f, t, step, y)) break;
    sys.normalizePositions(y.head(nq));
    const double t_next = k + 1 == n ? t_end : t + step;
    status = solver.project(t_next, y.head(nq), y.tail(nv));
    if (status != EomStatus::kSuccess) break;
    result.t = t_next;
    result.steps = k + 1;
    if (observer) observer(t_next, y.head(nq), y.tail(nv));
  }
  result.status = status;
  if (status != EomStatus::kSuccess) result.message = solver.failure();
  q = y.head(nq);
  v = y.tail(nv);
  return result;
}

}  // namespace stickslip::dynamics
