"""The Python module against the CLI, the library's own checks and its documented contract.

Run by ctest ("python: pytest") with PYTHONPATH at the module, STICKSLIP_CLI at the
executable and STICKSLIP_DATA at Siconos' problems (../shared/data/siconos, else the tests' copy).
"""
import gc
import glob
import json
import os
import random
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
import yaml

import stickslip

CLI = os.environ.get("STICKSLIP_CLI", "build/bin/stickslip")
DATA = os.environ.get("STICKSLIP_DATA", "tests/data/siconos")
SCENARIOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "mechanisms", "scenarios")


def cli_json(*args, check=True):
    out = subprocess.run([CLI, *args, "--json"], check=check, capture_output=True, text=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("method", ["event-driven", "moreau-jean", "penalty"])
def test_belt_events_equal_the_cli_json_bit_for_bit(method):
    result = stickslip.run(stickslip.Scenario("belt"), method)
    expected = cli_json("run", "belt", "--method", method)
    assert result.ok and expected["status"] == "ok"
    assert result.events  # the first break-away at least
    assert result.events == expected["events"]  # floats compared exactly
    assert result.json()["final_q"] == expected["final_q"]


def test_every_route_runs_dupont_to_the_same_stick_slip_sequence():
    scenario = stickslip.Scenario("dupont")
    kinds = {}
    for method in ("event-driven", "moreau-jean", "minimal-form", "penalty"):
        r = stickslip.run(scenario, method, t_end=10.0)
        assert r.ok, (method, r.message)
        assert r.events == cli_json("run", "dupont", "--method", method, "--t-end", "10")["events"]
        kinds[method] = [e["kind"] for e in r.events if e["kind"] in ("stick", "slip+", "slip-")]
    # The exact routes agree on the sequence (the penalty route's is approximate).
    assert kinds["event-driven"] == kinds["moreau-jean"] == kinds["minimal-form"]
    assert len(kinds["event-driven"]) == 10  # Dupont's reference (mechanisms/dupont.hpp)


def test_settings_are_the_cli_options():
    scenario = stickslip.Scenario("belt").set("parameters.mu_static", 0.2)
    result = stickslip.run(scenario, "moreau-jean", t_end=12.5, dt=1e-3, output_dt=0.01)
    expected = cli_json("run", "belt", "--set", "parameters.mu_static=0.2", "--method", "moreau-jean",
                        "--t-end", "12.5", "--dt", "1e-3", "--output-dt", "0.01")
    assert result.events == expected["events"]
    assert result.t[-1] == pytest.approx(12.5)
    # The first break-away of the closed form: k x = mu_s m g with x = v_b t.
    assert result.events[0]["t"] == pytest.approx(0.2 * 9.81 / 2 / 0.1, abs=1e-3)


def test_arrays_follow_the_columns_and_the_closed_form():
    r = stickslip.run(stickslip.Scenario("belt"), "event-driven", t_end=7.0, output_dt=0.5)
    h = r.history
    assert h.shape == (len(r.t), len(r.columns))
    np.testing.assert_array_equal(r.t, h[:, 0])
    np.testing.assert_array_equal(r.column("block.x"), h[:, r.columns.index("block.x")])
    np.testing.assert_array_equal(r.q[:, 0], r.column("block.x"))
    np.testing.assert_array_equal(r.v[:, 0], r.column("block.vx"))
    # Stuck to the belt before the break-away at 7.3575 s: x = v_b t, N = m g, F = k x.
    np.testing.assert_allclose(r.q[:, 0], 0.1 * r.t, atol=1e-9)
    np.testing.assert_allclose(r.N["block-belt"], 9.81, rtol=1e-9)
    np.testing.assert_allclose(np.abs(r.F["block-belt"]), 2.0 * 0.1 * r.t, atol=1e-8)
    # T + V with the spring as an applied force: the kinetic energy m v_b² / 2 while stuck.
    assert r.energy_initial == pytest.approx(0.5 * 0.1**2) and r.energy_final == pytest.approx(r.energy_initial)


def test_views_are_read_only_and_keep_their_run_alive():
    r = stickslip.run(stickslip.Scenario("belt"), "event-driven", t_end=1.0)
    t, n, h = r.t, r.N["block-belt"], r.history
    for view in (t, n, h):
        assert not view.flags.writeable and not view.flags.owndata
        with pytest.raises(ValueError):
            view[0] = 1.0
    q = r.q
    assert q.flags.writeable and q.flags.owndata  # an owned copy
    expected = t.copy()
    del r
    gc.collect()
    np.testing.assert_array_equal(t, expected)  # still valid: the view holds the run
    assert h.shape[0] == len(expected)


def test_bad_input_raises_with_file_line_and_key(tmp_path):
    with pytest.raises(stickslip.InputError) as e:
        stickslip.Scenario.from_yaml("scenario: belt\nparameters:\n  mu_statc: 0.2\n", "mine.yaml")
    assert isinstance(e.value, ValueError)
    assert (e.value.file, e.value.line, e.value.key) == ("mine.yaml", 3, "parameters.mu_statc")
    assert "did you mean 'mu_static'" in e.value.reason
    path = tmp_path / "bad.yaml"
    path.write_text("scenario: belt\nrun:\n  t_end: soon\n")
    with pytest.raises(stickslip.InputError) as e:
        stickslip.Scenario(str(path))  # as it loads: a run key or a value of the wrong type
    assert (e.value.file, e.value.line, e.value.key) == (str(path), 3, "run.t_end")
    assert str(e.value).startswith(f"{path}:3: run.t_end:")
    with pytest.raises(stickslip.InputError, match="did you mean 't_end'") as e:
        stickslip.Scenario.from_dict({"scenario": "belt", "run": {"t_ned": 1.0}})
    assert (e.value.file, e.value.line, e.value.key) == ("<dict>", None, "run.t_ned")
    with pytest.raises(stickslip.InputError) as e:
        stickslip.Scenario("belt").set("parameters.mass", -1)
    assert e.value.file is None and e.value.line is None and e.value.key == "parameters.mass"
    # A run key or a value of the wrong type is refused as it is set, and leaves the scenario as it was.
    belt = stickslip.Scenario("belt").set("run.t_end", 2.0)
    with pytest.raises(stickslip.InputError, match="did you mean 't_end'") as e:
        belt.set("run.t_ned", 5)
    assert e.value.key == "run.t_ned"
    with pytest.raises(stickslip.InputError, match="run.t_end"):
        belt.set("run.t_end", "soon")
    assert "t_end: 2.0" in belt.show() and "t_ned" not in belt.show()
    with pytest.raises(stickslip.InputError, match="did you mean 'belt'"):
        stickslip.Scenario("blet")
    with pytest.raises(ValueError, match="unknown method"):
        stickslip.run(stickslip.Scenario("belt"), "euler")
    # A name stands for its Scenario wherever one is taken, with the same errors.
    by_name = stickslip.run("belt", "event-driven", t_end=1.0).json()
    by_scenario = stickslip.run(stickslip.Scenario("belt"), "event-driven", t_end=1.0).json()
    assert by_name["events"] == by_scenario["events"] and by_name["final_q"] == by_scenario["final_q"]
    with pytest.raises(stickslip.InputError, match="did you mean 'belt'"):
        stickslip.run("blet", "event-driven")
    with pytest.raises(TypeError, match="a built-in's name or a scenario file, got int"):
        stickslip.compare(3, ["event-driven"])
    with pytest.raises(TypeError):
        stickslip.Scenario("belt").set("parameters.mass", [1, 2])
    # A value the run refuses as it plans is located in the file's run: section, as the CLI's.
    path.write_text("scenario: belt\nrun:\n  method: moreau-jean\n  theta: 2\n")
    with pytest.raises(stickslip.InputError) as e:
        stickslip.run(str(path))
    assert (e.value.file, e.value.line, e.value.key) == (str(path), 4, "run.theta")
    with pytest.raises(stickslip.InputError, match="run.theta"):
        stickslip.compare(str(path), ["moreau-jean"])
    with pytest.raises(ValueError, match="no method writes a column 'nope'"):
        stickslip.compare("belt", ["event-driven"], ["nope"], t_end=0.1)


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(SCENARIOS, "*.yaml"))), ids=os.path.basename)
def test_from_dict_reads_every_scenario_file_as_its_text_does(path):
    values = yaml.safe_load(open(path, encoding="utf-8"))  # the file as Python values
    from_dict, from_file = stickslip.Scenario.from_dict(values, path), stickslip.Scenario(path)
    assert from_dict.name == from_file.name and from_dict.parameters == from_file.parameters
    a, b = stickslip.run(from_dict, t_end=0.05), stickslip.run(from_file, t_end=0.05)
    assert a.status == b.status and a.columns == b.columns
    np.testing.assert_array_equal(a.history, b.history)


