"""The source tree reads as the architecture (dynamics/README.md): no file includes one on a
higher floor, a route's folder includes no other route's, and every folder of dynamics/ says
what it holds in its README.md. The libraries stack the same way: lcp < dynamics < mechanisms
< cli."""
import os
import re
import sys

SOURCE = os.path.abspath(os.environ.get("STICKSLIP_SOURCE", os.path.join(os.path.dirname(__file__), "..")))
INCLUDE = re.compile(r'^#include "([a-z_]+)/([^"]+)"', re.M)
LIBRARIES = ["lcp", "dynamics", "mechanisms", "cli"]
FLOORS = {"integrators": 0, "friction": 0, "model": 1, "contact": 2, "mechanism": 3,
          "routes": 4, "statics": 4, "eom_methods": 4}


def sources(library):
    for root, _, files in os.walk(os.path.join(SOURCE, library)):
        for f in sorted(files):
            if f.endswith((".hpp", ".cpp")):
                path = os.path.join(root, f)
                yield os.path.relpath(path, SOURCE), open(path, encoding="utf-8").read()


def main():
    failures = []
    for library in LIBRARIES:
        for path, text in sources(library):
            for top, rest in INCLUDE.findall(text):
                if top in LIBRARIES and LIBRARIES.index(top) > LIBRARIES.index(library):
                    failures.append(f"{path}: includes {top}/{rest}, a library above {library}")
                if library != "dynamics" or top != "dynamics":
                    continue
                mine, theirs = path.split("/")[1], rest.split("/")[0]
                if mine not in FLOORS or theirs not in FLOORS:
                    failures.append(f"{path}: {mine}/ or {theirs}/ is on no floor (dynamics/README.md)")
                elif FLOORS[theirs] > FLOORS[mine]:
                    failures.append(f"{path}: includes dynamics/{rest}, on floor {FLOORS[theirs]} above its {FLOORS[mine]}")
                elif FLOORS[theirs] == FLOORS[mine] and theirs != mine:
                    failures.append(f"{path}: includes dynamics/{rest}, a sibling folder on its floor")
                elif mine == "routes" and path.count("/") == 3 and rest.count("/") == 2 \
                        and path.split("/")[2] != rest.split("/")[1]:
                    failures.append(f"{path}: includes dynamics/{rest}, another route's")
    for folder in FLOORS:
        readme = os.path.join(SOURCE, "dynamics", folder, "README.md")
        if not os.path.isfile(readme) or len(open(readme, encoding="utf-8").read().strip()) < 40:
            failures.append(f"dynamics/{folder}/README.md: missing or empty")
    for name in sorted(os.listdir(os.path.join(SOURCE, "dynamics"))):
        if name.endswith((".hpp", ".cpp")):
            failures.append(f"dynamics/{name}: a source at the top of dynamics/, on no floor")
    for f in failures:
        print("FAILED:", f)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
