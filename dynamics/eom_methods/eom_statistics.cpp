#include "dynamics/eom_methods/eom_statistics.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

namespace stickslip::dynamics {

EomRunStatistics runWithStatistics(const MultibodySystem& model, const Eigen::VectorXd& q0,
                                   const Eigen::VectorXd& v0, EomMethod method, double h,
                                   double t_end, const EomOptions& options, double sample_dt, int timed_runs) {
  EomSolver solver(model, method, options);
  const Eigen::Index m = model.constraintCount();
  Eigen::VectorXd q = q0, v = v0, phi(m), phi_t(m), phi_dot(m);
  Eigen::MatrixXd jac(m, model.velocitySize());
  EomRunStatistics s;
  const double e0 = model.kineticEnergy(v) + model.potentialEnergy(q);
  std::vector<std::array<double, 4>> series;
  double next_sample = 0.0;
  s.run = integrateRk4(solver, 0.0, t_end, h, q, v,
                       [&](double t, const Eigen::Ref<const Eigen::VectorXd>& qs,
                           const Eigen::Ref<const Eigen::VectorXd>& vs) {
                         model.constraints(t, qs, phi);
                         model.jacobian(t, qs, jac);
                         model.constraintTimeDerivative(t, qs, phi_t);
                         s.max_phi = std::max(s.max_phi, phi.norm());
                         phi_dot.noalias() = jac * vs;
                         phi_dot += phi_t;
                         s.max_phi_dot = std::max(s.max_phi_dot, phi_dot.norm());
                         const double e = model.kineticEnergy(vs) + model.potentialEnergy(qs);
                         s.final_drift = e - e0;
                         s.max_drift = std::max(s.max_drift, std::abs(s.final_drift));
                         s.max_lambda = std::max(s.max_lambda, solver.multipliers().norm());
                         s.max_iterations = std::max(s.max_iterations, solver.lastIterations());
                         if (sample_dt > 0.0 && t >= next_sample - 1e-9 * sample_dt) {
                           series.push_back({t, phi.squaredNorm(), phi_dot.squaredNorm(), e - e0});
                           next_sample += sample_dt;
                         }
                       });
  s.series.resize(Eigen::Index(series.size()), 4);
  for (std::size_t i = 0; i < series.size(); ++i)
    s.series.row(Eigen::Index(i)) = Eigen::Map<const Eigen::RowVector4d>(series[i].data());
  s.cpu_seconds = timed_runs > 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  for (int repeat = 0; repeat < timed_runs; ++repeat) {
    q = q0;
    v = v0;
    EomSolver timed(model, method, options);
    const auto start = std::chrono::steady_clock::now();
    integrateRk4(timed, 0.0, t_end, h, q, v);
    s.cpu_seconds =
        std::min(s.cpu_seconds,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return s;
}

}  // namespace stickslip::dynamics