def test_from_dict_builds_a_mechanism_from_python_values():
    # A block released on a slope steeper than its friction angle slides down it with
    # a = g (sin(alpha) - mu_k cos(alpha)); NumPy's numbers and arrays are values too.
    alpha, mu_k, g = 0.5, 0.3, 9.81
    model = {
        "name": "block on a slope",
        "parameters": {"alpha": alpha, "mu_k": np.float64(mu_k)},
        "gravity": np.array([0.0, -g]),
        "bodies": [{"name": "block", "mass": np.int64(2), "inertia": 0.01}],
        "contacts": [{"type": "point_line", "name": "block-slope", "body_i": "block",
                      "line_normal": ["-sin(alpha)", "cos(alpha)"], "mu_static": 0.4, "mu_kinetic": "mu_k"}],
    }
    scenario = stickslip.Scenario.from_dict({"model": model, "run": {"t_end": 1.0}})
    assert scenario.name == "block on a slope" and scenario.source == "<dict>"
    r = stickslip.run(scenario, "event-driven")
    assert r.ok, r.message
    s = -(r.column("block.x")[-1] * np.cos(alpha) + r.column("block.y")[-1] * np.sin(alpha))  # down the slope
    assert s == pytest.approx(0.5 * g * (np.sin(alpha) - mu_k * np.cos(alpha)) * 1.0**2, rel=1e-9)


