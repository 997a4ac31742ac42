// Planar friction on a sparse W: Siconos' compressed storage (type 2) read exactly, the rest of
// Siconos' fc2d collection (tests/data/siconos/fc2d-more) read and solved, and lcp::solveFriction
// on a sparse W.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "lcp/friction_auto.hpp"
#include "lcp/nsgs.hpp"
#include "lcp/residual.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/solve.hpp"
#include "message_of.hpp"
#include "siconos_data.hpp"

using namespace stickslip;
namespace fs = std::filesystem;

using stickslip::test::messageOf;

namespace {

/// FC2D text: 2 contacts, W = [[2,1,0,0],[1,3,0,0],[0,0,4,0],[0,0,0,5]] in CSparse's
/// column dump (`body`), q, μ, then `tail`.
std::string fc2dWithSparseW(const std::string& body, const std::string& tail = "") {
  return "2\n2\n2\n4\n4\n3\nCSparse Version 3.1.9, May 4, 2016.  Copyright (c) Timothy A. Davis, 2006-2016\n" +
         body + "-1 0 -2 1\n0.5 0.3\n" + tail;
}

const std::string kColumns =
    "4-by-4, nzmax: 6 nnz: 6, 1-norm: 5\n"
    "    col 0 : locations 0 to 1\n      0 : 2\n      1 : 1\n"
    "    col 1 : locations 2 to 3\n      0 : 1\n      1 : 3\n"
    "    col 2 : locations 4 to 4\n      2 : 4\n"
    "    col 3 : locations 5 to 5\n      3 : 5\n";

Eigen::Matrix4d expectedW() {
  Eigen::Matrix4d w;
  w << 2, 1, 0, 0, 1, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 5;
  return w;
}

lcp::SparseFrictionProblem2D readText(const std::string& text) {
  std::istringstream in(text);
  return lcp::readFc2dDatSparse(in, "w.dat");
}

const fs::path kMore = test::kSiconosData / "fc2d-more";

}  // namespace

TEST_CASE("storage 2: CSparse's dump by columns and as triplets gives W exactly", "[lcp][siconos][format][sparse]") {
  const lcp::SparseFrictionProblem2D columns = readText(fc2dWithSparseW(kColumns));
  CHECK(Eigen::MatrixXd(columns.W) == expectedW());
  CHECK(columns.q == Eigen::Vector4d(-1, 0, -2, 1));
  CHECK(columns.mu == Eigen::Vector2d(0.5, 0.3));
  // Triplets in any order; the dense reader gives the same matrix.
  const std::string triplets = "triplet: 4-by-4, nzmax: 6 nnz: 6\n    3 3 : 5\n    0 0 : 2\n    1 0 : 1\n"
                               "    0 1 : 1\n    2 2 : 4\n    1 1 : 3\n";
  CHECK(Eigen::MatrixXd(readText(fc2dWithSparseW(triplets)).W) == expectedW());
  std::istringstream dense_in(fc2dWithSparseW(kColumns));
  CHECK(lcp::readFc2dDat(dense_in, "w.dat").W == expectedW());
  // readDat keeps it sparse, and says fc2d.
  std::istringstream any(fc2dWithSparseW(kColumns));
  const lcp::DatProblem p = lcp::readDat(any, "w_fc2d.dat");
  REQUIRE(std::holds_alternative<lcp::SparseFrictionProblem2D>(p));
  CHECK(std::string(lcp::datKindName(p)) == "fc2d");
}

TEST_CASE("storage 2: a malformed dump is refused with file, line and reason", "[lcp][siconos][format][sparse]") {
  CHECK_THAT(messageOf([] { readText(fc2dWithSparseW("5-by-4, nzmax: 6 nnz: 6, 1-norm: 5\n")); }),
             Catch::Contains("w.dat:8") && Catch::Contains("5×4") && Catch::Contains("4×4"));
  std::string gap = kColumns;
  gap.replace(gap.find("locations 2 to 3"), 16, "locations 3 to 3");
  CHECK_THAT(messageOf([&] { readText(fc2dWithSparseW(gap)); }),
             Catch::Contains("w.dat:12") && Catch::Contains("column 1") && Catch::Contains("start at 2"));
  std::string outside = kColumns;
  outside.replace(outside.find("      2 : 4"), 11, "      7 : 4");
  CHECK_THAT(messageOf([&] { readText(fc2dWithSparseW(outside)); }),
             Catch::Contains("row index = 7") && Catch::Contains("[0, 4)"));
  CHECK_THAT(messageOf([] { readText("2\n2\n2\n4\n4\n3\nnot a banner\n"); }),
             Catch::Contains("w.dat:7") && Catch::Contains("'CSparse'"));
}

