#include "lcp/friction_hlcp.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "lcp/friction_to_lcp.hpp"
#include "lcp/random_problems.hpp"

using namespace stickslip::lcp;

TEST_CASE("friction HLCP: one two-sided contact, decoupled, against the closed form",
          "[lcp][hlcp]") {
  // u = diag(a, b) r + q, uₙ = 0: rₙ = −qₙ/a of either sign; stick if |qₜ/b| ≤ μ|rₙ|.
  const double a = 2.0, b = 0.5, mu = 0.3;
  for (const double qn : {-3.0, 3.0})
    for (const double qt : {0.1, -0.1, 2.0, -2.0}) {
      FrictionProblem2D p;
      p.W = Eigen::Vector2d(a, b).asDiagonal();
      p.q = Eigen::Vector2d(qn, qt);
      p.mu = Eigen::VectorXd::Constant(1, mu);
      LemkeSolver lemke;
      const FrictionResult r = solveFrictionHlcpWithLemke(p, {true}, lemke);
      INFO("qn " << qn << " qt " << qt << ": " << r.message);
      REQUIRE(r.ok());
      const double rn = -qn / a, limit = mu * std::abs(rn);
      const double rt = std::abs(qt / b) <= limit ? -qt / b : -limit * (qt > 0 ? 1.0 : -1.0);
      CHECK(r.r(0) == Approx(rn).margin(1e-12));
      CHECK(r.r(1) == Approx(rt).margin(1e-12));
      CHECK(std::abs(r.u(0)) < 1e-12);
    }
}

TEST_CASE("friction HLCP: equals the wall-by-wall enumeration on random problems", "[lcp][hlcp]") {
  int compared = 0;
  for (int nc = 1; nc <= 4; ++nc)
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      FrictionProblem2D p = randomFrictionProblem(nc, seed);
      p.W += 1e-3 * Eigen::MatrixXd::Identity(2 * nc, 2 * nc);  // positive definite: one solution
      std::vector<bool> two_sided(std::size_t(nc), false);
      for (int i = 0; i < nc; ++i) two_sided[std::size_t(i)] = (seed + std::uint64_t(i)) % 2 == 0;
      LemkeSolver lemke;
      const FrictionResult h = solveFrictionHlcpWithLemke(p, two_sided, lemke);
      INFO("nc " << nc << " seed " << seed << ": " << h.message);
      REQUIRE(h.ok());
      // The same problem with each two-sided contact posed on one wall (σ = ±1): the pattern
      // whose solution keeps every two-sided contact closed (uₙ = 0) is the HLCP's.
      const int nb = int(std::count(two_sided.begin(), two_sided.end(), true));
      bool found = false;
      for (int pattern = 0; pattern < (1 << nb) && !found; ++pattern) {
        FrictionProblem2D s = p;
        Eigen::VectorXd sigma = Eigen::VectorXd::Ones(2 * nc);
        for (int i = 0, k = 0; i < nc; ++i)
          if (two_sided[std::size_t(i)]) sigma(2 * i) = (pattern >> k++) & 1 ? -1.0 : 1.0;
        s.W = sigma.asDiagonal() * p.W * sigma.asDiagonal();
        s.q = sigma.cwiseProduct(p.q);
        LemkeSolver one_sided;
        const FrictionResult f = solveFrictionWithLemke(s, one_sided);
        if (!f.ok()) continue;
        bool closed = true;
        for (int i = 0; i < nc; ++i)
          if (two_sided[std::size_t(i)] && std::abs(f.u(2 * i)) > 1e-9) closed = false;
        if (!closed) continue;
        found = true;
        CHECK((sigma.cwiseProduct(f.r) - h.r).lpNorm<Eigen::Infinity>() <
              1e-8 * std::max(1.0, h.r.lpNorm<Eigen::Infinity>()));
      }
      CHECK(found);
      ++compared;
    }
  CHECK(compared == 120);
}

TEST_CASE("friction HLCP: a wrong mask is refused", "[lcp][hlcp]") {
  const FrictionProblem2D p = randomFrictionProblem(2, 3);
  CHECK_THROWS_AS(frictionHlcp(p, {true}), std::invalid_argument);
  LemkeSolver lemke;
  CHECK(solveFrictionHlcpWithLemke(p, {true}, lemke).status == Status::kInvalidInput);
}