def test_from_dict_errors_name_the_key_path():
    with pytest.raises(stickslip.InputError) as e:
        stickslip.Scenario.from_dict({"scenario": "belt", "parameters": {"mu_statc": 0.2}})
    assert (e.value.file, e.value.line, e.value.key) == ("<dict>", None, "parameters.mu_statc")
    assert "did you mean 'mu_static'" in e.value.reason
    model = {"name": "m", "bodies": [{"name": "b", "mass": -1, "inertia": 1}]}
    with pytest.raises(stickslip.InputError) as e:
        stickslip.Scenario.from_dict({"model": model}, "mine")
    assert e.value.file == "mine" and e.value.line is None and e.value.key.startswith("model.bodies[0]")
    with pytest.raises(TypeError, match=r"model.bodies\[0\].mass: expected a dict, a list"):
        stickslip.Scenario.from_dict({"model": {"bodies": [{"mass": {1, 2}}]}})
    with pytest.raises(TypeError, match="keys must be strings"):
        stickslip.Scenario.from_dict({"model": {1: 2}})
    with pytest.raises(ValueError, match="model.gravity\\[1\\]: expected a finite number"):
        stickslip.Scenario.from_dict({"model": {"gravity": [0.0, float("nan")]}})
    with pytest.raises(TypeError, match="expected a dict"):
        stickslip.Scenario.from_dict("scenario: belt")
    itself = {"scenario": "belt"}
    itself["parameters"] = itself
    with pytest.raises(ValueError, match="nested more than 64 deep"):
        stickslip.Scenario.from_dict(itself)


def test_keywords_the_api_does_not_take_are_refused():
    with pytest.raises(TypeError, match="ideal: expected True or False, got 'false'"):
        stickslip.run("zheng-torque", "event-driven", t_end=0.01, ideal="false")
    for keyword in ("out", "force", "json", "set"):
        with pytest.raises(TypeError, match=keyword + ": not a keyword of the Python API"):
            stickslip.run("belt", "event-driven", t_end=0.1, **{keyword: "x"})
    with pytest.raises(ValueError, match="--t-end"):
        stickslip.run("belt", "event-driven", t_end=False)


def test_numpy_numbers_are_settings_as_pythons_are():
    a = stickslip.run("belt", "moreau-jean", t_end=np.float32(2.5), dt=np.float64(1e-3), max_steps=np.int64(10**6))
    b = stickslip.run("belt", "moreau-jean", t_end=float(np.float32(2.5)), dt=1e-3, max_steps=10**6)
    assert a.ok and a.json()["final_q"] == b.json()["final_q"]
    scenario = stickslip.Scenario("belt").set("parameters.stiffness", np.int32(3))
    assert scenario.parameters["stiffness"] == 3
    # A 0-d array is its number (a float one is no index: not truncated to 2); a complex number
    # or an array is refused rather than cut down.
    assert stickslip.run("belt", "event-driven", t_end=np.array(2.7)).t[-1] == 2.7
    assert stickslip.Scenario("belt").set("parameters.mass", np.array(0.5)).parameters["mass"] == 0.5
    for value in (np.complex128(0.5 + 2j), 0.5 + 0j, np.array([2.7])):
        with pytest.raises(TypeError):
            stickslip.run("belt", "event-driven", t_end=value)


