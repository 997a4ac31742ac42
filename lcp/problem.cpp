#include "lcp/problem.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace stickslip::lcp {
namespace {

std::string dims(const Eigen::MatrixXd& m) {
  return std::to_string(m.rows()) + "×" + std::to_string(m.cols());
}

[[noreturn]] void fail(std::string_view who, const std::string& what) {
  throw std::invalid_argument(std::string(who) + ": " + what);
}

template <typename Derived>
void requireFinite(std::string_view who, const char* name, const Eigen::MatrixBase<Derived>& x) {
  if (x.allFinite()) return;
  for (Eigen::Index j = 0; j < x.cols(); ++j)
    for (Eigen::Index i = 0; i < x.rows(); ++i)
      if (!std::isfinite(x(i, j))) {
        std::ostringstream os;
        os << name << " has a non-finite entry " << x(i, j) << " at (" << i << ", " << j << ")";
        fail(who, os.str());
      }
}

}  // namespace

void Problem::validate(std::string_view who) const {
  if (M.rows() != M.cols() || M.rows() != q.size())
    fail(who, "expected M n×n and q of size n, got M " + dims(M) + ", q " +
                  std::to_string(q.size()));
  requireFinite(who, "M", M);
  requireFinite(who, "q", q);
}

void MixedProblem::validate(std::string_view who) const {
  const Eigen::Index ne = A.rows(), nu = A.cols(), m = B.rows();
  if (B.cols() != m) fail(who, "expected B m×m, got " + dims(B));
  if (C.rows() != ne || C.cols() != m)
    fail(who, "expected C " + std::to_string(ne) + "×" + std::to_string(m) + ", got " + dims(C));
  if (D.rows() != m || D.cols() != nu)
    fail(who, "expected D " + std::to_string(m) + "×" + std::to_string(nu) + ", got " + dims(D));
  if (a.size() != ne)
    fail(who, "expected a of size " + std::to_string(ne) + ", got " + std::to_string(a.size()));
  if (b.size() != m)
    fail(who, "expected b of size " + std::to_string(m) + ", got " + std::to_string(b.size()));
  requireFinite(who, "A", A);
  requireFinite(who, "B", B);
  requireFinite(who, "C", C);
  requireFinite(who, "D", D);
  requireFinite(who, "a", a);
  requireFinite(who, "b", b);
}

void HorizontalProblem::validate(std::string_view who) const {
  const Eigen::Index n = q.size();
  if (A.rows() != n || A.cols() != n || B.rows() != n || B.cols() != n)
    fail(who, "expected A and B n×n with n = " + std::to_string(n) + ", got A " + dims(A) +
                  ", B " + dims(B));
  requireFinite(who, "A", A);
  requireFinite(who, "B", B);
  requireFinite(who, "q", q);
}

void FrictionProblem2D::validate(std::string_view who) const {
  const Eigen::Index n = 2 * mu.size();
  if (W.rows() != n || W.cols() != n || q.size() != n)
    fail(who, "expected W 2nc×2nc and q of size 2nc with nc = " + std::to_string(mu.size()) +
                  ", got W " + dims(W) + ", q " + std::to_string(q.size()));
  requireFinite(who, "W", W);
  requireFinite(who, "q", q);
  requireFinite(who, "mu", mu);
  for (Eigen::Index i = 0; i < mu.size(); ++i)
    if (mu(i) < 0.0)
      fail(who, "friction coefficient mu[" + std::to_string(i) + "] = " + std::to_string(mu(i)) +
                    " is negative");
}

void FrictionProblem3D::validate(std::string_view who) const {
  const Eigen::Index n = 3 * mu.size();
  if (W.rows() != n || W.cols() != n || q.size() != n)
    fail(who, "expected W 3nc×3nc and q of size 3nc with nc = " + std::to_string(mu.size()) + ", got W " + dims(W) +
                  ", q " + std::to_string(q.size()));
  requireFinite(who, "W", W);
  requireFinite(who, "q", q);
  requireFinite(who, "mu", mu);
  for (Eigen::Index i = 0; i < mu.size(); ++i)
    if (mu(i) < 0.0)
      fail(who, "friction coefficient mu[" + std::to_string(i) + "] = " + std::to_string(mu(i)) + " is negative");
}

