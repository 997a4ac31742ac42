"""`pip install --no-build-isolation .` installs the module into a fresh virtual environment.

A virtual environment made with --system-site-packages (Debian's numpy, setuptools and wheel
serve it; --no-index: nothing is downloaded) installs the project from its source. The
installed module is the one imported, with PYTHONPATH and the user's site directory (where
scripts/setup.sh's .pth is) out of the way; it runs a scenario; `pip show` gives the project's
version; `pip uninstall` takes it away again.

Environment: STICKSLIP_SOURCE (the project), STICKSLIP_BUILD_DIR (its CMake build tree, which
setup.py builds the module in: here nothing is left to build).
"""
import os
import re
import subprocess
import sys
import tempfile

SOURCE = os.path.abspath(os.environ.get("STICKSLIP_SOURCE", os.path.join(os.path.dirname(__file__), "..", "..")))


def run(args, **kw):
    print("$", " ".join(args), flush=True)
    p = subprocess.run(args, capture_output=True, text=True, **kw)
    print(p.stdout[-3000:], p.stderr[-3000:], sep="", flush=True)
    return p


def main():
    scratch = tempfile.mkdtemp(prefix="stickslip-pip-")
    venv = os.path.join(scratch, "venv")
    python = os.path.join(venv, "bin", "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONNOUSERSITE"] = "1"

    assert run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv]).returncode == 0, "venv failed"
    p = run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-cache-dir",
             "--disable-pip-version-check", SOURCE], env=env, cwd=scratch)
    assert p.returncode == 0, "pip install failed"

    check = ("import stickslip; print(stickslip.__file__); "
             "r = stickslip.run('belt', 'event-driven', t_end=8.0); print(r.status, len(r.events))")
    p = run([python, "-c", check], env=env, cwd=scratch)
    assert p.returncode == 0, "the installed module does not import or run"
    module, result = p.stdout.splitlines()[:2]
    assert module.startswith(venv + os.sep), "imported %s, not the environment's module" % module
    assert result.split()[0] == "ok" and int(result.split()[1]) > 0, "the belt did not run: " + result

    version = re.search(r"project\(stickslip VERSION ([0-9.]+)", open(os.path.join(SOURCE, "CMakeLists.txt")).read())
    p = run([python, "-m", "pip", "show", "stickslip"], env=env, cwd=scratch)
    assert "Version: %s" % version.group(1) in p.stdout, "pip show gives another version"

    assert run([python, "-m", "pip", "uninstall", "-y", "stickslip"], env=env, cwd=scratch).returncode == 0
    gone = run([python, "-c", "import stickslip"], env=env, cwd=scratch).returncode != 0
    assert gone, "still importable after uninstall"
    print("pip install: ok")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        sys.exit("FAILED: %s" % e)
