// Blajer & Markiewicz's minimal form (dynamics/routes/minimal_form/minimal_form.hpp) on their Examples 1 and 2
// (mechanisms/blajer.hpp) and on Dupont's two masses, against the event-driven absolute
// formulation, Dupont's closed-form reference and an inverse-dynamics round trip.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>

#include "dynamics/routes/minimal_form/minimal_form.hpp"
#include "dynamics/routes/event_driven/event_driven.hpp"
#include "mechanisms/blajer.hpp"
#include "mechanisms/dupont.hpp"

using namespace stickslip;

namespace {

dynamics::MinimalFormRun runMinimal(const mechanisms::MinimalFormScenario& s, double t_end) {
  dynamics::MinimalForm form(s.model, s.friction, s.options, s.x0);
  dynamics::MinimalFormSimulationOptions o;
  o.t_end = t_end;
  o.output_dt = 1e-2;
  return dynamics::simulateMinimalForm(form, s.x0, s.u0, o);
}

// Stick/slip mode changes of one element, in order.
std::vector<dynamics::ContactEvent> modesOf(const std::vector<dynamics::ContactEvent>& events, int element) {
  std::vector<dynamics::ContactEvent> out;
  for (const auto& e : events)
    if (e.contact == element &&
        (e.kind == dynamics::EventKind::kStick || e.kind == dynamics::EventKind::kSlipPositive ||
         e.kind == dynamics::EventKind::kSlipNegative))
      out.push_back(e);
  return out;
}

// Rows of a history at the sample times t = i·dt that are not event rows (first match).
Eigen::VectorXd rowAt(const Eigen::MatrixXd& h, double t) {
  for (Eigen::Index i = 0; i < h.rows(); ++i)
    if (std::abs(h(i, 0) - t) < 1e-12) return h.row(i).transpose();
  return {};
}

double energy(const dynamics::PlanarModel& model, const Eigen::VectorXd& row) {
  const Eigen::Index n = model.positionSize();
  return model.kineticEnergy(row.segment(1 + n, n)) + model.potentialEnergy(row.segment(1, n));
}

}  // namespace

TEST_CASE("blajer-1: DAE dimensions 26 (absolute) and 12 (minimal), as in the paper", "[minimal-form][blajer]") {
  const auto s = mechanisms::blajer1MinimalForm({});
  const dynamics::MinimalForm form(s.model, s.friction, s.options, s.x0);
  const auto& d = form.dimensions();
  CHECK(d.n == 9);
  CHECK(d.m == 8);
  CHECK(d.k == 1);
  CHECK(d.m2 == 2);  // joint B cut, Blajer's constraints 5 and 6
  CHECK(d.k1 == 3);  // q = (q1, q2, q3)
  CHECK(d.absolute() == 26);
  CHECK(d.minimal() == 12);
  // The default cutting rule (the joint that closes the loop) finds the same cut.
  auto opts = s.options;
  opts.cut_joints.clear();
  const dynamics::MinimalForm again(s.model, s.friction, opts, s.x0);
  CHECK(again.dimensions().minimal() == 12);
}

