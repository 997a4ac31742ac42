#include "dynamics/model/model_assembly.hpp"

#include <cmath>
#include <stdexcept>

#include "lcp/residual.hpp"

namespace stickslip::dynamics {

std::string_view toString(AssemblyStatus s) {
  switch (s) {
    case AssemblyStatus::kSuccess: return "assembled";
    case AssemblyStatus::kNotConverged: return "not-converged";
    case AssemblyStatus::kSingular: return "singular";
  }
  return "unknown";
}

AssemblyResult assemble(const MultibodySystem& system, double t,
                        const std::vector<Eigen::Index>& held, Eigen::Ref<Eigen::VectorXd> q,
                        Eigen::Ref<Eigen::VectorXd> v, const AssemblyOptions& options) {
  const Eigen::Index nq = system.positionSize(), nv = system.velocitySize();
  const Eigen::Index m = system.constraintCount();
  if (q.size() != nq || v.size() != nv)
    throw std::invalid_argument("assemble: expected q of size " + std::to_string(nq) +
                                " and v of size " + std::to_string(nv) + ", got " +
                                std::to_string(q.size()) + " and " + std::to_string(v.size()));
  std::vector<bool> is_held(static_cast<std::size_t>(nv), false);
  for (Eigen::Index h : held) {
    if (h < 0 || h >= nv || is_held[static_cast<std::size_t>(h)])
      throw std::invalid_argument("assemble: expected distinct held indices in [0, " +
                                  std::to_string(nv) + "), got " + std::to_string(h));
    is_held[static_cast<std::size_t>(h)] = true;
  }
  std::vector<Eigen::Index> free;
  for (Eigen::Index k = 0; k < nv; ++k)
    if (!is_held[static_cast<std::size_t>(k)]) free.push_back(k);
  const auto nf = static_cast<Eigen::Index>(free.size());

  AssemblyResult result;
  Eigen::VectorXd phi(m), phi_t(m), delta = Eigen::VectorXd::Zero(nv), step(nf), rhs(m);
  Eigen::MatrixXd jac(m, nv), jac_free(m, nf);
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(m, nf);
  cod.setThreshold(options.rank_tol);

  auto factorFree = [&]() {
    system.jacobian(t, q, jac);
    if (nf == 0) {  // every coordinate held: nothing to correct (and no empty matrix to factor)
      result.rank = 0;
      return m == 0;
    }
    for (Eigen::Index c = 0; c < nf; ++c) jac_free.col(c) = jac.col(free[static_cast<std::size_t>(c)]);
    cod.compute(jac_free);
    result.rank = cod.rank();
    return result.rank == m;  // full row rank: the constraints fix the free coordinates
  };
  auto singular = [&](const char* level) {
    result.status = AssemblyStatus::kSingular;
    result.message = std::string("assemble: ") + level + " equations singular: D restricted to the " +
                     std::to_string(nf) + " free coordinates has rank " + std::to_string(result.rank) +
                     " < " + std::to_string(m) +
                     " constraints (singular configuration, redundant constraints, or the held "
                     "coordinates are not independent)";
    return result;
  };

  system.constraints(t, q, phi);
  result.position_residual = phi.lpNorm<Eigen::Infinity>();
  while (result.position_residual > options.position_tol) {
    if (result.iterations == options.max_iterations || !std::isfinite(result.position_residual)) {
      result.status = AssemblyStatus::kNotConverged;
      result.message = "assemble: Newton did not reach ‖Φ‖∞ ≤ " +
                       lcp::scientific(options.position_tol) + " in " +
                       std::to_string(result.iterations) +
                       " iterations (‖Φ‖∞ = " + lcp::scientific(result.position_residual) + ")";
      return result;
    }
    if (!factorFree()) return singular("position");
    step = cod.solve(-phi);
    delta.setZero();
    for (Eigen::Index c = 0; c < nf; ++c) delta(free[static_cast<std::size_t>(c)]) = step(c);
    system.addToPositions(delta, q);
    ++result.iterations;
    system.constraints(t, q, phi);
    result.position_residual = phi.lpNorm<Eigen::Infinity>();
  }

  const bool full_rank = factorFree();
  system.constraintTimeDerivative(t, q, phi_t);
  // With every coordinate held, the given velocities stand if they already satisfy the rows.
  if (!full_rank && (nf > 0 || (jac * v + phi_t).lpNorm<Eigen::Infinity>() > options.velocity_tol))
    return singular("velocity");
  if (nf > 0) {
    rhs = -phi_t - jac * v;  // a correction of the given velocities, not a new set
    step = cod.solve(rhs);
    for (Eigen::Index c = 0; c < nf; ++c) v(free[static_cast<std::size_t>(c)]) += step(c);
  }
  result.velocity_residual = (jac * v + phi_t).lpNorm<Eigen::Infinity>();
  result.status = result.velocity_residual <= options.velocity_tol ? AssemblyStatus::kSuccess
                                                                   : AssemblyStatus::kNotConverged;
  if (!result.ok())
    result.message = "assemble: velocity residual " + lcp::scientific(result.velocity_residual) +
                     " above " + lcp::scientific(options.velocity_tol);
  return result;
}

}  // namespace stickslip::dynamics
