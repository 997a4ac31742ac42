// The journal in a fixed bearing on the penalty route (review Marques et al. 2018, §5,
// Table 5): free flight, impacts, continuous contact; energy per impact against cₑ².
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "dynamics/routes/penalty/penalty_route.hpp"
#include "mechanisms/journal_bearing.hpp"

using namespace stickslip;

namespace {

// The review's Table 3 friction, μs = 0.15 and μk = 0.1, at the contact.
mechanisms::JournalBearing withFriction() {
  mechanisms::JournalBearing jb;
  jb.mu_static = 0.15;
  jb.mu_kinetic = 0.1;
  return jb;
}

// The journal by the penalty route: Lankarani–Nikravesh and `law` in place of Coulomb;
// passive, so an energy rise stops it. 0.25 s: the first fall takes √(2c/g) ≈ 4.5 ms, the
// bounces shrink by cₑ each and accumulate by ≈ 2·4.5 ms·cₑ/(1 − cₑ) ≈ 0.08 s, after which
// the journal rests at the bottom.
dynamics::PenaltyRouteOptions options(const std::string& law, double t_end = 0.25, bool rk4 = false) {
  dynamics::PenaltyRouteOptions o;
  o.friction_law = law;
  o.friction_parameters = mechanisms::journalBearingFrictionParameters(mechanisms::JournalBearing{});
  o.passive = true;
  o.integration.integrator = rk4 ? dynamics::PenaltyIntegrationOptions::Integrator::kRk4
                                 : dynamics::PenaltyIntegrationOptions::Integrator::kBdf;
  o.integration.t_end = t_end;
  return o;
}

struct Run {
  dynamics::RunResult run;
  mechanisms::JournalBearingPhases phases;
};
Run simulate(const mechanisms::JournalBearing& jb, const dynamics::PenaltyRouteOptions& o) {
  Run r{dynamics::simulatePenaltyRoute(mechanisms::journalBearingRigid(jb), o), {}};
  r.phases = mechanisms::journalBearingPhases(jb, r.run);
  return r;
}

// History columns: t, q = (x, y, θ), v = (ẋ, ẏ, θ̇), N, F.
double penetration(const mechanisms::JournalBearing& jb, const Eigen::Ref<const Eigen::RowVectorXd>& row) {
  return std::hypot(row(1), row(2)) - jb.clearance();
}
// T + V + the elastic energy K δ^2.5 / 2.5 of the contact.
double energy(const mechanisms::JournalBearing& jb, const Eigen::Ref<const Eigen::RowVectorXd>& row) {
  const double delta = std::max(0.0, penetration(jb, row));
  return 0.5 * jb.mass * (row(4) * row(4) + row(5) * row(5)) + 0.5 * jb.inertia * row(6) * row(6) +
         jb.mass * jb.gravity * row(2) + jb.contactStiffness() * std::pow(delta, 2.5) / 2.5;
}
double finalEnergy(const mechanisms::JournalBearing& jb, const dynamics::RunResult& r) {
  return energy(jb, r.history.bottomRows(1));
}
// The largest |F|/N over the samples in contact.
double largestRatio(const dynamics::RunResult& r) {
  double worst = 0.0;
  for (Eigen::Index i = 0; i < r.history.rows(); ++i)
    if (r.history(i, 7) > 0.0) worst = std::max(worst, std::abs(r.history(i, 8) / r.history(i, 7)));
  return worst;
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
  const mechanisms::JournalBearing jb;  // Table 5: no friction
  const auto [run, phases] = simulate(jb, options("none"));
  INFO(run.message);
  REQUIRE(run.ok());
  const auto& impacts = phases.impacts;
  REQUIRE(impacts.size() >= 3);

  // Newton's law predicts (δ̇⁺/δ̇⁻)² = cₑ² = 0.81; Lankarani–Nikravesh reproduces cₑ within
  // a few % at cₑ = 0.9 (normal_law.hpp: rebound 0.913), so 5 % on the energy ratio.
  for (std::size_t i = 0; i < 3; ++i) {
    INFO("impact " << i << " at t = " << impacts[i].t_close << " s, in "
                   << impacts[i].velocity_in << " m/s, out " << impacts[i].velocity_out);
    CHECK(impacts[i].energy_ratio == Approx(0.81).epsilon(0.05));
  }
  // First impact after the free fall through c: δ̇⁻ = √(2 g c) at t = √(2c/g).
  CHECK(impacts[0].t_close == Approx(std::sqrt(2.0 * 1e-4 / 9.81)).epsilon(1e-3));
  CHECK(impacts[0].velocity_in == Approx(std::sqrt(2.0 * 9.81 * 1e-4)).epsilon(1e-3));

  std::set<mechanisms::ContactMode> seen;
  for (const auto& m : phases.modes) seen.insert(m.mode);
  CHECK(phases.modes.front().mode == mechanisms::ContactMode::kFreeFlight);
  CHECK(seen.count(mechanisms::ContactMode::kImpact) == 1);
  CHECK(phases.modes.back().mode == mechanisms::ContactMode::kContinuousContact);
  CHECK(phases.modes.back().t_end == run.t_end);

  // At rest on the bottom: δ = (m g / K)^(2/3).
  const double delta_end = penetration(jb, run.history.bottomRows(1));
  CHECK(delta_end == Approx(std::pow(jb.mass * jb.gravity / jb.contactStiffness(), 2.0 / 3.0)).epsilon(0.02));

  // Energy (T + V + elastic contact energy) never increases; the tolerance is BDF's local error
  // on energies of ≈ 1e-4 J.
  for (Eigen::Index i = 1; i < run.history.rows(); ++i)
    CHECK(energy(jb, run.history.row(i)) <= energy(jb, run.history.row(i - 1)) + 1e-10);
}

TEST_CASE("journal-bearing, review Fig. 12: the first impact's peak is Hertz's, ~270 times the weight",
          "[mechanisms][journal-bearing]") {
  // The journal falls through c onto the bearing at v = √(2 g c). Hertz's elastic impact with
  // F = K δ^1.5 stops it at δmax = (5 m v² / 4K)^(2/5), where F = K δmax^1.5 = 133 N, 272 times
  // the weight; Lankarani–Nikravesh's damping takes a little of the energy before δmax. The
  // review reads ≈ 100 times the weight off its Fig. 12 with these data (its Table 5).
  const mechanisms::JournalBearing jb;
  dynamics::PenaltyRouteOptions o = options("none", 0.006);
  o.integration.output_dt = 1e-7;
  const auto [run, phases] = simulate(jb, o);
  INFO(run.message);
  REQUIRE(run.ok());
  double peak = 0.0;
  for (Eigen::Index i = 0; i < run.history.rows(); ++i) peak = std::max(peak, run.history(i, 7));
  const double v = std::sqrt(2.0 * jb.gravity * jb.clearance()), k = jb.contactStiffness();
  const double hertz = k * std::pow(std::pow(5.0 * jb.mass * v * v / (4.0 * k), 0.4), 1.5);
  const double weight = jb.mass * jb.gravity;
  INFO("first impact's peak " << peak << " N (" << peak / weight << " weights), Hertz " << hertz << " N ("
                              << hertz / weight << ")");
  CHECK(hertz / weight == Approx(271.6).epsilon(1e-3));
  CHECK(peak <= hertz);
  CHECK(peak >= 0.94 * hertz);
}

TEST_CASE("journal-bearing with friction dissipates more, and BDF agrees with RK4",
          "[mechanisms][journal-bearing]") {
  const mechanisms::JournalBearing jb = withFriction();
  const auto frictionless = simulate(jb, options("none", 0.1));
  const auto with = simulate(jb, options("brown-mcphee", 0.1));
  REQUIRE(with.run.ok());
  // Friction brakes the spin (½ J ω² ≈ 4.8e-5 J) during every contact.
  CHECK(finalEnergy(jb, with.run) < finalEnergy(jb, frictionless.run) - 1e-7);

  // RK4 (h = 1 µs ≪ the ≈ 0.1 ms Hertz contact time) against BDF over the first impacts.
  const auto a = simulate(jb, options("brown-mcphee", 0.02));
  const auto b = simulate(jb, options("brown-mcphee", 0.02, true));
  REQUIRE(b.run.ok());
  INFO("BDF " << a.run.final_q.transpose() << ", " << a.run.final_v.transpose() << "\nRK4 "
              << b.run.final_q.transpose() << ", " << b.run.final_v.transpose());
  // Positions to 1 % of the clearance, velocities to 1 % of the impact velocity 0.044 m/s.
  CHECK((a.run.final_q.head(2) - b.run.final_q.head(2)).lpNorm<Eigen::Infinity>() < 1e-6);
  CHECK((a.run.final_v.head(2) - b.run.final_v.head(2)).lpNorm<Eigen::Infinity>() < 4e-4);
  CHECK(a.phases.impacts.size() == b.phases.impacts.size());
  for (std::size_t i = 0; i < std::min(a.phases.impacts.size(), b.phases.impacts.size()); ++i)
    CHECK(a.phases.impacts[i].t_close == Approx(b.phases.impacts[i].t_close).epsilon(1e-4));
}

TEST_CASE("journal-bearing: a run that BDF cannot carry stops with a reason, it never hangs",
          "[mechanisms][journal-bearing]") {
  // LuGre's bristle relaxation time vanishes with the load at the first contact; the run
  // must end promptly with the failure named (or succeed), not spin.
  const mechanisms::JournalBearing jb = withFriction();
  const auto r = simulate(jb, options("lugre", 0.01)).run;
  if (!r.ok()) {
    CHECK(r.status == dynamics::RunStatus::kIntegratorFailure);
    CHECK(r.t_end < 0.01);
  }
  dynamics::PenaltyRouteOptions capped = options("none");
  capped.integration.max_total_steps = 100;  // the frictionless run needs ≈ 10⁴
  const auto s = simulate(jb, capped).run;
  CHECK(!s.ok());
  CHECK(s.status == dynamics::RunStatus::kIntegratorFailure);
  CHECK_THAT(s.message, Catch::Contains("integrator steps"));
}

TEST_CASE("journal-bearing, review Fig. 12: Brown-McPhee keeps F/N within mu_s, LuGre exceeds it",
          "[mechanisms][journal-bearing]") {
  const mechanisms::JournalBearing jb = withFriction();  // review Table 3's μs, μk
  REQUIRE(mechanisms::journalBearingFrictionParameters(jb).viscous == 0.0);
  const auto bm = simulate(jb, options("brown-mcphee")).run;
  REQUIRE(bm.ok());
  CHECK(largestRatio(bm) <= jb.mu_static);
  CHECK(largestRatio(bm) > jb.mu_kinetic);  // it does reach the static peak

  // Standard LuGre's bristle damping σ1 ż ignores the load: F/N leaves the friction cone at
  // the impacts. Its relaxation rate σ0 |v|/g(v) grows without bound as the load vanishes at
  // each impact's start and end: RK4's own stages blow up there (with 0.1 µs steps the passive
  // guard stopped the run at 0.0154 s), where its exact relaxation (rk4.hpp) carries the whole
  // run at 1 µs. Sampled every 10 µs, within the ≈ 50 µs contacts.
  dynamics::PenaltyRouteOptions rk = options("lugre", 0.25, true);
  rk.integration.output_dt = 1e-5;
  const auto lugre = simulate(jb, rk).run;
  INFO(lugre.message);
  REQUIRE(lugre.ok());  // E + W only fell
  CHECK(lugre.relaxed_steps > 0);
  CHECK(largestRatio(lugre) > 1.3 * jb.mu_static);  // from the first impact, at 4.5 ms
}

TEST_CASE("journal-bearing: LuGre's first impact converges in the step, and its bristle's release gives back "
          "the work the contact took",
          "[mechanisms][journal-bearing]") {
  // As the load vanishes at the separation, LuGre's bristle relaxes to zero and its damping
  // σ1 ż acts as the impulse σ1 z along the slide: the journal leaves with its spin nearly
  // unchanged, and the friction work, 2.9e-5 J while the contact lasted, falls back to under a
  // tenth of it. RK4's relaxed stages and the impulses they owe give the same spin at 1 µs and
  // 0.1 µs steps.
  const mechanisms::JournalBearing jb = withFriction();
  std::vector<double> spin;
  for (const double h : {1e-6, 1e-7}) {
    dynamics::PenaltyRouteOptions rk = options("lugre", 0.006, true);
    rk.integration.dt = h;
    rk.integration.output_dt = 2e-6;
    const auto r = simulate(jb, rk).run;
    INFO(r.message);
    REQUIRE(r.ok());
    CHECK(r.relaxed_steps > 0);
    const Eigen::Index w = r.column("friction_work");
    const double most = r.history.col(w).maxCoeff(), last = r.history(r.history.rows() - 1, w);
    CAPTURE(h, most, last);
    CHECK(most > 2.5e-5);
    CHECK(std::abs(last) < 0.1 * most);
    spin.push_back(r.final_v(2));
  }
  CHECK(spin[0] == Approx(-6.25).epsilon(1e-3));
  CHECK(std::abs(spin[0] - spin[1]) < 1e-3);
}

TEST_CASE("journal-bearing: a rise of the energy of the undriven journal stops the run",
          "[mechanisms][journal-bearing]") {
  // Dahl's bristle state cannot follow the load to zero at the first impact: BDF's solution
  // gains energy there; the run must stop with the reason, the samples up to there kept.
  const mechanisms::JournalBearing jb = withFriction();
  const auto dahl = simulate(jb, options("dahl", 0.02)).run;
  CHECK(!dahl.ok());
  CHECK(dahl.status == dynamics::RunStatus::kEnergyIncrease);
  CHECK_THAT(dahl.message, Catch::Contains("energy rose") && Catch::Contains("t = "));
  CHECK(dahl.t_end < 0.02);
  REQUIRE(dahl.history.rows() > 1);
  const Eigen::Index last = dahl.history.rows() - 1;
  const double e0 = energy(jb, dahl.history.row(0));
  CHECK(energy(jb, dahl.history.row(last)) > e0);  // the offending sample is the last one
  for (Eigen::Index i = 0; i < last; ++i) CHECK(energy(jb, dahl.history.row(i)) <= e0 * 1.01 + 1e-12);
  // Not passive, the same run is not stopped.
  dynamics::PenaltyRouteOptions unguarded = options("dahl", 0.02);
  unguarded.passive = false;
  CHECK(simulate(jb, unguarded).run.t_end > dahl.t_end);
}
