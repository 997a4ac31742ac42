#include "mechanisms/journal_bearing.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "dynamics/contact/normal_law.hpp"
#include "mechanisms/builtin_models.hpp"
#include "mechanisms/roller_crank.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::mechanisms {

void JournalBearing::validate() const {
  const auto fail = [](const std::string& what, double got) {
    throw std::invalid_argument("JournalBearing: expected " + what + ", got " +
                                exactNumber(got));
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

namespace {
const std::vector<ModelField<JournalBearing>>& journalBearingFields() {
  using J = JournalBearing;
  static const std::vector<ModelField<J>> f{
      {"bearing_radius", &J::bearing_radius}, {"journal_radius", &J::journal_radius},
      {"young_modulus", &J::young_modulus}, {"poisson_ratio", &J::poisson_ratio}, {"restitution", &J::restitution},
      {"mass", &J::mass}, {"inertia", &J::inertia}, {"gravity", &J::gravity}, {"initial_spin", &J::initial_spin},
      {"mu_static", &J::mu_static}, {"mu_kinetic", &J::mu_kinetic},
      {"initial_x", [](J& j) -> double& { return j.initial_position.x(); }},
      {"initial_y", [](J& j) -> double& { return j.initial_position.y(); }},
      {"initial_vx", [](J& j) -> double& { return j.initial_velocity.x(); }},
      {"initial_vy", [](J& j) -> double& { return j.initial_velocity.y(); }},
      {"continuous_contact_time", &J::continuous_contact_time}};
  return f;
}
}  // namespace

dynamics::RigidScenario journalBearingRigid(const JournalBearing& jb) {
  jb.validate();
  return builtinModel("journal-bearing", modelValues(jb, journalBearingFields()));
}

JournalBearing journalBearingOf(const dynamics::RigidScenario& s) { return fromModel(s, journalBearingFields()); }

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