def test_parameters_are_the_models_values_with_the_settings():
    scenario = stickslip.Scenario("belt")
    assert scenario.parameters["mu_static"] == 0.15 and scenario.parameters["stiffness"] == 2
    copy = scenario.copy().set("parameters.mu_static", 0.25)
    assert copy.parameters["mu_static"] == 0.25 and scenario.parameters["mu_static"] == 0.15
    model = stickslip.Scenario.from_yaml(stickslip.Scenario("incline").show())
    assert model.parameters == stickslip.Scenario("incline").parameters


def test_show_prints_a_file_that_reads_back():
    scenario = stickslip.Scenario("incline").set("parameters.mu_static", 0.45)
    text = scenario.show()
    assert "mu_static: 0.45" in text
    again = stickslip.Scenario.from_yaml(text)
    a = stickslip.run(scenario, "event-driven", t_end=5.0)
    b = stickslip.run(again, "event-driven", t_end=5.0)
    assert a.events == b.events and len(a.events) > 0


def test_compare_returns_the_cli_tables():
    c = stickslip.compare(stickslip.Scenario("belt"), ["event-driven", "penalty:ambrosio"], t_end=10.0)
    assert [row["method"] for row in c["summary"]] == ["event-driven", "penalty:ambrosio"]
    expected = cli_json("compare", "belt", "--methods", "event-driven,penalty:ambrosio", "--t-end", "10",
                        "--out-dir", os.environ.get("TMPDIR", "/tmp") + "/stickslip-pytest-compare", "--force")
    cli_dev = {(m["label"], o): d for m in expected["methods"] for o, d in m.get("deviations", {}).items()}
    assert c["deviations"], "no deviations"
    for d in c["deviations"]:
        ref = cli_dev[(d["method"], d["output"])]
        assert d["max"] == ref["max"] and d["rms"] == ref["rms"]
    assert all(d["max"] == 0.0 for d in c["deviations"] if d["method"] == "event-driven")
    assert c["runs"]["penalty:ambrosio"].ok
    # Methods as --methods reads them: /ideal, and a repeat labelled as the CLI labels it.
    c = stickslip.compare("zheng-torque", ["event-driven", "event-driven/ideal", "event-driven"], t_end=0.05)
    assert list(c["runs"]) == ["event-driven", "event-driven/ideal", "event-driven (2)"]
    ideal = cli_json("run", "zheng-torque", "--method", "event-driven", "--ideal", "--t-end", "0.05")
    assert c["runs"]["event-driven/ideal"].json()["final_q"] == ideal["final_q"]
    assert stickslip.run("zheng-torque", "event-driven/ideal", t_end=0.05).json()["final_q"] == ideal["final_q"]
    assert any(d["max"] > 0 for d in c["deviations"] if d["method"] == "event-driven/ideal")


