// Our .dat readers against Siconos Numerics' own readers, on every file of the collection,
// and on malformed input.

#include <catch2/catch.hpp>

#include <FrictionContactProblem.h>
#include <LinearComplementarityProblem.h>
#include <MixedLinearComplementarityProblem.h>
#include <NumericsMatrix.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "lcp/siconos_format.hpp"
#include "message_of.hpp"
#include "siconos_data.hpp"

namespace fs = std::filesystem;
using namespace stickslip::lcp;

using stickslip::test::messageOf;

namespace {

using stickslip::test::kSiconosData;

using stickslip::test::datFiles;

// Siconos' matrices, whatever their storage, entry by entry.
Eigen::MatrixXd dense(const NumericsMatrix* m) {
  Eigen::MatrixXd out(m->size0, m->size1);
  for (int j = 0; j < m->size1; ++j)
    for (int i = 0; i < m->size0; ++i) out(i, j) = NM_get_value(m, i, j);
  return out;
}
Eigen::VectorXd vec(const double* x, int n) { return Eigen::Map<const Eigen::VectorXd>(x, n); }
Eigen::MatrixXd mat(const double* x, int rows, int cols) {
  return Eigen::Map<const Eigen::MatrixXd>(x, rows, cols);  // column-major, as Siconos stores it
}

/// A scratch file in a fresh directory, removed at the end of the test.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& content) {
    std::random_device rd;
    dir_ = fs::temp_directory_path() / ("stickslip_fmt_" + std::to_string(rd()));
    fs::create_directories(dir_);
    path_ = dir_ / name;
    std::ofstream(path_) << content;
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path dir_, path_;
};

}  // namespace

TEST_CASE("LCP reader agrees with Siconos' reader on the collection", "[lcp][siconos][format]") {
  const auto files = datFiles("lcp");
  REQUIRE(files.size() == 20);
  for (const auto& f : files) {
    DYNAMIC_SECTION(f.filename().string()) {
      const Problem ours = readLcpDat(f);
      LinearComplementarityProblem* theirs = newLCP();
      linearComplementarity_newFromFilename(theirs, f.c_str());
      REQUIRE(theirs->size == ours.size());
      const Eigen::MatrixXd M = dense(theirs->M);
      CHECK(M.rows() == ours.M.rows());
      CHECK(M.cols() == ours.M.cols());
      CHECK(M == ours.M);  // exact: same text, same strtod
      CHECK(vec(theirs->q, theirs->size) == ours.q);
      freeLinearComplementarityProblem(theirs);
      // readDat finds the kind from the content and the name.
      CHECK(readDat(f).index() == 0);
    }
  }
}

TEST_CASE("dense storage is column by column", "[lcp][siconos][format]") {
  // lcp_exp_murty.dat: each line is a column, so M is upper triangular, M(i, j) = 2 for i < j.
  const Problem p = readLcpDat(kSiconosData / "lcp" / "lcp_exp_murty.dat");
  CHECK(p.M(0, 1) == 2.0);
  CHECK(p.M(1, 0) == 0.0);
  CHECK(p.M.diagonal().isOnes());
}

TEST_CASE("MLCP reader agrees with Siconos' reader on the collection", "[lcp][siconos][format]") {
  const auto files = datFiles("mlcp");
  REQUIRE(files.size() == 16);
  for (const auto& f : files) {
    DYNAMIC_SECTION(f.filename().string()) {
      const MixedProblem ours = readMlcpDat(f);
      MixedLinearComplementarityProblem* theirs = mixedLinearComplementarity_new();
      mixedLinearComplementarity_newFromFilename(theirs, f.c_str());
      const int n = theirs->n, m = theirs->m;
      CHECK(ours.equalitySize() == n);
      CHECK(ours.freeSize() == n);
      CHECK(ours.complementaritySize() == m);
      // Every file of the collection holds the (A, B, C, D, a, b) storage.
      REQUIRE(theirs->isStorageType2);
      CHECK(mat(theirs->A, n, n) == ours.A);
      CHECK(mat(theirs->B, m, m) == ours.B);
      CHECK(mat(theirs->C, n, m) == ours.C);
      CHECK(mat(theirs->D, m, n) == ours.D);
      CHECK(vec(theirs->a, n) == ours.a);
      CHECK(vec(theirs->b, m) == ours.b);
      if (theirs->isStorageType1 && theirs->M->size0 == n + m && theirs->M->size1 == n + m) {
        // The collection puts equalities first, so M = [A C; D B] and q = [a; b].
        REQUIRE(theirs->blocksRows[0] == 0);
        REQUIRE(theirs->blocksRows[1] == n);
        Eigen::MatrixXd M(n + m, n + m);
        M << ours.A, ours.C, ours.D, ours.B;
        Eigen::VectorXd q(n + m);
        q << ours.a, ours.b;
        CHECK(dense(theirs->M) == M);
        CHECK(vec(theirs->q, n + m) == q);
      }
      mixedLinearComplementarity_free(theirs);
      CHECK(readDat(f).index() == 1);
    }
  }
}

