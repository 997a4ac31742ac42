/// libFuzzer target: the spatial friction (fc3d) reader (lcp/siconos_format.hpp) on arbitrary
/// text, then solveFriction on whatever parses: our Lemke on the faceted cone and Siconos' NSGS.
///
/// Invariants (each violation aborts, so libFuzzer keeps the input):
///  - readFc3dDat either returns a problem that passes validate() or throws
///    std::invalid_argument; nothing else escapes (no crash, no other exception, no hang);
///  - readDat with the name hint "fc3d" returns fc3d, with the same (W, q, μ), exactly when
///    readFc3dDat parses;
///  - for at most kMaxContacts contacts, solveFriction("lemke") (8 facets) and
///    solveFriction("siconos-nsgs") never throw, return r and u of size 3nc, and
///    lcp::delassusWarning never throws; a kSuccess answer has finite r and u; Lemke's
///    (the faceted LCP's) relative residual is ≤ 1e-9 and r lies in the round cone
///    ‖rₜ‖ ≤ μ rₙ (the facets are inscribed) up to that residual; NSGS's Siconos fc3d error,
///    recomputed, is ≤ 10 × its tolerance 1e-12 (SiconosFc3dSolver's acceptance).

#include <cmath>
#include <cstdint>
#include <exception>
#include <sstream>
#include <string>
#include <variant>

#include "fuzz/fuzz_input.hpp"
#include "lcp/siconos_backend.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/solve.hpp"

using namespace stickslip;

namespace {

constexpr const char* kTarget = "fuzz_fc3d_reader";
constexpr Eigen::Index kMaxContacts = 16;  // faceted LCP ≤ 160: keeps every input fast
constexpr int kFacets = 8;
constexpr double kLemkeAccept = 1e-9;   // LemkeOptions::accept_tol
constexpr double kSiconosAccept = 1e-11;  // 10 × SiconosOptions::tolerance

lcp::FrictionResult noThrow(const char* solver, const lcp::FrictionProblem3D& p) {
  try {
    return lcp::solveFriction(solver, p, kFacets);
  } catch (const std::exception& e) {
    fuzz::fail(kTarget, std::string(solver) + " threw on parsed data: " + e.what());
  } catch (...) {
    fuzz::fail(kTarget, std::string(solver) + " threw a non-standard exception");
  }
}

void checkShape(const char* solver, const lcp::FrictionProblem3D& p, const lcp::FrictionResult& r) {
  if (r.r.size() != p.q.size() || r.u.size() != p.q.size())
    fuzz::fail(kTarget, std::string(solver) + ": r or u has the wrong size");
  if (r.ok() && !(r.r.allFinite() && r.u.allFinite()))
    fuzz::fail(kTarget, std::string(solver) + ": success with a non-finite r or u");
}

/// Our Lemke's success: the faceted LCP's residual, and r in the round cone within it.
void checkLemke(const lcp::FrictionProblem3D& p, const lcp::FrictionResult& r) {
  checkShape("lemke", p, r);
  if (!r.ok()) return;
  if (!(r.relative_residual <= kLemkeAccept))
    fuzz::fail(kTarget, "lemke: success with relative residual " + std::to_string(r.relative_residual));
  for (Eigen::Index i = 0; i < p.contacts(); ++i) {
    const double rn = r.r(3 * i), rt = r.r.segment<2>(3 * i + 1).norm();
    // Σⱼ βⱼ ≤ μ rₙ + residual, ‖rₜ‖ ≤ Σⱼ βⱼ; plus the round-off of rₜ = Σⱼ βⱼ dⱼ.
    const double slack = r.residual + 1e-12 * (rt + p.mu(i) * std::abs(rn));
    if (rn < -r.residual || rt > p.mu(i) * rn + slack)
      fuzz::fail(kTarget, "lemke: success outside the cone at contact " + std::to_string(i));
  }
}

void checkNsgs(const lcp::FrictionProblem3D& p, const lcp::FrictionResult& r) {
  checkShape("siconos-nsgs", p, r);
  if (!r.ok()) return;
  const double error = lcp::siconosFc3dError(p, r.r);
  if (!(error <= kSiconosAccept))
    fuzz::fail(kTarget, "siconos-nsgs: success with Siconos' error " + std::to_string(error));
}

void solve(const lcp::FrictionProblem3D& p) {
  p.validate();
  if (p.contacts() > kMaxContacts) return;
  try {
    lcp::delassusWarning(p);
  } catch (...) {
    fuzz::fail(kTarget, "delassusWarning threw on parsed data");
  }
  checkLemke(p, noThrow("lemke", p));
  checkNsgs(p, noThrow("siconos-nsgs", p));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  lcp::FrictionProblem3D p;
  const bool parsed = fuzz::tryRead(kTarget, text, "readFc3dDat", [&](std::istream& s) { p = lcp::readFc3dDat(s, "fuzz.dat"); });
  lcp::DatProblem any;
  const bool any_parsed = fuzz::tryRead(kTarget, text, "readDat", [&](std::istream& s) { any = lcp::readDat(s, "fuzz_fc3d.dat"); });
  // The hinted kind wins whenever it parses; when it does not, another kind may.
  const auto* as_fc3d = std::get_if<lcp::FrictionProblem3D>(&any);
  if (parsed && !(any_parsed && as_fc3d)) fuzz::fail(kTarget, "readDat (hint fc3d) did not return the fc3d problem");
  if (!parsed && any_parsed && as_fc3d) fuzz::fail(kTarget, "readDat returned fc3d but readFc3dDat rejects the text");
  if (parsed && !(as_fc3d->W == p.W && as_fc3d->q == p.q && as_fc3d->mu == p.mu))
    fuzz::fail(kTarget, "readDat and readFc3dDat read different data");
  if (!parsed) return 0;
  try {
    solve(p);
  } catch (const std::invalid_argument& e) {
    fuzz::fail(kTarget, std::string("a parsed problem fails validate(): ") + e.what());
  }
  return 0;
}
