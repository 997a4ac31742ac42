#include "lcp/small_nsgs.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "lcp/nsgs.hpp"
#include "lcp/residual.hpp"

namespace stickslip::lcp {

namespace {

/// `out` as a success with this answer.
template <class Vector>
bool answer(const Vector& r, const Vector& u, int sweeps, const Residual& res,
            FrictionResult& out) {
  out.r = r;
  out.u = u;
  out.status = Status::kSuccess;
  out.pivots = sweeps;
  out.residual = res.absolute;
  out.relative_residual = res.relative;
  out.message.clear();
  return true;
}

/// The method for nc = NC contacts, n = 2 NC unknowns.
template <int NC>
struct SmallNsgs {
  static constexpr int N = 2 * NC;
  using Vector = Eigen::Matrix<double, N, 1>;

  explicit SmallNsgs(const FrictionProblem2D& p)
      : W(p.W.data()), q(p.q.data()), mu(p.mu.data()), u(q) {}

  Eigen::Map<const Eigen::Matrix<double, N, N>> W;
  Eigen::Map<const Vector> q;
  Eigen::Map<const Eigen::Matrix<double, NC, 1>> mu;
  double w_norm = 0.0, q_norm = 0.0;  // ‖W‖∞, ‖q‖∞
  Vector r = Vector::Zero(), u;

  /// ‖W‖∞ and ‖q‖∞; false at a NaN or infinite entry or a negative μ.
  bool measure() {
    const Vector row_sums = W.cwiseAbs().rowwise().sum();
    w_norm = row_sums.maxCoeff();
    q_norm = q.cwiseAbs().maxCoeff();
    if (!std::isfinite(row_sums.sum() + q.cwiseAbs().sum() + mu.cwiseAbs().sum())) return false;
    return (mu.array() >= 0.0).all();
  }

  /// One sweep; false at a local problem without a solution. u is left stale by the last
  /// contact's change: the caller forms it afresh.
  bool sweep() {
    for (int i = 0; i < NC; ++i) {
      const Eigen::Matrix2d a = W.template block<2, 2>(2 * i, 2 * i);
      const Eigen::Vector2d ri = r.template segment<2>(2 * i);
      const Eigen::Vector2d b = u.template segment<2>(2 * i) - a * ri;
      Eigen::Vector2d local;
      if (solveLocalContact(a, b, mu(i), local) == PlanarMode::kNone) return false;
      if (i + 1 < NC) u.noalias() += W.template middleCols<2>(2 * i) * (local - ri);
      r.template segment<2>(2 * i) = local;
    }
    return true;
  }

  Residual natural() const {
    double absolute = 0.0;
    for (int i = 0; i < NC; ++i)
      absolute = std::max(
          absolute, frictionContactResidual(mu(i), r(2 * i), r(2 * i + 1), u(2 * i), u(2 * i + 1), w_norm));
    return relativeTo(absolute, std::max(q_norm, w_norm * r.cwiseAbs().maxCoeff()));
  }

  bool solve(int max_sweeps, FrictionResult& out) {
    if (!measure()) return false;
    for (int sweeps = 1; sweeps <= max_sweeps; ++sweeps) {
      if (!sweep()) return false;
      u.noalias() = W * r;  // afresh, without the round-off of the column updates
      u += q;
      const Residual res = natural();
      if (res.relative <= kSmallNsgsTolerance) return answer(r, u, sweeps, res, out);
    }
    return false;
  }
};

template <int NC>
bool solveContacts(const FrictionProblem2D& p, int max_sweeps, FrictionResult& out) {
  return SmallNsgs<NC>(p).solve(max_sweeps, out);
}

/// No contacts: nothing to solve, the empty answer.
bool solveNoContacts(const FrictionProblem2D&, int, FrictionResult& out) {
  return answer(Eigen::VectorXd(), Eigen::VectorXd(), 0, {}, out);
}

/// solveNoContacts, then solveContacts<nc> for nc = 1 … kSmallNsgsContacts, by index nc.
template <int... I>
constexpr auto contactsTable(std::integer_sequence<int, I...>) {
  return std::array<bool (*)(const FrictionProblem2D&, int, FrictionResult&), sizeof...(I) + 1>{
      &solveNoContacts, &solveContacts<I + 1>...};
}

}  // namespace

bool solveBySmallNsgs(const FrictionProblem2D& p, int max_sweeps, FrictionResult& out) {
  static constexpr auto kSized =
      contactsTable(std::make_integer_sequence<int, int(kSmallNsgsContacts)>());
  const Eigen::Index nc = p.contacts(), n = 2 * nc;
  if (nc > kSmallNsgsContacts || p.W.rows() != n || p.W.cols() != n || p.q.size() != n)
    return false;
  return kSized[std::size_t(nc)](p, max_sweeps, out);
}

}  // namespace stickslip::lcp