TEST_CASE("MLCP (M, q) storage with interleaved equality blocks", "[lcp][siconos][format]") {
  // Rows 0 and 3 are equalities (u = z₀, z₃ free), rows 1–2 complementarity (v = z₁, z₂).
  // M(i, j) = 10 i + j, written column by column; q(i) = −(i + 1).
  std::string text = "1\n0\n2\n2\n0 1 3 4\n0 1 0\n0\n4\n4\n4 4\n";
  for (int j = 0; j < 4; ++j) {
    for (int i = 0; i < 4; ++i) text += std::to_string(10 * i + j) + " ";
    text += "\n";
  }
  text += "-1 -2 -3 -4\n";
  const TempFile file("interleaved_mlcp.dat", text);
  const MixedProblem p = readMlcpDat(file.path());
  Eigen::MatrixXd A(2, 2), B(2, 2), C(2, 2), D(2, 2);
  A << 0, 3, 30, 33;
  C << 1, 2, 31, 32;
  D << 10, 13, 20, 23;
  B << 11, 12, 21, 22;
  CHECK(p.A == A);
  CHECK(p.B == B);
  CHECK(p.C == C);
  CHECK(p.D == D);
  CHECK(p.a == Eigen::Vector2d(-1, -4));
  CHECK(p.b == Eigen::Vector2d(-2, -3));
}

TEST_CASE("sparse block storage", "[lcp][siconos][format]") {
  // 4×4 with 2×2 blocks (0,0) and (1,1): nbblocks 2, 2×2 block grid, ends (2,4) and (2,4),
  // row pointers 0 1 2, block columns 0 1; entries per block column by column.
  const TempFile file("sbm_lcp.dat",
                      "4\n1\n4\n4\n2 2 2\n2 4\n2 4\n3 2\n0 1 2\n0 1\n"
                      "0\n1 2 3 4\n1\n5 6 7 8\n-1 -1 -1 -1\n");
  const Problem p = readLcpDat(file.path());
  Eigen::Matrix4d M;
  M << 1, 3, 0, 0, 2, 4, 0, 0, 0, 0, 5, 7, 0, 0, 6, 8;
  CHECK(p.M == M);
}

TEST_CASE("FC2D reader agrees with Siconos' reader on the collection", "[lcp][siconos][format]") {
  const auto files = datFiles("fc2d");
  REQUIRE(files.size() == 2);
  for (const auto& f : files) {
    DYNAMIC_SECTION(f.filename().string()) {
      const FrictionProblem2D ours = readFc2dDat(f);
      FrictionContactProblem* theirs = frictionContact_new_from_filename(f.c_str());
      REQUIRE(theirs->dimension == 2);
      REQUIRE(theirs->numberOfContacts == ours.contacts());
      CHECK(dense(theirs->M) == ours.W);
      CHECK(vec(theirs->q, 2 * theirs->numberOfContacts) == ours.q);
      CHECK(vec(theirs->mu, theirs->numberOfContacts) == ours.mu);
      frictionContactProblem_free(theirs);
      CHECK(readDat(f).index() == 2);
    }
  }
}

TEST_CASE("readDat detects the kind from the content alone", "[lcp][siconos][format]") {
  // Copies under neutral names: no hint, so the content must decide.
  for (const char* rel : {"lcp/lcp_CPS_2.dat", "lcp/lcp_ortiz_block.dat", "mlcp/relay2_mlcp.dat",
                          "mlcp/RCD_mlcp.dat", "fc2d/FC2D_SliderCrankLagrangian00001.dat"}) {
    DYNAMIC_SECTION(rel) {
      std::ifstream in(kSiconosData / rel);
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const TempFile file("problem.dat", text);
      const std::string expected = fs::path(rel).parent_path().string();
      CHECK(datKindName(readDat(file.path())) == expected);
    }
  }
}

