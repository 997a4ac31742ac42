#include "lcp/small_pivoting.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

#include "lcp/block_pivoting.hpp"
#include "lcp/residual.hpp"

namespace stickslip::lcp {

namespace {

/// x's bits: zero but for the sign at ±0 alone.
std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// Block pivoting's own (block_pivoting.hpp).
constexpr double kFeasibilityTol = BlockPivotingSolver::kFeasibilityTol;
constexpr double kAcceptTol = BlockPivotingSolver::kAcceptTol;
constexpr int kMaxStalls = BlockPivotingSolver::kMaxStalls;

/// Step s of the elimination of a K × K block A (column-major, leading dimension K) and of b,
/// without row exchanges: a pivot at most `tol` in magnitude is not used (`used[s]` false).
template <int K, int s>
[[gnu::always_inline]] inline void eliminationStep(double* __restrict a, double* __restrict b,
                                                   double* inverse, bool* used, double tol) {
  used[s] = std::abs(a[s * K + s]) > tol;
  if (!used[s]) return;
  const double inv = inverse[s] = 1.0 / a[s * K + s];
  const double* pivot_column = a + s * K;
  for (int c = s + 1; c < K; ++c) {
    const double u = a[c * K + s] * inv;
    if (u == 0.0) continue;  // the zeros of a sparse M
    double* column = a + c * K;
    for (int r = s + 1; r < K; ++r) column[r] -= pivot_column[r] * u;
  }
  const double u = b[s] * inv;
  for (int r = s + 1; r < K; ++r) b[r] -= pivot_column[r] * u;
}

/// Step s of the back substitution by columns: x_s (0 where the pivot was not used) in b_s,
/// then its share out of b above. By the pivots' reciprocals: a division in this chain of
/// dependent steps would cost each step its latency.
template <int K, int s>
[[gnu::always_inline]] inline void substitutionStep(const double* __restrict a,
                                                    double* __restrict b, const double* inverse,
                                                    const bool* used) {
  const double x = b[s] = used[s] ? b[s] * inverse[s] : 0.0;
  const double* column = a + s * K;
  for (int r = 0; r < s; ++r) b[r] -= column[r] * x;
}

/// Solves A x = b in place, x in b. Each step is its own instance (a fold, not a loop), so that
/// every column operation's bounds are constants and it unrolls: a loop over the steps took
/// 18 % more instructions at K = 16.
template <int K, int... S>
[[gnu::always_inline]] inline void solveBlock(std::integer_sequence<int, S...>, double* a,
                                              double* b, bool* used, double tol) {
  double inverse[K];
  (eliminationStep<K, S>(a, b, inverse, used, tol), ...);
  (substitutionStep<K, K - 1 - S>(a, b, inverse, used), ...);
}

/// solveBlock with every step, for the table below.
template <int K>
void solveBlock(double* a, double* b, bool* used, double tol) {
  solveBlock<K>(std::make_integer_sequence<int, K>(), a, b, used, tol);
}

/// solveBlock<k> for k = 1 … kSmallPivotingSize, by index k − 1.
template <int... I>
constexpr auto blockTable(std::integer_sequence<int, I...>) {
  return std::array<void (*)(double*, double*, bool*, double), sizeof...(I)>{&solveBlock<I + 1>...};
}
inline constexpr auto kSolveBlock =
    blockTable(std::make_integer_sequence<int, int(kSmallPivotingSize)>());

/// From this many unknowns the first guess takes a projected Jacobi step: below, the step costs
/// more than the rounds it saves (measured on seeded SPD LCPs).
constexpr int kJacobiGuessSize = 5;

/// Which of M's entries can be nonzero: a triangular M is solved by substitution.
enum class Shape { kFull, kLower, kUpper, kDiagonal };

/// The method for n = N: every loop's bound is known, so that the compiler lays a few unknowns
/// out without loops, and the arrays live on the stack.
template <int N>
struct Small {
  const double* m = nullptr;  // M, column-major
  const double* q = nullptr;
  double m_norm = 0.0, q_norm = 0.0;  // ‖M‖∞, ‖q‖∞
  double pivot_tol = 0.0;
  bool positive_diagonal = false;  // every M_ii > 0, found by classify()
  bool free[N];
  int index[N];  // F's indices in M, ascending: the first `k`
  int k = 0;
  double z[N], w[N];