def test_a_spatial_scenario_runs_as_the_cli_runs_it():
    # The thesis' frictional spatial slider-crank (Table 4.1): the exact route and the
    # thesis' Coulomb law, each equal to the CLI's run; the columns named by the model.
    scenario = stickslip.Scenario("spatial-slider-crank-friction")
    assert scenario.parameters["mu_static"] == 0.2 and scenario.parameters["slider_length"] == 0.01
    for method in ("event-driven", "penalty"):
        r = stickslip.run(scenario, method, t_end=0.3)
        expected = cli_json("run", "spatial-slider-crank-friction", "--method", method, "--t-end", "0.3")
        assert r.ok, r.message
        assert r.events == expected["events"] and len(r.events) > 0  # the reversal near the dead centre
        assert r.json()["final_q"] == expected["final_q"]
        assert {"slider.z", "slider.vz", "rod.e0", "guide.F", "guide.v_t"} <= set(r.columns)
        # q and v: x, y, z, e0 … e3 and vx, vy, vz, wx, wy, wz per body, in the history's order.
        assert r.q.shape == (len(r.t), 7 * 3) and r.v.shape == (len(r.t), 6 * 3)
        np.testing.assert_array_equal(r.q[:, 7 * 2 + 2], r.column("slider.z"))
        np.testing.assert_array_equal(r.v[:, 6 + 4], r.column("rod.wy"))
    page = stickslip.animate(scenario, [r])  # drawn in 3D by the embedded three.js
    assert "THREE.OrbitControls" in page and '"stride":11' in page and "spatial-slider-crank-friction: penalty" in page
    # The rigid clearance joint: Moreau-Jean with spatial Coulomb on the faceted cone, as the CLI.
    clearance = stickslip.Scenario("spatial-slider-crank-clearance").set("parameters.mu_static", 0.2)
    r = stickslip.run(clearance, "moreau-jean", t_end=0.05, solver="lemke", facets=16)
    expected = cli_json("run", "spatial-slider-crank-clearance", "--method", "moreau-jean", "--t-end", "0.05",
                        "--solver", "lemke", "--facets", "16", "--set", "parameters.mu_static=0.2")
    assert r.ok, r.message
    assert r.json()["contact_solver"] == "lemke (16 facets)"
    assert r.json()["final_q"] == expected["final_q"] and len(r.events) > 0
    # And event-driven, each impact located, as the CLI.
    r = stickslip.run(stickslip.Scenario("spatial-slider-crank-clearance"), "event-driven", t_end=0.05)
    expected = cli_json("run", "spatial-slider-crank-clearance", "--method", "event-driven", "--t-end", "0.05")
    assert r.ok, r.message
    assert r.events == expected["events"] and len(r.events) > 5
    assert r.json()["final_q"] == expected["final_q"]
    # With Table 4.4's friction through the impact law newton-tangential, as the CLI.
    frictional = clearance.set("parameters.mu_kinetic", 0.1)
    r = stickslip.run(frictional, "event-driven", t_end=0.1, impact_law="newton-tangential")
    expected = cli_json("run", "spatial-slider-crank-clearance", "--method", "event-driven", "--t-end", "0.1",
                        "--set", "parameters.mu_static=0.2", "--set", "parameters.mu_kinetic=0.1",
                        "--impact-law", "newton-tangential")
    assert r.ok, r.message
    assert r.json()["final_q"] == expected["final_q"] and r.json()["max_penetration"] < 3e-9


def test_animate_draws_the_runs_as_the_cli_does(tmp_path):
    s = stickslip.Scenario("belt")
    runs = [stickslip.run(s, "event-driven", t_end=10.0), stickslip.run(s, "penalty:ambrosio", t_end=10.0)]
    page = stickslip.animate(s, runs, str(tmp_path / "belt.html"))
    assert (tmp_path / "belt.html").read_text() == page
    assert 'id="mode-1-0"' in page and "https:" not in page and "http:" not in page
    # The CLI's page for the same runs is the same page.
    subprocess.run([CLI, "animate", "belt", "--methods", "event-driven,penalty:ambrosio", "--t-end", "10",
                    "--out", str(tmp_path / "cli.html")], check=True, capture_output=True)
    cli_page = (tmp_path / "cli.html").read_text()
    assert cli_page == page
    with pytest.raises(TypeError, match="got None"):
        stickslip.animate(s, [runs[0], None])
    with pytest.raises(ValueError, match="exists; pass force=True"):
        stickslip.animate(s, runs, str(tmp_path / "belt.html"))
    with pytest.raises(ValueError, match="no column 'crank.x'"):
        stickslip.animate(stickslip.Scenario("zheng-torque"), runs)


def dat_files():
    files = sorted(glob.glob(os.path.join(DATA, "*", "*.dat")))
    files = [f for f in files if os.path.basename(os.path.dirname(f)) in ("lcp", "mlcp", "fc2d")]
    assert files, f"no problems in {DATA}"
    return files


@pytest.mark.parametrize("path", dat_files(), ids=os.path.basename)
def test_lcp_solve_on_siconos_problems_gives_the_cli_z(path):
    out = subprocess.run([CLI, "lcp", path, "--json"], capture_output=True, text=True)
    if out.returncode == 2:  # a file the reader refuses: so does read_dat, naming it
        with pytest.raises(ValueError, match=os.path.basename(path)):
            stickslip.lcp.read_dat(path)
        return
    expected = json.loads(out.stdout)  # exit 1 when unsolved, with its JSON
    problem = stickslip.lcp.read_dat(path)
    assert problem["kind"] == expected["kind"]
    if problem["kind"] == "lcp":
        r = stickslip.lcp.solve(problem["M"], problem["q"])
        got = {"z": r.z, "w": r.w}
    elif problem["kind"] == "fc2d" and isinstance(problem["W"], dict):  # stored compressed
        w = problem["W"]
        assert w["shape"] == (len(problem["q"]), len(problem["q"])) and len(w["row"]) == len(w["value"]) > 0
        dense = np.zeros(w["shape"])
        np.add.at(dense, (w["row"], w["col"]), w["value"])
        assert np.allclose(dense, dense.T, rtol=0, atol=1e-3 * abs(dense).max())  # a Delassus matrix
        return
    elif problem["kind"] == "fc2d":
        r = stickslip.lcp.solve_friction(problem["W"], problem["q"], problem["mu"])
        got = {"z": r.r, "w": r.u}
    else:
        r = stickslip.lcp.solve_mlcp(*(problem[k] for k in "ABCDab"))
        got = {"u": r.u, "z": r.v, "w": r.w}
    assert r.status == expected["status"] and r.pivots == expected["pivots"]
    if expected["status"] == "solved":
        for key, value in got.items():
            assert value.tolist() == expected[key], key
        assert r.residual == expected["residual"]


