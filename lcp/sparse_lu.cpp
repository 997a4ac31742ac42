#include "lcp/sparse_lu.hpp"

#include <klu.h>

#include <algorithm>

namespace stickslip::lcp {

struct SparseLu::Klu {
  klu_common common;
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  int n = 0;

  Klu() { klu_defaults(&common); }
  ~Klu() { release(); }
  void release() {
    if (numeric) klu_free_numeric(&numeric, &common);
    if (symbolic) klu_free_symbolic(&symbolic, &common);
  }
};

SparseLu::SparseLu() : klu_(std::make_unique<Klu>()) {}
SparseLu::~SparseLu() = default;
SparseLu::SparseLu(SparseLu&&) noexcept = default;
SparseLu& SparseLu::operator=(SparseLu&&) noexcept = default;

bool SparseLu::factor(int n, const int* outer, const int* inner, const double* values, bool fresh_pivots) {
  Klu& k = *klu_;
  const int nnz = outer[n];
  const bool same_pattern = k.numeric && int(outer_.size()) == n + 1 && int(inner_.size()) == nnz &&
                            std::equal(outer_.begin(), outer_.end(), outer) &&
                            std::equal(inner_.begin(), inner_.end(), inner);
  // KLU reads the arrays without changing them; its API is not const-qualified.
  int* ap = const_cast<int*>(outer);
  int* ai = const_cast<int*>(inner);
  double* ax = const_cast<double*>(values);
  if (same_pattern) {
    if (klu_refactor(ap, ai, ax, k.symbolic, k.numeric, &k.common) && klu_rcond(k.symbolic, k.numeric, &k.common) &&
        k.common.rcond > kRefactorRcond)
      return true;
    if (!fresh_pivots) return false;  // the numeric object stays: a refactor rewrites all of it
    klu_free_numeric(&k.numeric, &k.common);
  } else {
    k.release();
    outer_.assign(outer, outer + n + 1);
    inner_.assign(inner, inner + nnz);
    k.n = n;
    k.symbolic = klu_analyze(n, ap, ai, &k.common);
    if (!k.symbolic) return false;
  }
  k.numeric = klu_factor(ap, ai, ax, k.symbolic, &k.common);
  return k.numeric && k.common.status == KLU_OK;
}

bool SparseLu::solve(Eigen::Ref<Eigen::VectorXd> x) {
  Klu& k = *klu_;
  return k.numeric && x.size() == k.n && klu_tsolve(k.symbolic, k.numeric, k.n, 1, x.data(), &k.common);
}

double SparseLu::pivotRatio() {
  Klu& k = *klu_;
  return k.numeric && klu_rcond(k.symbolic, k.numeric, &k.common) ? k.common.rcond : 0.0;
}

}  // namespace stickslip::lcp