  /// The rows of column j that `shape` leaves nonzero: [first, last).
  static int first(Shape shape, int j) {
    return shape == Shape::kLower || shape == Shape::kDiagonal ? j : 0;
  }
  static int last(Shape shape, int j) {
    return shape == Shape::kUpper || shape == Shape::kDiagonal ? j + 1 : N;
  }

  /// kLower, kUpper or kDiagonal for a triangular M whose diagonal is positive, else kFull;
  /// notes a positive diagonal for the first guess.
  /// Each scan stops at the first column that rules its triangle out: a dense M costs a few
  /// reads.
  Shape classify() {
    for (int j = 0; j < N; ++j)
      if (!(m[j * N + j] > 0.0)) return Shape::kFull;  // NaN too
    positive_diagonal = true;
    // The entries' bits or'ed over a column: one branch a column, not one an entry.
    auto zero = [&](bool strictly_upper) {
      for (int j = 0; j < N; ++j) {
        const int from = strictly_upper ? 0 : j + 1, to = strictly_upper ? j : N;
        std::uint64_t any = 0;
        for (int i = from; i < to; ++i) any |= bits(m[j * N + i]);
        if (any << 1 != 0) return false;
      }
      return true;
    };
    const bool above_zero = zero(true), below_zero = zero(false);
    if (above_zero) return below_zero ? Shape::kDiagonal : Shape::kLower;
    return below_zero ? Shape::kUpper : Shape::kFull;
  }

  /// ‖M‖∞ and ‖q‖∞, read from the entries `Form` leaves nonzero; false at a NaN or infinite
  /// entry.
  template <Shape Form>
  bool measure() {
    double row_sums[N] = {};
    for (int j = 0; j < N; ++j)
      for (int i = first(Form, j); i < last(Form, j); ++i) row_sums[i] += std::abs(m[j * N + i]);
    double sum = 0.0;
    for (int i = 0; i < N; ++i) {
      m_norm = std::max(m_norm, row_sums[i]);
      q_norm = std::max(q_norm, std::abs(q[i]));
      sum += row_sums[i] + std::abs(q[i]);
    }
    pivot_tol = 10.0 * N * std::max(1.0, m_norm) * std::numeric_limits<double>::epsilon();
    return std::isfinite(sum);
  }

  /// A triangular M with a positive diagonal is a P-matrix whose solution one substitution
  /// gives: in the order that leaves each w_j depending on z_j and the z already known (forward
  /// for a lower M, backward for an upper one), z_j = max(0, −w_j / M_jj). w = q + M z is summed
  /// along the way, in full: the other triangle is zero.
  void substitute(Shape shape) {
    double inverse[N];  // the diagonal's reciprocals, out of the chain of dependent steps
    for (int j = 0; j < N; ++j) inverse[j] = 1.0 / m[j * N + j];
    for (int i = 0; i < N; ++i) w[i] = q[i];
    for (int step = 0; step < N; ++step) {
      const int j = shape == Shape::kUpper ? N - 1 - step : step;
      const double* column = m + j * N;
      z[j] = std::max(0.0, -w[j] * inverse[j]);
      if (z[j] == 0.0) continue;
      for (int r = first(shape, j); r < last(shape, j); ++r) w[r] += column[r] * z[j];
    }
  }

  /// F's indices in `index`, their number in k.
  void listFree() {
    k = 0;
    for (int i = 0; i < N; ++i) {  // without a branch on F's pattern, which none predicts
      index[k] = i;
      k += free[i];
    }
  }