TEST_CASE("blajer-1: D is Blajer's D1 D2 and the reduced mass his M''", "[minimal-form][blajer]") {
  mechanisms::Blajer1 b;
  b.theta1 = 0.4;
  const auto s = mechanisms::blajer1MinimalForm(b);
  dynamics::MinimalForm form(s.model, s.friction, s.options, s.x0);
  dynamics::MinimalFormState st;
  const double u = 1.3;
  REQUIRE(form.evaluate(0.0, s.x0, Eigen::VectorXd::Constant(1, u), form.none(),
                        false, st));
  const double q1 = st.x(2), q2 = st.x(5);
  // Blajer eq. 6.7: q̇2 = −a1 cos q1 / (a2 cos q2) u, q̇3 = 2 a1 (cos q1 tan q2 − sin q1) u, and
  // the link-1 centre moves as a1 (−sin q1, cos q1) u (eq. 6.4).
  CHECK(st.D(5, 0) == Approx(-b.a1 * std::cos(q1) / (b.a2 * std::cos(q2))).epsilon(1e-12));
  CHECK(st.D(6, 0) == Approx(2 * b.a1 * (std::cos(q1) * std::tan(q2) - std::sin(q1))).epsilon(1e-12));
  CHECK(st.D(0, 0) == Approx(-b.a1 * std::sin(q1)).epsilon(1e-12));
  // M″ = D2ᵀ M′ D2 with M′ of eq. 6.5.
  const double J1 = b.m1 * b.a1 * b.a1 / 3, J2 = b.m2 * b.a2 * b.a2 / 3;
  Eigen::Matrix3d Mp;
  Mp << J1 + (b.m1 + 4 * b.m2) * b.a1 * b.a1, 2 * b.m2 * b.a1 * b.a2 * std::cos(q2 - q1), 0,
      2 * b.m2 * b.a1 * b.a2 * std::cos(q2 - q1), J2 + b.m2 * b.a2 * b.a2, 0, 0, 0, b.m3;
  const Eigen::Vector3d D2(1.0, st.D(5, 0), st.D(6, 0));
  CHECK(st.reduced_mass(0, 0) == Approx(D2.dot(Mp * D2)).epsilon(1e-12));
  // Sliding rates, eq. 6.8.
  CHECK(st.sliding(1, 0) == Approx(-1.0 - b.a1 * std::cos(q1) / (b.a2 * std::cos(q2))).epsilon(1e-12));
  CHECK(st.sliding(3, 0) == Approx(st.D(6, 0)).epsilon(1e-12));
  // The reactions of eq. 5.4₃ close the absolute equations: M ẍ = Q − Cᵀλ + C_μᵀ f_μ.
  REQUIRE(form.evaluate(0.0, s.x0, Eigen::VectorXd::Constant(1, u),
                        form.against(st, 1.0, false), false, st));
  CHECK(st.reaction_converged);
  CHECK(st.reaction_iterations > 1);
  CHECK(st.reaction_iterations <= 6);  // Newton
  const Eigen::Index M = 9;
  Eigen::VectorXd mass = s.model.massDiagonal(), Q(M), gam(8);
  Eigen::MatrixXd C(8, M);
  s.model.jacobian(0.0, st.x, C);
  s.model.generalizedForces(0.0, st.x, st.xdot, Q);
  s.model.gamma(0.0, st.x, st.xdot, gam);
  // C_μ of Blajer eq. 6.2 (s = θ1, θ2 − θ1, θ3 − θ2, x3 + a3 cos θ3).
  Eigen::MatrixXd Cmu = Eigen::MatrixXd::Zero(4, M);
  Cmu(0, 2) = 1;                 // O: θ1
  Cmu(1, 2) = -1, Cmu(1, 5) = 1;  // A: θ2 − θ1
  Cmu(2, 5) = -1, Cmu(2, 8) = 1;  // B: θ3 − θ2
  Cmu(3, 6) = 1, Cmu(3, 8) = -b.a3 * std::sin(st.x(8));
  const Eigen::VectorXd residual = C.transpose() * st.lambda - Q - Cmu.transpose() * st.friction;
  // The absolute equations' constraint-space projection (5.4₃): C M⁻¹ (Q − Cᵀλ + C_μᵀ f_μ) = γ.
  const Eigen::VectorXd lhs = C * mass.cwiseInverse().asDiagonal() * (-residual);
  const double scale = gam.lpNorm<Eigen::Infinity>() + lhs.lpNorm<Eigen::Infinity>();
  CHECK((lhs - gam).lpNorm<Eigen::Infinity>() < 1e-10 * std::max(1.0, scale));
  // The plain fixed point reaches the same reactions in more iterations.
  auto fixed = s.options;
  fixed.reaction_newton = false;
  dynamics::MinimalForm slow(s.model, s.friction, fixed, s.x0);
  dynamics::MinimalFormState st2;
  REQUIRE(slow.evaluate(0.0, s.x0, Eigen::VectorXd::Constant(1, u),
                        slow.against(st, 1.0, false), false, st2));
  CHECK(st2.reaction_iterations > st.reaction_iterations);
  CHECK((st2.lambda - st.lambda).lpNorm<Eigen::Infinity>() < 1e-9 * st.lambda.lpNorm<Eigen::Infinity>());
  CHECK(st2.udot(0) == Approx(st.udot(0)).epsilon(1e-12));
}

