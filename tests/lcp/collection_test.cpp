// Our Lemke (directly, and through the MLCP and planar-friction reductions) on Siconos'
// collection in tests/data/siconos, judged against Siconos Numerics 4.4 run in the same
// test: every instance a Siconos solver solves must be solved by ours to a relative residual
// of 1e-10; on the others ours must report failure, or else a solution that passes the same
// residual check. Wrong numbers labelled as a solution are never acceptable.
//
// What Siconos 4.4 solves (tolerance 1e-12, verified with our residual) and how ours does:
//   lcp/: Siconos' lemke or enum solves all but lcp_Pang_isolated_sol_perturbed and
//     lcp_tobenna. Ours solves every one of those except lcp_CPS_3 (see kKnownGaps), and
//     also solves lcp_tobenna (127 pivots, verified); on lcp_Pang_isolated_sol_perturbed it
//     reports failure. `auto` (Lemke, then the enumeration) solves lcp_CPS_3 too.
//   mlcp/: some Siconos MLCP solver (enum, direct-enum, fb, lemke) solves all 16; ours, via
//     the Schur or the null-space reduction (mlcp_to_lcp.hpp), solves all 16.
//   fc2d/: Siconos' enum and cpg solve both; ours solves both, r equal to enum's.

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "lcp/friction_to_lcp.hpp"
#include "lcp/lcp_auto.hpp"
#include "lcp/lemke.hpp"
#include "lcp/mlcp_to_lcp.hpp"
#include "lcp/residual.hpp"
#include "lcp/siconos_backend.hpp"
#include "lcp/siconos_format.hpp"
#include "siconos_data.hpp"

namespace fs = std::filesystem;
using namespace stickslip::lcp;

namespace {

using stickslip::test::kSiconosData;

// The collection's entries are O(1)…O(1e5) with n ≤ 61; Lemke's final basis re-solve keeps
// the relative residual within a few hundred ε, far below this.
constexpr double kRelTol = 1e-10;

using stickslip::test::datFiles;

/// Names of the Siconos solvers that solve the instance (verified by our residual).
template <typename Solver, typename P>
std::string siconosSolvers(const std::vector<const char*>& names, const P& p) {
  std::string solved;
  for (const char* n : names) {
    Solver s(n);
    if (s.solve(p).ok()) solved += (solved.empty() ? "" : ",") + std::string(n);
  }
  return solved;
}

// Instances a Siconos solver solves but ours does not, by name, with what we saw (STYLE P12).
// They must still come back as a failure status, never as a wrong solution.
const std::map<std::string, std::string> kKnownGaps = {
    // M ≥ 0 with zero diagonal blocks (a bimatrix game): not copositive-plus, so Lemke with
    // the covering vector e may end on a ray, and does, after 1 pivot, for ours and for
    // Siconos' Lemke alike; only enumeration finds z.
    {"lcp_CPS_3", "secondary ray after 1 pivot (Siconos' lemke too; enum solves it)"},
};

template <typename R>
void judge(const std::string& name, const R& ours, double recomputed_relative,
           const std::string& siconos_solved) {
  INFO("Siconos solvers that solve it: " << (siconos_solved.empty() ? "none" : siconos_solved));
  INFO("ours: " << ours.status << ", " << ours.pivots << " pivots, relative residual "
                << ours.relative_residual << (ours.message.empty() ? "" : ", ") << ours.message);
  const auto gap = kKnownGaps.find(name);
  if (gap != kKnownGaps.end()) {
    INFO("known gap: " << gap->second);
    if (ours.ok()) WARN(name << " is solved now: remove it from kKnownGaps");
    else CHECK_FALSE(ours.message.empty());
  } else if (!siconos_solved.empty()) {
    REQUIRE(ours.ok());
  }
  if (ours.ok()) {
    CHECK(recomputed_relative <= kRelTol);
    // LemkeSolver computes its residual on its own (scaled, then unscaled) data: equal to
    // residual() up to round-off, not bit for bit.
    CHECK(ours.relative_residual <= kRelTol);
  }
}

}  // namespace

// Lemke, and `auto` beside it: every instance Siconos' lemke or enum solves, lcp_CPS_3 included.
TEST_CASE("our Lemke and auto on Siconos' LCP collection", "[lcp][collection][lemke][auto]") {
  for (const auto& f : datFiles("lcp")) {
    DYNAMIC_SECTION(f.filename().string()) {
      const Problem p = readLcpDat(f);
      const std::string solved = siconosSolvers<SiconosLcpSolver>({"lemke", "enum"}, p);
      LemkeSolver lemke;
      const Result r = lemke.solve(p);
      REQUIRE(r.z.size() == p.size());
      judge(f.stem().string(), r, residual(p, r.z).relative, solved);
      if (r.ok()) {
        // w is Lemke's own, from its final basis: equal to M z + q up to the same scale.
        const double scale = std::max({1.0, p.q.lpNorm<Eigen::Infinity>(),
                                       p.M.cwiseAbs().rowwise().sum().maxCoeff() *
                                           r.z.lpNorm<Eigen::Infinity>()});
        CHECK((r.w - (p.M * r.z + p.q)).lpNorm<Eigen::Infinity>() <= kRelTol * scale);
      }
      AutoLcpSolver automatic;
      const Result a = automatic.solve(p);
      INFO("auto by " << automatic.answeredBy() << ": " << a.status << ", relative residual "
                      << a.relative_residual << ", " << a.message);
      if (!solved.empty()) REQUIRE(a.ok());
      if (a.ok())
        CHECK(residual(p, a.z).relative <= kRelTol);
      else
        CHECK_FALSE(a.message.empty());
    }
  }
}

TEST_CASE("our Lemke through the MLCP reduction on Siconos' MLCP collection",
          "[lcp][collection][lemke][mlcp]") {
  for (const auto& f : datFiles("mlcp")) {
    DYNAMIC_SECTION(f.filename().string()) {
      const MixedProblem p = readMlcpDat(f);
      const std::string solved =
          siconosSolvers<SiconosMlcpSolver>({"enum", "direct-enum", "fb", "lemke"}, p);
      LemkeSolver lemke;
      const MixedResult r = solveMlcpWithLemke(p, lemke);
      judge(f.stem().string(), r, residual(p, r.u, r.v).relative, solved);
    }
  }
}

TEST_CASE("our Lemke through the friction reduction on Siconos' FC2D collection",
          "[lcp][collection][lemke][fc2d]") {
  for (const auto& f : datFiles("fc2d")) {
    DYNAMIC_SECTION(f.filename().string()) {
      const FrictionProblem2D p = readFc2dDat(f);
      const std::string solved =
          siconosSolvers<SiconosFc2dSolver>({"lemke", "enum", "nsgs", "cpg"}, p);
      LemkeSolver lemke;
      const FrictionResult r = solveFrictionWithLemke(p, lemke);
      judge(f.stem().string(), r, residual(p, r.r).relative, solved);
    }
  }
}