  /// z from M_FF z_F = −q_F, z_G = 0: solveBlock<k> on a compact copy of M_FF, in F's order.
  /// An index whose pivot is at most `pivot_tol` in magnitude is never used to eliminate, so it
  /// leaves F.
  void solveFree() {
    listFree();
    for (int i = 0; i < N; ++i) z[i] = 0.0;
    if (k == 0) return;
    double a[N * N], b[N];  // M_FF compact (leading dimension k), −q_F
    bool used[N];
    if (k == N) {  // F is every index: a plain copy (a loop: std::copy called memmove)
      for (int i = 0; i < N * N; ++i) a[i] = m[i];
      for (int i = 0; i < N; ++i) b[i] = -q[i];
    } else {
      for (int c = 0; c < k; ++c) {
        const double* column = m + index[c] * N;
        for (int r = 0; r < k; ++r) a[c * k + r] = column[index[r]];
        b[c] = -q[index[c]];
      }
    }
    // Up to 2 unknowns the steps inline here: through the table, or through solveBlock<k>,
    // which the table's entry keeps out of line, the call took a fifth of the solve.
    if constexpr (N <= 2) {
      if (k == 1) solveBlock<1>(std::make_integer_sequence<int, 1>(), a, b, used, pivot_tol);
      if (k == 2) solveBlock<2>(std::make_integer_sequence<int, 2>(), a, b, used, pivot_tol);
    } else {
      kSolveBlock[std::size_t(k - 1)](a, b, used, pivot_tol);
    }
    for (int s = 0; s < k; ++s) {
      z[index[s]] = b[s];
      free[index[s]] = used[s];
    }
  }

  /// w = q + M z, from F's columns (z_G = 0), four at a time: one load and store of w per four.
  void formW() {
    double sum[N];  // local: its stores cannot alias M, so the loops vectorize
    for (int i = 0; i < N; ++i) sum[i] = q[i];
    int c = 0;
    for (; c + 4 <= k; c += 4) {
      const double *m0 = m + index[c] * N, *m1 = m + index[c + 1] * N;
      const double *m2 = m + index[c + 2] * N, *m3 = m + index[c + 3] * N;
      const double z0 = z[index[c]], z1 = z[index[c + 1]];
      const double z2 = z[index[c + 2]], z3 = z[index[c + 3]];
      for (int i = 0; i < N; ++i) sum[i] += (m0[i] * z0 + m1[i] * z1) + (m2[i] * z2 + m3[i] * z3);
    }
    for (; c < k; ++c) {
      const double* mj = m + index[c] * N;
      const double zj = z[index[c]];
      for (int i = 0; i < N; ++i) sum[i] += mj[i] * zj;
    }
    for (int i = 0; i < N; ++i) w[i] = sum[i];
  }

  /// The first guess of F: where one projected Jacobi step from z_i = max(0, −q_i / M_ii)
  /// leaves z positive, when M's diagonal is positive; otherwise where q_i < 0. The step sees
  /// the coupling that q's signs alone miss, and takes one product over those columns.
  void guess() {
    for (int i = 0; i < N; ++i) free[i] = q[i] < 0.0;
    if (N < kJacobiGuessSize || !positive_diagonal) return;
    listFree();
    for (int i = 0; i < N; ++i) z[i] = std::max(0.0, -q[i]) / m[i * N + i];
    formW();
    // z_i − w_i / M_ii > 0, times M_ii > 0: no division.
    for (int i = 0; i < N; ++i) free[i] = std::max(0.0, -q[i]) - w[i] > 0.0;
  }

