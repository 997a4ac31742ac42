#pragma once
/// \file Solvers selected by name, as the CLI and the tests name them.
///
/// Ours: `auto` (LCP: Lemke, then the enumeration on small problems where Lemke ends without a
/// solution, lcp_auto.hpp), `lemke` (every problem kind: MLCP and 2D friction go through their
/// exact LCP reductions), `bpp` (LCP with M symmetric positive definite: block principal pivoting,
/// block_pivoting.hpp), `enum` (LCP only, n ≤ 20: exhaustive, the independent reference), `nsgs`
/// (2D friction: nonsmooth Gauss–Seidel on W's nonzeros, nsgs.hpp), `newton` (2D friction: the
/// global nonsmooth Newton on W's pattern, planar_newton.hpp, to Siconos' error 1e-12), and for 2D
/// friction `auto`: NSGS first, Lemke where it stops short (friction_auto.hpp).
/// FrictionResult::solver says which answered. Siconos Numerics 4.4: `siconos-<name>`, with the
/// names of siconos_backend.hpp for each problem kind (e.g. `siconos-lemke`, `siconos-enum`,
/// `siconos-pgs`, `siconos-newton-fb`).

#include <string>
#include <string_view>
#include <vector>

#include "lcp/friction_auto.hpp"
#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

std::vector<std::string> lcpSolverNames();
std::vector<std::string> mlcpSolverNames();
std::vector<std::string> frictionSolverNames();
/// Spatial friction: ours on the round cone, `auto`, `nsgs` and `newton` (round_cone.hpp, exact
/// to Siconos' error 1e-10), `lemke` on the faceted cone (friction_facets.hpp), and Siconos' fc3d
/// solvers (`siconos-nsgs`, `siconos-nsn-ac`, `siconos-prox`, `siconos-vi-eg`).
std::vector<std::string> friction3dSolverNames();

/// Each throws std::invalid_argument for an unknown solver name (listing the valid ones), and
/// the Siconos backends also for invalid problem data (ours report it as kInvalidInput);
/// every algorithmic outcome comes back as a Status.
Result solveLcp(std::string_view solver, const Problem& p);
MixedResult solveMlcp(std::string_view solver, const MixedProblem& p);
FrictionResult solveFriction(std::string_view solver, const FrictionProblem2D& p);
/// The same on a sparse W. The dense solvers (ours and Siconos') get W densely, within
/// kDenseFrictionContacts contacts; beyond, they return kInvalidInput saying so.
FrictionResult solveFriction(std::string_view solver, const SparseFrictionProblem2D& p);

/// Spatial friction; `facets` directions per contact for our faceted Lemke. FrictionResult::solver
/// says which answered (for auto: nsgs, newton or nsgs+newton). Invalid data
/// (μ < 0, NaN/Inf, sizes) is refused as above; a valid W that is no Delassus matrix (not
/// symmetric, or indefinite: lcp::delassusWarning) is answered, its status and residual
/// reported as always, with FrictionResult::warning saying so. So is a solved answer that
/// Siconos' error passes only through the problem's units: posed in W's units, (W/s, q) for
/// s r with s = frictionScale(W), its error is above kUnitsError and 100× Siconos'.
FrictionResult solveFriction(std::string_view solver, const FrictionProblem3D& p, int facets = 8);

/// The error above which an answer that Siconos' error passes is judged by a second measure:
/// in W's units (the FC3D warning above), or the natural map's residual (planar NSGS).
inline constexpr double kUnitsError = 1e-8;

}  // namespace stickslip::lcp