def test_lcp_solvers_agree_and_report_failures():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((8, 8))
    m, q = a @ a.T + 0.1 * np.eye(8), rng.standard_normal(8)
    lemke, enum = stickslip.lcp.solve(m, q), stickslip.lcp.solve(m, q, solver="enum")
    assert lemke.ok and enum.ok
    np.testing.assert_allclose(lemke.z, enum.z, atol=1e-10)
    w = m @ lemke.z + q
    assert lemke.z.min() >= 0 and w.min() >= -1e-12 and abs(lemke.z @ w) < 1e-10
    # No solution: z = 0 gives w = q < 0, and M = -I only lowers w.
    bad = stickslip.lcp.solve(-np.eye(2), np.array([-1.0, -1.0]))
    assert not bad.ok and bad.status != "solved"
    with pytest.raises(ValueError, match="solver"):
        stickslip.lcp.solve(m, q, solver="magic")
    # A caller's mistake raises with both shapes; only the solver's failures are statuses.
    with pytest.raises(ValueError, match=r"q has shape \(2,\), expected \(3,\)"):
        stickslip.lcp.solve(np.eye(3), np.zeros(2))
    with pytest.raises(ValueError, match=r"M has shape \(2, 3\), expected \(2, 2\)"):
        stickslip.lcp.solve(np.ones((2, 3)), np.ones(2))
    with pytest.raises(ValueError, match="NaN or an infinite"):
        stickslip.lcp.solve(np.eye(2), np.array([np.nan, 1.0]))
    with pytest.raises(ValueError, match=r"W has shape \(2, 2\), expected \(4, 4\)"):
        stickslip.lcp.solve_friction(np.eye(2), np.zeros(4), np.array([0.1, 0.2]))
    with pytest.raises(ValueError, match=r"C has shape \(1, 1\), expected \(1, 2\)"):
        stickslip.lcp.solve_mlcp(np.eye(1), np.eye(2), np.eye(1), np.ones((2, 1)), np.zeros(1), np.zeros(2))
    assert "siconos-lemke" in stickslip.lcp.solvers("fc2d")
    # Complex numbers are refused, not cut to their real parts with a warning; so is text.
    with pytest.raises(TypeError, match="M holds complex numbers"):
        stickslip.lcp.solve(np.eye(2) + 0j, np.ones(2))
    with pytest.raises(TypeError, match="mu holds complex numbers"):
        stickslip.lcp.solve_friction(np.eye(2), np.ones(2), [0.1 + 1j])
    with pytest.raises(TypeError, match="b: expected an array of real numbers"):
        stickslip.lcp.solve_mlcp(np.eye(1), np.eye(1), np.eye(1), np.eye(1), np.zeros(1), "b")