  /// The rounds of block pivoting; the number of rounds to a complementary feasible candidate,
  /// or 0 when there is none within them.
  int pivot() {
    bool bad[N];
    guess();
    int fewest = N + 1, stalls = 0;
    for (int round = 1; round <= N + 2; ++round) {
      solveFree();
      formW();
      double z_norm = 0.0;
      for (int i = 0; i < N; ++i) z_norm = std::max(z_norm, std::abs(z[i]));
      const double z_tol = kFeasibilityTol * std::max(z_norm, 1e-300);
      const double w_tol = kFeasibilityTol * std::max(q_norm, m_norm * z_norm);
      int count = 0;
      for (int i = 0; i < N; ++i) {
        bad[i] = free[i] ? z[i] < -z_tol : w[i] < -w_tol;
        count += bad[i];
      }
      if (count == 0) return round;
      if (count < fewest || stalls < kMaxStalls) {  // every infeasible index changes sides
        stalls = count < fewest ? 0 : stalls + 1;
        fewest = std::min(fewest, count);
        for (int i = 0; i < N; ++i) free[i] = free[i] != bad[i];
      } else {  // Murty's rule: only the largest
        int largest = N - 1;
        while (!bad[largest]) --largest;
        free[largest] = !free[largest];
      }
    }
    return 0;
  }

  /// The rounds to a candidate for an M of the shape `Form`: block pivoting's, or the
  /// substitution's one; 0 at a NaN or infinite entry (the caller's validation names it) or
  /// without a candidate.
  template <Shape Form>
  int candidate() {
    if (!measure<Form>()) return 0;
    if (Form == Shape::kFull) return pivot();
    substitute(Form);
    return 1;
  }

  /// candidate<Form>() for the one of `Forms` that is `shape` (each inlined, no call through a
  /// pointer); 0 for none.
  template <Shape... Forms>
  int candidateFor(Shape shape) {
    int rounds = 0;
    ((shape == Forms && (rounds = candidate<Forms>(), true)) || ...);
    return rounds;
  }

  bool solve(Result& out) {
    const int rounds =
        candidateFor<Shape::kFull, Shape::kLower, Shape::kUpper, Shape::kDiagonal>(classify());
    if (rounds == 0) return false;
    // The answer, with z_F's round-off negatives cut to 0, and its residual.
    bool cut = false;
    double z_norm = 0.0;
    for (int i = 0; i < N; ++i) {
      cut |= z[i] < 0.0;
      z[i] = std::max(z[i], 0.0);
      z_norm = std::max(z_norm, z[i]);
    }
    if (cut) formW();
    double absolute = 0.0;
    for (int i = 0; i < N; ++i) absolute = std::max(absolute, std::abs(std::min(z[i], w[i])));
    const Residual res = relativeTo(absolute, std::max(q_norm, m_norm * z_norm));
    if (!(res.relative <= kAcceptTol)) return false;
    out.z = Eigen::Map<const Eigen::VectorXd>(z, N);
    out.w = Eigen::Map<const Eigen::VectorXd>(w, N);
    out.status = Status::kSuccess;
    out.pivots = rounds;
    out.residual = res.absolute;
    out.relative_residual = res.relative;
    out.zero_tol_used = pivot_tol;
    out.message.clear();
    return true;
  }
};

template <int N>
bool solveSized(const Problem& p, Result& out) {
  Small<N> small;
  small.m = p.M.data();
  small.q = p.q.data();
  return small.solve(out);
}

/// solveSized<n> for n = 1 … kSmallPivotingSize, by index n − 1.
template <int... I>
constexpr auto sizedTable(std::integer_sequence<int, I...>) {
  return std::array<bool (*)(const Problem&, Result&), sizeof...(I)>{&solveSized<I + 1>...};
}

}  // namespace

bool solveBySmallPivoting(const Problem& p, Result& out) {
  static constexpr auto kSized =
      sizedTable(std::make_integer_sequence<int, int(kSmallPivotingSize)>());
  const Eigen::Index n = p.size();
  return n >= 1 && n <= kSmallPivotingSize && kSized[std::size_t(n - 1)](p, out);
}

}  // namespace stickslip::lcp
