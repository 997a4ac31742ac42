#include "lcp/alart_curnier.hpp"

#include <algorithm>
#include <cmath>

#include "lcp/friction_cone.hpp"

namespace stickslip::lcp {

namespace {

constexpr double kArmijo = 1e-4;
constexpr int kHalvings = 10;  // a step below 2⁻¹⁰ is no progress: the proximal weight rises instead

/// ρ per unknown from the diagonal blocks (header), a fallback where a block is not positive.
void stepLengths(const ContactBlocks& W, double mean_diagonal, Eigen::VectorXd& rho) {
  const Eigen::Index nc = W.contacts();
  const double fallback = mean_diagonal > 0.0 ? 1.0 / mean_diagonal : 1.0;
  rho.resize(3 * nc);
  for (Eigen::Index i = 0; i < nc; ++i) {
    const Eigen::Matrix3d& a = W.diagonal(i);
    const double tangential = a(1, 1) + a(2, 2);
    rho(3 * i) = a(0, 0) > 0.0 ? 1.0 / a(0, 0) : fallback;
    rho(3 * i + 1) = rho(3 * i + 2) = tangential > 0.0 ? 2.0 / tangential : rho(3 * i);
  }
}

}  // namespace

double AlartCurnierSolver::residual(const Eigen::Ref<const Eigen::VectorXd>& r, const Eigen::Ref<const Eigen::VectorXd>& u,
                                    const Eigen::Ref<const Eigen::VectorXd>& mu, Eigen::VectorXd& f) {
  const Eigen::Index nc = mu.size(), contacts = nc - bilateral_;
  for (Eigen::Index i = contacts; i < nc; ++i) {  // bilateral: the projection is the identity
    pi_[std::size_t(i)].setIdentity();
    f.segment<3>(3 * i) = rho_.segment<3>(3 * i).cwiseProduct(u.segment<3>(3 * i));
  }
  for (Eigen::Index i = 0; i < contacts; ++i) {
    const Eigen::Index k = 3 * i;
    const double an = r(k) - rho_(k) * u(k);
    const Eigen::Vector2d at = r.segment<2>(k + 1) - rho_(k + 1) * u.segment<2>(k + 1);
    const double pn = std::max(0.0, an), radius = mu(i) * pn, norm_t = at.norm();
    Eigen::Matrix3d& pi = pi_[std::size_t(i)];
    pi.setZero();
    pi(0, 0) = an > 0.0 ? 1.0 : 0.0;
    Eigen::Vector2d pt;
    if (norm_t < radius || (norm_t == radius && norm_t > 0.0)) {  // inside the disk: stick
      pt = at;
      pi.block<2, 2>(1, 1).setIdentity();
    } else if (norm_t > 0.0) {  // on its rim: slip (or open when the radius is 0)
      const Eigen::Vector2d e = at / norm_t;
      pt = radius * e;
      pi.block<2, 2>(1, 1) = (radius / norm_t) * (Eigen::Matrix2d::Identity() - e * e.transpose());
      if (an > 0.0) pi.block<2, 1>(1, 0) = mu(i) * e;
    } else {
      pt.setZero();
    }
    f(k) = r(k) - pn;
    f.segment<2>(k + 1) = r.segment<2>(k + 1) - pt;
  }
  return f.squaredNorm();
}

bool AlartCurnierSolver::newtonStep(const ContactBlocks& W, double sigma) {
  const Eigen::Index nc = W.contacts();
  // Open contacts (Π_i = 0) have identity rows: Δr_i = −F_i. The others, C, solve
  // H_CC Δr_C = −F_C − H_CO Δr_O, whose blocks are Π_i ρ_i W_ij, plus (I − Π_i) + σ Π_i ρ_i on the diagonal.
  Eigen::Index m = 0, blocks = 0;
  for (Eigen::Index i = 0; i < nc; ++i) slot_[std::size_t(i)] = pi_[std::size_t(i)].isZero(0.0) ? -1 : m++;
  for (Eigen::Index i = 0; i < nc; ++i)
    if (slot_[std::size_t(i)] >= 0)
      for (const ContactBlocks::Block* b = W.rowBegin(i); b != W.rowEnd(i); ++b) blocks += slot_[std::size_t(b->col)] >= 0;
  for (Eigen::Index i = 0; i < nc; ++i) {
    const Eigen::Index si = slot_[std::size_t(i)];
    if (si < 0) {
      dr_.segment<3>(3 * i) = -f_.segment<3>(3 * i);
      continue;
    }
    Eigen::Vector3d rhs = -f_.segment<3>(3 * i);
    const Eigen::Matrix3d pi_rho = pi_[std::size_t(i)] * rho_.segment<3>(3 * i).asDiagonal();
    for (const ContactBlocks::Block* b = W.rowBegin(i); b != W.rowEnd(i); ++b)
      if (slot_[std::size_t(b->col)] < 0) rhs.noalias() += pi_rho * (b->value * f_.segment<3>(3 * b->col));
    rhs_.segment<3>(3 * si) = rhs;
  }
  if (m == 0) return dr_.allFinite();
  const auto blockOf = [&](Eigen::Index i, Eigen::Index j, const Eigen::Matrix3d& w) {
    const Eigen::Matrix3d& pi = pi_[std::size_t(i)];
    const Eigen::Matrix3d pi_rho = pi * rho_.segment<3>(3 * i).asDiagonal();
    Eigen::Matrix3d h = pi_rho * w;
    if (j == i) h += Eigen::Matrix3d::Identity() - pi + sigma * pi_rho;
    return h;
  };
  // The closed rows' blocks in closed columns, by increasing column, the diagonal included.
  const auto forEachBlock = [&](auto&& put) {
    for (Eigen::Index i = 0; i < nc; ++i) {
      const Eigen::Index si = slot_[std::size_t(i)];
      if (si < 0) continue;
      bool has_diagonal = false;
      for (const ContactBlocks::Block* b = W.rowBegin(i); b != W.rowEnd(i); ++b) {
        const Eigen::Index sj = slot_[std::size_t(b->col)];
        if (sj < 0) continue;
        if (!has_diagonal && b->col > i) {
          put(si, si, blockOf(i, i, Eigen::Matrix3d::Zero()));
          has_diagonal = true;
        }
        put(si, sj, blockOf(i, b->col, b->value));
        has_diagonal |= b->col == i;
      }
      if (!has_diagonal) put(si, si, blockOf(i, i, Eigen::Matrix3d::Zero()));
    }
  };
  // Sparse LU for a large or sparse closed set; dense LU otherwise, and for a small one whose last
  // pivot order no longer holds (KLU would allocate its fresh factors).
  const bool small = 3 * m <= kDenseNewtonRows;
  bool dense = small && (m <= kDenseNewtonContacts || kDenseNewtonFill * double(blocks) >= double(m * m));
  if (!dense) {
    // H in compressed rows: a row of blocks gives three rows.
    outer_.assign(1, 0);
    inner_.clear();
    values_.clear();
    const auto flushRowBlock = [&] {
      for (int a = 0; a < 3; ++a) {
        for (const auto& [sj, h] : row_blocks_)
          for (int c = 0; c < 3; ++c) {
            inner_.push_back(int(3 * sj + c));
            values_.push_back(h(a, c));
          }
        outer_.push_back(int(inner_.size()));
      }
      row_blocks_.clear();
    };
    Eigen::Index row_block = 0;
    forEachBlock([&](Eigen::Index si, Eigen::Index sj, const Eigen::Matrix3d& h) {
      if (si != row_block) flushRowBlock();
      row_block = si;
      row_blocks_.emplace_back(sj, h);
    });
    flushRowBlock();
    if (sparse_lu_.factor(3 * m, outer_.data(), inner_.data(), values_.data(), /*fresh_pivots=*/!small)) {
      solution_.head(3 * m) = rhs_.head(3 * m);
      if (!sparse_lu_.solve(solution_.head(3 * m))) return false;
    } else if (small) {
      dense = true;
    } else {
      return false;
    }
  }
  if (dense) {  // a matrix and LU per closed-set size, so that a time loop allocates nothing
    if (dense_.size() <= std::size_t(m)) {
      dense_.resize(std::size_t(m) + 1);
      dense_lu_.resize(std::size_t(m) + 1);
    }
    Eigen::MatrixXd& h = dense_[std::size_t(m)];
    h.setZero(3 * m, 3 * m);
    forEachBlock([&](Eigen::Index si, Eigen::Index sj, const Eigen::Matrix3d& b) { h.block<3, 3>(3 * si, 3 * sj) = b; });
    Eigen::PartialPivLU<Eigen::MatrixXd>& lu = dense_lu_[std::size_t(m)];
    lu.compute(h);
    auto x = solution_.head(3 * m);
    x.noalias() = lu.permutationP() * rhs_.head(3 * m);
    lu.matrixLU().triangularView<Eigen::UnitLower>().solveInPlace(x);
    lu.matrixLU().triangularView<Eigen::Upper>().solveInPlace(x);
  }
  for (Eigen::Index i = 0; i < nc; ++i)
    if (const Eigen::Index si = slot_[std::size_t(i)]; si >= 0) dr_.segment<3>(3 * i) = solution_.segment<3>(3 * si);
  return dr_.allFinite();
}

AlartCurnierSolver::Outcome AlartCurnierSolver::solve(const ContactBlocks& W, const Eigen::Ref<const Eigen::VectorXd>& q,
                                                      const Eigen::Ref<const Eigen::VectorXd>& mu, double tolerance,
                                                      int max_iterations, Eigen::Ref<Eigen::VectorXd> r,
                                                      Eigen::Ref<Eigen::VectorXd> u, const Weights& weights,
                                                      Eigen::Index bilateral) {
  bilateral_ = bilateral;
  const double sigma_ceiling = weights.ceiling;
  int free_steps = weights.free_steps;
  Outcome out;
  const Eigen::Index nc = mu.size(), n = 3 * nc;
  const double q_norm = q.norm();
  double mean_diagonal = 0.0;
  for (Eigen::Index i = 0; i < nc; ++i) mean_diagonal += W.diagonal(i).trace();
  mean_diagonal = nc > 0 ? std::abs(mean_diagonal) / double(n) : 0.0;
  stepLengths(W, mean_diagonal, rho_);
  pi_.resize(std::size_t(nc));
  slot_.assign(std::size_t(nc), -2);
  dr_.resize(n);
  rhs_.resize(n);
  solution_.resize(n);
  f_.resize(n);
  f_trial_.resize(n);
  r_trial_.resize(n);
  u_trial_.resize(n);

  W.multiplyAdd(r, q, u);
  const double cap0 = std::min(weights.start, sigma_ceiling);
  double psi = residual(r, u, mu, f_), cap = cap0, boost = 0.0;
  out.error = fc3dError(r, u, mu, q_norm, bilateral);
  const auto converged = [&] {
    return out.error <= tolerance && normalViolation(W, q, r, u, tolerance, terms_, bilateral) < 0;
  };
  for (int it = 1; it <= max_iterations && !converged(); ++it) {
    out.iterations = it;
    // The proximal weight relative to W: ‖F‖/‖r‖ capped by `cap`, at least `boost`. Where the
    // step fails (a singular system or no descent) both rise, by 100 from the weight just used;
    // full steps lower them again.
    double alpha = 1.0, psi_trial = 0.0, sigma = 0.0, level = 0.0;
    bool descent = false;
    for (;;) {
      level = std::max(boost, std::min(cap, std::sqrt(psi) / std::max(r.norm(), 1e-300)));
      sigma = mean_diagonal * level;
      if (newtonStep(W, sigma)) {
        alpha = 1.0;
        for (int h = 0; h <= kHalvings && !descent; ++h, alpha *= 0.5) {
          r_trial_ = r + alpha * dr_;
          W.multiplyAdd(r_trial_, q, u_trial_);
          psi_trial = residual(r_trial_, u_trial_, mu, f_trial_);
          descent = psi_trial <= (1.0 - 2.0 * kArmijo * alpha) * psi;
        }
        if (descent) alpha *= 2.0;
      }
      if (descent) break;
      residual(r, u, mu, f_);  // Π back at r
      if (level >= sigma_ceiling) {
        if (free_steps-- > 0 && newtonStep(W, mean_diagonal * std::min(cap0, std::sqrt(psi) / std::max(r.norm(), 1e-300)))) {
          // No descent at any weight: take the full step anyway (a nonmonotone watchdog).
          r_trial_ = r + dr_;
          W.multiplyAdd(r_trial_, q, u_trial_);
          psi_trial = residual(r_trial_, u_trial_, mu, f_trial_);
          alpha = 1.0;
          boost = 0.0;
          cap = cap0;
          break;
        }
        out.status = Status::kNumericalFailure;
        return out;
      }
      boost = std::min(sigma_ceiling, std::max(kSigmaMin, 100.0 * level));
      cap = std::max(cap, boost);
    }
    if (alpha == 1.0) {
      cap = std::max(kSigmaMin, 0.1 * cap);
      boost *= 0.1;
    }
    r = r_trial_;
    u = u_trial_;
    f_.swap(f_trial_);
    psi = psi_trial;
    out.error = fc3dError(r, u, mu, q_norm, bilateral);
  }
  out.status = converged() ? Status::kSuccess : Status::kPivotLimit;
  return out;
}

}  // namespace stickslip::lcp
