#include "mechanisms/journal_bearing.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "dynamics/contact/normal_law.hpp"
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

namespace {

// The review's contact: Lankarani–Nikravesh with the internal cylinder stiffness, n = 1.5.
dynamics::LankaraniNikraveshLaw contactLaw(const JournalBearing& jb) {
  dynamics::LankaraniNikraveshLaw ln;
  ln.stiffness = jb.contactStiffness();
  ln.exponent = 1.5;
  ln.restitution = jb.restitution;
  return ln;
}

}  // namespace

dynamics::FrictionParameters journalBearingFrictionParameters(const JournalBearing& jb) {
  dynamics::FrictionParameters p = rollerCrankFrictionParameters();  // review §5: its Table 3
  p.reference_normal_force = jb.mass * std::max(jb.gravity, 1e-12);
  return p;
}

dynamics::RigidScenario journalBearingRigid(const JournalBearing& jb) {
  jb.validate();
  dynamics::RigidScenario s;
  s.name = "journal-bearing";
  const auto journal = s.model.addBody("journal", jb.mass, jb.inertia);
  s.model.setGravity(Eigen::Vector2d(0.0, -jb.gravity));
  dynamics::RigidContact c;
  c.name = "journal-bearing";
  c.shape = dynamics::RigidContact::Shape::kJournalBearing;
  c.body_i = journal;
  c.body_j = dynamics::kGround;
  c.journal_bearing.journal_radius = jb.journal_radius;
  c.journal_bearing.bearing_radius = jb.bearing_radius;
  c.restitution = jb.restitution;
  c.mu_static = jb.mu_static;
  c.mu_kinetic = jb.mu_kinetic;
  c.compliant_law = contactLaw(jb);  // the penalty route's: the review's law
  s.contacts.push_back(c);
  s.q0 = Eigen::Vector3d(jb.initial_position.x(), jb.initial_position.y(), 0.0);
  s.v0 = Eigen::Vector3d(jb.initial_velocity.x(), jb.initial_velocity.y(), jb.initial_spin);
  return s;
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
