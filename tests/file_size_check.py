#!/usr/bin/env python3
"""Holds polyrt's library and package sources to a size a reader can take
in: no hand-written file over 900 lines (issue 50's measure). Generated
tables (word lists, locale lists: `*.inc`) are exempt. A file that grows
past the bound fails here, named with its length: split it by
responsibility (docs/architecture.md says how the large ones are split).

    tests/file_size_check.py [ROOT]    (ROOT: the tree to check, default this one)
    tests/file_size_check.py --planted (the check catches a planted long file)
"""
import os
import subprocess
import sys
import tempfile

FOLDERS = ["core", "codegen", "cpu_backend", "gpu_backend", "scheduler", "cli", "python"]
SUFFIXES = (".cpp", ".hpp", ".h", ".py")
MAX_LINES = 900


def planted() -> int:
    """A 901-line file in a scratch tree fails the check, naming it; 900
    lines and a generated .inc of any length pass."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "core", "graph"))
        with open(os.path.join(root, "core", "graph", "fine.cpp"), "w") as f:
            f.write("x\n" * MAX_LINES)
        with open(os.path.join(root, "core", "graph", "table.inc"), "w") as f:
            f.write("x\n" * 5000)
        ok = subprocess.run([sys.executable, __file__, root], capture_output=True, text=True)
        with open(os.path.join(root, "core", "graph", "long.cpp"), "w") as f:
            f.write("x\n" * (MAX_LINES + 1))
        bad = subprocess.run([sys.executable, __file__, root], capture_output=True, text=True)
    if ok.returncode != 0 or bad.returncode != 1 or "core/graph/long.cpp: 901 lines" not in bad.stdout:
        print("the check missed a planted file:", ok.stdout, bad.stdout)
        return 1
    print("a planted 901-line file is caught; 900 lines and a generated table pass")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--planted"]:
        return planted()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    too_long = []
    for folder in FOLDERS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
            dirnames[:] = [d for d in dirnames if d not in ("tests", "__pycache__")]
            for name in filenames:
                if not name.endswith(SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    lines = sum(1 for _ in f)
                if lines > MAX_LINES:
                    too_long.append((lines, os.path.relpath(path, root)))
    for lines, path in sorted(too_long, reverse=True):
        print(f"{path}: {lines} lines, over {MAX_LINES}: split it by responsibility")
    if too_long:
        return 1
    print(f"every source file is at most {MAX_LINES} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
