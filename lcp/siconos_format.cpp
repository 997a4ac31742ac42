#include "lcp/siconos_format.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace stickslip::lcp {
namespace {

struct Token {
  std::string_view text;
  int line = 0;
};

/// The whole file as tokens with their line numbers. Every failure is reported through
/// fail(), which prefixes the reader's name and the file (and the line when known).
class TokenStream {
 public:
  /// The text of `in`; `name` stands for the file in messages.
  TokenStream(std::string who, std::istream& in, std::string name)
      : who_(std::move(who)), file_(std::move(name)) {
    if (!in) fail(0, "cannot open the file");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) fail(0, "read error");
    tokenize(buffer.str());
  }

  [[noreturn]] void fail(int line, const std::string& what) const {
    std::string where = file_;
    if (line > 0) where += ":" + std::to_string(line);
    throw std::invalid_argument(who_ + ": " + where + ": " + what);
  }
  [[noreturn]] void failHere(const std::string& what) const { fail(currentLine(), what); }

  int currentLine() const { return pos_ < tokens_.size() ? tokens_[pos_].line : last_line_; }
  std::size_t remaining() const { return tokens_.size() - pos_; }

  /// A non-negative integer such as a size or a storage flag.
  long long integer(const std::string& what) {
    const Token t = next(what);
    long long value = 0;
    std::string_view s = stripPlus(t.text);
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size())
      fail(t.line, "expected an integer for " + what + ", got '" + std::string(t.text) + "'");
    return value;
  }

  long long size(const std::string& what) {
    const int line = currentLine();
    const long long value = integer(what);
    if (value < 0) fail(line, "expected a size ≥ 0 for " + what + ", got " + std::to_string(value));
    // Far above anything a dense solver handles; guards the products below against overflow.
    constexpr long long kLargest = 1'000'000;
    if (value > kLargest)
      fail(line, what + " = " + std::to_string(value) + " is implausibly large (at most " +
                     std::to_string(kLargest) + ")");
    return value;
  }

  double real(const std::string& what) {
    const Token t = next(what);
    double value = 0.0;
    if (!parseReal(t.text, value))
      fail(t.line, "expected a number for " + what + ", got '" + std::string(t.text) + "'");
    if (!std::isfinite(value))
      fail(t.line, "non-finite value '" + std::string(t.text) + "' for " + what);
    return value;
  }

  /// A finite number ≥ 0, such as a friction coefficient.
  double nonNegative(const std::string& what) {
    const double value = real(what);
    const Token& read = tokens_[pos_ - 1];
    if (value < 0.0) fail(read.line, "expected " + what + " ≥ 0, got " + std::string(read.text));
    return value;
  }

  /// Fails early, before allocating, if a block declares more numbers than the file holds.
  void requireAtLeast(long long count, const std::string& what) const {
    if (count > static_cast<long long>(remaining()))
      failHere("file ends early: " + what + " needs " + std::to_string(count) +
               " numbers, only " + std::to_string(remaining()) + " tokens remain");
  }

  /// Accepts the end of the file or trailing text that starts with a non-numeric token.
  void expectEndOfData() const {
    if (pos_ >= tokens_.size()) return;
    const Token& t = tokens_[pos_];
    double ignored = 0.0;
    if (parseReal(t.text, ignored))
      fail(t.line, "unexpected numeric data '" + std::string(t.text) +
                       "' after the end of the problem (sizes do not match the data)");
  }

  /// The next token's text as it stands (words of the CSparse dump).
  std::string_view word(const std::string& what) { return next(what).text; }
  /// Skips the rest of line `line` (free text such as the CSparse banner).
  void skipLine(int line) {
    while (pos_ < tokens_.size() && tokens_[pos_].line == line) ++pos_;
  }
  /// Consumes `expected` or fails naming what was being read.
  void literal(std::string_view expected, const std::string& what) {
    const Token t = next(what);
    if (t.text != expected)
      fail(t.line, "expected '" + std::string(expected) + "' in " + what + ", got '" + std::string(t.text) + "'");
  }
  /// An integer token that may carry a trailing ',' (CSparse's "nnz: 3822,").
  long long integerWithComma(const std::string& what) {
    const Token t = next(what);
    std::string_view s = t.text;
    if (!s.empty() && s.back() == ',') s.remove_suffix(1);
    long long value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size() || value < 0)
      fail(t.line, "expected an integer ≥ 0 for " + what + ", got '" + std::string(t.text) + "'");
    return value;
  }

  const std::string& file() const { return file_; }
  const std::string& who() const { return who_; }

 private:
  static std::string_view stripPlus(std::string_view s) {
    return (s.size() > 1 && s[0] == '+') ? s.substr(1) : s;
  }
  static bool parseReal(std::string_view text, double& value) {
    const std::string_view s = stripPlus(text);
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc() && end == s.data() + s.size();
  }
  void tokenize(std::string text) {
    text_ = std::move(text);
    int line = 1;
    std::size_t i = 0;
    while (i < text_.size()) {
      const char c = text_[i];
      if (c == '\n') {
        ++line;
        ++i;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else {
        const std::size_t start = i;
        while (i < text_.size() && !std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
        tokens_.push_back({std::string_view(text_).substr(start, i - start), line});
      }
    }
    last_line_ = tokens_.empty() ? 1 : tokens_.back().line;
  }
  Token next(const std::string& what) {
    if (pos_ >= tokens_.size())
      fail(last_line_, "file ends early: expected " + what + ", got end of file");
    return tokens_[pos_++];
  }

  std::string who_, file_, text_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int last_line_ = 0;
};

std::string entry(const char* name, Eigen::Index i, Eigen::Index j) {
  return std::string(name) + "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
}
std::string entry(const char* name, Eigen::Index i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}
std::string dims(Eigen::Index r, Eigen::Index c) {
  return std::to_string(r) + "×" + std::to_string(c);
}

Eigen::VectorXd readVector(TokenStream& in, const char* name, Eigen::Index n) {
  in.requireAtLeast(n, std::string("vector ") + name);
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) v(i) = in.real(entry(name, i));
  return v;
}

