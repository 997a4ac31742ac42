// The rows of `stickslip verify` (mechanisms/verification.hpp): how a row is judged, and the
// minimal-form cases (dupont, blajer-1, blajer-2) by their three routes.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>

#include "mechanisms/verification.hpp"

using namespace stickslip;
using mechanisms::Check;
using mechanisms::makeRow;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Every row states its bound: a tolerance > 0, or an exact count (tolerance 0), and its error
// is what its check says.
void checkSemantics(const mechanisms::VerificationRow& r) {
  INFO(r.case_name << " / " << r.method << ": " << r.quantity << " (" << mechanisms::toString(r.check)
                   << "): reference " << r.reference << ", obtained " << r.obtained << ", error " << r.error
                   << ", tolerance " << r.tolerance << " " << r.note);
  if (r.check == Check::kCount) CHECK(r.tolerance == 0.0);
  else CHECK(r.tolerance > 0.0);
  switch (r.check) {
    case Check::kWithin:
      CHECK(std::isfinite(r.reference));
      if (!r.relative) CHECK(r.error == std::abs(r.obtained - r.reference));
      CHECK(r.pass == (r.run_ok && r.error <= r.tolerance));
      break;
    case Check::kAtMost:
      CHECK(r.error == r.obtained);
      CHECK(r.pass == (r.run_ok && r.obtained <= r.tolerance));
      break;
    case Check::kAtLeast:
      CHECK(r.error == r.obtained);
      CHECK(r.pass == (r.run_ok && r.obtained >= r.tolerance));
      break;
    case Check::kCount:
      CHECK(r.error == std::abs(r.obtained - r.reference));
      CHECK(r.pass == (r.run_ok && r.error == 0.0));
      break;
  }
}

}  // namespace

TEST_CASE("verify rows: each check passes on its side of the bound and fails beyond it", "[verify]") {
  // |obtained − reference| ≤ tolerance.
  auto r = makeRow("c", "m", "q", Check::kWithin, 1.0, 1.0 + 5e-7, 1e-6);
  CHECK(r.error == Approx(5e-7));
  CHECK(r.pass);
  r = makeRow("c", "m", "q", Check::kWithin, 1.0, 1.0 + 2e-6, 1e-6);
  CHECK(r.error == Approx(2e-6));
  CHECK_FALSE(r.pass);
  r = makeRow("c", "m", "q", Check::kWithin, 0.0, -2e-6, 1e-6);  // below the reference counts too
  CHECK(r.error == Approx(2e-6));
  CHECK_FALSE(r.pass);
  r = makeRow("c", "m", "q", Check::kWithin, 4.0, 4.2, 0.1, true, "", true);  // relative
  CHECK(r.error == Approx(0.05));
  CHECK(r.pass);
  // One-sided bounds: the error column is the figure itself.
  r = makeRow("c", "m", "q", Check::kAtMost, kNaN, -0.9, 0.5);
  CHECK(r.error == -0.9);
  CHECK(r.pass);
  r = makeRow("c", "m", "q", Check::kAtMost, kNaN, 0.51, 0.5);
  CHECK_FALSE(r.pass);
  r = makeRow("c", "m", "q", Check::kAtLeast, kNaN, 3.0, 0.5);
  CHECK(r.error == 3.0);
  CHECK(r.pass);
  r = makeRow("c", "m", "q", Check::kAtLeast, kNaN, 0.49, 0.5);
  CHECK_FALSE(r.pass);
  // Counts must be exact.
  CHECK(makeRow("c", "m", "q", Check::kCount, 0.0, 0.0, 0.0).pass);
  r = makeRow("c", "m", "q", Check::kCount, 0.0, 1.0, 0.0);
  CHECK(r.error == 1.0);
  CHECK_FALSE(r.pass);
  // A NaN figure or a failed run never passes.
  for (const Check c : {Check::kWithin, Check::kAtMost, Check::kAtLeast, Check::kCount}) {
    CHECK_FALSE(makeRow("c", "m", "q", c, 0.0, kNaN, 1.0).pass);
    r = makeRow("c", "m", "q", c, 0.0, 0.0, 1.0, false, "diverged");
    CHECK_FALSE(r.pass);
    CHECK(r.note == "diverged");
  }
  // A row without its bound never passes: no tolerance, a count's tolerance, no reference.
  CHECK_FALSE(makeRow("c", "m", "q", Check::kWithin, 1.0, 1.0, 0.0).pass);
  CHECK_FALSE(makeRow("c", "m", "q", Check::kAtMost, kNaN, -1.0, std::numeric_limits<double>::infinity()).pass);
  CHECK(makeRow("c", "m", "q", Check::kAtMost, kNaN, -1.0, 0.0).pass);  // ΔE ≤ 0 is a bound
  CHECK_FALSE(makeRow("c", "m", "q", Check::kCount, 2.0, 2.0, 1.0).pass);
  CHECK_FALSE(makeRow("c", "m", "q", Check::kWithin, kNaN, 1.0, 1.0).pass);
  // judge() re-judges an edited row.
  r = makeRow("c", "m", "q", Check::kWithin, 0.0, 1e-7, 1e-6);
  REQUIRE(r.pass);
  r.obtained = 1e-3;
  mechanisms::judge(r);
  CHECK(r.error == Approx(1e-3));
  CHECK_FALSE(r.pass);
  CHECK(mechanisms::toString(Check::kAtLeast) == "o>=tol");
  CHECK(mechanisms::jsonName(Check::kCount) == "count");
}

TEST_CASE("verify: dupont by event-driven, minimal form and Moreau-Jean against the closed form", "[verify][dupont]") {
  const auto rows = mechanisms::runVerification("dupont");
  std::set<std::string> methods;
  for (const auto& r : rows) {
    checkSemantics(r);
    CHECK(r.pass);
    methods.insert(r.method);
  }
  CHECK(methods.count("minimal-form") == 1);
  CHECK(methods.count("moreau-jean h=1e-4") == 1);
  CHECK(methods.count("event-driven/lemke") == 1);
}

TEST_CASE("verify: blajer-1 and blajer-2, absolute routes against the minimal form", "[verify][blajer]") {
  for (const char* name : {"blajer-1", "blajer-2"}) {
    const auto rows = mechanisms::runVerification(name);
    REQUIRE(rows.size() >= 4);
    int event_driven = 0, moreau_jean = 0;
    for (const auto& r : rows) {
      checkSemantics(r);
      CHECK(r.pass);
      CHECK(r.check == Check::kWithin);
      CHECK(r.reference == 0.0);
      CHECK(std::isfinite(r.obtained));
      event_driven += r.method.rfind("event-driven", 0) == 0;
      moreau_jean += r.method.rfind("moreau-jean", 0) == 0;
      // Event-driven agrees with the minimal form to the integrators' tolerance.
      if (r.method.rfind("event-driven", 0) == 0) CHECK(r.tolerance <= 1e-6);
    }
    CHECK(event_driven >= 2);
    CHECK(moreau_jean >= 1);
  }
}

