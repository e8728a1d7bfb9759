#!/usr/bin/env python3
"""Holds polyrt's library, command and Python module functions to a
cyclomatic complexity a reader can follow: none over 30 (lizard's CCN,
issue 50's measure), but the tables listed in EXEMPT, whose cases are
entries rather than paths. A function past the bound fails here, named
with its complexity: split it by what each branch does.

    tests/complexity_check.py LIZARD [ROOT]     (ROOT: the tree, default this one)
    tests/complexity_check.py LIZARD --planted  (the check catches a planted function)
"""
import os
import re
import subprocess
import sys
import tempfile

FOLDERS = ["core", "codegen", "cpu_backend", "gpu_backend", "scheduler", "cli", "python/src"]
MAX_CCN = 30
# Function -> why it may branch more: each is a table.
EXEMPT = {
    "polyrt::codegen::lowers_inline": "the NVPTX operations LLVM expands inline, one case each",
}
WARNING = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+): warning: (?P<name>\S+) has .* (?P<ccn>\d+) CCN")


def offenders(lizard: str, root: str) -> list:
    folders = [os.path.join(root, f) for f in FOLDERS if os.path.isdir(os.path.join(root, f))]
    run = subprocess.run([lizard, "-l", "cpp", "-C", str(MAX_CCN), "-w", *folders],
                         capture_output=True, text=True)
    found = []
    for line in run.stdout.splitlines():
        match = WARNING.match(line)
        if match and match["name"] not in EXEMPT:
            found.append((int(match["ccn"]), os.path.relpath(match["path"], root), match["line"],
                          match["name"]))
    return found


def function_of(ccn: int) -> str:
    """A C++ function of complexity `ccn`: one path and ccn - 1 ifs."""
    body = "".join(f"  if (x == {k}) return {k};\n" for k in range(ccn - 1))
    return f"int branches(int x) {{\n{body}  return -1;\n}}\n"


def planted(lizard: str) -> int:
    """A function of CCN 31 in a scratch tree fails the check, naming it;
    one of 30 passes."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "core", "graph"))
        path = os.path.join(root, "core", "graph", "planted.cpp")
        with open(path, "w") as f:
            f.write(function_of(MAX_CCN))
        fine = offenders(lizard, root)
        with open(path, "w") as f:
            f.write(function_of(MAX_CCN + 1))
        bad = offenders(lizard, root)
    if fine or [(ccn, name) for ccn, _, _, name in bad] != [(MAX_CCN + 1, "branches")]:
        print("the check missed a planted function:", fine, bad)
        return 1
    print(f"a planted function of CCN {MAX_CCN + 1} is caught; one of {MAX_CCN} passes")
    return 0


def main() -> int:
    lizard = sys.argv[1]
    if sys.argv[2:] == ["--planted"]:
        return planted(lizard)
    root = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = offenders(lizard, root)
    for ccn, path, line, name in sorted(found, reverse=True):
        print(f"{path}:{line}: {name} has CCN {ccn}, over {MAX_CCN}: split it by what each branch does")
    if found:
        return 1
    print(f"no function over CCN {MAX_CCN} (exempt tables: {', '.join(EXEMPT)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