TEST_CASE("blajer-1: friction-free and friction-affected runs differ as in Fig. 6", "[minimal-form][blajer]") {
  mechanisms::Blajer1 ideal;
  ideal.friction = false;
  const auto si = mechanisms::blajer1MinimalForm(ideal);
  const auto sf = mechanisms::blajer1MinimalForm({});
  const auto ri = runMinimal(si, 3.0), rf = runMinimal(sf, 3.0);
  REQUIRE(ri.run.ok());
  REQUIRE(rf.run.ok());
  CHECK(ri.run.events.empty());
  // Without friction the energy stays; with it, it never grows and the mechanism stops.
  const double e0 = energy(si.model, ri.run.history.row(0).transpose());
  double drift = 0.0, rise = 0.0, min_ideal = 0.0, min_friction = 0.0, gap = 0.0;
  double last = energy(sf.model, rf.run.history.row(0).transpose());
  for (Eigen::Index i = 0; i < ri.run.history.rows(); ++i) {
    drift = std::max(drift, std::abs(energy(si.model, ri.run.history.row(i).transpose()) - e0));
    min_ideal = std::min(min_ideal, ri.run.history(i, 3));
  }
  for (Eigen::Index i = 0; i < rf.run.history.rows(); ++i) {
    const double e = energy(sf.model, rf.run.history.row(i).transpose());
    rise = std::max(rise, e - last);
    last = e;
    min_friction = std::min(min_friction, rf.run.history(i, 3));
  }
  for (double t = 0.1; t < 3.0; t += 0.1) {
    const Eigen::VectorXd a = rowAt(ri.run.history, t), c = rowAt(rf.run.history, t);
    if (a.size() && c.size()) gap = std::max(gap, std::abs(a(3) - c(3)));
  }
  INFO("energy drift " << drift << " J, rise " << rise << " J, swing " << min_ideal << " vs " << min_friction
                       << " rad, max gap " << gap << " rad");
  CHECK(drift < 1e-6);
  CHECK(rise < 1e-9);
  CHECK(gap > 0.3);
  CHECK(min_ideal < min_friction - 0.1);          // friction shortens the first swing
  REQUIRE_FALSE(rf.stick_intervals.empty());      // and ends in stiction
  CHECK(rf.stick_intervals.back().second == Approx(3.0));
}

