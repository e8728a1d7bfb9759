#!/usr/bin/env python3
"""Holds every #include of polyrt's sources, and every link between its
libraries, to the layering of docs/architecture.md (like LLVM's layering
checks). A new upward or sideways include or link fails here, naming the
file and the line; widening a table below is a design change to make on
purpose (and to write down in docs/architecture.md).

Both spellings of an include are read: "x/y.hpp" and <x/y.hpp> (an angle
include that names a file of the tree is a project include too). The public
headers of core (core/include/polyrt) and of the scheduler
(scheduler/include/polyrt) are told apart by where the file is.

    tests/layering_check.py [ROOT]    (ROOT: the tree to check, default this one)
"""
import os
import re
import sys

# The folders, bottom up: each may include from itself and the folders
# before it (but the two back ends, siblings that never include each other,
# and the command and the Python package, which see only what is listed).
FOLDERS = ["core", "codegen", "cpu_backend", "gpu_backend", "scheduler", "cli", "python"]
SIBLINGS = [{"cpu_backend", "gpu_backend"}, {"cli", "python"}]

# Core's sub-layers, bottom up: a line. Comprehensions (their grammar and
# evaluation) sit below the syntax, whose tree holds them; the grammar is
# told which node calls are sources (comprehension::CallSources) rather than
# asking the registry. Nodes see the syntax's reserved words; modules see
# nodes (a module is checked against them, and a host node's registration
# against the modules). The expansions sit above them all. The batch tier
# sits above program/: it prepares a compiled Program (nothing of program/
# includes batch/).
CORE_ORDER = [
    "rtlib", "value", "io", "columns", "cache", "comprehension", "syntax", "nodes", "modules",
    "expand", "graph", "plan", "engine", "interp", "slots", "program", "batch",
]

# Within an allowed folder, headers a layer still must not use.
FORBIDDEN = {
    # Code generation works from plans, never the slots runtime.
    "codegen": ("core/slots/",),
    # The batch runtime serves the API and the command alike: it knows no
    # job (signals, parts) or output file; its cancellation token is a flag.
    "scheduler/runtime": ("scheduler/jobs/", "scheduler/output/"),
    # Output formats and files are below the jobs that run them: a stop
    # reaches them as a token, never through the job layer's signals.
    "scheduler/output": ("scheduler/jobs/",),
    "scheduler/encoding": ("scheduler/jobs/", "scheduler/output/"),
    # A traversal's rows are the API's as much as the command's: chunks and
    # a stop token, never a job or a file.
    "scheduler/traversal": ("scheduler/jobs/", "scheduler/output/"),
}

# The scheduler files that may include a back end's headers: the one
# registration file of the device families, and code introspection for the
# native per-state engine's code text (the CPU back end owns that engine, as
# it owns compile(); it is no device family's).
BACKEND_INCLUDERS = {
    "scheduler/runtime/device_families.cpp",
    "scheduler/runtime/introspect.cpp",
}