def test_spatial_friction_on_the_round_cone_as_the_cli():
    problem = stickslip.lcp.read_dat(os.path.join(DATA, "fc3d", "Rover1039.dat"))
    r = stickslip.lcp.solve_friction(problem["W"], problem["q"], problem["mu"])  # three entries per contact: fc3d
    assert r.ok and r.solver in ("newton", "nsgs+newton") and r.relative_residual <= 1e-10
    cli = cli_json("lcp", os.path.join(DATA, "fc3d", "Rover1039.dat"))
    assert r.r.tolist() == cli["z"] and r.solver == cli["solver"]
    # Coulomb's law term by term: in the cone, u_n >= 0, complementary.
    rr, u = r.r.reshape(-1, 3), r.u.reshape(-1, 3)
    assert (np.hypot(rr[:, 1], rr[:, 2]) <= problem["mu"] * rr[:, 0] + 1e-9).all()
    assert (u[:, 0] >= -1e-9).all() and abs(rr[:, 0] @ u[:, 0]) < 1e-9
    assert {"auto", "nsgs", "newton", "lemke", "siconos-nsn-ac"} <= set(stickslip.lcp.solvers("fc3d"))
    with pytest.raises(ValueError, match=r"W has shape \(3, 3\), expected \(6, 6\)"):
        stickslip.lcp.solve_friction(np.eye(3), np.zeros(6), np.array([0.1, 0.2]))
    # The faceted cone's directions, as `lcp --facets`; only where that cone is used.
    faceted = stickslip.lcp.solve_friction(problem["W"], problem["q"], problem["mu"], "lemke", facets=16)
    cli = cli_json("lcp", os.path.join(DATA, "fc3d", "Rover1039.dat"), "--solver", "lemke", "--facets", "16")
    assert faceted.r.tolist() == cli["z"]
    with pytest.raises(ValueError, match="facets: the faceted cone is solver 'lemke''s"):
        stickslip.lcp.solve_friction(problem["W"], problem["q"], problem["mu"], facets=16)
    with pytest.raises(ValueError, match="facets: expected 3"):
        stickslip.lcp.solve_friction(problem["W"], problem["q"], problem["mu"], "lemke", facets=2)
    # A W that is no Delassus matrix is solved and flagged, as the CLI flags it.
    assert r.warning == ""
    skew = stickslip.lcp.solve_friction(np.array([[1.0, 0, 0], [0.5, 1, 0], [0, 0, 1]]), np.array([-1.0, 0, 0]),
                                        np.array([0.3]))
    assert "symmetric" in skew.warning


HOSTILE = [0.0, -0.0, -1.0, 5e-324, 1e-310, 1e-300, 1e-12, 0.5, 2.0, 1e9, 1e300, float("inf"), float("-inf"),
           float("nan"), 10**30, "1e400", "x"]


def test_hostile_keywords_give_a_value_error_or_an_honest_status():
    """The fuzz target's invariant through Python's keywords (fuzz/fuzz_run_options.cpp): a
    ValueError naming the option, or a result that is ok only at t_end, a failure with its
    message. The budget keywords keep each run short."""
    rng = random.Random(47)
    scenarios = [stickslip.Scenario("belt"), stickslip.Scenario("blajer-1")]
    keys = ["t_end", "dt", "output_dt", "tolerance", "event_tolerance", "theta"]
    outcomes = {"refused": 0, "ok": 0, "failed": 0}
    for _ in range(160):
        scenario = rng.choice(scenarios)
        method = rng.choice(["event-driven", "moreau-jean", "penalty", "minimal-form"])
        settings = {k: rng.choice(HOSTILE) for k in rng.sample(keys, rng.randint(1, 3))}
        settings.update(max_steps=2e4, max_samples=2e3, max_events=2e3)
        try:
            result = stickslip.run(scenario, method, **settings)
        except ValueError as e:
            assert str(e), settings
            outcomes["refused"] += 1
            continue
        asked = result.json()["t_end"]
        if result.ok:
            assert result.steps > 0 and result.t[-1] >= asked * (1 - 1e-9), (method, settings)
            outcomes["ok"] += 1
        else:
            assert result.status != "ok" and result.message, (method, settings)
            outcomes["failed"] += 1
    assert min(outcomes.values()) > 0, outcomes  # every outcome was met


def test_a_device_is_no_file_to_read():
    # /dev/zero's stream never ends: refused at once, not read until memory runs out.
    with pytest.raises(ValueError, match="is a device, not a file"):
        stickslip.lcp.read_dat("/dev/zero")
    with pytest.raises(stickslip.InputError, match="is a device, not a file"):
        stickslip.Scenario("/dev/zero")


def test_bytes_that_are_not_utf8_are_quoted_back_not_lost(tmp_path):
    # A message quoting a byte 0xFF from the file: before, an empty ValueError (a .dat file) or a
    # UnicodeDecodeError (a scenario file) in place of the error.
    dat = tmp_path / "bad_lcp.dat"
    dat.write_bytes(b"1\n\xff\n")
    with pytest.raises(ValueError, match="bad_lcp.dat:2: expected an integer for M storage type, got '\ufffd'"):
        stickslip.lcp.read_dat(str(dat))
    yaml = tmp_path / "bad.yaml"
    yaml.write_bytes(b"scenario: belt\nparameters: {mass: \xff}\n")
    with pytest.raises(stickslip.InputError) as e:
        stickslip.Scenario(str(yaml))
    assert (e.value.line, e.value.key) == (2, "parameters.mass") and "\ufffd" in e.value.reason


