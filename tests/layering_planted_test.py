#!/usr/bin/env python3
"""The layering check catches what it must: on a scratch copy of the tree
(which passes as it is), each include planted below, one at a time, fails
the check with the planted file and line named. The first five are those an
architecture review planted in the previous check, which passed all but one."""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK = os.path.join(ROOT, "tests", "layering_check.py")
FOLDERS = ["core", "codegen", "cpu_backend", "gpu_backend", "scheduler", "cli", "python/src"]

# (file, include line): every one breaks a rule of docs/architecture.md.
PLANTED = [
    ("core/syntax/lexer.cpp", '#include "polyrt/batch.hpp"'),  # core includes a scheduler header
    ("core/rtlib/datetime.cpp", '#include "program/program_internals.hpp"'),  # up core's line
    ("scheduler/output/output_sink.cpp", '#include "gpu_backend/driver/cuda_driver.hpp"'),
    ("python/src/values.cpp", '#include "slots/slot_program.hpp"'),  # past Python's list
    ("core/nodes/nodes_hash.cpp", "#include <graph/graph.hpp>"),  # angle-bracket, up the line
    ("scheduler/output/output_sink.cpp", '#include "scheduler/jobs/interruption.hpp"'),
    ("core/include/polyrt/value.hpp", '#include "graph/graph.hpp"'),  # public includes internal
    ("scheduler/include/polyrt/batch.hpp", '#include "scheduler/jobs/batch_job.hpp"'),
    ("cli/commands.cpp", '#include "scheduler/runtime/batch_setup.hpp"'),  # past the CLI's list
    ("cpu_backend/compile.cpp", '#include "gpu_backend/gpu_batch_backend.hpp"'),  # siblings
    ("codegen/batch_codegen.cpp", '#include "slots/slot_program.hpp"'),  # codegen uses plans
    ("core/interp/interpreter.cpp", '#include "slots/slot_program.hpp"'),  # up core's line
    ("core/comprehension/grammar.cpp", '#include "nodes/registry.hpp"'),  # the grammar asks nodes
    ("core/syntax/lexer.cpp", '#include "nodes/registry.hpp"'),  # the syntax below the nodes
    ("core/nodes/host_nodes.cpp", '#include "modules/module_library.hpp"'),  # nodes below modules
]


def check(root):
    return subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)


def main():
    failures = []
    with tempfile.TemporaryDirectory(prefix="polyrt-layering-") as scratch:
        for folder in FOLDERS:
            shutil.copytree(os.path.join(ROOT, folder), os.path.join(scratch, folder),
                            ignore=shutil.ignore_patterns("venv", "build", "__pycache__"))
        clean = check(scratch)
        if clean.returncode != 0:
            print("the scratch copy fails before anything is planted:\n" + clean.stdout)
            return 1
        for rel, line in PLANTED:
            path = os.path.join(scratch, rel)
            with open(path, encoding="utf-8") as f:
                original = f.read()
            with open(path, "w", encoding="utf-8") as f:
                f.write(line + "\n" + original)
            result = check(scratch)
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
            if result.returncode == 0 or f"{rel}:1:" not in result.stdout:
                failures.append(f"not caught: {line} in {rel}\n{result.stdout}")
    for failure in failures:
        print(failure)
    print(f"{len(PLANTED) - len(failures)} of {len(PLANTED)} planted includes caught")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
