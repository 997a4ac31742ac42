// Scenario files: `show` → file → `run` repeats every built-in bit for bit; --set; the
// errors a user meets, each naming file, line, key and the fix (exit code 2).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"
#include "mechanisms/rigid_scenarios.hpp"

namespace fs = std::filesystem;

namespace {

/// The run's JSON without its timings, which differ from run to run.
nlohmann::json withoutTimings(const std::string& out) {
  nlohmann::json j = nlohmann::json::parse(out);
  for (const char* k : {"cpu_seconds", "us_per_step"}) j.erase(k);
  return j;
}

/// A short run of each built-in (s), long enough to pass contacts, events or impacts.
std::string shortRun(const std::string& name) {
  if (name == "belt" || name == "dupont" || name == "incline") return "8";
  if (name == "ball") return "1.5";
  if (name.starts_with("blajer-")) return "1";
  if (name == "muvengei-lugre") return "0.003";
  if (name.starts_with("zheng-")) return "0.3";
  return "0.02";
}

/// Exit code 2 and one line on stderr containing every part of `expected`.
void requireInputError(const Run& r, const std::vector<std::string>& expected) {
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  for (const auto& e : expected) CHECK(r.err.find(e) != std::string::npos);
}

}  // namespace

TEST_CASE("every built-in scenario round-trips: show, then run the file, equals run NAME bit for bit",
          "[cli][scenario]") {
  const ScratchDir dir("scenario_roundtrip");
  for (const std::string& name : stickslip::mechanisms::builtinScenarioNames()) {
    INFO(name);
    const Run shown = cli({"show", name});
    REQUIRE(shown.code == 0);
    const std::string file = dir.write(name + ".yaml", shown.out);
    const std::string t = shortRun(name);
    const std::string a = (dir.path / (name + "-builtin.csv")).string(), b = (dir.path / (name + "-file.csv")).string();
    const Run builtin = cli({"run", name, "--t-end", t, "--json", "--out", a});
    const Run from_file = cli({"run", file, "--t-end", t, "--json", "--out", b});
    INFO(builtin.err << from_file.err);
    REQUIRE(builtin.code == 0);
    REQUIRE(from_file.code == 0);
    CHECK(withoutTimings(builtin.out) == withoutTimings(from_file.out));
    const std::string csv = slurp(a);
    CHECK(csv.size() > 100);
    CHECK(csv == slurp(b));
    // Showing the file again prints it unchanged.
    CHECK(cli({"show", file}).out == shown.out);
  }
}

