/// libFuzzer target: the Siconos .dat readers (lcp/siconos_format.hpp) on arbitrary text,
/// then our Lemke on whatever parses.
///
/// Invariants (each violation aborts, so libFuzzer keeps the input):
///  - a reader either returns a problem that passes validate() or throws
///    std::invalid_argument; nothing else escapes (no crash, no other exception, no hang);
///  - readDat agrees with the kind-specific readers: if it returns a kind, that reader parses;
///  - solving a parsed problem (LCP size ≤ 64 after reduction) by name "lemke" never throws,
///    and a kSuccess answer has a finite solution with relative residual ≤ 1e-9 (recomputed).

#include <cstdint>
#include <exception>
#include <sstream>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "lcp/residual.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/solve.hpp"

using namespace stickslip;

namespace {

constexpr const char* kTarget = "fuzz_dat_reader";
constexpr double kAccept = 1e-9;         // LemkeOptions::accept_tol, the default of solve.hpp
constexpr Eigen::Index kMaxLcpSize = 64;  // keeps every input fast

void checkSolved(const char* kind, lcp::Status status, double relative, bool finite) {
  if (status != lcp::Status::kSuccess) return;
  if (!finite) fuzz::fail(kTarget, std::string(kind) + ": success with a non-finite solution");
  if (!(relative <= kAccept))
    fuzz::fail(kTarget, std::string(kind) + ": success with relative residual " + std::to_string(relative));
}

template <typename Solve>
auto noThrow(const char* kind, Solve solve) {
  try {
    return solve();
  } catch (const std::exception& e) {
    fuzz::fail(kTarget, std::string(kind) + ": lemke threw on parsed data: " + e.what());
  } catch (...) {
    fuzz::fail(kTarget, std::string(kind) + ": lemke threw a non-standard exception");
  }
}

void solve(const lcp::Problem& p) {
  p.validate();
  if (p.size() > kMaxLcpSize) return;
  const lcp::Result r = noThrow("lcp", [&] { return lcp::solveLcp("lemke", p); });
  if (r.z.size() != p.size()) fuzz::fail(kTarget, "lcp: z has the wrong size");
  checkSolved("lcp", r.status, lcp::residual(p, r.z).relative, r.z.allFinite());
}

void solve(const lcp::MixedProblem& p) {
  p.validate();
  if (p.freeSize() + p.complementaritySize() > kMaxLcpSize) return;
  const lcp::MixedResult r = noThrow("mlcp", [&] { return lcp::solveMlcp("lemke", p); });
  if (r.ok() && (r.u.size() != p.freeSize() || r.v.size() != p.complementaritySize()))
    fuzz::fail(kTarget, "mlcp: solution has the wrong size");
  checkSolved("mlcp", r.status, r.ok() ? lcp::residual(p, r.u, r.v).relative : 0.0,
              r.u.allFinite() && r.v.allFinite());
}

void solve(const lcp::FrictionProblem2D& p) {
  p.validate();
  if (4 * p.contacts() > kMaxLcpSize) return;  // the LCP reduction has 4 unknowns per contact
  const lcp::FrictionResult r = noThrow("fc2d", [&] { return lcp::solveFriction("lemke", p); });
  if (r.ok() && r.r.size() != 2 * p.contacts()) fuzz::fail(kTarget, "fc2d: r has the wrong size");
  checkSolved("fc2d", r.status, r.ok() ? lcp::residual(p, r.r).relative : 0.0, r.r.allFinite());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  lcp::Problem lcp_problem;
  lcp::MixedProblem mlcp_problem;
  lcp::FrictionProblem2D fc2d_problem;
  const bool is_lcp = fuzz::tryRead(kTarget, text, "readLcpDat", [&](std::istream& s) {
    lcp_problem = lcp::readLcpDat(s, "fuzz.dat");
  });
  const bool is_mlcp = fuzz::tryRead(kTarget, text, "readMlcpDat", [&](std::istream& s) {
    mlcp_problem = lcp::readMlcpDat(s, "fuzz.dat");
  });
  const bool is_fc2d = fuzz::tryRead(kTarget, text, "readFc2dDat", [&](std::istream& s) {
    fc2d_problem = lcp::readFc2dDat(s, "fuzz.dat");
  });
  std::string kind;
  fuzz::tryRead(kTarget, text, "readDat", [&](std::istream& s) { kind = lcp::datKindName(lcp::readDat(s, "fuzz.dat")); });
  if ((kind == "lcp" && !is_lcp) || (kind == "mlcp" && !is_mlcp) || (kind == "fc2d" && !is_fc2d))
    fuzz::fail(kTarget, "readDat returned " + kind + " but that reader rejects the text");

  try {
    if (is_lcp) solve(lcp_problem);
    if (is_mlcp) solve(mlcp_problem);
    if (is_fc2d) solve(fc2d_problem);
  } catch (const std::invalid_argument& e) {
    fuzz::fail(kTarget, std::string("a parsed problem fails validate(): ") + e.what());
  }
  return 0;
}
