#!/usr/bin/env python3
"""Holds the README's promise that values never come from the C library's
math (libm), whose last bits differ between hosts and versions: outside the
rtlib (core/rtlib/, polyrt's own exp, ln, pow, sin, ...), no code that makes
values calls a libm transcendental function. The generators log_steps and
geometric_until, the partition recipes ln:, zipf:, pareto: and lid_mle once
did; they call the rtlib's pd_ln, pd_exp, pd_pow."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ("core", "codegen", "cpu_backend", "gpu_backend")
CALL = re.compile(
    r"\bstd::(log|log2|log10|log1p|exp|exp2|expm1|pow|sin|cos|tan|asin|acos|atan|atan2|"
    r"sinh|cosh|tanh|asinh|acosh|atanh|cbrt|hypot|erf|erfc|tgamma|lgamma)\s*\("
)


def main() -> int:
    problems = []
    for folder in FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            if os.path.relpath(dirpath, ROOT).startswith(os.path.join("core", "rtlib")):
                continue
            for name in files:
                if not name.endswith((".cpp", ".hpp", ".h", ".inc")):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        code = line.split("//", 1)[0]
                        m = CALL.search(code)
                        if m:
                            rel = os.path.relpath(path, ROOT)
                            problems.append(f"{rel}:{number}: std::{m.group(1)} is libm's; use the rtlib's")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} libm call(s) where values are made (tests/no_libm_check.py)")
        return 1
    print("no libm call where values are made")
    return 0


if __name__ == "__main__":
    sys.exit(main())
