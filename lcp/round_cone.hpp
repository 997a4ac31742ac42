#pragma once
/// \file Spatial Coulomb friction solved exactly on the round cone by our own solvers: NSGS with
/// exact local solves (nsgs_3d.hpp), the Alart–Curnier Newton method (alart_curnier.hpp), and
/// `auto`, which sweeps first and finishes with Newton, as the planar NSGS has its exact finish.
///
/// `auto`: NSGS sweeps while each at least halves Siconos' error (kAutoSweepRate), down to
/// kAutoSweepError; then Newton from there. Newton converges fast once the modes are about right;
/// sweeps give it that start cheaply (one sweep solves a single contact exactly). Where Newton
/// stops short (no descent at a kink of its equations), kAutoSweeps sweeps move the iterate and
/// Newton starts again, until the tolerance or max_sweeps or max_newton are spent.
/// FrictionResult::solver says which method answered ("nsgs", "newton", or "nsgs+newton"),
/// pivots counts sweeps plus Newton iterations, residual is the natural-map norm unnormalized
/// and relative_residual Siconos' fc3d error (fc3dError).

#include <Eigen/Dense>
#include <string>

#include "lcp/alart_curnier.hpp"
#include "lcp/contact_blocks.hpp"
#include "lcp/nsgs_3d.hpp"
#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

enum class RoundConeMethod { kAuto, kNsgs, kNewton };

struct RoundConeOptions {
  RoundConeMethod method = RoundConeMethod::kAuto;
  double tolerance = 1e-10;  ///< on fc3dError, > 0
  int max_sweeps = 10000;    ///< NSGS sweeps (nsgs, auto), ≥ 1
  int max_newton = 200;      ///< Newton iterations in all (newton, auto), ≥ 1
};
inline constexpr double kAutoSweepError = 1e-3;
inline constexpr double kAutoSweepRate = 0.5;
inline constexpr int kAutoSweeps = 50;
inline constexpr double kAutoSigmaCeiling = kSigmaMin;  // the first Newton gives up at its first step without progress

/// The solvers with their workspace, for a time loop: after the first problem of a given size and
/// block pattern, solve() allocates nothing but Newton's factorization (sparse path only).
class RoundConeSolver {
 public:
  explicit RoundConeSolver(RoundConeOptions options = {});
  /// Validates p (kInvalidInput with the reason); r starts from *warm_start when given (of the
  /// right size, finite), and from zero again if the solve from there stops short.
  void solve(const FrictionProblem3D& p, FrictionResult& out, const Eigen::VectorXd* warm_start = nullptr);
  /// The same on W given as blocks (p.W is then ignored, and may be empty).
  void solve(const ContactBlocks& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu, FrictionResult& out,
             const Eigen::VectorXd* warm_start = nullptr);
  const RoundConeOptions& options() const { return options_; }

 private:
  void solveFrom(const ContactBlocks& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu, FrictionResult& out,
                 const Eigen::VectorXd* warm_start);
  RoundConeOptions options_;
  ContactBlocks blocks_;
  Nsgs3dSolver nsgs_;
  AlartCurnierSolver newton_;
  Eigen::VectorXd start_r_;  ///< the iterate a Newton solve started from
};

/// "auto", "nsgs", "newton" → the method; throws std::invalid_argument otherwise.
RoundConeMethod roundConeMethod(const std::string& name);

}  // namespace stickslip::lcp
