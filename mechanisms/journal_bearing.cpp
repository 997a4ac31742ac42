#include "mechanisms/journal_bearing.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "dynamics/contact/normal_law.hpp"
#include "mechanisms/builtin_models.hpp"
#include "mechanisms/roller_crank.hpp"

namespace stickslip::mechanisms {

void JournalBearing::validate() const {
  const auto fail = [](const std::string& what, double got) {
    throw std::invalid_argument("JournalBearing: expected " + what + ", got " +
                                std::to_string(got));
  };
  if (!(std::isfinite(journal_radius) && journal_radius > 0.0))
    fail("journal_radius > 0", journal_radius);
  if (!(std::isfinite(bearing_radius) && bearing_radius > journal_radius))
    fail("bearing_radius > journal_radius", bearing_radius);
  if (!(std::isfinite(restitution) && restitution > 0.0 && restitution <= 1.0))
    fail("restitution in (0, 1]", restitution);
  if (!(std::isfinite(mass) && mass > 0.0)) fail("mass > 0", mass);
  if (!(std::isfinite(inertia) && inertia > 0.0)) fail("inertia > 0", inertia);
  if (!(std::isfinite(gravity) && gravity >= 0.0)) fail("gravity ≥ 0", gravity);
  if (!std::isfinite(initial_spin)) fail("a finite initial_spin", initial_spin);
  if (!(std::isfinite(mu_kinetic) && mu_kinetic >= 0.0)) fail("mu_kinetic >= 0", mu_kinetic);
  if (!(std::isfinite(mu_static) && mu_static >= mu_kinetic)) fail("mu_static >= mu_kinetic", mu_static);
  if (!initial_position.allFinite() || !initial_velocity.allFinite())
    throw std::invalid_argument("JournalBearing: expected a finite initial state");
  if (!(std::isfinite(continuous_contact_time) && continuous_contact_time > 0.0))
    fail("continuous_contact_time > 0", continuous_contact_time);
  dynamics::ContactMaterial{young_modulus, poisson_ratio}.validate("JournalBearing");
}

double JournalBearing::contactStiffness() const {
  const dynamics::ContactMaterial steel{young_modulus, poisson_ratio};
  return dynamics::journalBearingStiffness(bearing_radius, journal_radius, steel, steel);
}

dynamics::FrictionParameters journalBearingFrictionParameters(const JournalBearing& jb) {
  dynamics::FrictionParameters p = rollerCrankFrictionParameters();  // review §5: its Table 3
  p.reference_normal_force = jb.mass * std::max(jb.gravity, 1e-12);
  return p;
}

dynamics::RigidScenario journalBearingRigid(const JournalBearing& jb) {
  jb.validate();
  return builtinModel(
      "journal-bearing",
      {{"bearing_radius", jb.bearing_radius}, {"journal_radius", jb.journal_radius},
       {"young_modulus", jb.young_modulus}, {"poisson_ratio", jb.poisson_ratio}, {"restitution", jb.restitution},
       {"mass", jb.mass}, {"inertia", jb.inertia}, {"gravity", jb.gravity}, {"initial_spin", jb.initial_spin},
       {"mu_static", jb.mu_static}, {"mu_kinetic", jb.mu_kinetic}, {"initial_x", jb.initial_position.x()},
       {"initial_y", jb.initial_position.y()}, {"initial_vx", jb.initial_velocity.x()},
       {"initial_vy", jb.initial_velocity.y()}, {"continuous_contact_time", jb.continuous_contact_time}});
}

JournalBearing journalBearingOf(const dynamics::RigidScenario& s) {
  const auto p = [&](std::string_view name) { return modelParameter(s, name); };
  JournalBearing jb;
  jb.bearing_radius = p("bearing_radius");
  jb.journal_radius = p("journal_radius");
  jb.young_modulus = p("young_modulus");
  jb.poisson_ratio = p("poisson_ratio");
  jb.restitution = p("restitution");
  jb.mass = p("mass");
  jb.inertia = p("inertia");
  jb.gravity = p("gravity");
  jb.initial_spin = p("initial_spin");
  jb.mu_static = p("mu_static");
  jb.mu_kinetic = p("mu_kinetic");
  jb.initial_position = {p("initial_x"), p("initial_y")};
  jb.initial_velocity = {p("initial_vx"), p("initial_vy")};
  jb.continuous_contact_time = p("continuous_contact_time");
  return jb;
}

std::string_view toString(ContactMode m) {
  switch (m) {
    case ContactMode::kFreeFlight: return "free-flight";
    case ContactMode::kImpact: return "impact";
    case ContactMode::kContinuousContact: return "continuous-contact";
  }
  return "unknown";
}

JournalBearingPhases journalBearingPhases(const JournalBearing& jb, const dynamics::RunResult& run) {
  JournalBearingPhases out;
  const double t_end = run.t_end;
  // Closed at the start if the journal starts penetrating (the route's initial mode).
  bool closed = !run.initial_modes.empty() && run.initial_modes.front() != dynamics::ContactMode::kOpen;

  // Contact intervals from the events (one contact, so they alternate close/open).
  double t_open_begin = 0.0, t_close = 0.0, v_in = 0.0;
  const auto push = [&](double a, double b, ContactMode m) {
    if (b <= a) return;
    if (!out.modes.empty() && out.modes.back().mode == m && m != ContactMode::kImpact)
      out.modes.back().t_end = b;
    else
      out.modes.push_back({a, b, m});
  };
  for (const dynamics::ContactEvent& ev : run.events) {
    const bool closing = ev.kind == dynamics::EventKind::kClose;
    if (!closing && ev.kind != dynamics::EventKind::kOpen) continue;  // the estimated stick/slip changes
    if (closing && !closed) {
      push(t_open_begin, ev.t, ContactMode::kFreeFlight);
      t_close = ev.t;
      v_in = ev.penetration_rate;
      closed = true;
    } else if (!closing && closed) {
      const bool impact = ev.t - t_close < jb.continuous_contact_time;
      push(t_close, ev.t, impact ? ContactMode::kImpact : ContactMode::kContinuousContact);
      if (v_in > 0.0)
        out.impacts.push_back({t_close, ev.t, v_in, ev.penetration_rate,
                               (ev.penetration_rate / v_in) * (ev.penetration_rate / v_in)});
      t_open_begin = ev.t;
      closed = false;
      v_in = 0.0;
    }
  }
  if (closed) {
    push(t_close, t_end,
         t_end - t_close < jb.continuous_contact_time ? ContactMode::kImpact
                                                      : ContactMode::kContinuousContact);
  } else {
    push(t_open_begin, t_end, ContactMode::kFreeFlight);
  }
  return out;
}

}  // namespace stickslip::mechanisms
