// bench_peer_belt: the error of Moreau–Jean's stick/slip instants on the belt (thesis §3.4,
// closed form of mechanisms/belt.hpp, first 20 s) against h, ours and Siconos' kernel
// (MoreauJeanOSI + FrictionContact(2) + TimeStepping) at the same steps, in one process.
//
// Siconos: the block written in the belt's frame, q = (x_r, y) with x_r = x − v_b t, so that
// the contact is a time-invariant relation and its tangential velocity the sliding velocity:
//   m ẍ_r = −k x_r − k v_b t + P_t,   m ÿ = −m g + P_n,
// a LagrangianLinearTIDS with K = diag(k, 0) and F_ext(t) = (−k v_b t, −m g), and a
// LagrangianLinearTIR with C = [[0, 1], [1, 0]] (gap y, tangent x_r). NewtonImpactFrictionNSL
// carries one μ, so the static/kinetic pair is the rule a Siconos user writes: the step after
// a stick is solved with μs, the step after a slip with μk (setMu before each step). Whether
// the block stuck is decided by two rules, each a column: its sliding velocity (|v_t| ≤ 1e-8
// m/s, ours' stick_velocity) or its friction impulse (strictly inside the cone). Ours also
// re-solves a break-away or a reversal inside the step (moreau_jean.hpp); Siconos' does not.
// Both sides: θ = 1/2, a change timed at the middle of its step, and the error max |t − t_ref|
// over the changes matched one to one (dynamics::maxModeTimeError; unmatched when the
// sequences differ).
//
// Usage: bench_peer_belt [--h-min H] [--json]   (h = 1e-2, 1e-3, … down to H, default 1e-5)
// Exit codes: 0 ran (whether the claim holds is printed), 1 a run failed, 2 bad input.

#include <SiconosKernel.hpp>
#include <siconos/numerics/SolverOptions.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "benchmarks/one_blas_thread.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "mechanisms/belt.hpp"

