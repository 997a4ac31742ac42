// The journal in a fixed bearing on the regularized route (review Marques et al. 2018, §5,
// Table 5): free flight, impacts, continuous contact; energy per impact against cₑ².
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/journal_bearing.hpp"

using namespace stickslip;

namespace {

// 0.25 s: the first fall takes √(2c/g) ≈ 4.5 ms, the bounces shrink by cₑ each and
// accumulate by ≈ 2·4.5 ms·cₑ/(1 − cₑ) ≈ 0.08 s, after which the journal rests at the bottom.
dynamics::PenaltyIntegrationOptions bdfOptions(double t_end = 0.25) {
  dynamics::PenaltyIntegrationOptions o;
  o.integrator = dynamics::PenaltyIntegrationOptions::Integrator::kBdf;
  o.t_end = t_end;
  return o;
}

// The last sample's total energy (the history's last column).
double energyAt(const mechanisms::JournalBearingRun& r) {
  return r.run.history(r.run.history.rows() - 1, r.run.history.cols() - 1);
}

}  // namespace

TEST_CASE("journal-bearing: Table 5 data give the expected stiffness and clearance",
          "[mechanisms][journal-bearing]") {
  const mechanisms::JournalBearing jb;
  CHECK(jb.clearance() == Approx(1e-4));
  // K = 4/(3·2σ)·√(R_B R_J / c), σ = (1 − 0.09)/207e9: hand-computed 1.5086e11 N/m^1.5.
  const double sigma = (1.0 - 0.09) / 207e9;
  CHECK(jb.contactStiffness() == Approx(4.0 / (3.0 * 2.0 * sigma) * std::sqrt(0.01 * 0.0099 / 1e-4)));
  mechanisms::JournalBearing bad;
  bad.bearing_radius = bad.journal_radius;
  CHECK_THROWS_AS(bad.validate(), std::invalid_argument);
}

TEST_CASE("journal-bearing without friction: free flight, impacts at cₑ², continuous contact",
          "[mechanisms][journal-bearing]") {
  const mechanisms::JournalBearing jb;
  const auto r = mechanisms::simulateJournalBearing(jb, nullptr, bdfOptions());
  REQUIRE(r.run.status == dynamics::PenaltyStatus::kSuccess);
  REQUIRE(r.impacts.size() >= 3);

  // Newton's law predicts (δ̇⁺/δ̇⁻)² = cₑ² = 0.81; Lankarani–Nikravesh reproduces cₑ within
  // a few % at cₑ = 0.9 (normal_law.hpp: rebound 0.913), so 5 % on the energy ratio.
  for (std::size_t i = 0; i < 3; ++i) {
    INFO("impact " << i << " at t = " << r.impacts[i].t_close << " s, in "
                   << r.impacts[i].velocity_in << " m/s, out " << r.impacts[i].velocity_out);
    CHECK(r.impacts[i].energy_ratio == Approx(0.81).epsilon(0.05));
  }
  // First impact after the free fall through c: δ̇⁻ = √(2 g c) at t = √(2c/g).
  CHECK(r.impacts[0].t_close == Approx(std::sqrt(2.0 * 1e-4 / 9.81)).epsilon(1e-3));
  CHECK(r.impacts[0].velocity_in == Approx(std::sqrt(2.0 * 9.81 * 1e-4)).epsilon(1e-3));

  std::set<mechanisms::ContactMode> seen;
  for (const auto& m : r.modes) seen.insert(m.mode);
  CHECK(r.modes.front().mode == mechanisms::ContactMode::kFreeFlight);
  CHECK(seen.count(mechanisms::ContactMode::kImpact) == 1);
  CHECK(r.modes.back().mode == mechanisms::ContactMode::kContinuousContact);

  // At rest on the bottom: δ = (m g / K)^(2/3).
  const Eigen::Index pen_col = 1 + r.run.final_state.size();
  const double delta_end = r.run.history.bottomRows(1)(0, pen_col);
  CHECK(delta_end == Approx(std::pow(jb.mass * jb.gravity / jb.contactStiffness(), 2.0 / 3.0)).epsilon(0.02));

  // Energy (T + V + elastic contact energy) never increases; the tolerance is BDF's local error
  // on energies of ≈ 1e-4 J.
  const auto& h = r.run.history;
  const Eigen::Index ec = h.cols() - 1;
  for (Eigen::Index i = 1; i < h.rows(); ++i) CHECK(h(i, ec) <= h(i - 1, ec) + 1e-10);
}

TEST_CASE("journal-bearing with friction dissipates more, and BDF agrees with RK4",
          "[mechanisms][journal-bearing]") {
  const mechanisms::JournalBearing jb;
  const auto params = mechanisms::journalBearingFrictionParameters(jb);
  std::shared_ptr<const dynamics::FrictionLaw> law = dynamics::makeFrictionLaw("brown-mcphee", params);
  const auto frictionless = mechanisms::simulateJournalBearing(jb, nullptr, bdfOptions(0.1));
  const auto with = mechanisms::simulateJournalBearing(jb, law, bdfOptions(0.1));
  REQUIRE(with.run.status == dynamics::PenaltyStatus::kSuccess);
  // Friction brakes the spin (½ J ω² ≈ 4.8e-5 J) during every contact.
  CHECK(energyAt(with) < energyAt(frictionless) - 1e-7);

  // RK4 (h = 1 µs ≪ the ≈ 0.1 ms Hertz contact time) against BDF over the first impacts.
  dynamics::PenaltyIntegrationOptions rk = bdfOptions(0.02);
  rk.integrator = dynamics::PenaltyIntegrationOptions::Integrator::kRk4;
  const auto a = mechanisms::simulateJournalBearing(jb, law, bdfOptions(0.02));
  const auto b = mechanisms::simulateJournalBearing(jb, law, rk);
  REQUIRE(b.run.status == dynamics::PenaltyStatus::kSuccess);
  INFO("BDF " << a.run.final_state.transpose() << "\nRK4 " << b.run.final_state.transpose());
  // Positions to 1 % of the clearance, velocities to 1 % of the impact velocity 0.044 m/s.
  CHECK((a.run.final_state.head(2) - b.run.final_state.head(2)).lpNorm<Eigen::Infinity>() < 1e-6);
  CHECK((a.run.final_state.segment(3, 2) - b.run.final_state.segment(3, 2)).lpNorm<Eigen::Infinity>() < 4e-4);
  CHECK(a.impacts.size() == b.impacts.size());
  for (std::size_t i = 0; i < std::min(a.impacts.size(), b.impacts.size()); ++i)
    CHECK(a.impacts[i].t_close == Approx(b.impacts[i].t_close).epsilon(1e-4));
}