TEST_CASE("blajer-2: stiction intervals and reversals, reactions indeterminate while stuck (Fig. 8)",
          "[minimal-form][blajer]") {
  const auto s = mechanisms::blajer2MinimalForm({});  // Blajer's pin-in-slot at B
  const auto r = runMinimal(s, 10.0);
  REQUIRE(r.run.ok());
  const auto modes = modesOf(r.run.events, 0);  // the crank bearing O
  int sticks = 0, reversals = 0;
  for (std::size_t i = 0; i < modes.size(); ++i) {
    if (modes[i].kind == dynamics::EventKind::kStick) ++sticks;
    else if (i > 0 && modes[i - 1].kind != dynamics::EventKind::kStick) ++reversals;
  }
  INFO(sticks << " sticks, " << reversals << " reversals without stiction");
  CHECK(sticks >= 3);
  CHECK(reversals >= 3);
  CHECK(r.max_reaction_iterations > 1);
  CHECK(r.reaction_failures == 0);
  // History: u ≡ 0 and λ NaN inside stick intervals, λ finite outside.
  const Eigen::Index n = s.model.positionSize(), m = s.model.constraintCount();
  const Eigen::Index col_u = 1 + n + 2, col_f1 = 1 + 2 * n + 1;
  int inside = 0, outside = 0;
  for (Eigen::Index i = 0; i < r.run.history.rows(); ++i) {
    const double t = r.run.history(i, 0);
    bool in = false;
    for (const auto& [a, b] : r.stick_intervals) in = in || (t > a + 1e-9 && t < b - 1e-9);
    if (in) {
      ++inside;
      CHECK(r.run.history(i, col_u) == 0.0);
      CHECK(std::isnan(r.run.history(i, col_f1)));
    } else if (std::isfinite(r.run.history(i, col_f1))) {
      ++outside;
      // O's reported reaction is |R| of its two rows; its friction torque μk d |R| while moving.
      const double R = std::hypot(r.run.history(i, col_f1), r.run.history(i, col_f1 + 1));
      CHECK(r.run.history(i, col_f1 + m) == Approx(R).epsilon(1e-12));
      if (r.run.history(i, col_u) != 0.0)
        CHECK(std::abs(r.run.history(i, col_f1 + m + 1)) == Approx(0.1 * 0.05 * R).epsilon(1e-12));
    }
  }
  CHECK(inside > 50);
  CHECK(outside > 300);
}

TEST_CASE("blajer-2: minimal form and the event-driven absolute formulation agree", "[minimal-form][blajer]") {
  // The event-driven formulation sticks each frictional element by its own constraint, which
  // over-constrains a 1-DoF loop when several stick together; one frictional joint each.
  struct Case { const char* name; mechanisms::BlajerFriction friction; double tau0, omega; int sticks; };
  const Case cases[] = {{"A", {false, true, false, false}, 8.0, 2.0, 2},
                        {"B", {false, false, true, false}, 8.0, 2.0, 0},
                        {"O", {true, false, false, false}, 9.0, 2.5, 0}};
  for (const Case& c : cases) {
    SECTION(std::string("friction in joint ") + c.name) {
      mechanisms::Blajer2 b;
      b.pin_in_slot = false;  // the slider body the event-driven build has too
      b.frictional = c.friction;
      b.torque_amplitude = c.tau0;
      b.torque_frequency = c.omega;
      const auto sm = mechanisms::blajer2MinimalForm(b);
      const auto rm = runMinimal(sm, 10.0);
      const auto se = mechanisms::blajer2Rigid(b);
      dynamics::EventDrivenOptions eo;
      eo.t_end = 10.0;
      eo.output_dt = 1e-2;
      const auto re = dynamics::simulateEventDriven(se, eo);
      REQUIRE(rm.run.ok());
      REQUIRE(re.ok());
      const auto mm = modesOf(rm.run.events, 0);
      const auto me = modesOf(re.events, int(se.contacts.size()));  // joint friction after contacts
      REQUIRE(mm.size() == me.size());
      REQUIRE(mm.size() >= 6);
      int sticks = 0;
      double worst = 0.0;
      for (std::size_t i = 0; i < mm.size(); ++i) {
        CHECK(mm[i].kind == me[i].kind);
        worst = std::max(worst, std::abs(mm[i].t - me[i].t));
        sticks += mm[i].kind == dynamics::EventKind::kStick;
      }
      INFO("max event time difference " << worst << " s over " << mm.size() << " events, " << sticks
                                         << " sticks");
      CHECK(worst < 1e-6);
      CHECK(sticks >= c.sticks);
      const auto im = dynamics::stickIntervals(rm.run.events, 0, rm.run.t_end);
      const auto ie = dynamics::stickIntervals(re.events, int(se.contacts.size()), re.t_end);
      REQUIRE(im.size() == ie.size());
      for (std::size_t i = 0; i < im.size(); ++i) {
        CHECK(std::abs(im[i].first - ie[i].first) < 1e-6);
        CHECK(std::abs(im[i].second - ie[i].second) < 1e-6);
      }
      double angle = 0.0;
      int compared = 0;
      for (int i = 1; i <= 100; ++i) {
        const Eigen::VectorXd a = rowAt(rm.run.history, 0.1 * i), e = rowAt(re.history, 0.1 * i);
        if (!a.size() || !e.size()) continue;
        ++compared;
        for (const int col : {3, 6, 9}) angle = std::max(angle, std::abs(a(col) - e(col)));
      }
      INFO("max angle difference " << angle << " rad at " << compared << " samples");
      CHECK(compared > 80);
      CHECK(angle < 1e-6);
    }
  }
}

