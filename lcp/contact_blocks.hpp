#pragma once
/// \file A spatial Delassus matrix W held as the 3×3 blocks of its contacts, row of blocks by row
/// of blocks, zero blocks left out: the storage of Siconos' sparse-block fc3d files and what the
/// round-cone solvers read (one contact's local problem reads its block row; Newton's Jacobian
/// has W's block pattern).

#include <Eigen/Dense>
#include <vector>

namespace stickslip::lcp {

class ContactBlocks {
 public:
  struct Block {
    Eigen::Index col;  ///< the contact j of W_ij
    Eigen::Matrix3d value;
  };

  /// From a dense 3nc × 3nc W divided by `divisor` (blocks that are exactly zero left out).
  /// Reuses its storage: once sized, assigning a problem of no more blocks allocates nothing.
  void assign(const Eigen::Ref<const Eigen::MatrixXd>& W, double divisor = 1.0);
  /// Or row of blocks by row of blocks: clear(), then per row add() by increasing column and
  /// endRow(), then finish(). Reuses the storage as assign() does.
  void clear() {
    blocks_.clear();
    row_start_.assign(1, 0);
  }
  void add(Eigen::Index col, const Eigen::Matrix3d& value) { blocks_.push_back({col, value}); }
  void endRow() { row_start_.push_back(blocks_.size()); }
  void finish() { finishRows(); }

  Eigen::Index contacts() const { return Eigen::Index(row_start_.size()) - 1; }
  /// Row of blocks i: blocks [rowBegin(i), rowEnd(i)) of blocks(), by increasing column.
  const Block* rowBegin(Eigen::Index i) const { return blocks_.data() + row_start_[std::size_t(i)]; }
  const Block* rowEnd(Eigen::Index i) const { return blocks_.data() + row_start_[std::size_t(i) + 1]; }
  /// W_ii (zero if W has no such block).
  const Eigen::Matrix3d& diagonal(Eigen::Index i) const { return diagonal_[std::size_t(i)]; }
  Eigen::Index blockCount() const { return Eigen::Index(blocks_.size()); }

  /// y = W x + q (y of size 3nc, no aliasing with x).
  void multiplyAdd(const Eigen::Ref<const Eigen::VectorXd>& x, const Eigen::Ref<const Eigen::VectorXd>& q,
                   Eigen::Ref<Eigen::VectorXd> y) const;
  /// W as a dense 3nc × 3nc matrix (resized only when its size changes).
  void toDense(Eigen::MatrixXd& W) const;
  /// Row i of W times x, plus q_i.
  Eigen::Vector3d rowTimes(Eigen::Index i, const Eigen::Ref<const Eigen::VectorXd>& x,
                           const Eigen::Ref<const Eigen::VectorXd>& q) const {
    Eigen::Vector3d y = q.segment<3>(3 * i);
    for (const Block* b = rowBegin(i); b != rowEnd(i); ++b) y.noalias() += b->value * x.segment<3>(3 * b->col);
    return y;
  }

 private:
  void finishRows();
  std::vector<Block> blocks_;
  std::vector<std::size_t> row_start_{0};
  std::vector<Eigen::Matrix3d> diagonal_;
};

/// Where Siconos' fc3d error, relative to the largest of ‖r‖, ‖u‖, ‖q‖, can hide a contact pushed
/// in (a huge tangential velocity elsewhere, of a contact without friction, or a diverging r):
/// the first contact whose |min(rₙ, uₙ)| exceeds both kNormalCheck × the terms its uₙ sums,
/// |qₙ| + Σⱼ|Wₙⱼ||rⱼ|, and 10 × tolerance × the largest |qₙ| (a scale r cannot inflate); −1 if
/// none.
/// `terms` is workspace (resized to nc). u = W r + q. The last `bilateral` blocks (equality rows)
/// are not checked.
Eigen::Index normalViolation(const ContactBlocks& W, const Eigen::Ref<const Eigen::VectorXd>& q,
                             const Eigen::Ref<const Eigen::VectorXd>& r, const Eigen::Ref<const Eigen::VectorXd>& u,
                             double tolerance, Eigen::VectorXd& terms, Eigen::Index bilateral = 0);
inline constexpr double kNormalCheck = 1e-6;

}  // namespace stickslip::lcp
