#include "lcp/solve.hpp"

#include <algorithm>
#include <stdexcept>

#include "lcp/block_pivoting.hpp"
#include "lcp/enumeration.hpp"
#include "lcp/friction_cone.hpp"
#include "lcp/friction_facets.hpp"
#include "lcp/friction_to_lcp.hpp"
#include "lcp/lcp_auto.hpp"
#include "lcp/lemke.hpp"
#include "lcp/mlcp_to_lcp.hpp"
#include "lcp/nsgs.hpp"
#include "lcp/planar_newton.hpp"
#include "lcp/residual.hpp"
#include "lcp/round_cone.hpp"
#include "lcp/siconos_backend.hpp"

namespace stickslip::lcp {
namespace {

constexpr std::string_view kSiconosPrefix = "siconos-";

std::vector<std::string> withOurs(std::vector<std::string> ours,
                                  const std::vector<std::string>& siconos) {
  for (const auto& s : siconos) ours.push_back(std::string(kSiconosPrefix) + s);
  return ours;
}

[[noreturn]] void unknown(std::string_view kind, std::string_view name,
                          const std::vector<std::string>& valid) {
  std::string list;
  for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
  throw std::invalid_argument("unknown " + std::string(kind) + " solver '" + std::string(name) +
                              "' (valid: " + list + ")");
}

std::string_view siconosName(std::string_view name) { return name.substr(kSiconosPrefix.size()); }

/// Siconos' fc3d error weighs r against u = W r + q in the units given. Where W's entries are far
/// from 1, one of them vanishes beside the other (a heavy mechanism's velocities beside its
/// large forces), and the error no longer sees it. Measured again on (W/s, q) for s r, in W's
/// units (frictionScale), a solved answer whose error there is above kUnitsError and 100× the
/// one in the units given gets a warning naming both.
std::string unitsWarning(const FrictionProblem3D& p, const FrictionResult& r) {
  const double s = frictionScale(p.W);
  if (!r.ok() || s == 1.0 || r.r.size() != p.q.size() || r.u.size() != p.q.size()) return "";
  const double q_norm = p.q.norm(), given = fc3dError(r.r, r.u, p.mu, q_norm);
  const double in_w_units = fc3dError(s * r.r, r.u, p.mu, q_norm);
  if (!(in_w_units > kUnitsError && in_w_units > 100.0 * given)) return "";
  const std::string power = "2^" + std::to_string(std::ilogb(s));
  return "in W's units (W / " + power + ", the forces times " + power + ") the answer's error is " +
         scientific(in_w_units) + ", against Siconos' error " + scientific(given) +
         " in the units given, which hide it: pose the problem in units where W's entries are near 1";
}

/// Runs `solve` once `name` is found among `names()`, listed once per call site (each `solve`
/// is its own lambda type) rather than per call: the Siconos part is a call into its library.
template <typename F>
auto checked(std::string_view kind, std::string_view name, std::vector<std::string> (*names)(),
             F&& solve) {
  static const std::vector<std::string> valid = names();
  if (std::find(valid.begin(), valid.end(), name) == valid.end()) unknown(kind, name, valid);
  return solve();
}

}  // namespace

std::vector<std::string> lcpSolverNames() {
  return withOurs({"auto", "lemke", "bpp", "enum"}, siconosLcpSolverNames());
}
std::vector<std::string> mlcpSolverNames() { return withOurs({"lemke"}, siconosMlcpSolverNames()); }
std::vector<std::string> frictionSolverNames() {
  return withOurs({"auto", "lemke", "nsgs", "newton"}, siconosFc2dSolverNames());
}
std::vector<std::string> friction3dSolverNames() {
  return withOurs({"auto", "nsgs", "newton", "lemke"}, siconosFc3dSolverNames());
}

Result solveLcp(std::string_view solver, const Problem& p) {
  return checked("LCP", solver, lcpSolverNames, [&] {
    if (solver == "auto") return AutoLcpSolver().solve(p);
    if (solver == "lemke") return LemkeSolver().solve(p);
    if (solver == "bpp") return BlockPivotingSolver().solve(p);
    if (solver == "enum") return solveByEnumeration(p);
    return SiconosLcpSolver(siconosName(solver)).solve(p);
  });
}

MixedResult solveMlcp(std::string_view solver, const MixedProblem& p) {
  return checked("MLCP", solver, mlcpSolverNames, [&] {
    if (solver == "lemke") {
      LemkeSolver lemke;
      return solveMlcpWithLemke(p, lemke);
    }
    return SiconosMlcpSolver(siconosName(solver)).solve(p);
  });
}

namespace {

/// Our NSGS, with residual and relative_residual as every solver reports them (residual.hpp)
/// and Siconos' error measure in the message on failure. A success on Siconos' error is a
/// numerical failure where the residual is above kUnitsError both against max(1, ‖q‖∞), the
/// scale Siconos' error takes, and relative to 100× that error: an r that diverged (a W that is
/// not positive definite) whose size hid it from the error.
template <typename Friction>
FrictionResult nsgsOn(const Friction& p, const SparseFrictionProblem2D& sparse) {
  FrictionResult r = solveFrictionNsgs(sparse);
  if (r.status == Status::kInvalidInput) return r;
  const double error = r.relative_residual;  // NSGS' own: Siconos' error
  const Residual res = residual(p, r.r, r.u);  // NSGS returns u = W r + q
  r.residual = res.absolute;
  r.relative_residual = res.relative;
  const bool small = res.absolute <= kUnitsError * std::max(1.0, p.q.cwiseAbs().maxCoeff());
  const bool near_error = res.relative <= std::max(kUnitsError, 100.0 * error);
  if (r.ok() && !small && !near_error) {
    r.status = Status::kNumericalFailure;
    r.message = "nsgs: Siconos' error " + scientific(error) + " met its tolerance, but the relative residual is " +
                scientific(res.relative);
  }
  return r;
}

FrictionResult withSolver(FrictionResult r, std::string_view name) {
  r.solver = std::string(name);
  return r;
}

FrictionResult solveDense(std::string_view solver, const FrictionProblem2D& p) {
  if (solver == "lemke") {
    LemkeSolver lemke;
    return solveFrictionWithLemke(p, lemke);
  }
  return SiconosFc2dSolver(siconosName(solver)).solve(p);
}

}  // namespace

FrictionResult solveFriction(std::string_view solver, const FrictionProblem2D& p) {
  return checked("FC2D", solver, frictionSolverNames, [&] {
    FrictionResult r;
    if (solver == "auto") {
      AutoFrictionSolver().solve(p, r);
      return r;
    }
    if (solver == "nsgs" || solver == "newton") {
      SparseFrictionProblem2D sparse{{}, p.q, p.mu};
      compressRows(p.W, sparse.W);
      return withSolver(solver == "nsgs" ? nsgsOn(p, sparse) : solveFrictionNewton(sparse), solver);
    }
    return withSolver(solveDense(solver, p), solver);
  });
}

FrictionResult solveFriction(std::string_view solver, const SparseFrictionProblem2D& p) {
  return checked("FC2D", solver, frictionSolverNames, [&]() -> FrictionResult {
    FrictionResult r;
    if (solver == "newton") return withSolver(solveFrictionNewton(p), solver);
    if (p.bilateral > 0) {
      r.status = Status::kInvalidInput;
      r.solver = std::string(solver);
      r.message = "a problem with bilateral blocks (joint rows) is solved by newton only, not " + std::string(solver);
      r.r = Eigen::VectorXd::Zero(p.q.size());
      r.u = p.q;
      return r;
    }
    if (solver == "auto") {
      AutoFrictionSolver().solve(p, r);
      return r;
    }
    if (solver == "nsgs") return withSolver(nsgsOn(p, p), "nsgs");
    if (p.contacts() > kDenseFrictionContacts) {
      r.status = Status::kInvalidInput;
      r.solver = std::string(solver);
      r.message = std::string(solver) + " works on a dense W, and this one has " + std::to_string(p.contacts()) +
                  " contacts (more than " + std::to_string(kDenseFrictionContacts) + "): use nsgs or auto";
      r.r = Eigen::VectorXd::Zero(p.q.size());
      r.u = p.q;
      return r;
    }
    return withSolver(solveDense(solver, {Eigen::MatrixXd(p.W), p.q, p.mu}), solver);
  });
}

FrictionResult solveFriction(std::string_view solver, const FrictionProblem3D& p, int facets) {
  return checked("FC3D", solver, friction3dSolverNames, [&]() -> FrictionResult {
    FrictionResult r;
    if (solver == "lemke") {
      r = solveFrictionFaceted(p, facets);
      r.solver = "lemke";
    } else if (solver == "auto" || solver == "nsgs" || solver == "newton") {
      RoundConeOptions o;
      o.method = roundConeMethod(std::string(solver));
      RoundConeSolver(o).solve(p, r);
    } else {
      r = withSolver(SiconosFc3dSolver(siconosName(solver)).solve(p), solver);
    }
    // Whatever the status (a solver may refuse what it cannot take), but only on valid data.
    try {
      p.validate();
      const std::string delassus = delassusWarning(p), units = unitsWarning(p, r);
      r.warning = delassus + (delassus.empty() || units.empty() ? "" : "; ") + units;
    } catch (const std::invalid_argument&) {
    }
    return r;
  });
}

}  // namespace stickslip::lcp