TEST_CASE("dupont: the minimal form reproduces the closed-form stick/slip instants", "[minimal-form][dupont]") {
  const auto s = mechanisms::dupontMinimalForm({});
  const auto r = runMinimal(s, 10.0);
  REQUIRE(r.run.ok());
  const auto ref = mechanisms::dupontReference({}, 10.0);
  const auto modes = modesOf(r.run.events, 0);
  REQUIRE(modes.size() == ref.size());
  REQUIRE(ref.size() >= 8);
  double worst = 0.0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    CHECK(std::string(dynamics::toString(modes[i].kind)) == ref[i].second);
    worst = std::max(worst, std::abs(modes[i].t - ref[i].first));
  }
  INFO("max |dt| = " << worst << " s");
  CHECK(worst < 1e-6);
  // Stiction intervals, Blajer's 0–0.5, 4.1–4.4, 8.0–8.3 s.
  REQUIRE(r.stick_intervals.size() == 3);
  CHECK(r.stick_intervals[1].first == Approx(4.1).margin(0.05));
  CHECK(r.stick_intervals[2].second == Approx(8.3).margin(0.05));
}

TEST_CASE("inverse dynamics round trip: the synthesized torque reproduces the programmed motion",
          "[minimal-form][inverse]") {
  // Programmed crank motion of Example 1 with friction in every joint, u > 0 throughout.
  const auto q = [](double t) { return 2.0 * t + 0.5 * std::sin(3.0 * t); };
  const auto qd = [](double t) { return 2.0 + 1.5 * std::cos(3.0 * t); };
  const auto qdd = [](double t) { return -4.5 * std::sin(3.0 * t); };
  struct Inverse {
    mechanisms::MinimalFormScenario s = mechanisms::blajer1MinimalForm({});
    std::unique_ptr<dynamics::MinimalForm> form;
  };
  auto inv = std::make_shared<Inverse>();
  inv->form = std::make_unique<dynamics::MinimalForm>(inv->s.model, inv->s.friction, inv->s.options, inv->s.x0);
  double worst_iterations = 0;
  bool converged = true;
  mechanisms::Blajer1 b;
  b.torque = [=, &worst_iterations, &converged](double t) {
    const auto id = inv->form->inverseDynamics(t, q(t), qd(t), qdd(t), inv->s.drive);
    worst_iterations = std::max(worst_iterations, double(id.iterations));
    converged = converged && id.converged;
    return id.torque;
  };
  auto fwd = mechanisms::blajer1MinimalForm(b);
  fwd.u0(0) = qd(0.0);
  dynamics::MinimalForm form(fwd.model, fwd.friction, fwd.options, fwd.x0);
  dynamics::MinimalFormSimulationOptions o;
  o.t_end = 2.0;
  o.output_dt = 1e-2;
  const auto r = dynamics::simulateMinimalForm(form, fwd.x0, fwd.u0, o);
  REQUIRE(r.run.ok());
  CHECK(converged);
  CHECK(worst_iterations > 1);
  double worst = 0.0;
  for (Eigen::Index i = 0; i < r.run.history.rows(); ++i)
    worst = std::max(worst, std::abs(r.run.history(i, 3) - q(r.run.history(i, 0))));
  INFO("max |theta1 - programmed| = " << worst << " rad");
  CHECK(r.run.history(r.run.history.rows() - 1, 0) == Approx(2.0));
  CHECK(worst < 1e-6);
  // The reactions f(t) of the inverse problem are those of the forward run.
  double reaction_gap = 0.0, reaction_size = 0.0;
  for (Eigen::Index i = 0; i < r.run.history.rows(); i += 10) {
    const double t = r.run.history(i, 0);
    const auto id = inv->form->inverseDynamics(t, q(t), qd(t), qdd(t), inv->s.drive);
    const Eigen::VectorXd lambda = r.run.history.row(i).segment(1 + 18 + 1, 8).transpose();
    reaction_gap = std::max(reaction_gap, (lambda - id.lambda).lpNorm<Eigen::Infinity>());
    reaction_size = std::max(reaction_size, id.lambda.lpNorm<Eigen::Infinity>());
  }
  INFO("max reaction difference " << reaction_gap << " N of " << reaction_size << " N");
  CHECK(reaction_gap < 1e-5 * reaction_size);
  // The torque must matter: without it the crank does not follow the program.
  auto idle = mechanisms::blajer1MinimalForm({});
  idle.u0(0) = qd(0.0);
  dynamics::MinimalForm idle_form(idle.model, idle.friction, idle.options, idle.x0);
  const auto ri = dynamics::simulateMinimalForm(idle_form, idle.x0, idle.u0, o);
  CHECK(std::abs(ri.run.final_q(2) - q(2.0)) > 0.1);
}

