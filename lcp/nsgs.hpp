#pragma once
/// \file Nonsmooth Gauss–Seidel (NSGS) for planar frictional contact on a sparse Delassus
/// matrix (Jean & Moreau 1992; Acary & Brogliato 2008, §13.4): the solver whose cost grows
/// with the contacts' coupling, nnz(W) per sweep, where Lemke's grows with (2 nc)².
///
/// Problem (as FrictionProblem2D, W sparse): u = W r + q, per contact i (rows 2i normal,
/// 2i+1 tangent) 0 ≤ uₙ ⊥ rₙ ≥ 0, |rₜ| ≤ μᵢ rₙ, uₜ ≠ 0 ⇒ rₜ = −μᵢ rₙ sign(uₜ).
///
/// A sweep visits the contacts in order. Contact i, the others' reactions fixed, has the
/// local problem u_i = W_ii r_i + b_i with b_i = q_i + Σ_{j≠i} W_ij r_j, solved exactly:
/// open (r_i = 0) when b_n ≥ 0, else sticking (W_ii r_i = −b_i) when that reaction lies in
/// the cone, else slipping on the edge r_t = ∓μ r_n whose sliding agrees with its sign; a
/// local problem none of these solves (W_ii singular or not positive) ends the solve with
/// kNumericalFailure naming the contact.
/// u = W r + q is kept current: b_i = u_i − W_ii r_i, and a contact whose reaction changes adds
/// its two columns of W times the change to u. A sweep so reads W once, and the columns of
/// contacts that stay open not at all; the error after it costs O(nc). A dense W of a few
/// contacts is swept on the stack instead (small_nsgs.hpp).
///
/// Stopping rule: Siconos' fc2d error measure (fc2dError below) ≤ tolerance, evaluated after
/// each sweep and confirmed on u formed afresh; kPivotLimit after max_sweeps, or once the
/// modes have settled (NsgsOptions::settle_sweeps).
/// FrictionResult::pivots counts the sweeps, residual and relative_residual are that measure
/// unnormalized and normalized. A warm start (r from the previous time step) is taken when given.

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <cmath>
#include <limits>
#include <vector>

#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

struct NsgsOptions {
  double tolerance = 1e-12;  ///< on fc2dError, > 0
  int max_sweeps = 100000;   ///< ≥ 1
  /// solveFrictionNsgs only: the exact finish (nsgs_finish.hpp) once the sweeps reach error
  /// kNsgsFinishFrom, and again every kNsgsFinishEvery sweeps while they fall short.
  bool exact_finish = true;
  /// > 0: also stop, Outcome::settled, once no contact has changed its local mode (open, stick,
  /// slip±) for this many sweeps and the modes have at most settle_unknowns unknowns (2 per
  /// sticking contact, 1 per sliding one); solveFrictionNsgs then tries their active-set solve.
  int settle_sweeps = 0;
  Eigen::Index settle_unknowns = 0;
};
inline constexpr double kNsgsFinishFrom = 1e-6;
inline constexpr int kNsgsSettleSweeps = 2;  ///< the first NsgsOptions::settle_sweeps of solveFrictionNsgs
inline constexpr int kNsgsFinishEvery = 1000;

/// A contact's mode in NSGS's sweeps and finish: open (r = 0), stick (u = 0), slip± (uₙ = 0,
/// uₜ ≷ 0, rₜ = ∓μ rₙ); kNone where a local problem has no solution.
enum class PlanarMode : signed char { kNone = -1, kOpen, kStick, kSlipPositive, kSlipNegative };
/// The unknowns a mode leaves in its active-set system: a sticking contact's (rₙ, rₜ), a sliding
/// one's rₙ (its rₜ follows), none for an open one.
inline int activeUnknowns(PlanarMode mode) {
  return mode == PlanarMode::kStick ? 2 : mode == PlanarMode::kOpen ? 0 : 1;
}