/// Dense matrix written row by row (the MLCP (A, B, C, D) storage).
Eigen::MatrixXd readRowMajor(TokenStream& in, const char* name, Eigen::Index rows,
                             Eigen::Index cols) {
  in.requireAtLeast(rows * cols, std::string("matrix ") + name + " " + dims(rows, cols));
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) m(i, j) = in.real(entry(name, i, j));
  return m;
}

/// Cumulative block boundaries (Siconos' blocksize0/1): strictly increasing, ending at total.
std::vector<long long> readBlockEnds(TokenStream& in, const char* name, long long count,
                                     long long total) {
  std::vector<long long> ends(static_cast<std::size_t>(count));
  long long previous = 0;
  for (long long k = 0; k < count; ++k) {
    const int line = in.currentLine();
    ends[k] = in.integer(entry(name, k));
    if (ends[k] <= previous || ends[k] > total)
      in.fail(line, std::string(name) + " must increase strictly from 1 to " +
                        std::to_string(total) + ", got " + std::to_string(ends[k]) +
                        " at position " + std::to_string(k));
    previous = ends[k];
  }
  if (count > 0 && previous != total)
    in.failHere(std::string(name) + " ends at " + std::to_string(previous) +
                " but the matrix has " + std::to_string(total));
  return ends;
}

Eigen::MatrixXd readSparseBlock(TokenStream& in, const char* name, long long rows,
                                long long cols) {
  const std::string nm(name);
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(rows, cols);
  const long long nbblocks = in.size(nm + " number of blocks");
  if (nbblocks == 0) return m;  // Siconos reads nothing more: an all-zero matrix
  const long long nrb = in.size(nm + " number of block rows");
  const long long ncb = in.size(nm + " number of block columns");
  if ((nrb == 0) != (rows == 0) || (ncb == 0) != (cols == 0))
    in.failHere(nm + " block counts " + dims(nrb, ncb) + " do not fit a " + dims(rows, cols) +
                " matrix");
  const auto row_ends = readBlockEnds(in, (nm + " row block ends").c_str(), nrb, rows);
  const auto col_ends = readBlockEnds(in, (nm + " column block ends").c_str(), ncb, cols);
  int line = in.currentLine();
  const long long filled1 = in.size(nm + " row pointer count");
  if (filled1 != nrb + 1)
    in.fail(line, "expected " + std::to_string(nrb + 1) + " row pointers for " + nm + ", got " +
                      std::to_string(filled1));
  line = in.currentLine();
  const long long filled2 = in.size(nm + " column index count");
  if (filled2 != nbblocks)
    in.fail(line, "expected " + std::to_string(nbblocks) + " column indices for " + nm +
                      " (one per block), got " + std::to_string(filled2));
  std::vector<long long> rowptr(static_cast<std::size_t>(filled1));
  for (long long k = 0; k < filled1; ++k) {
    line = in.currentLine();
    rowptr[k] = in.integer(nm + " row pointer " + std::to_string(k));
    const long long lower = k == 0 ? 0 : rowptr[k - 1];
    if ((k == 0 && rowptr[k] != 0) || rowptr[k] < lower || rowptr[k] > nbblocks)
      in.fail(line, nm + " row pointers must start at 0 and not decrease up to " +
                        std::to_string(nbblocks) + ", got " + std::to_string(rowptr[k]));
  }
  if (rowptr.back() != nbblocks)
    in.failHere(nm + " row pointers end at " + std::to_string(rowptr.back()) + ", expected " +
                std::to_string(nbblocks));
  std::vector<long long> colidx(static_cast<std::size_t>(filled2));
  for (long long k = 0; k < filled2; ++k) {
    line = in.currentLine();
    colidx[k] = in.integer(nm + " block column index " + std::to_string(k));
    if (colidx[k] < 0 || colidx[k] >= ncb)
      in.fail(line, nm + " block column index " + std::to_string(colidx[k]) +
                        " is outside [0, " + std::to_string(ncb) + ")");
  }
  std::vector<bool> seen(static_cast<std::size_t>(nrb * ncb), false);
  for (long long r = 0; r < nrb; ++r) {
    const long long r0 = r == 0 ? 0 : row_ends[r - 1], nr = row_ends[r] - r0;
    for (long long b = rowptr[r]; b < rowptr[r + 1]; ++b) {
      const long long c = colidx[b];
      const long long c0 = c == 0 ? 0 : col_ends[c - 1], nc = col_ends[c] - c0;
      line = in.currentLine();
      if (seen[r * ncb + c])
        in.fail(line, nm + " block (" + std::to_string(r) + ", " + std::to_string(c) +
                          ") appears twice");
      seen[r * ncb + c] = true;
      const long long number = in.integer(nm + " block number");
      if (number != b)
        in.fail(line, "expected block number " + std::to_string(b) + " in " + nm + ", got " +
                          std::to_string(number));
      in.requireAtLeast(nr * nc, nm + " block " + std::to_string(b));
      for (long long j = 0; j < nc; ++j)
        for (long long i = 0; i < nr; ++i)
          m(r0 + i, c0 + j) = in.real(entry(name, r0 + i, c0 + j));
    }
  }
  return m;
}

