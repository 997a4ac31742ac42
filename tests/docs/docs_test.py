"""The manual cannot rot: it builds without a warning, every page is reachable, every link
resolves, no paragraph is a wall of text, the options reference is the program's own, and
every command it shows runs.

1. `mkdocs build --strict` (Debian's mkdocs): no warning (a broken link between pages is one).
2. Every page of docs/ is in mkdocs.yml's navigation; every relative link of README.md exists;
   no paragraph (a list item is one) of README.md or docs/ is longer than 8 lines of 100
   characters.
3. docs/reference/options.md equals `stickslip --help-markdown`, docs/verification-rows.md
   `stickslip verify --markdown` (which must pass).
4. The examples: each line `$ COMMAND` in a code block of README.md or docs/, and each line of
   a ```sh block that runs stickslip, is run with bash in a scratch directory per page (in page
   order, so that a file one command writes is there for the next), with stickslip and
   build/bin/stickslip the executable under test and mechanisms/, scripts/, tests/ the
   project's. Its exit code must be 0, or N where the line ends with "# exit N". Left out, and
   why: scripts/setup.sh and scripts/test.sh (the set-up commands: CI runs them around this
   test), scripts/bench.sh (ten minutes on a quiet machine), Slurm's sbatch and a block that
   starts with "#!" (a job script for a cluster). The README's ```python example runs with
   Debian's /usr/bin/python3.
5. The C++ API: `doxygen docs/Doxyfile`, run in the project, writes html/index.html (into a
   scratch directory; the Doxyfile itself writes build/api).

Parts, so that CTest runs them side by side (tests/CMakeLists.txt): `site` (1, 2), `generated`
(3), `examples PAGE` (4, one page), `python` (4, the README's Python), `api` (5); `pages` lists
the pages with examples; no argument runs them all.

Environment: STICKSLIP_CLI (the executable), STICKSLIP_SOURCE (the project), PYTHONPATH (the
module's build directory).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SOURCE = os.environ.get("STICKSLIP_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
SOURCE = os.path.abspath(SOURCE)
CLI = os.path.abspath(os.environ.get("STICKSLIP_CLI", os.path.join(SOURCE, "build", "bin", "stickslip")))
NOT_RUN = re.compile(r"^(scripts/(setup|test|bench)\.sh|sbatch|jid=|#)")
PARAGRAPH_LINES, LINE_WIDTH = 8, 100
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAILED:", message, flush=True)


def pages():
    out = [os.path.join(SOURCE, "README.md")]
    for root, _, files in os.walk(os.path.join(SOURCE, "docs")):
        out += [os.path.join(root, f) for f in sorted(files) if f.endswith(".md")]
    return out


def examples(path):
    """(line number, command, expected exit code) of every example of a page."""
    found, language, command, script = [], None, None, False
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line.startswith("```"):
            language = None if language is not None else line[3:].strip()
            script = None
            continue
        if script is None:  # a block that starts "#!" is a script file shown (Slurm's), not commands
            script = line.startswith("#!")
        if script:
            continue
        if command is not None:  # a continuation line
            command[1] += " " + line.strip()
        elif language is not None and line.startswith("$ "):
            command = [number, line[2:].strip()]
        elif language == "sh" and re.match(r"^(build/bin/)?stickslip ", line):
            command = [number, line.strip()]
        else:
            continue
        if command[1].endswith("\\"):
            command[1] = command[1][:-1].rstrip()
            continue
        if not NOT_RUN.match(command[1]):
            m = re.search(r"#\s*exit\s+(\d+)\s*$", command[1])
            found.append((command[0], command[1], int(m.group(1)) if m else 0))
        command = None
    return found


def run_examples(page):
    """Runs one page's examples in a scratch directory of its own; returns how many ran."""
    cases = examples(page)
    scratch = tempfile.mkdtemp(prefix="stickslip-docs-")
    for d in ("mechanisms", "scripts", "tests"):
        os.symlink(os.path.join(SOURCE, d), os.path.join(scratch, d))
    os.makedirs(os.path.join(scratch, "build", "bin"))
    os.symlink(CLI, os.path.join(scratch, "build", "bin", "stickslip"))
    env = dict(os.environ, PATH=os.path.join(scratch, "build", "bin") + os.pathsep + os.environ["PATH"])
    for number, command, expected in cases:
        where = "%s:%d" % (os.path.relpath(page, SOURCE), number)
        try:
            p = subprocess.run(["bash", "-c", command], cwd=scratch, env=env, capture_output=True, text=True,
                               timeout=600)
            code, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            code, err = "timeout", ""
        print("%s: exit %s: %s" % (where, code, command), flush=True)
        check(code == expected, "%s: `%s` exited %s, expected %d:\n%s" % (where, command, code, expected, err[-1500:]))
    shutil.rmtree(scratch)
    return len(cases)


def paragraphs(path):
    """(first line, text) of every paragraph outside code blocks, tables and headings; a list
    item starts a paragraph of its own."""
    found, lines, start, fenced = [], [], 0, False
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        text = line.strip()
        boundary = not text or text.startswith(("#", "|", "<", "![", "```")) or fenced
        if text.startswith("```"):
            fenced = not fenced
        if boundary or re.match(r"^\s*([-*+]|\d+\.)\s", line):
            if lines:
                found.append((start, lines))
            lines = []
            if boundary:
                continue
        if not lines:
            start = number
        lines.append(text)
    if lines:
        found.append((start, lines))
    return found