/// A contact's local problem, the others' reactions fixed: the exact r of u = A r + b (A its
/// 2×2 diagonal block of W) and its mode, tried in the order open, stick, slip±; kNone when
/// none applies (A singular or not positive), r then unchanged. Inline: it is the sweeps'
/// inner step.
inline PlanarMode solveLocalContact(const Eigen::Matrix2d& a, const Eigen::Vector2d& b, double mu,
                                    Eigen::Vector2d& r) {
  if (b(0) >= 0.0) {
    r.setZero();
    return PlanarMode::kOpen;
  }
  const double det = a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0);
  const double slack = 1e-14 * b.cwiseAbs().maxCoeff();  // relative: b may be of round-off size
  if (std::abs(det) >
      std::numeric_limits<double>::epsilon() * a.cwiseAbs().maxCoeff() * a.cwiseAbs().maxCoeff()) {
    const Eigen::Vector2d stick{(-b(0) * a(1, 1) + b(1) * a(0, 1)) / det,
                                (-b(1) * a(0, 0) + b(0) * a(1, 0)) / det};
    if (stick(0) >= 0.0 && std::abs(stick(1)) <= mu * stick(0) * (1.0 + 1e-14)) {
      r = stick;
      return PlanarMode::kStick;
    }
  }
  for (const double s : {1.0, -1.0}) {  // sliding with sign s: rₜ = −s μ rₙ, uₙ = 0
    const double denominator = a(0, 0) - s * mu * a(0, 1);
    if (!(denominator > 0.0)) continue;
    const double rn = -b(0) / denominator;
    const double ut = a(1, 0) * rn - s * mu * a(1, 1) * rn + b(1);
    if (s * ut >= -slack) {
      r = {rn, -s * mu * rn};
      return s > 0.0 ? PlanarMode::kSlipPositive : PlanarMode::kSlipNegative;
    }
  }
  return PlanarMode::kNone;
}

using SparseRowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;
/// A compressed row-major matrix held elsewhere (a time-stepper's own arrays).
using SparseRowView = Eigen::Map<const SparseRowMatrix>;
inline SparseRowView viewOf(const SparseRowMatrix& w) {
  return {w.rows(), w.cols(), w.nonZeros(), w.outerIndexPtr(), w.innerIndexPtr(), w.valuePtr()};
}

/// The solver with its workspace (the contacts' diagonal blocks): solve() allocates nothing
/// once it has met the largest problem, so that a time-stepper can call it every step on
/// its own buffers. Sizes are checked by the caller (solveFrictionNsgs validates), not here.
class NsgsSolver {
 public:
  struct Outcome {
    Status status = Status::kNotRun;  ///< kSuccess, kPivotLimit or kNumericalFailure
    int sweeps = 0;
    double error = 0.0;     ///< fc2dError at the end
    double residual = 0.0;  ///< the same unnormalized
    Eigen::Index failed_contact = -1;  ///< kNumericalFailure: whose local problem has no solution
    bool settled = false;  ///< stopped by NsgsOptions::settle_sweeps (status kPivotLimit)
  };
  /// W compressed (viewOf) 2nc × 2nc, q of size 2nc, μ of size nc. r holds the first iterate
  /// (a warm start, or zeros) and returns the solution; u returns W r + q. The last `bilateral`
  /// blocks are bilateral (a mechanism's joint rows, two per block): uᵢ = 0 with rᵢ free, their
  /// μ unused, their local problem W_ii rᵢ = −bᵢ.
  Outcome solve(SparseRowView W, const Eigen::Ref<const Eigen::VectorXd>& q,
                const Eigen::Ref<const Eigen::VectorXd>& mu, const NsgsOptions& options,
                Eigen::Ref<Eigen::VectorXd> r, Eigen::Ref<Eigen::VectorXd> u,
                Eigen::Index bilateral = 0);