/// Storage 2: after `storage rows cols`, Siconos' origin flag (which sparse form the matrix
/// was built in), then the text CSparse's cs_print writes:
///   CSparse Version …                                       (one line of free text)
///   <r>-by-<c>, nzmax: <k> nnz: <k>, 1-norm: <x>
///   col <j> : locations <a> to <b>      then b − a + 1 lines  <i> : <value>
/// (compressed columns), or, for a matrix still in triplet form,
///   triplet: <r>-by-<c>, nzmax: <k> nnz: <k>                then nnz lines  <i> <j> : <value>
/// Values are as printed (6 significant digits for cs_print's %g); duplicates are summed.
Eigen::SparseMatrix<double> readCompressedSparse(TokenStream& in, const std::string& nm, long long rows,
                                                 long long cols) {
  // Which of Siconos' sparse forms the matrix came from (its NSM origin); the dump below
  // says by itself whether it is by columns or triplets.
  const int origin_line = in.currentLine();
  const long long origin = in.integer(nm + " sparse origin flag");
  if (origin < 0 || origin > 4)
    in.fail(origin_line, "expected Siconos' sparse origin flag 0…4 for " + nm + ", got " + std::to_string(origin));
  const int banner = in.currentLine();
  in.literal("CSparse", nm + " (storage 2 starts with CSparse's banner)");
  in.skipLine(banner);
  int line = in.currentLine();
  std::string_view size = in.word(nm + " CSparse size");
  const bool triplet = size == "triplet:";
  if (triplet) size = in.word(nm + " CSparse size");
  long long r = -1, c = -1;
  {
    std::string text(size);
    if (!text.empty() && text.back() == ',') text.pop_back();
    const auto by = text.find("-by-");
    if (by != std::string::npos) {
      const std::string a = text.substr(0, by), b = text.substr(by + 4);
      std::from_chars(a.data(), a.data() + a.size(), r);
      std::from_chars(b.data(), b.data() + b.size(), c);
    }
    if (r < 0 || c < 0) in.fail(line, "expected '<rows>-by-<cols>,' for " + nm + ", got '" + text + "'");
  }
  if (r != rows || c != cols)
    in.fail(line, "the CSparse header of " + nm + " says " + dims(r, c) + " but the sizes before it say " +
                      dims(rows, cols));
  in.literal("nzmax:", nm + " CSparse header");
  in.integerWithComma(nm + " nzmax");
  in.literal("nnz:", nm + " CSparse header");
  const long long nnz = in.integerWithComma(nm + " nnz");
  if (nnz < 0 ||
      nnz > std::numeric_limits<long long>::max() / 3)  // 3 nnz tokens are required below
    in.fail(in.currentLine(), nm + " nnz = " + std::to_string(nnz) + " is not a count of entries");
  if (!triplet) {
    in.literal("1-norm:", nm + " CSparse header");
    in.real(nm + " 1-norm");
  }
  in.requireAtLeast(3 * nnz, nm + "'s " + std::to_string(nnz) + " entries");
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(nnz));
  auto index = [&](const std::string& what, long long bound) {
    const int at = in.currentLine();
    const long long k = in.integer(what);
    if (k < 0 || k >= bound)
      in.fail(at, what + " = " + std::to_string(k) + " is outside [0, " + std::to_string(bound) + ")");
    return Eigen::Index(k);
  };
  if (triplet) {
    for (long long k = 0; k < nnz; ++k) {
      const Eigen::Index i = index(nm + " row index", rows), j = index(nm + " column index", cols);
      in.literal(":", nm + " entry");
      entries.emplace_back(i, j, in.real(entry(nm.c_str(), i, j)));
    }
  } else {
    long long expected = 0;  // the next location
    for (long long j = 0; j < cols; ++j) {
      line = in.currentLine();
      in.literal("col", nm + " column header");
      if (in.integer(nm + " column number") != j)
        in.fail(line, "expected the header of column " + std::to_string(j) + " of " + nm);
      in.literal(":", nm + " column header");
      in.literal("locations", nm + " column header");
      const long long a = in.integer(nm + " first location");
      in.literal("to", nm + " column header");
      const long long b = in.integer(nm + " last location");
      if (a != expected || b < a - 1 || b >= nnz)
        in.fail(line, nm + " column " + std::to_string(j) + " holds locations " + std::to_string(a) + " to " +
                          std::to_string(b) + "; expected to start at " + std::to_string(expected) +
                          " and stay below nnz = " + std::to_string(nnz));
      for (long long k = a; k <= b; ++k) {
        const Eigen::Index i = index(nm + " row index", rows);
        in.literal(":", nm + " entry");
        entries.emplace_back(i, Eigen::Index(j), in.real(entry(nm.c_str(), i, Eigen::Index(j))));
      }
      expected = b + 1;
    }
    if (expected != nnz)
      in.failHere(nm + "'s columns hold " + std::to_string(expected) + " entries, but nnz = " + std::to_string(nnz));
  }
  Eigen::SparseMatrix<double> m(rows, cols);
  m.setFromTriplets(entries.begin(), entries.end());
  return m;
}