TEST_CASE("FC files: the integer Siconos appends after mu is skipped, anything else refused",
          "[lcp][siconos][format][sparse]") {
  CHECK(readText(fc2dWithSparseW(kColumns, "1\n")).mu == Eigen::Vector2d(0.5, 0.3));
  CHECK(readText(fc2dWithSparseW(kColumns, "0\n")).mu == Eigen::Vector2d(0.5, 0.3));
  CHECK_THAT(messageOf([] { readText(fc2dWithSparseW(kColumns, "7\n")); }), Catch::Contains("after mu"));
  CHECK_THAT(messageOf([] { readText(fc2dWithSparseW(kColumns, "1 2\n")); }), Catch::Contains("unexpected numeric"));
}

TEST_CASE("the rest of Siconos' fc2d collection: read in every storage, solved to Siconos' error 1e-12",
          "[lcp][siconos][sparse][nsgs]") {
  const auto files = test::datFiles("fc2d-more");
  REQUIRE(files.size() == 5);
  for (const auto& file : files) {
    const std::string name = file.filename().string();
    DYNAMIC_SECTION(name) {
      const lcp::SparseFrictionProblem2D p = lcp::readFc2dDatSparse(file);
      const lcp::FrictionResult r = lcp::solveFriction("auto", p);
      CAPTURE(r.message);
      REQUIRE(r.ok());
      CHECK(lcp::fc2dError(r.r, r.u, p.mu, p.q.norm()) <= 1e-12);
      // Relative, on the problem's own scale, also where that is of round-off size: the
      // 667-contact problem's q is about 1e-19, where Siconos' measure is absolute.
      CHECK(r.relative_residual <= lcp::kAutoAccept);
      CHECK(lcp::residual(p, r.r).relative <= lcp::kAutoAccept);
      if (p.contacts() <= lcp::kDenseFrictionContacts) {
        // Lemke on the dense W agrees on the velocities (unique for a PSD W, whatever the
        // reactions' multiplicity): the structured solver is exact where both run.
        const lcp::FrictionProblem2D dense{Eigen::MatrixXd(p.W), p.q, p.mu};
        const lcp::FrictionResult lemke = lcp::solveFriction("lemke", dense);
        REQUIRE(lemke.ok());
        const lcp::FrictionResult nsgs = lcp::solveFriction("nsgs", p);
        REQUIRE(nsgs.ok());
        const double scale = std::max(lemke.u.cwiseAbs().maxCoeff(), p.q.cwiseAbs().maxCoeff());
        CHECK((nsgs.u - lemke.u).cwiseAbs().maxCoeff() <= 1e-6 * scale + 1e-14);
        CHECK((r.u - lemke.u).cwiseAbs().maxCoeff() <= 1e-6 * scale);  // auto: on q's scale
      }
      if (name.rfind("fc2d_", 0) != 0) {  // stored dense or by blocks: the dense reader agrees
        CHECK(Eigen::MatrixXd(p.W) == lcp::readFc2dDat(file).W);
      }
    }
  }
}

TEST_CASE("solveFriction: auto answers by NSGS on a sparse W, and dense solvers refuse a W too large",
          "[lcp][sparse][nsgs]") {
  const lcp::SparseFrictionProblem2D small = readText(fc2dWithSparseW(kColumns));
  const lcp::FrictionResult a = lcp::solveFriction("auto", small);
  CHECK(a.ok());
  CHECK(a.solver == "nsgs");  // its two contacts are decoupled: one sweep solves them
  const lcp::SparseFrictionProblem2D granular = lcp::readFc2dDatSparse(kMore / "fc2d_granularflowonwall_00667_00000.dat");
  CHECK(granular.contacts() == 667);
  CHECK(granular.W.nonZeros() == 3822);
  const lcp::FrictionResult b = lcp::solveFriction("auto", granular);
  CHECK(b.ok());
  CHECK(b.solver == "nsgs");
  const lcp::SparseFrictionProblem2D large = lcp::readFc2dDatSparse(kMore / "fc2d_granularflowonwall_02020_00213.dat");
  const lcp::FrictionResult c = lcp::solveFriction("lemke", large);
  CHECK(c.status == lcp::Status::kInvalidInput);
  CHECK_THAT(c.message, Catch::Contains("2020 contacts") && Catch::Contains("use nsgs"));
}

TEST_CASE("Lemke solves a problem whose q is of round-off size (it scales q to O(1))", "[lcp][lemke][sparse]") {
  // FrictionContactProblem00394: six decoupled contacts, |q| ≈ 1e-15; before the scaling of q
  // Lemke's absolute pivot tolerance ended its path on a secondary ray.
  const lcp::FrictionProblem2D p = lcp::readFc2dDat(kMore / "FrictionContactProblem00394.dat");
  REQUIRE(p.q.cwiseAbs().maxCoeff() < 1e-14);
  const lcp::FrictionResult ours = lcp::solveFriction("lemke", p);
  const lcp::FrictionResult theirs = lcp::solveFriction("siconos-lemke", p);
  REQUIRE(ours.ok());
  REQUIRE(theirs.ok());
  CHECK(lcp::fc2dError(ours.r, ours.u, p.mu, p.q.norm()) <= 1e-12);
  CHECK((ours.r - theirs.r).cwiseAbs().maxCoeff() <= 1e-9 * theirs.r.cwiseAbs().maxCoeff());
}
