#include "lcp/contact_blocks.hpp"

#include <algorithm>
#include <cmath>

namespace stickslip::lcp {

void ContactBlocks::assign(const Eigen::Ref<const Eigen::MatrixXd>& W, double divisor) {
  const Eigen::Index nc = W.rows() / 3;
  clear();
  for (Eigen::Index i = 0; i < nc; ++i) {
    for (Eigen::Index j = 0; j < nc; ++j) {
      const auto block = W.block<3, 3>(3 * i, 3 * j);
      if (!block.isZero(0.0)) add(j, block / divisor);
    }
    endRow();
  }
  finishRows();
}

void ContactBlocks::finishRows() {
  const Eigen::Index nc = contacts();
  diagonal_.assign(std::size_t(nc), Eigen::Matrix3d::Zero());
  for (Eigen::Index i = 0; i < nc; ++i)
    for (const Block* b = rowBegin(i); b != rowEnd(i); ++b)
      if (b->col == i) diagonal_[std::size_t(i)] = b->value;
}

void ContactBlocks::multiplyAdd(const Eigen::Ref<const Eigen::VectorXd>& x, const Eigen::Ref<const Eigen::VectorXd>& q,
                                Eigen::Ref<Eigen::VectorXd> y) const {
  for (Eigen::Index i = 0; i < contacts(); ++i) y.segment<3>(3 * i) = rowTimes(i, x, q);
}

void ContactBlocks::toDense(Eigen::MatrixXd& W) const {
  W.setZero(3 * contacts(), 3 * contacts());
  for (Eigen::Index i = 0; i < contacts(); ++i)
    for (const Block* b = rowBegin(i); b != rowEnd(i); ++b) W.block<3, 3>(3 * i, 3 * b->col) = b->value;
}

Eigen::Index normalViolation(const ContactBlocks& W, const Eigen::Ref<const Eigen::VectorXd>& q,
                             const Eigen::Ref<const Eigen::VectorXd>& r, const Eigen::Ref<const Eigen::VectorXd>& u,
                             double tolerance, Eigen::VectorXd& terms, Eigen::Index bilateral) {
  const Eigen::Index nc = W.contacts() - bilateral;
  terms.resize(nc);
  double scale = 0.0;
  for (Eigen::Index i = 0; i < nc; ++i) {
    double sum = std::abs(q(3 * i));
    for (const ContactBlocks::Block* b = W.rowBegin(i); b != W.rowEnd(i); ++b)
      sum += b->value.row(0).cwiseAbs().dot(r.segment<3>(3 * b->col).cwiseAbs());
    terms(i) = sum;
    scale = std::max(scale, std::abs(q(3 * i)));  // not r's: a diverging r would excuse any contact
  }
  for (Eigen::Index i = 0; i < nc; ++i)
    if (!(std::abs(std::min(r(3 * i), u(3 * i))) <= std::max(kNormalCheck * terms(i), 10.0 * tolerance * scale)))
      return i;
  return -1;
}

}  // namespace stickslip::lcp