def check_site():
    # 1. The manual builds without a warning.
    if not shutil.which("mkdocs"):
        sys.exit("mkdocs was not found (Debian: apt-get install mkdocs; scripts/setup.sh --tests installs it)")
    site = tempfile.mkdtemp(prefix="stickslip-site-")
    p = subprocess.run(["mkdocs", "build", "--strict", "--site-dir", site], cwd=SOURCE, capture_output=True, text=True)
    log = p.stdout + p.stderr
    check(p.returncode == 0 and "WARNING" not in log, "mkdocs build --strict:\n" + log)
    check(os.path.isfile(os.path.join(site, "index.html")), "mkdocs wrote no index.html")
    shutil.rmtree(site)

    # 2. Every page reachable; README's links resolve; paragraphs a person reads.
    nav = open(os.path.join(SOURCE, "mkdocs.yml"), encoding="utf-8").read()
    for page in pages()[1:]:
        rel = os.path.relpath(page, os.path.join(SOURCE, "docs"))
        check(re.search(r":\s*%s\s*$" % re.escape(rel), nav, re.M) is not None, "docs/%s is not in mkdocs.yml's nav" % rel)
    readme = open(os.path.join(SOURCE, "README.md"), encoding="utf-8").read()
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", readme):
        check(os.path.exists(os.path.join(SOURCE, target)), "README.md links to %s, which does not exist" % target)
    check(readme.count("\n") <= 150, "README.md has %d lines (at most 150)" % readme.count("\n"))
    for page in pages():
        for start, lines in paragraphs(page):
            length = max(len(lines), -(-len(" ".join(lines)) // LINE_WIDTH))
            check(length <= PARAGRAPH_LINES, "%s:%d: a paragraph of %d lines (at most %d of %d characters): split it, "
                  "or make it a list" % (os.path.relpath(page, SOURCE), start, length, PARAGRAPH_LINES, LINE_WIDTH))
    total = sum(len(examples(page)) for page in pages())
    check(total >= 20, "only %d examples found" % total)


def check_generated():
    # 3. The options reference and the verify rows are the program's.
    p = subprocess.run([CLI, "--help-markdown"], capture_output=True, text=True, check=True)
    reference = open(os.path.join(SOURCE, "docs", "reference", "options.md"), encoding="utf-8").read()
    check(p.stdout == reference, "docs/reference/options.md differs from `stickslip --help-markdown` "
                                 "(regenerate: build/bin/stickslip --help-markdown > docs/reference/options.md)")
    p = subprocess.run([CLI, "verify", "--markdown"], capture_output=True, text=True)
    rows = open(os.path.join(SOURCE, "docs", "verification-rows.md"), encoding="utf-8").read()
    check(p.returncode == 0, "stickslip verify fails:\n" + p.stderr)
    check(p.stdout == rows, "docs/verification-rows.md differs from `stickslip verify --markdown` "
                            "(regenerate: build/bin/stickslip verify --markdown > docs/verification-rows.md)")


def check_python():
    # The README's Python example runs too (the module on PYTHONPATH, as CTest sets it).
    readme = open(os.path.join(SOURCE, "README.md"), encoding="utf-8").read()
    blocks = re.findall(r"^```python\n(.*?)^```", readme, re.M | re.S)
    check(blocks, "README.md has no Python example")
    for code in blocks:
        p = subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True, cwd=tempfile.gettempdir())
        print("README.md: python example: exit %d" % p.returncode, flush=True)
        check(p.returncode == 0, "README.md's Python example fails:\n" + p.stderr[-1500:])


def check_api():
    # 5. The API from the headers.
    if not shutil.which("doxygen"):
        sys.exit("doxygen was not found (Debian: apt-get install doxygen; scripts/setup.sh --tests installs it)")
    api = tempfile.mkdtemp(prefix="stickslip-api-")  # docs/Doxyfile's own is build/api
    config = open(os.path.join(SOURCE, "docs", "Doxyfile"), encoding="utf-8").read() + "\nOUTPUT_DIRECTORY = %s\n" % api
    p = subprocess.run(["doxygen", "-"], input=config, cwd=SOURCE, capture_output=True, text=True)
    check(p.returncode == 0 and os.path.isfile(os.path.join(api, "html", "index.html")),
          "doxygen docs/Doxyfile failed:\n" + p.stderr[-2000:])
    shutil.rmtree(api)


def main(args):
    if args == ["pages"]:
        print("\n".join(os.path.relpath(page, SOURCE) for page in pages() if examples(page)))
        return
    parts = {"site": check_site, "generated": check_generated, "python": check_python, "api": check_api}
    if not args:
        for part in parts.values():
            part()
        for page in pages():
            run_examples(page)
    elif args[0] == "examples" and len(args) == 2:
        check(run_examples(os.path.join(SOURCE, args[1])) > 0, "%s has no example to run" % args[1])
    elif len(args) == 1 and args[0] in parts:
        parts[args[0]]()
    else:
        sys.exit("usage: docs_test.py [site | generated | examples PAGE | python | api | pages]")
    if failures:
        sys.exit("%d check(s) failed" % len(failures))
    print("ok")


if __name__ == "__main__":
    main(sys.argv[1:])