/// We store every matrix densely: a sparse block matrix declares its size without data (an
/// all-zero 10⁶×10⁶ one takes five tokens), so bound the allocation before making it.
constexpr long long kMaxDenseEntries = 1LL << 26;  // 512 MiB of doubles, n ≈ 8192

/// A NumericsMatrix block as written by Siconos' NM_write_in_file: dense for storages 0
/// and 1, compressed sparse for storage 2 (in `sparse`, `dense` left empty).
struct StoredMatrix {
  Eigen::MatrixXd dense;
  Eigen::SparseMatrix<double> sparse;
  bool is_sparse = false;
  int line = 0;  ///< where the block starts
  Eigen::Index rows() const { return is_sparse ? sparse.rows() : dense.rows(); }
  Eigen::Index cols() const { return is_sparse ? sparse.cols() : dense.cols(); }
  /// The matrix densely; a storage-2 one only within kMaxDenseEntries.
  Eigen::MatrixXd toDense(const TokenStream& in, const std::string& nm) && {
    if (!is_sparse) return std::move(dense);
    if (static_cast<long long>(rows()) * cols() > kMaxDenseEntries)
      in.fail(line, nm + " is " + dims(rows(), cols()) + " in sparse storage, too large for this reader's dense "
                         "form (at most " + std::to_string(kMaxDenseEntries) + " entries)");
    return Eigen::MatrixXd(sparse);
  }
};

StoredMatrix readStoredMatrix(TokenStream& in, const char* name) {
  const std::string nm(name);
  StoredMatrix out;
  out.line = in.currentLine();
  const int line = out.line;
  const long long storage = in.integer(nm + " storage type");
  const long long rows = in.size(nm + " rows");
  const long long cols = in.size(nm + " columns");
  if ((storage == 0 || storage == 1) && rows * cols > kMaxDenseEntries)
    in.fail(line, nm + " is " + dims(rows, cols) + ", too large for dense storage (at most " +
                      std::to_string(kMaxDenseEntries) + " entries)");
  if (storage == 0) {
    const int dims_line = in.currentLine();
    const long long rows2 = in.size(nm + " rows (dense header)");
    const long long cols2 = in.size(nm + " columns (dense header)");
    if (rows2 != rows || cols2 != cols)
      in.fail(dims_line, "dense header of " + nm + " says " + dims(rows2, cols2) +
                             " but the sizes before it say " + dims(rows, cols));
    in.requireAtLeast(rows * cols, "dense " + nm + " " + dims(rows, cols));
    out.dense.resize(rows, cols);
    // Siconos stores and prints dense matrices column-major.
    for (long long j = 0; j < cols; ++j)
      for (long long i = 0; i < rows; ++i) out.dense(i, j) = in.real(entry(name, i, j));
    return out;
  }
  if (storage == 1) {
    out.dense = readSparseBlock(in, name, rows, cols);
    return out;
  }
  if (storage == 2) {
    out.sparse = readCompressedSparse(in, nm, rows, cols);
    out.is_sparse = true;
    return out;
  }
  in.fail(line, "expected storage type 0 (dense), 1 (sparse block) or 2 (compressed sparse) for " + nm + ", got " +
                    std::to_string(storage));
}

