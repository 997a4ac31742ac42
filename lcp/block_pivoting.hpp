#pragma once
/// \file Block principal pivoting for LCP(M, q) with M symmetric positive definite
/// [Júdice & Pires 1994, after Kostreva 1978 and Murty 1974].
///
/// A guess of the free set F (z_F > 0, w_F = 0; z = 0 on the rest G) fixes the candidate
///   M_FF z_F = −q_F  (Cholesky),   w_G = M_GF z_F + q_G.
/// Every index where it is infeasible (z_i < 0 in F, w_i < 0 in G) changes sides at once, as
/// long as their number keeps falling; after kMaxStalls rounds without a fall, only the
/// largest infeasible index changes sides (Murty's rule), which ends for every P-matrix. The
/// first round factors the free block (|F|³/6); each later one updates that factor for the
/// indices that changed sides (updated_cholesky.hpp, O(|F|²) each), so a solve costs about one
/// factorization where Lemke pivots ~|F| times on an n × n inverse.
///
/// After a round in which indices only joined F (the set J, none left), their z_J in the new F
/// is the back substitution's first |J| steps, on the factor's corner; with z_F held, w_G would
/// become w_G + M_GJ z_J, and every index this takes below 0 joins at once, before the round's
/// solve. The estimate then goes on with the newest joiners alone: their z from the corner, their
/// share added to w_G, the z of those before them held, until no index joins. For a Z-matrix
/// (M_ij ≤ 0 off the diagonal: obstacle and membrane problems) z_F can only grow as indices join,
/// so the estimate bounds the new w_i from above and each index it adds would have joined in a
/// later round anyway. The bound can miss an index that does join, which then joins a round
/// later: a cascade of joins, one neighbour a round, takes a few rounds (a 1-D obstacle problem
/// of 200 unknowns: 2 against 15 without the estimate). For any other M it is a guess that the next
/// round's check corrects, and Murty's rule, the method's guarantee, does not use it.
///
/// Contract: M symmetric positive definite, the class for which the solution is unique and the
/// method ends. A nonsymmetric M, a free block that is not positive definite (M not PD), or the
/// round limit gives a failure status with the reason, never a wrong answer. M's symmetry is
/// checked where a nonsymmetric M shows, not on every solve: when a round's w_F = 0 does not
/// close (its Cholesky read only M_FF's lower triangle) and when a solve fails. Every success has
/// passed the relative residual check of residual.hpp at 1e-9, as Lemke's (measured on the last
/// round's w = q + M z, which that round has already formed). The workspace is sized once per
/// problem size and reused.

#include <Eigen/Dense>
#include <vector>

#include "lcp/problem.hpp"
#include "lcp/result.hpp"
#include "lcp/updated_cholesky.hpp"

namespace stickslip::lcp {

class BlockPivotingSolver final {
 public:
  /// Solves p into `out` (z, w, status, rounds in `pivots`, residuals). Never throws.
  void solve(const Problem& p, Result& out);
  Result solve(const Problem& p);

  static constexpr int kMaxStalls = 3;        ///< block rounds without fewer infeasibilities
  static constexpr double kAcceptTol = 1e-9;  ///< relative residual of a success
  /// Infeasible: z_i below −tol·‖z‖∞, w_i below −tol·(the scale of w's terms).
  static constexpr double kFeasibilityTol = 1e-12;

 private:
  /// z_F from M_FF z_F = −q_F: the factor afresh, or updated for the indices that changed sides
  /// (`joined_` those that entered F); false when M_FF is not positive definite.
  bool solveFree(const Problem& p, bool fresh);
  /// After a round in which indices only joined F (`joined_`, just appended): their z_J in the
  /// new F from the factor's corner; every i outside F where w_i + M_iJ z_J < 0 joins too, and
  /// so on with the newest joiners. False when M_FF is not positive definite.
  bool joinAhead(const Problem& p);
  /// Marks the infeasible indices; returns their count, `largest` the largest of them.
  int infeasible(const Problem& p, double tol, Eigen::Index& largest);
  void resize(Eigen::Index n);

  UpdatedCholesky factor_;            ///< of M_FF, F in the order its indices entered
  std::vector<char> free_;            ///< free_[i]: i ∈ F
  std::vector<char> bad_;             ///< bad_[i]: i infeasible this round, so it changes sides
  std::vector<Eigen::Index> joined_;  ///< the indices entering F this round
  bool join_ahead_ = false;           ///< the last round's infeasible indices only joined F
  Eigen::VectorXd minus_q_, x_, z_, w_, row_sums_;  ///< x_: z_F in F's order
  Eigen::VectorXd ahead_;                           ///< w_i + M_iJ z_J, joinAhead()'s estimate
  double m_norm_ = 0.0, q_norm_ = 0.0;   ///< ‖M‖∞, max |q_i|
  double w_free_ = 0.0, w_scale_ = 0.0;  ///< this round's max |w_i| over F, and w's scale
};

}  // namespace stickslip::lcp
