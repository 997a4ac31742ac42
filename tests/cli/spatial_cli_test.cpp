// The command line on spatial mechanisms: `run` and `compare` take the thesis' spatial
// slider-crank (Marques 2015, Tables 2.1–2.2 and 4.1) by every route, with the columns named
// by its model, and the thesis' friction laws side by side.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "cli_run.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

TEST_CASE("run spatial-slider-crank: every route, columns named by the model, energy kept", "[cli][spatial]") {
  for (const char* route : {"event-driven", "moreau-jean", "penalty", "minimal-form"}) {
    INFO(route);
    const Run r = cli({"run", "spatial-slider-crank", "--method", route, "--t-end", "0.5", "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j["status"] == "ok");
    const auto columns = j["columns"].get<std::vector<std::string>>();
    for (const char* c : {"t", "crank.x", "crank.e0", "rod.e3", "slider.z", "slider.vz", "crank.wy", "energy"})
      CHECK(std::find(columns.begin(), columns.end(), c) != columns.end());
    // Frictionless and undriven: T + V is conserved, to the route's accuracy (Moreau–Jean's
    // θ = ½ at h = 1e-4 s, the penalty route's Baumgarte drift).
    const double e0 = j["energy_initial"].get<double>(), e1 = j["energy_final"].get<double>();
    CHECK(std::abs(e1 - e0) < 1e-3 * std::abs(e0));
    CHECK((j["friction_work"].is_null() || j["friction_work"].get<double>() == 0.0));  // none to do
  }
  // The penalty route's own columns: accelerations and the joints' multipliers, named.
  const Run p = cli({"run", "spatial-slider-crank", "--method", "penalty", "--t-end", "0.01", "--json"});
  REQUIRE(p.code == 0);
  const auto columns = json::parse(p.out)["columns"].get<std::vector<std::string>>();
  for (const char* c : {"slider.az", "rod.alphax", "guide.lambda0", "guide.lambda4", "crank-rod.lambda2"})
    CHECK(std::find(columns.begin(), columns.end(), c) != columns.end());
  const ScratchDir dir("spatial_planar_only");
  const Run animate = cli({"animate", "spatial-slider-crank", "--gif", dir / "a.gif"});
  CHECK(animate.code == 2);
  CHECK(animate.err.find("--gif: 'spatial-slider-crank' is a spatial mechanism, drawn by the HTML page only") !=
        std::string::npos);
  const Run hold = cli({"hold", "spatial-slider-crank"});  // it starts turning
  CHECK(hold.code == 2);
  CHECK(hold.err.find("does not start at rest") != std::string::npos);
}

TEST_CASE("compare spatial-slider-crank-friction: the thesis' friction laws (Table 4.1) against the exact "
          "set-valued answer, with the figures",
          "[cli][spatial][compare]") {
  const fs::path dir = fs::temp_directory_path() / ("stickslip-spatial-compare-" + std::to_string(getpid()));
  fs::remove_all(dir);
  const Run r = cli({"compare", "spatial-slider-crank-friction", "--methods",
                     "event-driven,moreau-jean,penalty:coulomb,penalty:stribeck,penalty:dahl", "--t-end", "1",
                     "--out-dir", dir.string(), "--plot", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["status"] == "ok");
  CHECK(j["outputs"] == json({"slider.z", "slider.vz", "guide.F", "guide.v_t"}));
  // Friction dissipates whatever the law (the thesis' finding): about 0.49 J in the first
  // second, T + V falling by the friction work. Event-driven's work is the trapezoidal rule on
  // its 1 ms samples (the slider reverses within one of them four times); the others count it
  // with the run.
  const json& exact = method(j, "event-driven");
  CHECK(exact["events"] == 4);  // the slider's reversals near the dead centres
  for (const char* label : {"event-driven", "moreau-jean", "penalty:coulomb", "penalty:stribeck", "penalty:dahl"}) {
    INFO(label);
    const json& m = method(j, label);
    CHECK(m["status"] == "ok");
    const double w = m["friction_work"].get<double>();
    CHECK(w == Approx(exact["friction_work"].get<double>()).epsilon(0.02));
    const double loss = m["energy_initial"].get<double>() - m["energy_final"].get<double>();
    CHECK(loss == Approx(w).margin(std::string(label).starts_with("penalty") ? 1e-5 : 1e-3));
  }
  // The static laws with the thesis' RK4 step follow the exact answer to a few hundredths of a
  // millimetre: Stribeck's vs = 1 mm/s differs from Coulomb only while the slider reverses.
  // Dahl's bristles lag by their pre-sliding travel; Moreau–Jean is O(h).
  for (const auto& [label, z, vz] : {std::tuple{"penalty:coulomb", 1e-4, 2e-3}, {"penalty:stribeck", 1e-4, 2e-3},
                                     {"penalty:dahl", 5e-3, 0.3}, {"moreau-jean", 5e-4, 2e-2}}) {
    INFO(label);
    const json& d = method(j, label)["deviations"];
    CHECK(d["slider.z"]["max"].get<double>() < z);
    CHECK(d["slider.vz"]["max"].get<double>() < vz);
  }
  for (const char* figure : {"histories", "friction", "phase"})
    CHECK(fs::file_size(dir / ("spatial-slider-crank-friction-" + std::string(figure) + ".png")) > 1000);
  fs::remove_all(dir);
}

TEST_CASE("spatial-slider-crank-friction by LuGre at the thesis' step: stopped by the energy guard, not answered",
          "[cli][spatial]") {
  // Table 4.1's bristles (σ0 = 1e5 N/m) relax at σ0 |v| / (μ N) per second, which exceeds
  // RK4's stability limit at h = 5e-5 s where the guide's load N nears zero: E + W rises, and
  // the passive mechanism's guard stops the run with the reason (exit 1).
  const Run r = cli({"run", "spatial-slider-crank-friction", "--friction", "lugre", "--t-end", "0.5", "--json"});
  CHECK(r.code == 1);
  const json j = json::parse(r.out);
  CHECK(j["status"] == "energy-increase");
  CHECK(j["message"].get<std::string>().find("the total energy plus the friction work rose") != std::string::npos);
  CHECK(j["t"].get<double>() < 0.5);
}
