#include "mechanisms/rigid_scenarios.hpp"

#include <stdexcept>

#include "dynamics/mechanism/ideal_clearance.hpp"
#include "mechanisms/blajer.hpp"
#include "mechanisms/builtin_models.hpp"
#include "mechanisms/flores_compliant.hpp"
#include "mechanisms/journal_bearing.hpp"
#include "mechanisms/muvengei.hpp"
#include "mechanisms/muvengei_analysis.hpp"
#include "mechanisms/roller_crank.hpp"
#include "mechanisms/roller_crank_analysis.hpp"
#include "mechanisms/scenario_analyses.hpp"
#include "mechanisms/scenario_file.hpp"
#include "mechanisms/zheng.hpp"

namespace stickslip::mechanisms {

const std::vector<RigidScenarioInfo>& rigidScenarios() {
  // Zheng et al.'s examples: the compliant clearance joint (stiff, BDF), v_t below 1e-5 m/s
  // zero, their modified Coulomb on the penalty route (its v0, v1 from the model), their
  // friction cases on the nonsmooth routes, the quantities their figures plot.
  auto zheng = [](std::string name, std::string summary, double t_end, std::vector<RunAnalysis> analyses = {}) {
    return RigidScenarioInfo{
        .name = std::move(name),
        .summary = std::move(summary),
        .t_end = t_end,
        .h = 1e-4,
        .stiff = true,
        .zero_velocity = 1e-5,
        .penalty_friction = "ambrosio",
        .compare_outputs = {"crank.theta", "crank.omega", "slider.x", "clearance-A.N", "clearance-A.F",
                            "clearance-A.v_t"},
        .analyses = std::move(analyses),
        .friction_from_model = [](const dynamics::RigidScenario& s) {
          dynamics::FrictionParameters p;
          p.modified_v0 = modelParameter(s, "modified_v0");
          p.modified_v1 = modelParameter(s, "modified_v1");
          return p;
        },
        .friction_choices = {{"coulomb-stiction", "dry, set-valued, mu < mu_s (the model's)", {}},
                             {"coulomb", "dry, set-valued, mu_s = mu", {{"mu_static", "mu_kinetic"}}},
                             {"ambrosio", "Zheng's modified Coulomb, regularized (compliant joint)",
                              {{"modified_coulomb", "true"}}},
                             {"none", "frictionless", {{"mu_kinetic", "0"}, {"mu_static", "0"}}}}};
  };
  static const std::vector<RigidScenarioInfo> all{
      {.name = "belt",
       .summary = "block on a moving belt tied by a spring (thesis Table 3.1): stick-slip cycle with a closed form",
       .t_end = 20.0,
       .h = 1e-4,
       .default_method = "penalty",
       .compare_outputs = {"block.x", "block.vx", "block-belt.F"},
       .analyses = {beltExactChanges},
       .friction_parameters = dynamics::FrictionParameters{}},  // thesis Table 3.2
      {.name = "dupont",
       .summary = "Dupont's two masses (Blajer & Markiewicz Fig. 4): friction in a slot whose normal force changes sign",
       .t_end = 10.0,
       .h = 1e-4,
       .compare_outputs = {"m1.x", "m1.vx", "m2.y", "m2.vy"},
       .analyses = {dupontExactChanges}},
      {.name = "incline",
       .summary = "block on a 0.2 rad slope, mu_s = 0.4, pushed by 8 sin(2t) N along it: alternates stick and slip",
       .t_end = 10.0,
       .h = 1e-4,
       .analyses = {inclineExactChanges}},
      {"ball", "disk dropped from 1 m with e = 0.5 and 2 m/s forward, mu = 0.3: bounces, slides, then rolls", 3.0, 1e-4},
      {.name = "flores-translational",
       .summary = "Flores, Leine & Glocker's slider-crank with a translational clearance joint (DESIGN 7)",
       .t_end = 0.2,
       .h = 1e-5,
       .default_method = "penalty",
       .penalty_friction = "tanh",  // the corners' μ = 0.01 regularized, BDF-friendly
       .compare_outputs = {"crank.theta", "crank.omega", "slider.y", "slider.theta"}},
      {.name = "journal-bearing-rigid",
       .summary = "journal dropped spinning into a bearing with 0.1 mm clearance (review Table 5) as a rigid clearance joint: impacts e = 0.9, Coulomb mu = 0.1",
       .t_end = 0.25,
       .h = 1e-5,
       .passive = true,
       .analyses = {journalBearingMotion},
       .friction_parameters = journalBearingFrictionParameters(JournalBearing{})},
      zheng("zheng-torque", "Zheng et al. Example I: slider-crank, clearance joint in permanent contact, torque 0.5 sin(2 pi t), mu = 0.10, mu_s = 0.11", 2.0),
      zheng("zheng-rheonomic", "Zheng et al. Example II: the crank driven as 0.5 sin(2 pi t) rad, mu = 0.05, mu_s = 0.055", 2.0),
      zheng("zheng-equilibrium", "Zheng et al. Example III: the free slider-crank at rest at theta1 = pi - 0.01; dry Coulomb mu = 0.15, mu_s = 0.2 holds it", 5.0,
            {zhengCrankHold}),
      {.name = "blajer-1",
       .summary = "Blajer & Markiewicz Example 1: four-bar with a sliding link, friction in every joint (DAE 26 -> 12)",
       .t_end = 3.0, .h = 1e-4, .default_method = "minimal-form"},
      {.name = "blajer-2",
       .summary = "Blajer & Markiewicz Example 2: slider-crank, gravity along x, 6 sin 3t: stiction and reversals; "
                  "B a pin in a slot",
       .t_end = 10.0, .h = 1e-4, .default_method = "minimal-form"},
      {.name = "blajer-2-slider", .summary = "blajer-2 with a slider body of 1 kg on the guide, pinned to the rod at B",
       .t_end = 10.0, .h = 1e-4, .default_method = "minimal-form"},
      // Built for the penalty route (their default); the nonsmooth routes take the same data
      // with the bearing wall rigid (Newton's e = c_e) and the roller held on the ground by
      // a bilateral contact with Table 3's mu_s, mu_k.
      {.name = "journal-bearing",
       .summary = "journal in a bearing with clearance (review Table 5): free flight, impacts, continuous contact",
       .t_end = 0.25, .h = 1e-5, .default_method = "penalty", .passive = true, .analyses = {journalBearingMotion},
       .friction_parameters = journalBearingFrictionParameters(JournalBearing{})},
      {.name = "roller-crank",
       .summary = "crank, rod and roller rolling on the ground (review Tables 1-3), friction at the roller-ground "
                  "contact, N from the constraint (the review's Table 4: compare --methods penalty:coulomb,penalty:tanh,...)",
       .t_end = 2.0,
       .h = 1e-4,
       .output_dt = 1e-4,
       .default_method = "penalty",
       .penalty_friction = "brown-mcphee",
       .analyses = {rollerCrankAnalysis},
       .friction_parameters = rollerCrankFrictionParameters()},  // review Table 3
      // Two crank revolutions at 2500 rpm, as the penalty run; the clearance joint rigid.
      {.name = "muvengei-lugre",
       .summary = "Muvengei et al. Table I: slider-crank at 2500 rpm, 0.5 mm clearance at the crank-rod joint, "
                  "LuGre friction (--ideal: ideal joint)",
       .t_end = 0.048,
       .h = 1e-6,
       .output_dt = 1e-6,
       .default_method = "penalty",
       .penalty_friction = "lugre-nondimensional",
       .impact_law = "newton-tangential",
       .analyses = {muvengeiCycle},
       .friction_from_model = [](const dynamics::RigidScenario& s) { return muvengeiFrictionParameters(muvengeiOf(s)); }},
      // Marques' thesis, spatial: nothing drives them (the crank starts at 2 pi rad/s).
      {.name = "spatial-slider-crank",
       .summary = "Marques' thesis Tables 2.1-2.2: spatial slider-crank with ideal joints (dimension: 3), the crank "
                  "started at 2 pi rad/s",
       .t_end = 1.0,
       .h = 1e-4,
       .passive = true,
       .compare_outputs = {"crank.wy", "slider.z", "slider.vz"}},
      {.name = "spatial-slider-crank-friction",
       .summary = "Marques' thesis 4.1, Table 4.1: the spatial slider-crank with Coulomb friction in its translational "
                  "joint, mu_s = 0.2, mu_k = 0.1, a cube slider of 0.01 m (compare --methods "
                  "event-driven,penalty:coulomb,penalty:stribeck,penalty:dahl)",
       .t_end = 5.0,
       .h = 1e-4,
       .penalty_dt = 5e-5,  // the thesis' RK4 step (no contact to resolve)
       .default_method = "penalty",
       .penalty_friction = "coulomb",
       .passive = true,
       .compare_outputs = {"slider.z", "slider.vz", "guide.F", "guide.v_t"},
       // Table 4.1's vs, δσ, σ0, σ1, σ2 are the review's Table 3 (the same authors); the penalty
       // route takes μs and μk from the joint.
       .friction_parameters = rollerCrankFrictionParameters()},
      {.name = "spatial-slider-crank-clearance",
       .summary = "Marques' thesis 4.2, Tables 4.2-4.3: the spatial slider-crank with radial and axial clearance in "
                  "the crank's pin (simulation 1; --set parameters.journal_length=0.0195: 2, parameters.journal_radius=0.00975: 3; "
                  "--ideal: the ideal pin)",
       .t_end = 1.0,
       .h = 1e-5,  // Moreau–Jean's: a second in ~0.6 s of CPU, simulations 1-3 as the penalty route finds them
       .output_dt = 1e-4,
       .penalty_dt = 5e-7,  // the thesis' RK4 step, which resolves the impacts
       .default_method = "penalty",
       .penalty_friction = "coulomb",
       .passive = true,
       .compare_outputs = {"slider.z", "slider.vz", "slider.az", "crank.wy"},
       .analyses = {spatialClearanceMotion},
       .friction_parameters = rollerCrankFrictionParameters()},  // Table 4.4 = Table 4.1's laws
  };
  return all;
}

const RigidScenarioInfo& rigidScenarioInfo(std::string_view name) {
  for (const auto& s : rigidScenarios())
    if (s.name == name) return s;
  std::string names;
  for (const auto& s : rigidScenarios()) names += (names.empty() ? "" : ", ") + s.name;
  throw std::invalid_argument("unknown scenario '" + std::string(name) + "' (built-in: " + names + ")");
}

const std::vector<std::string>& builtinScenarioNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const RigidScenarioInfo& s : rigidScenarios()) n.push_back(s.name);
    return n;
  }();
  return names;
}