TEST_CASE("set: a parameter changed by --set or a file moves the belt's break-away at mu_s m g / (k v_b)", "[cli][scenario]") {
  // Closed form (DESIGN.md §7): the block sticks until the spring force k v_b t reaches
  // μs m g; with μs = 0.2, t1 = 0.2 · 9.81 / (2 · 0.1) = 9.81 s instead of 7.3575 s.
  for (const std::string how : {"set", "file"}) {
    INFO(how);
    const ScratchDir dir("scenario_set_" + how);
    const std::string file = dir.write("belt.yaml", "scenario: belt\nparameters:\n  mu_static: 0.2\nrun:\n  method: event-driven\n  t_end: 12\n");
    const Run r = how == "set" ? cli({"run", "belt", "--method", "event-driven", "--t-end", "12", "--set",
                                      "parameters.mu_static=0.2", "--json"})
                               : cli({"run", file, "--json"});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["events"].size() >= 1);
    CHECK(j["events"][0]["kind"] == "slip-");
    CHECK(j["events"][0]["t"].get<double>() == Approx(9.81).margin(1e-6));
    CHECK(j["reference"]["matched"] == true);
    CHECK(j["reference"]["events"][0]["t"].get<double>() == Approx(9.81).margin(1e-12));
  }
  // The command line wins over the file's run settings; --set run.* over the file's.
  const ScratchDir dir("scenario_precedence");
  const std::string file = dir.write("belt.yaml", "scenario: belt\nrun:\n  method: event-driven\n  t_end: 12\n");
  CHECK(nlohmann::json::parse(cli({"run", file, "--t-end", "3", "--json"}).out)["t"] == 3.0);
  CHECK(nlohmann::json::parse(cli({"run", file, "--set", "run.t_end=4", "--json"}).out)["t"] == 4.0);
  // show prints a --set value exactly.
  // show prints a --set value exactly; the data are checked after all settings, so their
  // order does not matter (μk ≤ μs holds at the end only).
  for (const auto& [first, second] : {std::pair{"parameters.mu_static=0.1125", "parameters.mu_kinetic=0.1"},
                                      std::pair{"parameters.mu_kinetic=0.1", "parameters.mu_static=0.1125"}}) {
    const Run r = cli({"show", "zheng-equilibrium", "--set", first, "--set", second});
    CHECK(r.out.find("mu_static: 0.1125 ") != std::string::npos);
  }
  requireInputError(cli({"show", "zheng-equilibrium", "--set", "parameters.mu_static=0.1125"}),
                    {"--set", "parameters", "mu_static"});
  // A key set twice would keep its last value silently.
  requireInputError(cli({"show", "zheng-equilibrium", "--set", "parameters.mu_static=0.3", "--set",
                         "model.parameters.mu_static=0.2"}),
                    {"--set", "parameters.mu_static", "given twice"});
  // A list is no value: muParser would take the last of "0.3,0.2".
  requireInputError(
      cli({"show", "zheng-equilibrium", "--set", "parameters.mu_static=0.3,0.2"}),
      {"--set", "parameters.mu_static", "expected one value, got 2 separated by commas"});
  // The run settings shown are ones run takes.
  requireInputError(cli({"show", "belt", "--set", "run.t_ned=3"}),
                    {"--set", "run.t_ned", "did you mean 't_end'"});
  // ... and values run refuses, from --set or the file, by file, line and key.
  requireInputError(cli({"show", "belt", "--set", "run.t_end=-1"}),
                    {"--set", "run.t_end", "expected a number > 0, got -1"});
  const std::string bad =
      dir.write("bad.yaml", "scenario: belt\nrun:\n  method: moreau-jean\n  theta: 2\n");
  requireInputError(cli({"show", bad}),
                    {bad + ":4:", "run.theta", "expected a number in [0.5, 1], got 2"});
  // compare and animate locate them too (they used to list them as methods "not available").
  requireInputError(cli({"compare", bad, "--methods", "moreau-jean,penalty"}),
                    {bad + ":4:", "run.theta", "expected a number in [0.5, 1], got 2"});
  requireInputError(cli({"animate", bad, "--methods", "moreau-jean", "--out", (dir.path / "x.html").string()}),
                    {bad + ":4:", "run.theta", "expected a number in [0.5, 1], got 2"});
  CHECK(cli({"show", file}).code == 0);
}

TEST_CASE("scenario file errors name file, line, key and the fix, exit code 2", "[cli][scenario]") {
  const ScratchDir dir("scenario_errors");
  const auto run = [&](const std::string& text) { return cli({"run", dir.write("s.yaml", text), "--json"}); };
  const std::string f = (dir.path / "s.yaml").string();

  requireInputError(cli({"run", (dir.path / "missing.yaml").string()}), {"missing.yaml", "cannot read"});
  requireInputError(run("scenario: belt\nparameters:\n  mass: [1, 2\n"), {f + ":", "YAML syntax error"});
  requireInputError(run("scenario: belt\nparamters:\n  mass: 2\n"), {f + ":2:", "paramters", "did you mean 'parameters'"});
  requireInputError(run("scenario: blet\n"), {f + ":1:", "unknown scenario 'blet'", "did you mean 'belt'"});
  requireInputError(run("scenario: belt\nparameters:\n  mu_statc: 0.2\n"),
                    {f + ":3:", "parameters.mu_statc", "did you mean 'mu_static'"});
  // The belt is a model file: a value is checked where the model uses it, and the error
  // points at both the user's line and the model's.
  requireInputError(run("scenario: belt\nparameters:\n  mass: heavy\n"),
                    {f + ":3:", "parameters.mass", "heavy", "belt.yaml:8: model.parameters.mass"});
  requireInputError(run("scenario: belt\nparameters:\n  mass: [1, 2]\n"),
                    {f + ":3:", "parameters.mass", "expected a single value, got a list"});
  requireInputError(run("scenario: belt\nparameters:\n  mass: -1\n"),
                    {f + ":3:", "parameters.mass", "model.bodies[0].mass: expected a mass > 0 [kg], got mass = -1"});
  requireInputError(run("scenario: belt\nparameters:\n  mu_static: 0.05\n"),
                    {f + ":3:", "parameters.mu_static", "mu_kinetic <= mu_static", "0.05"});
  requireInputError(run("scenario: zheng-torque\nparameters:\n  mu_static: 0.05\n"),
                    {f + ":3:", "parameters", "mu_kinetic <= mu_static", "0.05"});
  requireInputError(run("scenario: belt\nparameters:\n  mass: 1\n  mass: 2\n"), {f + ":4:", "parameters.mass", "given twice"});
  requireInputError(run("scenario: belt\nrun:\n  methd: penalty\n"), {f + ":3:", "run.methd", "did you mean 'method'"});
  requireInputError(run("scenario: belt\nrun:\n  method: event-drivn\n"),
                    {"unknown method 'event-drivn'", "did you mean 'event-driven'"});
  requireInputError(run("scenario: belt\nrun:\n  t_end: soon\n"), {f + ":3:", "run.t_end", "soon"});
  requireInputError(run("scenario: belt\nrun:\n  friction: lugr\n"), {f + ":3:", "run.friction", "lugr", "did you mean 'lugre'"});
  requireInputError(run("scenario: belt\nrun:\n  t_end: -1\n"), {f + ":3:", "run.t_end", "expected a number > 0, got -1"});
  requireInputError(run("scenario: dupont\nrun:\n  method: moreau-jean\n  dt: 0\n"), {f + ":4:", "run.dt", "> 0"});
  requireInputError(run("scenario: dupont\nrun:\n  method: moreau-jean\n  solver: nope\n"),
                    {f + ":4:", "run.solver", "expected auto, lemke", "got 'nope'"});
  requireInputError(run("scenario: belt\n---\nscenario: dupont\n"), {f + ":3:", "a second YAML document"});
  requireInputError(cli({"run", "belt", "--theta", "2"}), {"--theta", "[0.5, 1]"});
  requireInputError(run("scenario: belt\nrun:\n  force: true\n"), {f + ":3:", "run.force", "--force"});
  requireInputError(run("parameters:\n  mass: 1\n"), {f + ":", "scenario: missing"});
  requireInputError(cli({"run", "belt", "--set", "parameters.mass"}), {"--set", "expected KEY=VALUE"});
  requireInputError(cli({"run", "belt", "--set", "mass=2"}), {"--set", "parameters.NAME or run.OPTION"});
  requireInputError(cli({"run", "belt", "--set", "parameters.mas=2"}), {"--set", "did you mean 'mass'"});
  requireInputError(cli({"run", "blet"}), {"unknown scenario 'blet'", "did you mean 'belt'"});
}