# What the command may use beyond the public headers: the job layer (ranges,
# parts, ranks, interruption, output files). Nothing else.
CLI_HEADERS = {
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

# What the Python extension may use beyond the public headers: the column
# and text helpers its zero-copy buffers are built on, the extern-write
# check, the output target rules, the progress line. Nothing else.
PYTHON_HEADERS = {
    "core/columns/native_columns.hpp",
    "core/io/buffer_sizes.hpp",
    "core/program/program_internals.hpp",
    "core/rtlib/utf8.hpp",
    "core/rtlib/web_encoding.hpp",
    "core/value/vector_values.hpp",
    "scheduler/encoding/row_format.hpp",
    "scheduler/jobs/progress_bar.hpp",
    "scheduler/output/columnar_format.hpp",
    "scheduler/output/compression.hpp",
    "scheduler/output/output_format.hpp",
    "scheduler/output/output_target.hpp",
}

SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc", ".inc")
INCLUDE = re.compile(r'\s*#\s*include\s+([<"])([^">]+)[">]')


class Tree:
    def __init__(self, root):
        self.root = root
        self.core_folders = set(os.listdir(os.path.join(root, "core")))

    def exists(self, rel):
        return os.path.isfile(os.path.join(self.root, rel))

    def resolve(self, include, angle, including_dir):
        """The tree-relative path an include names, or None for a header
        outside the tree (the standard library, LLVM, a generated file)."""
        if include.startswith("polyrt/"):
            for base in ("core/include", "scheduler/include"):
                if self.exists(f"{base}/{include}"):
                    return f"{base}/{include}"
            return None
        if not angle and self.exists(os.path.join(including_dir, include)):
            return os.path.normpath(os.path.join(including_dir, include))
        first = include.split("/")[0]
        if first in self.core_folders and self.exists(f"core/{include}"):
            return f"core/{include}"
        if self.exists(include) and first in FOLDERS + ["bench", "tests"]:
            return include
        return None


def layer(path):
    """The layer of a tree-relative path: 'core-public', 'core/SUB',
    'scheduler-public', 'scheduler/PART', or a top folder."""
    parts = path.split("/")
    if parts[0] in ("core", "scheduler") and parts[1:2] == ["include"]:
        return parts[0] + "-public"
    if parts[0] in ("core", "scheduler") and len(parts) > 2:
        return parts[0] + "/" + parts[1]
    return parts[0]


def top(layer_name):
    return layer_name.split("/")[0].split("-")[0]


def core_rank(sub):
    return CORE_ORDER.index(sub) if sub in CORE_ORDER else None


def folder_allows(source, target):
    """Whether top folder `source` may include from top folder `target`."""
    if source == target:
        return True
    if any(source in s and target in s for s in SIBLINGS):
        return False
    if source in FOLDERS and target in FOLDERS:
        return FOLDERS.index(target) < FOLDERS.index(source)
    return False


def problem(src_rel, target_rel):
    """Why `src_rel` may not include `target_rel`, or None."""
    src, dst = layer(src_rel), layer(target_rel)
    src_top, dst_top = top(src), top(dst)
    if dst_top in ("bench", "tests"):
        return f"{dst_top}/ is no library layer"
    for key, prefixes in FORBIDDEN.items():
        if (src == key or src_rel.startswith(key + "/")) and target_rel.startswith(prefixes):
            return f"{key} must not use {target_rel.split('/')[0]}/{target_rel.split('/')[1]}/"
    if src_top in ("cli", "python"):
        if dst_top == src_top or dst in ("core-public", "scheduler-public"):
            return None
        listed = CLI_HEADERS if src_top == "cli" else PYTHON_HEADERS
        if target_rel in listed:
            return None
        return f"{src_top}/ sees the public headers and its listed internal ones only"
    if src == "core-public" or src.startswith("core/"):
        if dst == "scheduler-public":
            return "core includes no scheduler header, public or not"
        if dst_top != "core":
            return "core includes nothing above it"
        if dst == "core-public" or src == dst:
            return None
        if src == "core-public":
            return "a public header includes only public headers"
        src_rank, dst_rank = core_rank(src.split("/")[1]), core_rank(dst.split("/")[1])
        if src_rank is None or dst_rank is None:
            return "a core folder missing from CORE_ORDER"
        if dst_rank > src_rank:
            return f"{dst} is above {src} in core's order"
        return None
    if src == "scheduler-public":
        if dst in ("core-public", "scheduler-public"):
            return None
        return "a public header includes only public headers"
    if dst_top in ("cpu_backend", "gpu_backend") and src_top == "scheduler":
        if src_rel in BACKEND_INCLUDERS:
            return None
        return "a back end's headers are included by the registration file only"
    if not folder_allows(src_top, dst_top):
        return f"{dst_top}/ is not below {src_top}/"
    return None


# The libraries built from the layered folders.
LIBRARY_FOLDER = {
    "polyrt_core": "core",
    "polyrt_core_internal": "core",
    "polyrt_codegen": "codegen",
    "polyrt_cpu_backend": "cpu_backend",
    "polyrt_gpu_backend": "gpu_backend",
    "polyrt_scheduler": "scheduler",
}


def link_problems(root):
    """Links of a layered library to a polyrt library above or beside it."""
    problems = []
    for folder in ("core", "codegen", "cpu_backend", "gpu_backend", "scheduler"):
        path = os.path.join(root, folder, "CMakeLists.txt")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"target_link_libraries\(\s*(\w+)([^)]*)\)", text):
            if LIBRARY_FOLDER.get(m.group(1)) != folder:
                continue
            number = text.count("\n", 0, m.start()) + 1
            for used in re.findall(r"\bpolyrt_\w+", m.group(2)):
                target = LIBRARY_FOLDER.get(used)
                if target is None or folder_allows(folder, target):
                    continue
                problems.append(f"{folder}/CMakeLists.txt:{number}: {m.group(1)} may not link "
                                f"{used} ({target})")
    return problems


def include_problems(root):
    tree = Tree(root)
    problems = []
    for folder in FOLDERS:
        for dirpath, dirnames, files in os.walk(os.path.join(root, folder)):
            dirnames[:] = [d for d in dirnames if d not in ("tests", "venv", "build")]
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = tree.resolve(m.group(2), m.group(1) == "<",
                                              os.path.relpath(dirpath, root))
                        if target is None:
                            continue
                        why = problem(rel, target)
                        if why:
                            problems.append(f'{rel}:{number}: may not include "{m.group(2)}": {why}')
    return problems


def main(argv):
    root = os.path.abspath(argv[1]) if len(argv) > 1 else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    problems = link_problems(root) + include_problems(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include(s) or link(s) break the layering (tests/layering_check.py)")
        return 1
    print("every #include and library link keeps to the layering")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
