// A solver kept between solves of one size allocates nothing once its workspace is sized: what
// block pivoting, Lemke, `auto`'s small block pivoting and its NSGS path promise
// (lcp/block_pivoting.hpp, lcp/lemke.hpp, lcp/small_pivoting.hpp, lcp/friction_auto.hpp), checked
// with the answer and its residual, which every solve forms.
#include <catch2/catch.hpp>

#include "allocation_counter.hpp"
#include "lcp/block_pivoting.hpp"
#include "lcp/friction_auto.hpp"
#include "lcp/lcp_auto.hpp"
#include "lcp/lemke.hpp"
#include "lcp/random_problems.hpp"

using namespace stickslip::lcp;

namespace {

bool solved(const Result& r) { return r.status == Status::kSuccess; }
bool solved(const FrictionResult& r) { return r.ok(); }

/// Solves p once, which sizes the solver's workspace and r, then requires 20 more solves to
/// succeed without allocating. r holds the answer for the caller's own checks.
template <typename Solver, typename ProblemT, typename ResultT>
void requireKeptSolverAllocatesNothing(const ProblemT& p, ResultT& r) {
  Solver solver;
  solver.solve(p, r);
  REQUIRE(solved(r));
  bool ok = false;
  CHECK(allocationsOver(20, [&] { solver.solve(p, r); return solved(r); }, ok) == 0);
  CHECK(ok);
}

}  // namespace

TEST_CASE("LCP and friction solvers kept between solves allocate nothing", "[lcp][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  SECTION("block pivoting, over several rounds") {
    Result r;
    requireKeptSolverAllocatesNothing<BlockPivotingSolver>(randomSpdProblem(24, 7), r);
    CHECK(r.pivots > 1);  // rounds that update the factor, not one fresh solve
  }
  SECTION("Lemke") {
    Result r;
    requireKeptSolverAllocatesNothing<LemkeSolver>(randomSpdProblem(24, 7), r);
    CHECK(r.pivots > 0);
  }
  SECTION("Lemke when q ≥ 0: z = 0, no pivot") {
    Problem p = randomSpdProblem(24, 7);
    p.q = p.q.cwiseAbs();
    Result r;
    requireKeptSolverAllocatesNothing<LemkeSolver>(p, r);
    CHECK(r.pivots == 0);
    CHECK(r.z.isZero(0.0));
  }
  SECTION("auto on a small LCP: block pivoting on the stack") {
    Result r;
    requireKeptSolverAllocatesNothing<AutoLcpSolver>(randomSpdProblem(12, 0), r);
    CHECK(r.pivots > 1);  // more than one round
  }
  SECTION("auto on a larger symmetric LCP: block pivoting's kept workspace") {
    Result r;
    requireKeptSolverAllocatesNothing<AutoLcpSolver>(randomSpdProblem(24, 7), r);
    CHECK(r.pivots > 1);
  }
  SECTION("auto on one contact: NSGS") {
    FrictionResult r;
    requireKeptSolverAllocatesNothing<AutoFrictionSolver>(randomFrictionProblem(1, 11), r);
    CHECK(r.solver == "nsgs");
  }
}