TEST_CASE("the executable: show, edit, run — bad input and no overwrite without --force", "[cli][scenario]") {
  const ScratchDir dir("scenario_process");
  const Run shown = process({"show", "incline"}, dir.path);
  REQUIRE(shown.code == 0);
  std::string text = shown.out;
  const std::string from = "mu_static: 0.4", to = "mu_static: 0.9";  // holds against an 8 N push
  REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(), to);
  const std::string file = dir.write("incline.yaml", text);
  const std::string csv = (dir.path / "incline.csv").string();
  const Run r = process({"run", file, "--t-end", "3", "--json", "--out", csv}, dir.path);
  INFO(r.err);
  REQUIRE(r.code == 0);
  // μs N = 0.9 · 9.81 cos 0.2 = 8.65 N holds the block against 8 sin 2t − m g sin α up the
  // slope (≤ 6.05 N) but not down it (≥ −9.95 N): it first slips down (slip-) near t = 2.07 s.
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["events"].size() >= 1);
  CHECK(j["events"][0]["kind"] == "slip-");
  CHECK(j["events"][0]["t"].get<double>() == Approx(2.07).margin(0.01));
  CHECK(j["reference"]["matched"] == true);
  CHECK(j["reference"]["max_time_error"].get<double>() < 1e-6);

  const Run again = process({"run", file, "--t-end", "3", "--out", csv}, dir.path);
  CHECK(again.code == 2);
  CHECK(again.err.find("file exists; pass --force") != std::string::npos);
  // An output that cannot be written is refused before the run, not after it.
  for (const std::string& out : {(dir.path / "missing" / "r.csv").string(), (dir.path / std::string(250, 'r')).string()}) {
    const Run unwritable = process({"run", file, "--t-end", "3", "--out", out}, dir.path);
    INFO(unwritable.err);
    CHECK(unwritable.code == 2);
    CHECK(unwritable.out.empty());
    CHECK((unwritable.err.find("cannot write in") != std::string::npos ||
           unwritable.err.find("the name has 250 bytes") != std::string::npos));
  }
  const Run bad = process({"run", dir.write("bad.yaml", "scenario: incline\nparameters:\n  mass: 0\n")}, dir.path);
  CHECK(bad.code == 2);
  CHECK(bad.err.find("bad.yaml:3: parameters.mass: the value 0 is rejected by") != std::string::npos);
  CHECK(!fs::exists(dir.path / "bad.csv"));
  // A weight that overflows is bad input too (exit 2), not a contact solver's failure at t = 0.
  const Run heavy = process({"run", "incline", "--set", "parameters.mass=1e308"}, dir.path);
  CHECK(heavy.code == 2);
  CHECK(heavy.out.empty());
  CHECK(heavy.err.find("parameters.mass: the value 1e308 is rejected by") != std::string::npos);
  CHECK(heavy.err.find("the loads on body 'block' at t = 0 overflow") != std::string::npos);
}