def test_a_method_and_a_keyword_that_contradict_are_refused():
    with pytest.raises(ValueError, match="ideal=False contradicts the method's /ideal"):
        stickslip.run("journal-bearing", "event-driven/ideal", ideal=False, t_end=0.01)


def test_siconos_solves_on_two_threads_leave_the_output_where_it_was():
    # Each Siconos call silences stdout and stderr; two at once once restored /dev/null for good.
    code = ("import threading, numpy as np, stickslip\n"
            "M, q = np.eye(3) * 2.0, -np.ones(3)\n"
            "def solve():\n"
            "    for _ in range(300): stickslip.lcp.solve(M, q, 'siconos-lemke')\n"
            "threads = [threading.Thread(target=solve) for _ in range(2)]\n"
            "[t.start() for t in threads]; [t.join() for t in threads]\n"
            "print('still here')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout == "still here\n", out.stderr


def test_runs_beyond_the_budget_are_refused_before_they_start():
    belt = stickslip.Scenario("belt")
    with pytest.raises(ValueError, match=r"needs 2e\+13 history samples, more than --max-samples 1e\+07"):
        stickslip.run(belt, "event-driven", output_dt=1e-12)
    with pytest.raises(ValueError, match=r"--dt 1e-300 needs 2e\+301 steps, more than --max-steps"):
        stickslip.run(belt, "moreau-jean", dt=1e-300)
    with pytest.raises(ValueError, match=r"--t-end: expected a number > 0, got inf"):
        stickslip.run(belt, "penalty", t_end=float("inf"))
    with pytest.raises(ValueError, match="denormal"):
        stickslip.run(belt, "moreau-jean", dt=5e-324)
    with pytest.raises(ValueError, match="--t-end"):
        stickslip.run(belt, "moreau-jean", t_end="x")


def test_runs_release_the_gil_and_run_safely_side_by_side():
    scenario = stickslip.Scenario("belt")
    settings = dict(method="moreau-jean", dt=1e-5, t_end=10.0, output_dt=1.0)
    start = time.perf_counter()
    alone = stickslip.run(scenario, **settings)
    one = time.perf_counter() - start
    # While a run goes on in a thread, this thread keeps running Python. (Not timed against
    # a second core: the machine is shared; the manual's Python page (docs/guide/python.md) gives the measurement.)
    ticks = 0
    worker = threading.Thread(target=stickslip.run, args=(scenario,), kwargs=settings)
    worker.start()
    while worker.is_alive():
        ticks += 1
        time.sleep(0.001)
    assert ticks > 0.15 * one / 0.001, f"{ticks} ticks in a {one:.2f} s run: it held the GIL"
    # Runs on two threads at once give the run alone's answer (no shared state).
    results = [None, None]

    def run(k):
        results[k] = stickslip.run(scenario, **settings)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for r in results:
        assert r.events == alone.events and r.json()["final_q"] == alone.json()["final_q"]


def test_example_draws_the_figure(tmp_path):
    example = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "compare_nonsmooth_regularized.py")
    out = tmp_path / "belt.png"
    subprocess.run(["/usr/bin/python3", example, "belt", "--t-end", "10", "--out", str(out)], check=True,
                   env=dict(os.environ))
    assert out.stat().st_size > 10000
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # What it wrote stays unless --force; --t-end 0 is refused, not read as "not given".
    size = out.stat().st_size
    again = subprocess.run(["/usr/bin/python3", example, "belt", "--t-end", "5", "--out", str(out)],
                           capture_output=True, text=True, env=dict(os.environ))
    assert again.returncode == 2 and "file exists; pass --force" in again.stderr and out.stat().st_size == size
    zero = subprocess.run(["/usr/bin/python3", example, "belt", "--t-end", "0", "--out", str(tmp_path / "z.png")],
                          capture_output=True, text=True, env=dict(os.environ))
    assert zero.returncode == 2 and "t-end" in zero.stderr
    # An --out matplotlib cannot write is refused before the runs, with exit 2, not a traceback.
    for out, why in ((tmp_path / "no" / "x.png", "no folder"), (tmp_path, "is a folder"),
                     (tmp_path / "x.txt", "expected a file ending in one of")):
        bad = subprocess.run(["/usr/bin/python3", example, "belt", "--out", str(out), "--force"],
                             capture_output=True, text=True, env=dict(os.environ))
        assert bad.returncode == 2 and why in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