Eigen::MatrixXd readNumericsMatrix(TokenStream& in, const char* name) {
  return readStoredMatrix(in, name).toDense(in, name);
}

template <typename P>
P validated(P p, const TokenStream& in) {
  p.validate(in.who() + ": " + in.file());
  return p;
}

Problem parseLcp(TokenStream& in) {
  const int line = in.currentLine();
  const long long n = in.size("the LCP size n");
  Problem p;
  p.M = readNumericsMatrix(in, "M");
  if (p.M.rows() != p.M.cols())
    in.fail(line, "expected a square M, got " + dims(p.M.rows(), p.M.cols()));
  if (p.M.rows() != n)
    in.fail(line, "the LCP size n = " + std::to_string(n) + " does not match M " +
                      dims(p.M.rows(), p.M.cols()));
  p.q = readVector(in, "q", n);
  in.expectEndOfData();
  return validated(std::move(p), in);
}

/// A friction problem with W as stored.
struct StoredFriction {
  StoredMatrix W;
  Eigen::VectorXd q, mu;
};

/// A friction problem of contact dimension `dimension` (2: fc2d, 3: fc3d) with W as stored.
StoredFriction parseFrictionStored(TokenStream& in, long long dimension) {
  int line = in.currentLine();
  const long long d = in.integer("the contact dimension d");
  if (d != dimension)
    in.fail(line, "expected contact dimension " + std::to_string(dimension) +
                      (dimension == 2 ? " (planar friction)" : " (spatial friction)") + ", got " + std::to_string(d));
  line = in.currentLine();
  const long long nc = in.size("the number of contacts");
  StoredFriction p;
  p.W = readStoredMatrix(in, "W");
  if (p.W.rows() != p.W.cols())
    in.fail(line, "expected a square W, got " + dims(p.W.rows(), p.W.cols()));
  if (p.W.rows() != dimension * nc)
    in.fail(line, "expected W " + std::to_string(dimension) + "nc×" + std::to_string(dimension) +
                      "nc with nc = " + std::to_string(nc) + ", got " + dims(p.W.rows(), p.W.cols()));
  p.q = readVector(in, "q", p.W.rows());
  in.requireAtLeast(nc, "vector mu");
  p.mu.resize(nc);
  for (Eigen::Index i = 0; i < nc; ++i) p.mu(i) = in.nonNegative(entry("mu", i));
  // Files written by later Siconos versions (FrictionContactProblem*.dat) end with one more
  // integer, which Siconos' reader leaves unread: skip it too.
  if (in.remaining() > 0) {
    const int flag_line = in.currentLine();
    const long long flag = in.integer("the integer after mu");
    if (flag != 0 && flag != 1)
      in.fail(flag_line, "unexpected numeric data '" + std::to_string(flag) +
                             "' after mu (expected the end of the problem, or a trailing 0 or 1)");
  }
  in.expectEndOfData();
  return p;
}

StoredFriction parseFc2dStored(TokenStream& in) { return parseFrictionStored(in, 2); }

FrictionProblem3D parseFc3d(TokenStream& in) {
  StoredFriction s = parseFrictionStored(in, 3);
  return validated(FrictionProblem3D{std::move(s.W).toDense(in, "W"), std::move(s.q), std::move(s.mu)}, in);
}

DatProblem parseFc3dAsDat(TokenStream& in) { return parseFc3d(in); }

FrictionProblem2D parseFc2d(TokenStream& in) {
  StoredFriction s = parseFc2dStored(in);
  return validated(FrictionProblem2D{std::move(s.W).toDense(in, "W"), std::move(s.q), std::move(s.mu)}, in);
}

SparseFrictionProblem2D parseFc2dSparse(TokenStream& in) {
  StoredFriction s = parseFc2dStored(in);
  SparseFrictionProblem2D p;
  if (s.W.is_sparse) p.W = s.W.sparse;
  else p.W = s.W.dense.sparseView();
  p.q = std::move(s.q);
  p.mu = std::move(s.mu);
  return validated(std::move(p), in);
}