TEST_CASE("friction_parameters: the penalty route's law, set by name and checked", "[cli][scenario]") {
  // The belt's μs is the mechanism's on every route: with μs = 0.2 the regularized law
  // (linear-stiction) also breaks away near μs m g / (k v_b) = 9.81 s.
  const Run r = cli({"run", "belt", "--method", "penalty", "--friction", "linear-stiction", "--t-end", "12",
                     "--set", "parameters.mu_static=0.2", "--json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(!j["events"].empty());
  CHECK(j["events"][0]["kind"] == "slip-");  // estimated from |v_t|
  CHECK(j["events"][0]["t"].get<double>() == Approx(9.81).epsilon(0.02));
  CHECK(j["reference"]["events"][0]["t"].get<double>() == Approx(9.81).margin(1e-12));
  // A law parameter changes the regularized answer: a stiffer bristle, another history.
  const auto final_state = [](const Run& run) { return nlohmann::json::parse(run.out)["final_v"]; };
  const Run lugre = cli({"run", "belt", "--friction", "lugre", "--t-end", "2", "--json"});
  const Run stiff = cli({"run", "belt", "--friction", "lugre", "--t-end", "2", "--json", "--set",
                         "friction_parameters.sigma0=2e5"});
  REQUIRE(lugre.code == 0);
  REQUIRE(stiff.code == 0);
  CHECK(final_state(lugre) != final_state(stiff));

  requireInputError(cli({"run", "belt", "--set", "friction_parameters.sigam0=1e5"}),
                    {"friction_parameters.sigam0", "did you mean 'sigma0'"});
  requireInputError(cli({"run", "belt", "--set", "friction_parameters.sigma0=-1"}),
                    {"--set", "friction_parameters", "sigma0", "-1"});
  requireInputError(cli({"run", "belt", "--set", "friction_parameters.mu_s=0.2"}),
                    {"friction_parameters.mu_s", "set parameters.mu_static"});
  requireInputError(cli({"run", "dupont", "--set", "friction_parameters.sigma0=1"}),
                    {"friction_parameters.sigma0", "has no friction law parameters"});
  // In a file, the key the check names is located at its own line, not the section's.
  const ScratchDir dir("friction_parameters");
  const std::string file = dir.write("fp.yaml", "scenario: belt\nfriction_parameters:\n  stribeck_velocity: 0.01\n"
                                                "  sigma0: -1\n");
  requireInputError(cli({"run", file}), {file + ":4: friction_parameters.sigma0:", "sigma0 = -1"});
}

TEST_CASE("a built-in model file runs as the built-in and as a file — model.parameters by --set", "[cli][scenario]") {
  const std::string incline = std::string(STICKSLIP_SCENARIOS) + "/incline.yaml";
  const auto events = [](const Run& r) {
    nlohmann::json e = nlohmann::json::parse(r.out)["events"];
    return e;
  };
  const Run file = cli({"run", incline, "--t-end", "8", "--json"});
  const Run builtin = cli({"run", "incline", "--t-end", "8", "--json"});
  INFO(file.err);
  REQUIRE(file.code == 0);
  REQUIRE(builtin.code == 0);
  CHECK(events(file).size() >= 4);
  CHECK(events(file) == events(builtin));  // the same model: bit-identical event times
  // Run as the built-in, it carries the built-in's exact reference; as a file of one's own,
  // the mechanism alone.
  CHECK(nlohmann::json::parse(builtin.out)["reference"]["matched"] == true);
  CHECK(!nlohmann::json::parse(file.out).contains("reference"));
  // Without the push the block rests: μs = 0.4 > tan 0.2.
  const Run rest = cli({"run", incline, "--t-end", "3", "--json", "--set", "model.parameters.push_amplitude=0"});
  REQUIRE(rest.code == 0);
  CHECK(nlohmann::json::parse(rest.out)["events"].empty());
  // A model file by the Moreau-Jean method too.
  CHECK(cli({"run", incline, "--method", "moreau-jean", "--t-end", "1"}).code == 0);

  requireInputError(cli({"run", incline, "--set", "model.parameters.angel=0.1"}), {"model.parameters.angel", "did you mean 'angle'"});
  // parameters.NAME and model.parameters.NAME are the same for a model; the built-in incline
  // is its model file, a C++ built-in is not.
  CHECK(withoutTimings(cli({"run", incline, "--t-end", "3", "--json", "--set", "parameters.push_amplitude=0"}).out) ==
        withoutTimings(rest.out));
  requireInputError(cli({"run", "incline", "--set", "model.parameters.mas=2"}), {"no such parameter", "did you mean 'mass'"});
  requireInputError(cli({"run", "zheng-torque", "--set", "model.parameters.mu_statik=2"}),
                    {"no such parameter", "did you mean 'mu_static'"});
  requireInputError(cli({"show", incline}), {"model:", "its description"});
  const ScratchDir dir("scenario_model");
  requireInputError(cli({"run", dir.write("both.yaml", "scenario: belt\nmodel:\n  bodies: []\n")}),
                    {"both.yaml:1:", "not both"});
}

TEST_CASE("ideal clearance joints: --ideal makes each an ideal revolute, in a model file too", "[cli][scenario]") {
  // The journal of journal_bearing.yaml, pinned at the bearing's centre, only spins.
  const Run r = cli({"run", std::string(STICKSLIP_SCENARIOS) + "/journal_bearing.yaml", "--ideal", "--t-end", "0.05",
                     "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["events"].empty());
  CHECK(std::abs(j["final_q"][0].get<double>()) < 1e-12);
  CHECK(std::abs(j["final_q"][1].get<double>()) < 1e-12);
  CHECK(j["final_v"][2].get<double>() == Approx(-2 * M_PI).epsilon(1e-12));
  for (const auto& c : j["columns"]) CHECK(c.get<std::string>().find("journal-bearing.N") == std::string::npos);
  requireInputError(cli({"run", "belt", "--ideal"}), {"--ideal", "no clearance joint"});
}

TEST_CASE("a compliant contact runs by Moreau-Jean as a rigid one when the file gives its rigid_restitution",
          "[cli][scenario]") {
  const ScratchDir dir("scenario_rigid_restitution");
  const std::string model = R"Y(model:
  gravity: [0, -9.81]
  bodies:
    - {name: ball, mass: 1, inertia: 0.005, position: [0, 0.6, 0]}
  contacts:
    - {type: point_line, name: floor, body_i: ball, radius: 0.1, normal: compliant, RIGID
       compliant_law: {type: hertz, stiffness: 1e7, exponent: 1.5}}
)Y";
  const auto with = [&](const std::string& rigid) {
    std::string text = model;
    text.replace(text.find("RIGID"), 5, rigid);
    return dir.write("ball.yaml", text);
  };
  // Dropped from 0.5 m above contact: v = -sqrt(2 g 0.5) at the floor, +e of it after.
  const Run r = cli({"run", with("rigid_restitution: 0.5,"), "--method", "moreau-jean", "--dt", "1e-5", "--t-end",
                     "0.4", "--output-dt", "1e-3", "--json", "--force"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  const double v_in = std::sqrt(2 * 9.81 * 0.5), t_in = v_in / 9.81, t = 0.4;
  CHECK(j["final_v"][1].get<double>() == Approx(0.5 * v_in - 9.81 * (t - t_in)).margin(2e-3));
  requireInputError(cli({"run", with(""), "--method", "moreau-jean"}), {"floor", "compliant", "rigid_restitution"});
}

TEST_CASE("Moreau-Jean: a joint with mu_kinetic = 0 < mu_static reverses without a 0/0 bound", "[cli][scenario]") {
  // A pendulum whose pivot has only static friction: it swings freely and turns back at each
  // end, where the reversal is re-solved with mu_s (moreau_jean.hpp).
  const ScratchDir dir("scenario_mu_kinetic_zero");
  const std::string file = dir.write("pendulum.yaml", R"Y(model:
  gravity: [0, -9.81]
  bodies:
    - {name: bob, mass: 1, inertia: 0.01, position: [0.5, 0, 0]}
  joints:
    - {type: revolute, name: pivot, body_i: ground, body_j: bob, point_j: [-0.5, 0],
       friction: {radius: 0.01, mu_static: 0.2, mu_kinetic: 0}}
)Y");
  const Run r = cli({"run", file, "--method", "moreau-jean", "--t-end", "3", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["status"] == "ok");
  // Frictionless while it slides, and it does not stick at the ends of a swing from horizontal:
  // the energy stays within Moreau-Jean's dissipation at h = 1e-4.
  CHECK(std::abs(j["energy_final"].get<double>() - j["energy_initial"].get<double>()) < 0.05);
}