namespace {

using stickslip::dynamics::ModeChange;
using stickslip::mechanisms::Belt;
using Events = std::vector<ModeChange>;
using Clock = std::chrono::steady_clock;
constexpr double kTEnd = 20.0, kStickVelocity = 1e-8;

struct Point {
  double h = 0.0;
  bool ok = false;
  std::string message;
  std::size_t events = 0;
  double error = std::numeric_limits<double>::infinity(), cpu = 0.0;
};

Point ours(const Belt& b, double h, const Events& reference) {
  stickslip::dynamics::MoreauJeanOptions o;
  o.t_end = kTEnd;
  o.h = h;
  o.output_dt = 0.1;
  o.stick_velocity = kStickVelocity;
  const stickslip::dynamics::RunResult r =
      stickslip::dynamics::simulateMoreauJean(stickslip::mechanisms::beltRigid(b), o);
  const Events events = stickslip::dynamics::modeChanges(r);
  return {h, r.ok(), r.message, events.size(),
          stickslip::dynamics::maxModeTimeError(events, reference), r.cpu_seconds};
}

// F_ext(t) = (−k v_b t, −m g); z = (k v_b, m g).
extern "C" void beltFExt(double t, unsigned int, double* f, unsigned int, double* z) {
  f[0] = -z[0] * t;
  f[1] = -z[1];
}

/// What decides that the block sticks after a Siconos step, and so that the next step is
/// solved with μs: its sliding velocity |v_t| ≤ 1e-8 m/s, or its friction impulse strictly
/// inside the cone, |P_t| < μ P_n.
enum class StickRule { kVelocity, kImpulse };

Point siconos(const Belt& b, double h, const Events& reference, StickRule rule) {
  auto q0 = std::make_shared<SiconosVector>(2);
  auto v0 = std::make_shared<SiconosVector>(2);  // x_r = 0, ẋ_r = 0: moving with the belt
  q0->zero();
  v0->zero();
  auto mass = std::make_shared<SimpleMatrix>(2, 2);
  mass->zero();
  mass->setValue(0, 0, b.mass);
  mass->setValue(1, 1, b.mass);
  auto stiffness = std::make_shared<SimpleMatrix>(2, 2);
  stiffness->zero();
  stiffness->setValue(0, 0, b.stiffness);
  auto damping = std::make_shared<SimpleMatrix>(2, 2);
  damping->zero();
  auto ds = std::make_shared<LagrangianLinearTIDS>(q0, v0, mass, stiffness, damping);
  auto z = std::make_shared<SiconosVector>(2);
  z->setValue(0, b.stiffness * b.belt_speed);
  z->setValue(1, b.mass * b.gravity);
  ds->setzPtr(z);
  ds->setComputeFExtFunction(beltFExt);

  auto nsds = std::make_shared<NonSmoothDynamicalSystem>(0.0, kTEnd);
  nsds->insertDynamicalSystem(ds);
  auto c = std::make_shared<SimpleMatrix>(2, 2);
  c->zero();
  c->setValue(0, 1, 1.0);  // gap y
  c->setValue(1, 0, 1.0);  // tangent x_r
  auto law = std::make_shared<NewtonImpactFrictionNSL>(0.0, 0.0, b.mu_static, 2);
  auto contact = std::make_shared<Interaction>(law, std::make_shared<LagrangianLinearTIR>(c));
  nsds->link(contact, ds);
  auto osi = std::make_shared<MoreauJeanOSI>(0.5);
  auto td = std::make_shared<TimeDiscretisation>(0.0, h);
  auto fc = std::make_shared<FrictionContact>(2, SICONOS_FRICTION_2D_LEMKE);
  fc->numericsSolverOptions()->dparam[SICONOS_DPARAM_TOL] = 1e-12;
  auto sim = std::make_shared<TimeStepping>(nsds, td, osi, fc);
  sim->initialize();

  Point p;
  p.h = h;
  Events events;
  const SiconosVector& v = *ds->velocity();
  bool stuck = true;  // it starts moving with the belt
  const auto start = Clock::now();
  while (sim->hasNextEvent()) {
    law->setMu(stuck ? b.mu_static : b.mu_kinetic);
    sim->computeOneStep();
    const double t = sim->nextTime(), vt = v.getValue(0);
    if (!std::isfinite(vt)) {
      p.message = "siconos: the state became NaN at t = " + std::to_string(t) + " s";
      return p;
    }
    bool stick = std::abs(vt) <= kStickVelocity;
    if (rule == StickRule::kImpulse) {  // lambda(1) exists once the contact has been active
      const SP::SiconosVector impulse = contact->lambda(1);
      stick = impulse && std::abs(impulse->getValue(1)) < (1.0 - 1e-9) * law->mu() * impulse->getValue(0);
    }
    if (stick != stuck) events.emplace_back(t - 0.5 * h, stick ? "stick" : (vt > 0 ? "slip+" : "slip-"));
    stuck = stick;
    sim->nextStep();
  }
  p.cpu = std::chrono::duration<double>(Clock::now() - start).count();
  p.ok = true;
  p.events = events.size();
  p.error = stickslip::dynamics::maxModeTimeError(events, reference);
  return p;
}

std::string errorText(const Point& p, std::size_t reference) {
  if (!p.ok) return "failed";
  if (std::isinf(p.error))
    return "unmatched (" + std::to_string(p.events) + " vs " + std::to_string(reference) + ")";
  char s[32];
  std::snprintf(s, sizeof s, "%.2e", p.error);
  return s;
}

nlohmann::json toJson(const Point& p) {
  return {{"h", p.h},
          {"status", p.ok ? "ok" : "failed"},
          {"message", p.message},
          {"events", p.events},
          {"max_time_error", std::isinf(p.error) ? nlohmann::json() : nlohmann::json(p.error)},
          {"cpu_seconds", p.cpu}};
}

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "bench_peer_belt: " << why << "\nusage: bench_peer_belt [--h-min H] [--json]\n";
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  stickslip::bench::restartWithOneBlasThread(argv);
  double h_min = 1e-5;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--h-min" && i + 1 < argc) {
      const std::string s = argv[++i];
      char* end = nullptr;
      h_min = std::strtod(s.c_str(), &end);
      if (end == s.c_str() || *end != '\0' || !(h_min >= 1e-7 && h_min <= 1e-2))
        usage("--h-min expects a number in [1e-7, 1e-2], got '" + s + "'");
    } else if (a == "--help" || a == "-h") {
      std::cout << "Moreau–Jean's stick/slip instants on the belt against h: ours and Siconos'"
                   " kernel.\nusage: bench_peer_belt [--h-min H] [--json]\n";
      return 0;
    } else {
      usage("unknown or incomplete option '" + a + "'");
    }
  }

  const Belt b;
  Events reference;
  for (const auto& [t, kind] : stickslip::mechanisms::beltClosedForm(b).events(kTEnd))
    reference.emplace_back(t, kind == "stick" ? "stick" : "slip-");  // slips behind the belt

  std::vector<Point> mine, by_velocity, by_impulse;
  for (double h = 1e-2; h >= h_min * (1 - 1e-9); h /= 10.0) {
    mine.push_back(ours(b, h, reference));
    by_velocity.push_back(siconos(b, h, reference, StickRule::kVelocity));
    by_impulse.push_back(siconos(b, h, reference, StickRule::kImpulse));
    if (!json)
      std::fprintf(stderr, "  h = %.0e: ours %s, Siconos %s (velocity rule), %s (impulse rule)\n", h,
                   errorText(mine.back(), reference.size()).c_str(),
                   errorText(by_velocity.back(), reference.size()).c_str(),
                   errorText(by_impulse.back(), reference.size()).c_str());
  }

  bool all_ok = true, claim = true;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    all_ok &= mine[i].ok && by_velocity[i].ok && by_impulse[i].ok;
    // Same or better: ours matched wherever Siconos is, with an error no larger.
    for (const Point* p : {&by_velocity[i], &by_impulse[i]})
      if (std::isfinite(p->error)) claim &= mine[i].error <= p->error;
  }
  const std::string claim_line =
      std::string("claim: ours' error <= Siconos' (either rule) at every h: ") + (claim ? "PASS" : "FAIL");
  if (json) {
    const auto rows = [](const std::vector<Point>& points) {
      nlohmann::json j = nlohmann::json::array();
      for (const Point& p : points) j.push_back(toJson(p));
      return j;
    };
    std::cout << nlohmann::json{{"status", all_ok ? "ok" : "failed"},
                                {"scenario", "belt"},
                                {"t_end", kTEnd},
                                {"reference_events", reference.size()},
                                {"ours", rows(mine)},
                                {"siconos_velocity_rule", rows(by_velocity)},
                                {"siconos_impulse_rule", rows(by_impulse)},
                                {"claim", {{"pass", claim}, {"text", claim_line}}}}
                     .dump()
              << "\n";
  } else {
    std::printf("belt, %g s, %zu stick/slip changes (closed form); Moreau–Jean θ = 1/2\n"
                "Siconos: LagrangianLinearTIDS in the belt frame + LagrangianLinearTIR,"
                " FrictionContact(2) Lemke tol 1e-12; the step after a stick solved with μs,"
                " after a slip with μk; stick when |v_t| <= 1e-8 m/s (velocity rule) or"
                " |P_t| < μ P_n (impulse rule)\n\n",
                kTEnd, reference.size());
    std::printf("| h [s] | ours: error [s] | ours: CPU [s] | Siconos, velocity rule: error [s] |"
                " Siconos, impulse rule: error [s] | Siconos: CPU [s] |\n|---|---:|---:|---:|---:|---:|\n");
    for (std::size_t i = 0; i < mine.size(); ++i)
      std::printf("| %.0e | %s | %.4f | %s | %s | %.4f |\n", mine[i].h,
                  errorText(mine[i], reference.size()).c_str(), mine[i].cpu,
                  errorText(by_velocity[i], reference.size()).c_str(),
                  errorText(by_impulse[i], reference.size()).c_str(), by_impulse[i].cpu);
    std::printf("\n%s\n", claim_line.c_str());
  }
  return all_ok ? 0 : 1;
}