/// readDat's FC2D: dense when stored dense, sparse when stored sparse.
DatProblem parseFc2dAsStored(TokenStream& in) {
  StoredFriction s = parseFc2dStored(in);
  if (!s.W.is_sparse)
    return validated(FrictionProblem2D{std::move(s.W.dense), std::move(s.q), std::move(s.mu)}, in);
  return validated(SparseFrictionProblem2D{std::move(s.W.sparse), std::move(s.q), std::move(s.mu)}, in);
}

MixedProblem parseMlcp(TokenStream& in) {
  int line = in.currentLine();
  const long long has_m = in.integer("the (M, q) storage flag");
  const long long has_abcd = in.integer("the (A, B, C, D, a, b) storage flag");
  if ((has_m != 0 && has_m != 1) || (has_abcd != 0 && has_abcd != 1) || has_m + has_abcd == 0)
    in.fail(line, "expected storage flags 0 or 1 with at least one set, got " +
                      std::to_string(has_m) + " " + std::to_string(has_abcd));
  const long long n = in.size("the number of equalities n");
  const long long m = in.size("the number of complementarity rows m");
  const long long total = n + m;

  MixedProblem from_m;
  bool have_from_m = false;
  if (has_m) {
    // blocksRows: 0 = r₀ < r₁ < … < r_k = n + m (Siconos stops reading at the first ≥ n+m).
    std::vector<long long> rows_at;
    line = in.currentLine();
    rows_at.push_back(in.integer("blocksRows[0]"));
    // Also when n + m = 0: a negative start would index the rows below 0 (fuzz_fc3d_reader).
    if (rows_at[0] != 0) in.fail(line, "blocksRows must start at 0, got " + std::to_string(rows_at[0]));
    while (rows_at.back() < total) {
      line = in.currentLine();
      rows_at.push_back(in.integer(entry("blocksRows", Eigen::Index(rows_at.size()))));
      if (rows_at.back() <= rows_at[rows_at.size() - 2])
        in.fail(line, "blocksRows must increase, got " + std::to_string(rows_at.back()) +
                          " after " + std::to_string(rows_at[rows_at.size() - 2]));
    }
    if (rows_at.back() != total)
      in.fail(line, "blocksRows must end at n + m = " + std::to_string(total) + ", got " +
                        std::to_string(rows_at.back()));
    const std::size_t blocks = rows_at.size() - 1;
    std::vector<int> is_eq(static_cast<std::size_t>(total), 0);
    long long eq_rows = 0;
    for (std::size_t k = 0; k < blocks; ++k) {
      line = in.currentLine();
      const long long comp = in.integer(entry("blocksIsComp", Eigen::Index(k)));
      if (comp != 0 && comp != 1)
        in.fail(line, "expected blocksIsComp 0 or 1, got " + std::to_string(comp));
      for (long long r = rows_at[k]; r < rows_at[k + 1]; ++r) is_eq[r] = comp == 0;
      if (comp == 0) eq_rows += rows_at[k + 1] - rows_at[k];
    }
    if (eq_rows != n)
      in.fail(line, "equality blocks cover " + std::to_string(eq_rows) + " rows, but n = " +
                        std::to_string(n));
    line = in.currentLine();
    const Eigen::MatrixXd M = readNumericsMatrix(in, "M");
    // Siconos reads as many q entries as M has columns.
    const Eigen::VectorXd q = readVector(in, "q", M.cols());
    if (M.rows() == total && M.cols() == total) {
      std::vector<Eigen::Index> eq, comp;
      for (long long r = 0; r < total; ++r) (is_eq[r] ? eq : comp).push_back(r);
      const auto sub = [&](const std::vector<Eigen::Index>& r, const std::vector<Eigen::Index>& c) {
        Eigen::MatrixXd s(Eigen::Index(r.size()), Eigen::Index(c.size()));
        for (std::size_t i = 0; i < r.size(); ++i)
          for (std::size_t j = 0; j < c.size(); ++j) s(i, j) = M(r[i], c[j]);
        return s;
      };
      const auto part = [&](const std::vector<Eigen::Index>& r) {
        Eigen::VectorXd s(Eigen::Index(r.size()));
        for (std::size_t i = 0; i < r.size(); ++i) s(i) = q(r[i]);
        return s;
      };
      from_m.A = sub(eq, eq);
      from_m.C = sub(eq, comp);
      from_m.D = sub(comp, eq);
      from_m.B = sub(comp, comp);
      from_m.a = part(eq);
      from_m.b = part(comp);
      have_from_m = true;
    } else if (!has_abcd) {
      in.fail(line, "expected M " + dims(total, total) + " (n + m = " + std::to_string(total) +
                        "), got " + dims(M.rows(), M.cols()));
    }
    // A non-square M next to an (A, B, C, D) storage (Siconos' Rectangular_mlcp.dat) is a
    // least-squares variant MixedProblem cannot hold; the (A, B, C, D) form is used instead.
  }
  // No end-of-data check for MLCP files: those of Siconos' collection append a reference
  // solution after the problem, which Siconos' reader ignores too.
  if (!has_abcd) return validated(std::move(from_m), in);

  const int abcd_line = in.currentLine();
  MixedProblem p;
  p.A = readRowMajor(in, "A", n, n);
  p.B = readRowMajor(in, "B", m, m);
  p.C = readRowMajor(in, "C", n, m);
  p.D = readRowMajor(in, "D", m, n);
  p.a = readVector(in, "a", n);
  p.b = readVector(in, "b", m);
  if (have_from_m) {
    const auto check = [&](const char* name, const Eigen::MatrixXd& x, const Eigen::MatrixXd& y) {
      for (Eigen::Index j = 0; j < x.cols(); ++j)
        for (Eigen::Index i = 0; i < x.rows(); ++i)
          if (x(i, j) != y(i, j)) {
            std::ostringstream os;
            os.precision(17);
            os << "the (M, q) and (A, B, C, D, a, b) storages disagree: " << name << "(" << i
               << ", " << j << ") is " << x(i, j) << " in M but " << y(i, j) << " in "
               << name;
            in.fail(abcd_line, os.str());
          }
    };
    check("A", from_m.A, p.A);
    check("B", from_m.B, p.B);
    check("C", from_m.C, p.C);
    check("D", from_m.D, p.D);
    check("a", from_m.a, p.a);
    check("b", from_m.b, p.b);
  }
  return validated(std::move(p), in);
}