TEST_CASE("blajer-1: minimal form and event-driven agree without friction and with friction in O",
          "[minimal-form][blajer]") {
  // With all four joints frictional the event-driven formulation cannot start: four stick
  // rows on one degree of freedom make its mode system singular (Blajer's "overconstrained").
  for (const bool friction : {false, true}) {
    mechanisms::Blajer1 b;
    b.friction = friction;
    b.frictional = {true, false, false, false};
    const auto sm = mechanisms::blajer1MinimalForm(b);
    const auto rm = runMinimal(sm, 3.0);
    dynamics::EventDrivenOptions eo;
    eo.t_end = 3.0;
    eo.output_dt = 1e-2;
    const auto re = dynamics::simulateEventDriven(mechanisms::blajer1Rigid(b), eo);
    REQUIRE(rm.run.ok());
    REQUIRE(re.ok());
    const double dq = (rm.run.final_q - re.final_q).cwiseAbs().maxCoeff();
    INFO((friction ? "friction in O" : "no friction") << ": max |dq| at 3 s = " << dq);
    CHECK(dq < 1e-6);
    const auto mm = modesOf(rm.run.events, 0), me = modesOf(re.events, 1);
    REQUIRE(mm.size() == me.size());
    for (std::size_t i = 0; i < mm.size(); ++i) CHECK(std::abs(mm[i].t - me[i].t) < 1e-6);
  }
}

