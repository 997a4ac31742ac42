#!/usr/bin/env python3
"""Lists the functions longer than a limit (default 120 lines) in the libraries and the CLI.

   scripts/long_functions.py [LIMIT]        exit 1 when one is longer, naming file, line and length

A function is a definition whose header, at the start of a line (a class body's: two spaces
in), ends in `{` after its parameters or initializers; it ends at the `}` that closes it
(brace depth, strings and comments left out). Data tables (a function that only returns a
literal table) are listed apart: they are data, not steps to split."""
import os
import re
import sys

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FOLDERS = ["lcp", "dynamics", "mechanisms", "cli"]
HEADER = re.compile(r"^( {0,2})(?!(?:namespace|struct|class|enum|union|if|for|while|switch|else|return|case|do)\b)"
                    r"[A-Za-z_~][^;=]*\)[^;]*$")
TABLES = {("mechanisms/rigid_scenarios.cpp", "rigidScenarios")}


def code(line):
    """The line without its string literals and its // comment."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])*'", "''", line)
    return line.split("//")[0]


def functions(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if not HEADER.match(lines[i]) or lines[i].lstrip().startswith(("//", "#", "/*", "*")):
            i += 1
            continue
        j = i  # the header may continue (initializers) until its opening brace
        while j < len(lines) and "{" not in code(lines[j]) and not code(lines[j]).rstrip().endswith(";"):
            j += 1
        if j >= len(lines) or "{" not in code(lines[j]) or j - i > 8:
            i += 1
            continue
        depth, k = 0, j
        while k < len(lines):
            c = code(lines[k])
            depth += c.count("{") - c.count("}")
            if depth <= 0:
                break
            k += 1
        name = re.search(r"([A-Za-z_~][\w:~]*)\s*\(", lines[i])
        yield i + 1, k - i + 1, name.group(1) if name else lines[i].strip()[:40]
        i = k + 1


def main():
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 120
    long, tables = [], []
    for folder in FOLDERS:
        for root, _, files in os.walk(os.path.join(SOURCE, folder)):
            for f in sorted(files):
                if not f.endswith((".cpp", ".hpp")):
                    continue
                path = os.path.join(root, f)
                rel = os.path.relpath(path, SOURCE)
                for line, length, name in functions(path):
                    if length > limit:
                        (tables if (rel, name.split("::")[-1]) in TABLES else long).append((length, rel, line, name))
    for length, rel, line, name in sorted(long, reverse=True):
        print(f"{rel}:{line}: {name}: {length} lines")
    for length, rel, line, name in tables:
        print(f"{rel}:{line}: {name}: {length} lines (a data table)")
    print(f"{len(long)} functions over {limit} lines")
    return 1 if long else 0


if __name__ == "__main__":
    sys.exit(main())
