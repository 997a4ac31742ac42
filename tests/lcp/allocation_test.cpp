// A solver kept between solves of one size allocates nothing once its workspace is sized: what
// block pivoting, Lemke and `auto`'s NSGS path promise (lcp/block_pivoting.hpp, lcp/lemke.hpp,
// lcp/friction_auto.hpp), checked with the answer and its residual, which every solve forms.
#include <catch2/catch.hpp>

#include "allocation_counter.hpp"
#include "lcp/block_pivoting.hpp"
#include "lcp/friction_auto.hpp"
#include "lcp/lemke.hpp"
#include "lcp/random_problems.hpp"

using namespace stickslip::lcp;

TEST_CASE("LCP and friction solvers kept between solves allocate nothing", "[lcp][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  bool ok = false;
  SECTION("block pivoting, over several rounds") {
    const Problem p = randomSpdProblem(24, 7);
    BlockPivotingSolver bpp;
    Result r;
    bpp.solve(p, r);  // sizes the workspace and the result
    REQUIRE(r.status == Status::kSuccess);
    REQUIRE(r.pivots > 1);  // rounds that update the factor, not one fresh solve
    CHECK(allocationsOver(20, [&] { bpp.solve(p, r); return r.status == Status::kSuccess; }, ok) == 0);
    CHECK(ok);
  }
  SECTION("Lemke") {
    const Problem p = randomSpdProblem(24, 7);
    LemkeSolver lemke;
    Result r;
    lemke.solve(p, r);
    REQUIRE(r.status == Status::kSuccess);
    CHECK(allocationsOver(20, [&] { lemke.solve(p, r); return r.status == Status::kSuccess; }, ok) == 0);
    CHECK(ok);
  }
  SECTION("auto on one contact: NSGS") {
    const FrictionProblem2D p = randomFrictionProblem(1, 11);
    AutoFrictionSolver automatic;
    FrictionResult r;
    automatic.solve(p, r);
    REQUIRE(r.ok());
    REQUIRE(r.solver == "nsgs");
    CHECK(allocationsOver(20, [&] { automatic.solve(p, r); return r.ok(); }, ok) == 0);
    CHECK(ok);
  }
}