enum class Kind { kLcp, kMlcp, kFc2d, kFc3d };

const char* kindName(Kind k) {
  switch (k) {
    case Kind::kLcp: return "lcp";
    case Kind::kMlcp: return "mlcp";
    case Kind::kFc2d: return "fc2d";
    case Kind::kFc3d: return "fc3d";
  }
  return "?";
}

Problem readLcpText(const std::string& text, const std::string& name);
MixedProblem readMlcpText(const std::string& text, const std::string& name);
DatProblem readFc2dText(const std::string& text, const std::string& name);
DatProblem readFc3dText(const std::string& text, const std::string& name);

DatProblem parseAs(Kind k, const std::string& text, const std::string& name) {
  switch (k) {
    case Kind::kLcp: return readLcpText(text, name);
    case Kind::kMlcp: return readMlcpText(text, name);
    case Kind::kFc2d: return readFc2dText(text, name);
    case Kind::kFc3d: return readFc3dText(text, name);
  }
  throw std::logic_error("lcp::readDat: unknown kind");
}

std::optional<Kind> hintFrom(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (name.find("mlcp") != std::string::npos) return Kind::kMlcp;
  if (name.find("fc2d") != std::string::npos) return Kind::kFc2d;
  if (name.find("fc3d") != std::string::npos) return Kind::kFc3d;
  if (name.find("lcp") != std::string::npos) return Kind::kLcp;
  return std::nullopt;
}

/// The file to read; a directory is named as one (its stream would read as an empty file), and
/// so is a device (/dev/zero's would never end).
std::ifstream openFile(const char* who, const std::filesystem::path& file) {
  if (std::filesystem::is_directory(file))
    throw std::invalid_argument(std::string(who) + ": " + file.string() +
                                ": is a directory, not a file");
  if (std::filesystem::is_character_file(file) || std::filesystem::is_block_file(file))
    throw std::invalid_argument(std::string(who) + ": " + file.string() + ": is a device, not a file");
  return std::ifstream(file, std::ios::binary);
}

template <typename P>
P readWith(P (*parse)(TokenStream&), const char* who, std::istream& in, const std::string& name) {
  TokenStream tokens(who, in, name);
  return parse(tokens);
}
template <typename P>
P readFileWith(P (*parse)(TokenStream&), const char* who, const std::filesystem::path& file) {
  std::ifstream in = openFile(who, file);
  return readWith(parse, who, in, file.string());
}

Problem readLcpText(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  return readWith(parseLcp, "lcp::readLcpDat", in, name);
}
MixedProblem readMlcpText(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  return readWith(parseMlcp, "lcp::readMlcpDat", in, name);
}
DatProblem readFc2dText(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  return readWith(parseFc2dAsStored, "lcp::readFc2dDat", in, name);
}
DatProblem readFc3dText(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  return readWith(parseFc3dAsDat, "lcp::readFc3dDat", in, name);
}