 private:
  /// The sweeps, once readColumns has read W.
  Outcome sweeps(SparseRowView W, const Eigen::Ref<const Eigen::VectorXd>& q,
                 const Eigen::Ref<const Eigen::VectorXd>& mu, const NsgsOptions& options,
                 Eigen::Ref<Eigen::VectorXd> r, Eigen::Ref<Eigen::VectorXd> u,
                 Eigen::Index bilateral);
  /// W's columns (compressed by column) and the contacts' diagonal blocks, read once per solve.
  void readColumns(SparseRowView W);
  /// u += W(:, j) δ, from the columns readColumns read.
  void addColumn(Eigen::Index j, double delta, Eigen::Ref<Eigen::VectorXd> u) const {
    for (Eigen::Index k = column_start_[std::size_t(j)]; k < column_start_[std::size_t(j + 1)]; ++k)
      u(column_row_[std::size_t(k)]) += column_value_[std::size_t(k)] * delta;
  }
  /// The unknowns of the last sweep's modes' active set (NsgsOptions::settle_unknowns).
  Eigen::Index activeUnknowns() const;
  static constexpr int kFreshEvery = 50;  ///< sweeps between forming u = W r + q afresh

  std::vector<Eigen::Matrix2d> diagonal_;
  std::vector<PlanarMode> mode_;  ///< each contact's local mode in the last sweep
  std::vector<Eigen::Index> column_start_, column_row_, column_fill_;
  std::vector<double> column_value_;
};

/// Validates p and solves it with a fresh NsgsSolver and, when options.exact_finish, the exact
/// finish. FrictionResult::pivots counts every sweep; the message says what the finish did.
FrictionResult solveFrictionNsgs(const SparseFrictionProblem2D& p, const NsgsOptions& options = {},
                                 const Eigen::VectorXd* warm_start = nullptr);
/// The same with the caller's solver and result, whose storage is reused.
void solveFrictionNsgs(const SparseFrictionProblem2D& p, const NsgsOptions& options, NsgsSolver& solver,
                       FrictionResult& out, const Eigen::VectorXd* warm_start = nullptr);

/// Siconos' error measure for planar friction (fc2d_compute_error, Acary & Brogliato 2008,
/// A.13): per contact the distance from r to its projection on the cone K of
/// r − (u + μ|uₜ| eₙ) (De Saxcé and Feng's modified velocity, ρ = 1), in the 2-norm over the
/// contacts, divided by max(‖r‖, ‖u‖, ‖q‖) when that exceeds machine ε. Zero iff r solves
/// the problem with u = W r + q. The last `bilateral` blocks (NsgsSolver::solve) add ‖uᵢ‖².
double fc2dError(const Eigen::Ref<const Eigen::VectorXd>& r, const Eigen::Ref<const Eigen::VectorXd>& u, const Eigen::Ref<const Eigen::VectorXd>& mu,
                 double q_norm, Eigen::Index bilateral = 0);

/// fc2dError before its normalization: the 2-norm of r − proj_K(r − û) over the contacts.
double fc2dResidual(const Eigen::Ref<const Eigen::VectorXd>& r, const Eigen::Ref<const Eigen::VectorXd>& u,
                   const Eigen::Ref<const Eigen::VectorXd>& mu, Eigen::Index bilateral = 0);

/// The checks every sparse planar solver's solveFriction… makes before it starts: p valid, its
/// limits (limits_valid, described as `limits`) and the warm start's size. On failure out is a
/// kInvalidInput result naming `who` and the reason (r = 0, u = q) and it returns false; else
/// out.r holds the start (the warm start or zeros), out.u is sized, and it returns true.
bool startSparseSolve(const SparseFrictionProblem2D& p, const char* who, bool limits_valid, const char* limits,
                      const Eigen::VectorXd* warm_start, FrictionResult& out);

/// One contact's term of fc2dError: |rᵢ − proj_K(rᵢ − ûᵢ)|², before the sum, the square root
/// and the normalization.
double fc2dContactTerm(double mu, const Eigen::Vector2d& r, const Eigen::Vector2d& u);

}  // namespace stickslip::lcp