TEST_CASE("journal-bearing: a run that BDF cannot carry stops with a reason, it never hangs",
          "[mechanisms][journal-bearing]") {
  // LuGre's bristle relaxation time vanishes with the load at the first contact; the run
  // must end promptly with the failure named (or succeed), not spin.
  const mechanisms::JournalBearing jb;
  std::shared_ptr<const dynamics::FrictionLaw> law =
      dynamics::makeFrictionLaw("lugre", mechanisms::journalBearingFrictionParameters(jb));
  const auto r = mechanisms::simulateJournalBearing(jb, law, bdfOptions(0.01));
  if (r.run.status != dynamics::PenaltyStatus::kSuccess) {
    CHECK(r.run.status == dynamics::PenaltyStatus::kIntegratorFailure);
    CHECK(!r.run.message.empty());
    CHECK(r.run.t < 0.01);
  }
  dynamics::PenaltyIntegrationOptions capped = bdfOptions(0.25);
  capped.max_total_steps = 100;  // the frictionless run needs ≈ 10⁴
  const auto s = mechanisms::simulateJournalBearing(jb, nullptr, capped);
  CHECK(s.run.status == dynamics::PenaltyStatus::kIntegratorFailure);
  CHECK(s.run.message.find("integrator steps") != std::string::npos);
}

TEST_CASE("journal-bearing, review Fig. 12: Brown-McPhee keeps F/N within mu_s, LuGre exceeds it",
          "[mechanisms][journal-bearing]") {
  const mechanisms::JournalBearing jb;
  const auto params = mechanisms::journalBearingFrictionParameters(jb);  // review Table 3
  REQUIRE(params.mu_s == 0.15);
  REQUIRE(params.viscous == 0.0);
  // History columns: t, y = [q; v; z], then δ, v_t, Fₙ, Fₜ, energy.
  auto largestRatio = [](const mechanisms::JournalBearingRun& r) {
    const Eigen::Index c = r.run.history.cols();
    double worst = 0.0;
    for (Eigen::Index i = 0; i < r.run.history.rows(); ++i)
      if (r.run.history(i, c - 3) > 0.0)
        worst = std::max(worst, std::abs(r.run.history(i, c - 2) / r.run.history(i, c - 3)));
    return worst;
  };
  const auto bm = mechanisms::simulateJournalBearing(
      jb, dynamics::makeFrictionLaw("brown-mcphee", params), bdfOptions(0.25));
  REQUIRE(bm.run.status == dynamics::PenaltyStatus::kSuccess);
  CHECK(largestRatio(bm) <= params.mu_s);
  CHECK(largestRatio(bm) > params.mu_k);  // it does reach the static peak

  // Standard LuGre's bristle damping σ1 ż ignores the load: F/N leaves the friction cone at
  // the impacts. (Its relaxation time g(v)/(σ0 |v|) vanishes with the load, so neither
  // integrator carries it far: the first 0.02 s, by RK4 with 0.1 µs steps.)
  dynamics::PenaltyIntegrationOptions rk = bdfOptions(0.02);
  rk.integrator = dynamics::PenaltyIntegrationOptions::Integrator::kRk4;
  rk.dt = 1e-7;
  const auto lugre = mechanisms::simulateJournalBearing(jb, dynamics::makeFrictionLaw("lugre", params), rk);
  INFO(lugre.run.message);
  REQUIRE(lugre.run.status == dynamics::PenaltyStatus::kSuccess);  // energy only fell
  CHECK(largestRatio(lugre) > 1.3 * params.mu_s);  // 0.24 measured in the first 0.02 s
}

TEST_CASE("journal-bearing: a rise of the energy of the undriven journal stops the run",
          "[mechanisms][journal-bearing]") {
  // Dahl's bristle state cannot follow the load to zero at the first impact: BDF's solution
  // gains energy there; the run must stop with the reason, the samples up to there kept.
  const mechanisms::JournalBearing jb;
  const auto dahl = mechanisms::simulateJournalBearing(
      jb, dynamics::makeFrictionLaw("dahl", mechanisms::journalBearingFrictionParameters(jb)),
      bdfOptions(0.02));
  CHECK(dahl.run.status == dynamics::PenaltyStatus::kEnergyIncrease);
  CHECK_THAT(dahl.run.message, Catch::Contains("energy rose") && Catch::Contains("t = "));
  CHECK(dahl.run.t < 0.02);
  REQUIRE(dahl.run.history.rows() > 1);
  const auto energy = dahl.run.history.col(dahl.run.history.cols() - 1);
  CHECK(energy(energy.size() - 1) > energy(0));  // the offending sample is the last one
  CHECK(energy.head(energy.size() - 1).maxCoeff() <= energy(0) * 1.01 + 1e-12);
}