TEST_CASE("blajer-1, friction in every element: event-driven as the minimal form, link 2's turning back "
          "included", "[minimal-form][blajer][event-driven]") {
  // The coupler turns back at 0.67 s and 1.50 s while the crank goes on: joint B's rate passes
  // zero with no free motion to carry it, so its sticking torque is round-off and its slip
  // must follow its acceleration. Then the whole loop stops together at 1.97 s and holds.
  const auto sm = mechanisms::blajer1MinimalForm({});
  const auto se = mechanisms::blajer1Rigid({});
  const auto rm = runMinimal(sm, 3.0);
  dynamics::EventDrivenOptions eo;
  eo.t_end = 3.0;
  eo.output_dt = 1e-2;
  const auto re = dynamics::simulateEventDriven(se, eo);
  INFO(re.message);
  REQUIRE(rm.run.ok());
  REQUIRE(re.ok());
  // The minimal form lists O, A, B, guide; the absolute routes the guide contact, then O, A, B.
  const int absolute[] = {1, 2, 3, 0};
  for (int element = 0; element < 4; ++element) {
    const auto mm = modesOf(rm.run.events, element), me = modesOf(re.events, absolute[element]);
    INFO(sm.friction[std::size_t(element)].name << ": " << mm.size() << " and " << me.size() << " changes");
    REQUIRE(mm.size() == me.size());
    for (std::size_t i = 0; i < mm.size(); ++i) {
      CHECK(mm[i].kind == me[i].kind);
      CHECK(std::abs(mm[i].t - me[i].t) < 1e-6);
    }
  }
  CHECK(modesOf(re.events, 3).size() == 4);  // B: slip+, slip−, slip+, stick
  REQUIRE(rm.stick_intervals.size() == 1);
  CHECK(rm.stick_intervals[0].first == Approx(1.9657).margin(1e-4));
  CHECK((rm.run.final_q - re.final_q).cwiseAbs().maxCoeff() < 1e-6);
}

TEST_CASE("cost: minimal form vs event-driven absolute coordinates, one run", "[.][cost][minimal-form]") {
  // Hidden (run with "[cost]"): prints CPU seconds of both formulations on the same physics.
  auto row = [](const char* label, const mechanisms::MinimalFormScenario& sm, const dynamics::RigidScenario& se,
                double t_end) {
    const auto rm = runMinimal(sm, t_end);
    dynamics::EventDrivenOptions eo;
    eo.t_end = t_end;
    eo.output_dt = 1e-2;
    const auto re = dynamics::simulateEventDriven(se, eo);
    WARN(label << ": minimal form " << rm.run.cpu_seconds << " s (" << rm.run.steps << " steps), event-driven "
               << re.cpu_seconds << " s (" << re.steps << " steps" << (re.ok() ? "" : ", failed: " + re.message)
               << "), ratio " << re.cpu_seconds / rm.run.cpu_seconds);
  };
  mechanisms::Blajer1 b1;
  b1.frictional = {true, false, false, false};
  row("blajer-1, friction in O, 3 s", mechanisms::blajer1MinimalForm(b1), mechanisms::blajer1Rigid(b1), 3.0);
  row("blajer-1, all friction, 3 s", mechanisms::blajer1MinimalForm({}), mechanisms::blajer1Rigid({}), 3.0);
  mechanisms::Blajer2 b2;
  b2.pin_in_slot = false;
  row("blajer-2 (slider), all friction, 10 s", mechanisms::blajer2MinimalForm(b2), mechanisms::blajer2Rigid(b2), 10.0);
  b2.frictional = {false, true, false, false};
  row("blajer-2 (slider), friction in A, 10 s", mechanisms::blajer2MinimalForm(b2), mechanisms::blajer2Rigid(b2), 10.0);
}

TEST_CASE("blajer-2 with Blajer's pin-in-slot joint equals a vanishing slider mass", "[minimal-form][blajer]") {
  // Pin friction μr d |R| with R the resultant of the slot's normal and friction forces
  // (eq. 2.5₄) is the revolute friction of a massless slider on a frictional guide.
  mechanisms::Blajer2 pin;
  pin.pin_in_slot = true;
  mechanisms::Blajer2 slider;
  slider.pin_in_slot = false;
  slider.m3 = 1e-8;
  const auto sp = mechanisms::blajer2MinimalForm(pin), ss = mechanisms::blajer2MinimalForm(slider);
  CHECK(sp.model.bodyCount() == 2);
  const auto rp = runMinimal(sp, 10.0), rs = runMinimal(ss, 10.0);
  REQUIRE(rp.run.ok());
  REQUIRE(rs.run.ok());
  REQUIRE(rp.stick_intervals.size() == rs.stick_intervals.size());
  REQUIRE(rp.stick_intervals.size() >= 3);
  for (std::size_t i = 0; i < rp.stick_intervals.size(); ++i) {
    CHECK(std::abs(rp.stick_intervals[i].first - rs.stick_intervals[i].first) < 1e-6);
    CHECK(std::abs(rp.stick_intervals[i].second - rs.stick_intervals[i].second) < 1e-6);
  }
  const double dq = (rp.run.final_q - rs.run.final_q.head(6)).cwiseAbs().maxCoeff();
  INFO("max |dq| at 10 s: " << dq);
  CHECK(dq < 1e-6);
}