void applyFrictionChoice(std::vector<ParameterValue>& values, const RigidScenarioInfo& info,
                         std::string_view friction) {
  std::string names;
  for (const FrictionChoice& c : info.friction_choices) {
    if (c.name == friction || (friction == "default" && &c == &info.friction_choices.front())) {
      for (const auto& given : c.values) {
        std::erase_if(values, [&](const ParameterValue& v) { return v.name == given.first; });
        values.push_back({given.first, given.second, "--friction", 0, "--friction " + c.name});
      }
      return;
    }
    names += (names.empty() ? "" : ", ") + c.name + " (" + c.summary + ")";
  }
  if (friction == "default") return;
  if (names.empty()) {
    std::string offering;
    for (const RigidScenarioInfo& s : rigidScenarios())
      if (!s.friction_choices.empty()) offering += (offering.empty() ? "" : ", ") + s.name;
    throw std::invalid_argument("--friction: the law of the penalty route; '" + info.name +
                                "' states its set-valued friction in its model (a choice of friction exists for " +
                                offering + ")");
  }
  throw std::invalid_argument("--friction: expected one of " + names + " for " + info.name + ", got '" +
                              std::string(friction) + "'");
}

dynamics::RigidScenario buildRigidScenario(std::string_view name, std::string_view friction, bool ideal) {
  BuiltinModelSource source = builtinModelSource(name);
  applyFrictionChoice(source.values, rigidScenarioInfo(name), friction);
  dynamics::RigidScenario s = loadPlanarModelText(source.file->text, source.file->path, source.values);
  s.name = name;
  return ideal ? dynamics::withIdealClearanceJoints(s) : s;
}

}  // namespace stickslip::mechanisms