TEST_CASE("malformed .dat files are rejected with file, line and reason", "[lcp][siconos][format]") {
  SECTION("missing file") {
    const fs::path missing = kSiconosData / "lcp" / "no_such_file.dat";
    const std::string msg = messageOf([&] { readLcpDat(missing); });
    CHECK_THAT(msg, Catch::Contains("readLcpDat") && Catch::Contains(missing.string()) &&
                        Catch::Contains("cannot open"));
    CHECK_THAT(messageOf([&] { readDat(missing); }), Catch::Contains("cannot open"));
  }
  SECTION("truncated matrix") {
    const TempFile f("cut_lcp.dat", "3\n0\n3\n3\n3 3\n1 0 0\n0 1 0\n");
    const std::string msg = messageOf([&] { readLcpDat(f.path()); });
    CHECK_THAT(msg, Catch::Contains(f.path().string()) && Catch::Contains("ends early"));
  }
  SECTION("truncated vector") {
    const TempFile f("cut_lcp.dat", "2\n0\n2\n2\n2 2\n1 0\n0 1\n-1\n");
    const std::string msg = messageOf([&] { readLcpDat(f.path()); });
    CHECK_THAT(msg, Catch::Contains(f.path().string() + ":8") && Catch::Contains("ends early") &&
                        Catch::Contains("vector q"));
  }
  SECTION("non-numeric token") {
    const TempFile f("bad_lcp.dat", "2\n0\n2\n2\n2 2\n1 0\n0 x1\n-1 -1\n");
    const std::string msg = messageOf([&] { readLcpDat(f.path()); });
    CHECK_THAT(msg, Catch::Contains(f.path().string() + ":7") && Catch::Contains("'x1'") &&
                        Catch::Contains("M(1, 1)"));
  }
  SECTION("NaN and Inf entries") {
    const TempFile f("nan_lcp.dat", "2\n0\n2\n2\n2 2\n1 0\nnan 1\n-1 -1\n");
    CHECK_THAT(messageOf([&] { readLcpDat(f.path()); }),
               Catch::Contains(f.path().string() + ":7") && Catch::Contains("non-finite") &&
                   Catch::Contains("M(0, 1)"));
    const TempFile g("inf_fc2d.dat", "2\n1\n0\n2\n2\n2 2\n1 0\n0 1\n-1 0\ninf\n");
    CHECK_THAT(messageOf([&] { readFc2dDat(g.path()); }),
               Catch::Contains(g.path().string() + ":10") && Catch::Contains("non-finite") &&
                   Catch::Contains("mu[0]"));
  }
  SECTION("a negative friction coefficient, at its line") {
    const TempFile f("neg_mu_fc2d.dat", "2\n1\n0\n2\n2\n2 2\n1 0\n0 1\n-1 0\n-0.25\n");
    CHECK_THAT(messageOf([&] { readFc2dDat(f.path()); }),
               Catch::Contains(f.path().string() + ":10") && Catch::Contains("mu[0] ≥ 0, got -0.25"));
  }
  SECTION("non-square matrix") {
    const TempFile f("rect_lcp.dat", "2\n0\n2\n3\n2 3\n1 0 0 1 0 0\n-1 -1\n");
    CHECK_THAT(messageOf([&] { readLcpDat(f.path()); }),
               Catch::Contains(f.path().string()) && Catch::Contains("square") &&
                   Catch::Contains("2×3"));
  }
  SECTION("size mismatch and negative size") {
    const TempFile f("size_lcp.dat", "3\n0\n2\n2\n2 2\n1 0 0 1\n-1 -1\n");
    CHECK_THAT(messageOf([&] { readLcpDat(f.path()); }), Catch::Contains("n = 3"));
    const TempFile g("neg_lcp.dat", "-2\n0\n2\n2\n2 2\n1 0 0 1\n-1 -1\n");
    CHECK_THAT(messageOf([&] { readLcpDat(g.path()); }),
               Catch::Contains(g.path().string() + ":1") && Catch::Contains("-2"));
  }
  SECTION("data left over means the layout was misread") {
    const TempFile f("long_lcp.dat", "2\n0\n2\n2\n2 2\n1 0 0 1\n-1 -1 -1\n");
    CHECK_THAT(messageOf([&] { readLcpDat(f.path()); }),
               Catch::Contains(f.path().string() + ":7") && Catch::Contains("unexpected numeric"));
  }
  SECTION("MLCP with inconsistent storages or blocks") {
    const TempFile f("bad_mlcp.dat", "1\n0\n1\n1\n0 2\n0\n0\n2\n2\n2 2\n1 0 0 1\n0 0\n");
    CHECK_THAT(messageOf([&] { readMlcpDat(f.path()); }),
               Catch::Contains("readMlcpDat") && Catch::Contains("equality blocks cover 2 rows"));
    const TempFile g("both_mlcp.dat",
                     "1\n1\n1\n1\n0 1 2\n0 1\n0\n2\n2\n2 2\n1 2 3 4\n5 6\n"
                     "1\n4\n2\n3\n5\n6\n");  // M = [1 3; 2 4] says C = 3, D = 2; here swapped
    CHECK_THAT(messageOf([&] { readMlcpDat(g.path()); }), Catch::Contains("disagree"));
  }
  SECTION("unknown kind lists what was tried") {
    const TempFile f("mystery.dat", "hello world\n");
    const std::string msg = messageOf([&] { readDat(f.path()); });
    CHECK_THAT(msg, Catch::Contains("cannot tell") && Catch::Contains("as lcp") &&
                        Catch::Contains("as mlcp") && Catch::Contains("as fc2d"));
  }
  SECTION("3D friction is refused") {
    const TempFile f("fc3d.dat", "3\n1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n-1 0 0\n0.5\n");
    CHECK_THAT(messageOf([&] { readFc2dDat(f.path()); }), Catch::Contains("dimension 2"));
  }
}