TEST_CASE("blajer-2: friction in every joint, stuck together as one group, event-driven as "
          "the minimal form", "[minimal-form][blajer][event-driven]") {
  mechanisms::Blajer2 b;
  b.pin_in_slot = GENERATE(true, false);  // Blajer's pin-in-slot joint, or a slider body
  const bool guide = GENERATE(false, true);
  b.frictional = {true, true, true, guide};
  INFO("pin in slot " << b.pin_in_slot << ", guide friction " << guide);
  const auto sm = mechanisms::blajer2MinimalForm(b);
  const auto rm = runMinimal(sm, 10.0);
  const auto se = mechanisms::blajer2Rigid(b);
  dynamics::EventDrivenOptions eo;
  eo.t_end = 10.0;
  eo.output_dt = 1e-2;
  const auto re = dynamics::simulateEventDriven(se, eo);
  INFO(re.message);
  REQUIRE(rm.run.ok());
  REQUIRE(re.ok());
  // Every frictional element: the minimal form lists the joints first, the event-driven
  // route the contacts (the guide).
  std::vector<std::string> rigid_names;
  for (const auto& c : se.contacts) rigid_names.push_back(c.name);
  for (const auto& j : se.joint_friction) rigid_names.push_back(j.name);
  int sticks = 0;
  double worst = 0.0;
  for (std::size_t f = 0; f < sm.friction.size(); ++f) {
    const auto at = std::find(rigid_names.begin(), rigid_names.end(), sm.friction[f].name);
    REQUIRE(at != rigid_names.end());
    const auto mm = modesOf(rm.run.events, int(f));
    const auto me = modesOf(re.events, int(at - rigid_names.begin()));
    INFO(sm.friction[f].name << ": minimal form " << mm.size() << " mode changes, event-driven " << me.size());
    for (std::size_t i = 0; i < std::min(mm.size(), me.size()); ++i)
      UNSCOPED_INFO(mm[i].t << " " << dynamics::toString(mm[i].kind) << " | " << me[i].t << " "
                            << dynamics::toString(me[i].kind));
    REQUIRE(mm.size() == me.size());
    for (std::size_t i = 0; i < mm.size(); ++i) {
      CHECK(mm[i].kind == me[i].kind);
      worst = std::max(worst, std::abs(mm[i].t - me[i].t));
      sticks += mm[i].kind == dynamics::EventKind::kStick;
    }
  }
  INFO("max event time difference " << worst << " s, " << sticks << " sticks");
  CHECK(sticks >= 2);
  CHECK(worst < 1e-6);
  double angle = 0.0;
  for (int i = 1; i <= 100; ++i) {
    const Eigen::VectorXd a = rowAt(rm.run.history, 0.1 * i), e = rowAt(re.history, 0.1 * i);
    if (!a.size() || !e.size()) continue;
    for (int body = 0; body < sm.model.bodyCount(); ++body)
      angle = std::max(angle, std::abs(a(3 + 3 * body) - e(3 + 3 * body)));
  }
  INFO("max angle difference " << angle << " rad");
  CHECK(angle < 1e-6);
}
