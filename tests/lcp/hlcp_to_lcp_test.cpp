#include "lcp/hlcp_to_lcp.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>

#include "lcp/enumeration.hpp"
#include "lcp/lemke.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/reduction_test_helpers.hpp"
#include "lcp/residual.hpp"

using namespace stickslip::lcp;

namespace {

// n ≤ 10, O(1) entries, inverted blocks with condition ≤ 4 (times the P-matrix's ≲ 1e-2 for
// A = −B M): the reduced data carry ~1e4·ε relative error; 1e-10 keeps a wide margin.
constexpr double kHlcpTol = 1e-10;

struct PlantedHlcp {
  HorizontalProblem problem;
  Eigen::VectorXd z, w;
};

/// A z + B w = q with both blocks invertible: M a P-matrix, B well-conditioned, A := −B M, and
/// q := A z* + B w*, so that the LCP in z is LCP(M, ·) and the LCP in w is LCP(M⁻¹, ·).
PlantedHlcp plantedBothInvertible(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  PlantedHlcp out;
  const Eigen::MatrixXd M = randomPMatrixProblem(n, seed).M;
  out.problem.B = test::wellConditioned(n, rng);
  out.problem.A = -out.problem.B * M;
  const test::Planted s = test::plantedPair(n, rng);
  out.z = s.z;
  out.w = s.w;
  out.problem.q = out.problem.A * out.z + out.problem.B * out.w;
  return out;
}

/// One block singular: `invertible` is well-conditioned, the other is −invertible·N with N
/// symmetric PSD of rank n − 1 (so the LCP in the other variable has matrix N, which is
/// copositive-plus). Returns (A, B) = (invertible, other) or (other, invertible).
PlantedHlcp plantedOneSingular(int n, std::uint64_t seed, bool a_invertible) {
  std::mt19937_64 rng(seed);
  const Eigen::MatrixXd G = test::uniform(n - 1, n, rng);
  const Eigen::MatrixXd N = G.transpose() * G;
  const Eigen::MatrixXd inv = test::wellConditioned(n, rng);
  const test::Planted s = test::plantedPair(n, rng);
  PlantedHlcp out;
  out.problem.A = a_invertible ? inv : Eigen::MatrixXd(-inv * N);
  out.problem.B = a_invertible ? Eigen::MatrixXd(-inv * N) : inv;
  out.z = s.z;
  out.w = s.w;
  out.problem.q = out.problem.A * out.z + out.problem.B * out.w;
  return out;
}

}  // namespace

TEST_CASE("HLCP reduction round-trips through both branches", "[lcp][hlcp]") {
  for (int n : {1, 2, 5, 8})
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      const PlantedHlcp ph = plantedBothInvertible(n, 10 * n + seed);
      for (HlcpBranch branch : {HlcpBranch::kInvertB, HlcpBranch::kInvertA, HlcpBranch::kAuto}) {
        INFO("n = " << n << ", seed = " << seed << ", branch = " << int(branch));
        const HlcpReduction red(ph.problem, branch);
        if (branch != HlcpBranch::kAuto) CHECK(red.branch() == branch);
        CHECK(red.branch() != HlcpBranch::kAuto);
        const bool in_z = red.branch() == HlcpBranch::kInvertB;
        // The planted pair solves the reduced LCP in the branch's variable.
        CHECK(residual(red.lcp(), in_z ? ph.z : ph.w).relative < kHlcpTol);
        const Result r = solveByEnumeration(red.lcp());
        REQUIRE(r.ok());
        const HlcpReduction::Recovered back = red.recover(r.z);
        CHECK((back.z - ph.z).lpNorm<Eigen::Infinity>() < kHlcpTol);  // unique: M and M⁻¹ are P
        CHECK((back.w - ph.w).lpNorm<Eigen::Infinity>() < kHlcpTol);
        CHECK(residual(ph.problem, back.z, back.w).relative < kHlcpTol);
      }
    }
}

TEST_CASE("HLCP reduction picks the invertible block", "[lcp][hlcp]") {
  for (bool a_invertible : {true, false})
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      INFO("A invertible = " << a_invertible << ", seed = " << seed);
      const PlantedHlcp ph = plantedOneSingular(4, seed, a_invertible);
      const HlcpReduction red(ph.problem);
      CHECK(red.branch() == (a_invertible ? HlcpBranch::kInvertA : HlcpBranch::kInvertB));
      // N is singular, so the solution need not be unique: check the residual, not the pair.
      const Result r = solveByEnumeration(red.lcp());
      REQUIRE(r.ok());
      const HlcpReduction::Recovered back = red.recover(r.z);
      CHECK(residual(ph.problem, back.z, back.w).relative < kHlcpTol);
      // The LCP's own variable is ≥ 0 exactly; its complement up to round-off.
      CHECK((back.z.array() >= -kHlcpTol).all());
      CHECK((back.w.array() >= -kHlcpTol).all());
      // Forcing the singular block is refused.
      const HlcpBranch bad = a_invertible ? HlcpBranch::kInvertB : HlcpBranch::kInvertA;
      CHECK_THROWS_WITH(HlcpReduction(ph.problem, bad),
                        Catch::Contains(a_invertible ? "B is singular" : "A is singular"));
    }
}

TEST_CASE("HLCP reduction rejects two singular blocks and malformed input", "[lcp][hlcp]") {
  HorizontalProblem p;
  p.A = Eigen::MatrixXd::Ones(2, 2);
  p.B = Eigen::MatrixXd::Ones(2, 2);
  p.q = Eigen::VectorXd::Ones(2);
  CHECK_THROWS_WITH(HlcpReduction(p), Catch::Contains("neither A nor B is invertible"));
  LemkeSolver lemke;
  const Result r = solveHlcpWithLemke(p, lemke);
  CHECK(r.status == Status::kInvalidInput);
  CHECK_THAT(r.message, Catch::Contains("neither A nor B is invertible"));
  CHECK(r.z.size() == 2);
  p.q.resize(3);
  CHECK_THROWS_AS(HlcpReduction(p), std::invalid_argument);
  CHECK(solveHlcpWithLemke(p, lemke).status == Status::kInvalidInput);
}

TEST_CASE("solveHlcpWithLemke solves planted HLCPs", "[lcp][hlcp][lemke]") {
  LemkeSolver lemke;
  int solved = 0;
  for (int n : {1, 3, 10, 40})
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const PlantedHlcp ph = plantedBothInvertible(n, 500 + 10 * n + seed);
      INFO("n = " << n << ", seed = " << seed);
      const Result r = solveHlcpWithLemke(ph.problem, lemke);
      REQUIRE(r.status == Status::kSuccess);
      CHECK(r.relative_residual < kHlcpTol);
      CHECK((r.z - ph.z).lpNorm<Eigen::Infinity>() < kHlcpTol);
      CHECK((r.w - ph.w).lpNorm<Eigen::Infinity>() < kHlcpTol);
      ++solved;
    }
  for (bool a_invertible : {true, false})
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const PlantedHlcp ph = plantedOneSingular(6, 900 + seed, a_invertible);
      INFO("one singular block, A invertible = " << a_invertible << ", seed = " << seed);
      const Result r = solveHlcpWithLemke(ph.problem, lemke);
      REQUIRE(r.status == Status::kSuccess);
      CHECK(r.relative_residual < kHlcpTol);
      ++solved;
    }
  CHECK(solved == 30);
}
