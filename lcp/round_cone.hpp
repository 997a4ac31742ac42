#pragma once
/// \file Spatial Coulomb friction solved exactly on the round cone by our own solvers: NSGS with
/// exact local solves (nsgs_3d.hpp), the Alart–Curnier Newton method (alart_curnier.hpp), and
/// `auto`, which combines them.
///
/// `auto`, in order, each step only while Siconos' error is above the tolerance:
///  1. contacts that do not couple (W block-diagonal): one NSGS sweep, exact;
///  2. Newton from the start, given up where its proximal weight would pass kAutoSigmaCeiling
///     (a kink of its equations, or W's null directions) or after kAutoFirstNewton iterations;
///  3. from the start again, NSGS sweeps while each at least halves the error (kAutoSweepRate),
///     down to kAutoSweepError;
///  4. rounds of Newton (its proximal weight free to rise) and kAutoSweeps sweeps, until the
///     budgets are spent or a round leaves the error above kAutoStall of its start;
///  5. small sets: Newton from the faceted cone's answer (friction_facets.hpp), 8 facets, then
///     32 and 128 while the faceted LCP stays within kFacetedStartSize unknowns, the facets
///     turned to the slip directions of the last answer between attempts (kFacetedTurns);
///  6. from zero, Newton alone, then NSGS alone for the sweeps left (hyperstatic sets that the
///     rounds leave stalled), the best answer kept.
/// Step 5 is for hyperstatic sets (a journal's four contacts in its bearing: W of rank 6 in 12)
/// where Newton and Gauss–Seidel stall in a wrong basin: a contact held in stick where the answer
/// slips, W's null directions letting ‖F‖ rest above zero. Lemke, a pivoting method that W's rank
/// does not trouble, lands near the right modes; a vertex of the polygon on each slip direction
/// makes its answer exact there.
/// Newton converges fast once the modes are about right; the sweeps give it a start and move the
/// iterate off the kinks where its line search stops.
/// Each solver stops on Siconos' error and the normal rows' own check (contact_blocks.hpp:
/// normalViolation). A problem given densely is posed in W's units first, (W/s, q) for s r with
/// s = frictionScale(W), a power of two: Siconos' error there weighs forces and velocities at one
/// scale, whatever the masses (in the units given, a heavy mechanism's velocities vanish beside
/// its forces). Where Siconos' error in the units given is still above the tolerance, the answer
/// is refined in those units. W given as blocks is solved in the caller's units.
/// FrictionResult::solver says which method answered ("nsgs", "newton", or "nsgs+newton"),
/// pivots counts sweeps plus Newton iterations, residual is the natural-map norm unnormalized
/// and relative_residual Siconos' fc3d error (fc3dError), both in the units given.

#include <Eigen/Dense>
#include <string>

#include "lcp/alart_curnier.hpp"
#include "lcp/contact_blocks.hpp"
#include "lcp/friction_facets.hpp"
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
inline constexpr double kAutoStall = 0.99;  ///< a round that leaves the error above this fraction ends the rounds
inline constexpr double kAutoSigmaCeiling = kSigmaStart;  ///< the first Newton's proximal weight at most
inline constexpr int kAutoFirstNewton = 10;                 ///< and its iterations
inline constexpr Eigen::Index kFacetedStartSize = 600;  ///< (k + 2) nc at most: Lemke's cost grows as its cube
inline constexpr int kFacetedTurns = 4;                    ///< faceted starts per facet count
inline constexpr int kFacetedNewton = 50;                  ///< Newton iterations from each

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
  /// Step 5 (file comment): true when a Newton solve from a faceted answer met the tolerance
  /// (r, u its answer); r, u unchanged otherwise. Adds its Newton iterations to `newton`.
  bool solveFromFacets(const ContactBlocks& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                       Eigen::VectorXd& r, Eigen::VectorXd& u, int& newton);
  RoundConeOptions options_;
  ContactBlocks blocks_;
  Nsgs3dSolver nsgs_;
  AlartCurnierSolver newton_;
  Eigen::VectorXd start_r_;  ///< the iterate a Newton solve started from
  FacetedFrictionSolver coarse_{8}, fine_{32}, finest_{128};
  FrictionProblem3D dense_;  ///< W dense for the faceted starts
  FrictionResult faceted_;
  Eigen::VectorXd turn_, trial_r_, trial_u_;
  Eigen::VectorXd scaled_start_;  ///< a warm start in W's units, or the answer polished in the units given
};

/// "auto", "nsgs", "newton" → the method; throws std::invalid_argument otherwise.
RoundConeMethod roundConeMethod(const std::string& name);

}  // namespace stickslip::lcp