std::string delassusWarning(const FrictionProblem3D& p) {
  if (p.W.size() == 0) return "";  // no contacts (maxCoeff of nothing is undefined)
  const double norm = p.W.cwiseAbs().rowwise().sum().maxCoeff();
  if (!(norm > 0.0) || !std::isfinite(norm)) return "";
  std::ostringstream os;
  os.precision(3);
  const double asymmetry = (p.W - p.W.transpose()).cwiseAbs().rowwise().sum().maxCoeff() / norm;
  if (asymmetry > kDelassusSymmetryTol)
    os << "W is not symmetric (|W - W^T| = " << asymmetry << " |W|, beyond " << kDelassusSymmetryTol << ")";
  // S + τ‖W‖ I is positive definite iff λ_min(S) > −τ‖W‖: one Cholesky decides in the usual case.
  const Eigen::MatrixXd S = 0.5 * (p.W + p.W.transpose());
  const double shift = kDelassusDefinitenessTol * norm;
  Eigen::LLT<Eigen::MatrixXd> llt(S + shift * Eigen::MatrixXd::Identity(S.rows(), S.cols()));
  if (llt.info() != Eigen::Success) {
    const double lmin = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(S, Eigen::EigenvaluesOnly).eigenvalues()(0);
    if (lmin < -shift || !std::isfinite(lmin))
      os << (os.tellp() > 0 ? "; " : "") << "W is indefinite (smallest eigenvalue of (W + W^T)/2 = " << lmin / norm
         << " |W|, below -" << kDelassusDefinitenessTol << " |W|)";
  }
  if (os.tellp() == 0) return "";
  os << ": not a Delassus matrix, the problem may have no solution or several";
  return os.str();
}

void SparseFrictionProblem2D::validate(std::string_view who) const {
  const Eigen::Index n = q.size();
  if (n != 2 * mu.size() || W.rows() != n || W.cols() != n)
    fail(who, "expected W 2nc×2nc, q of size 2nc and mu of size nc, got W " + std::to_string(W.rows()) + "×" +
           std::to_string(W.cols()) + ", q " + std::to_string(n) + ", mu " + std::to_string(mu.size()));
  if (!q.allFinite() || !mu.allFinite() || (mu.array() < 0.0).any()) fail(who, "expected finite q and finite mu >= 0");
  if (bilateral < 0 || bilateral > mu.size())
    fail(who, "expected between 0 and " + std::to_string(mu.size()) + " bilateral blocks, got " +
           std::to_string(bilateral));
  for (Eigen::Index k = 0; k < W.outerSize(); ++k)
    for (decltype(W)::InnerIterator it(W, k); it; ++it)
      if (!std::isfinite(it.value()))
        fail(who, "W(" + std::to_string(it.row()) + ", " + std::to_string(it.col()) + ") is not finite");
}

void compressRows(const Eigen::MatrixXd& W, SparseFrictionProblem2D::Matrix& out) {
  const Eigen::Index rows = W.rows(), cols = W.cols();
  const Eigen::Index nnz = (W.array() != 0.0).count();
  out.resize(rows, cols);
  // Every entry is written and kept by stepping past it when nonzero: no branch on W's
  // pattern to mispredict; one slot past the end takes the last row's final write.
  out.resizeNonZeros(nnz + 1);
  double* value = out.valuePtr();
  int* column = out.innerIndexPtr();
  int* start = out.outerIndexPtr();
  Eigen::Index k = 0;
  for (Eigen::Index i = 0; i < rows; ++i) {
    start[i] = int(k);
    for (Eigen::Index j = 0; j < cols; ++j) {
      const double w = W(i, j);
      value[k] = w;
      column[k] = int(j);
      k += w != 0.0;
    }
  }
  start[rows] = int(k);
  out.resizeNonZeros(nnz);
}

}  // namespace stickslip::lcp
