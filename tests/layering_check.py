#!/usr/bin/env python3
"""Holds every #include of polyrt's sources, and every link between its
libraries, to the layering of docs/architecture.md (like LLVM's layering
checks): a folder includes only from itself and the folders below it, and
its library links only theirs. A new upward or sideways include or link
fails here, naming the file and the line; widening the table is a design
change to make on purpose (and to write down in docs/architecture.md)."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Folder -> the folders (besides itself) it may include from. "public" is the
# installed API (polyrt/*.hpp of core and scheduler).
ALLOWED = {
    "core": {"public"},
    "codegen": {"core", "public"},
    "cpu_backend": {"core", "codegen", "public"},
    # The back ends are siblings: both build on codegen (and its host JIT,
    # which also runs the GPU kernels' host twins), neither on the other.
    "gpu_backend": {"core", "codegen", "public"},
    "scheduler": {"core", "codegen", "cpu_backend", "gpu_backend", "public"},
    "cli": {"public", "scheduler-jobs"},
    "python": {"public", "core", "scheduler"},
}

# Within an allowed folder, headers a layer still must not use: code
# generation works from plans, never the slots runtime.
FORBIDDEN = {
    "codegen": ("slots/",),
    # The batch runtime serves the API and the command alike: it knows no
    # job (signals, parts) or output file; its cancellation token is a flag.
    "scheduler/runtime": ("scheduler/jobs/", "scheduler/output/"),
}

# What the command may use of the scheduler beyond its public headers: the
# job layer (ranges, parts, ranks, interruption, output files). Nothing else.
CLI_SCHEDULER_HEADERS = {
    "scheduler/jobs/batch_job.hpp",
    "scheduler/jobs/interruption.hpp",
    "scheduler/jobs/job_parts.hpp",
    "scheduler/output/output_target.hpp",
    "scheduler/jobs/part_manifest.hpp",
    "scheduler/jobs/progress_bar.hpp",
    "scheduler/jobs/range_job.hpp",
    "scheduler/jobs/ranks.hpp",
    "scheduler/jobs/traversal_job.hpp",
    "scheduler/encoding/row_format.hpp",
    "scheduler/output/temporary_files.hpp",
}

CORE_FOLDERS = set(os.listdir(os.path.join(ROOT, "core")))


def owner(include: str, including_dir: str) -> str:
    """The layer an #include "..." belongs to."""
    first = include.split("/")[0]
    if "/" not in include:
        return "same folder"
    if first == "polyrt":
        return "public"
    if first in ALLOWED or first in ("bench", "tests"):
        return first
    if first in CORE_FOLDERS:
        return "core"
    return "unknown"


# The libraries built from the layered folders.
LIBRARY_FOLDER = {
    "polyrt_core": "core",
    "polyrt_core_internal": "core",
    "polyrt_codegen": "codegen",
    "polyrt_cpu_backend": "cpu_backend",
    "polyrt_gpu_backend": "gpu_backend",
    "polyrt_scheduler": "scheduler",
}


def link_problems() -> list:
    """Links of a layered library to a polyrt library above or beside it."""
    problems = []
    for folder in ("core", "codegen", "cpu_backend", "gpu_backend", "scheduler"):
        path = os.path.join(ROOT, folder, "CMakeLists.txt")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"target_link_libraries\(\s*(\w+)([^)]*)\)", text):
            if LIBRARY_FOLDER.get(m.group(1)) != folder:
                continue
            number = text.count("\n", 0, m.start()) + 1
            for used in re.findall(r"\bpolyrt_\w+", m.group(2)):
                layer = LIBRARY_FOLDER.get(used)
                if layer is None or layer == folder or layer in ALLOWED[folder]:
                    continue
                rel = os.path.relpath(path, ROOT)
                problems.append(f"{rel}:{number}: {m.group(1)} may not link {used} ({layer})")
    return problems


def main() -> int:
    problems = link_problems()
    for folder, allowed in ALLOWED.items():
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if not name.endswith((".cpp", ".hpp", ".h", ".cc", ".inc")):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                        if not m:
                            continue
                        include = m.group(1)
                        layer = owner(include, dirpath)
                        here = os.path.relpath(dirpath, ROOT)
                        forbidden = any(
                            include.startswith(FORBIDDEN[key])
                            for key in FORBIDDEN
                            if here == key or here.startswith(key + "/")
                        )
                        if not forbidden and (layer in (folder, "same folder") or layer in allowed):
                            continue
                        if folder == "cli" and include in CLI_SCHEDULER_HEADERS:
                            continue
                        if folder == "cli" and include.startswith("cli/"):
                            continue
                        rel = os.path.relpath(path, ROOT)
                        problems.append(f"{rel}:{number}: {folder}/ may not include \"{include}\" ({layer})")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include(s) or link(s) break the layering (tests/layering_check.py)")
        return 1
    print("every #include and library link keeps to the layering")
    return 0


if __name__ == "__main__":
    sys.exit(main())