/// readDat on the whole text of a file; `name` gives the hint and names the file in messages.
DatProblem readDatText(const std::string& text, const std::string& name) {
  const std::filesystem::path file(name);
  std::optional<Kind> hint = hintFrom(file.filename().string());
  const bool by_folder = !hint;
  if (!hint) hint = hintFrom(file.parent_path().filename().string());
  constexpr Kind kKinds[] = {Kind::kLcp, Kind::kMlcp, Kind::kFc2d, Kind::kFc3d};

  // A named kind is the only one tried: a file that fails it is a wrong file, whatever else
  // its numbers happen to read as.
  if (hint) {
    try {
      return parseAs(*hint, text, name);
    } catch (const std::invalid_argument& e) {
      std::string msg = "lcp::readDat: " + name + ": " + (by_folder ? "its folder's name" : "its name") + " says " +
                        kindName(*hint) + ", but it does not read as one:\n  " + e.what();
      for (Kind k : kKinds) {
        if (k == *hint) continue;
        try {
          parseAs(k, text, name);
          msg += std::string("\n  it reads as ") + kindName(k) + ": rename it to read it so";
        } catch (const std::invalid_argument&) {
        }
      }
      throw std::invalid_argument(msg);
    }
  }
  std::vector<std::string> errors;
  std::vector<std::pair<Kind, DatProblem>> parsed;
  for (Kind k : kKinds) {
    try {
      parsed.emplace_back(k, parseAs(k, text, name));
    } catch (const std::invalid_argument& e) {
      errors.push_back(std::string("as ") + kindName(k) + ": " + e.what());
    }
  }
  if (parsed.size() == 1) return std::move(parsed.front().second);
  std::string msg = "lcp::readDat: " + name + ": ";
  if (parsed.empty()) {
    msg += "cannot tell the problem kind; tried";
    for (const auto& e : errors) msg += "\n  " + e;
  } else {
    msg += "ambiguous: the content parses as";
    for (const auto& [k, p] : parsed) msg += std::string(" ") + kindName(k);
    msg += "; put lcp, mlcp, fc2d or fc3d in the file name to choose";
  }
  throw std::invalid_argument(msg);
}

std::string slurp(const char* who, std::istream& in, const std::string& name) {
  if (!in) throw std::invalid_argument(std::string(who) + ": " + name + ": cannot open the file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw std::invalid_argument(std::string(who) + ": " + name + ": read error");
  return buffer.str();
}

}  // namespace

Problem readLcpDat(const std::filesystem::path& file) {
  return readFileWith(parseLcp, "lcp::readLcpDat", file);
}
Problem readLcpDat(std::istream& in, const std::string& name) {
  return readWith(parseLcp, "lcp::readLcpDat", in, name);
}

MixedProblem readMlcpDat(const std::filesystem::path& file) {
  return readFileWith(parseMlcp, "lcp::readMlcpDat", file);
}
MixedProblem readMlcpDat(std::istream& in, const std::string& name) {
  return readWith(parseMlcp, "lcp::readMlcpDat", in, name);
}

FrictionProblem2D readFc2dDat(const std::filesystem::path& file) {
  return readFileWith(parseFc2d, "lcp::readFc2dDat", file);
}
FrictionProblem2D readFc2dDat(std::istream& in, const std::string& name) {
  return readWith(parseFc2d, "lcp::readFc2dDat", in, name);
}

SparseFrictionProblem2D readFc2dDatSparse(const std::filesystem::path& file) {
  return readFileWith(parseFc2dSparse, "lcp::readFc2dDat", file);
}
SparseFrictionProblem2D readFc2dDatSparse(std::istream& in, const std::string& name) {
  return readWith(parseFc2dSparse, "lcp::readFc2dDat", in, name);
}

FrictionProblem3D readFc3dDat(const std::filesystem::path& file) {
  return readFileWith(parseFc3d, "lcp::readFc3dDat", file);
}
FrictionProblem3D readFc3dDat(std::istream& in, const std::string& name) {
  return readWith(parseFc3d, "lcp::readFc3dDat", in, name);
}

DatProblem readDat(const std::filesystem::path& file) {
  // Report an unreadable file once, not once per kind.
  std::ifstream in = openFile("lcp::readDat", file);
  return readDatText(slurp("lcp::readDat", in, file.string()), file.string());
}
DatProblem readDat(std::istream& in, const std::string& name) {
  return readDatText(slurp("lcp::readDat", in, name), name);
}

const char* datKindName(const DatProblem& p) {
  switch (p.index()) {
    case 0: return "lcp";
    case 1: return "mlcp";
    case 4: return "fc3d";
    default: return "fc2d";
  }
}

}  // namespace stickslip::lcp
