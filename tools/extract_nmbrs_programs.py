#!/usr/bin/env python3
"""Extracts the polydat programs embedded in nmbrs's workloads as test data.

nmbrs (github.com/nosqlbench/nmbrs, Apache-2.0) embeds polydat programs in
its workload YAML files as `bindings: |` blocks and hands each the
workload's top-level `params:` as typed extern values. This writes every
distinct block as DEST/<yaml path without .yaml>/<key path>.polydat (the
blocks of one workload share a directory, as they share a scope in nmbrs),
headed by comments giving its origin and one `# param NAME=VALUE` line per
param, which tests/nmbrs_workloads_test.cpp passes to the compiler as
params (`polyrt check FILE --set NAME=VALUE`).

usage: extract_nmbrs_programs.py NMBRS_GIT_DIR COMMIT DEST
(NMBRS_GIT_DIR: a clone or bare repository; COMMIT: the revision to read.)
"""
import hashlib
import os
import subprocess
import sys

import yaml


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], check=True,
                          capture_output=True).stdout


def blocks(node, path):
    """(key path, program text) of every `bindings` str under `node`."""
    if isinstance(node, dict):
        for key, value in node.items():
            here = path + [str(key)]
            if key == "bindings" and isinstance(value, str):
                yield ".".join(here), value
            else:
                yield from blocks(value, here)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from blocks(value, path + [str(i)])


def scalar_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def main():
    repo, commit, dest = sys.argv[1:4]
    files = git(repo, "ls-tree", "-r", "--name-only", commit).decode().split("\n")
    seen = set()
    written = 0
    for path in sorted(files):
        if not path.endswith((".yaml", ".yml")) or path.startswith((".github", "vendor/")):
            continue
        text = git(repo, "show", f"{commit}:{path}").decode()
        try:
            doc = yaml.safe_load(text)
        except yaml.YAMLError:
            continue
        if not isinstance(doc, dict):
            continue
        params = doc.get("params") or {}
        params = {str(k): scalar_text(v) for k, v in params.items()
                  if not isinstance(v, (dict, list)) and v is not None}
        for where, program in blocks(doc, []):
            key = hashlib.sha256((program + repr(sorted(params.items()))).encode()).hexdigest()
            if key in seen or not program.strip():
                continue
            seen.add(key)
            directory = os.path.join(dest, path.rsplit(".", 1)[0])
            os.makedirs(directory, exist_ok=True)
            name = os.path.join(directory, where + ".polydat")
            header = [f"# origin: nosqlbench/nmbrs@{commit[:7]} {path}, {where} (Apache-2.0)"]
            for k, v in params.items():
                if "\n" not in v:
                    header.append(f"# param {k}={v}")
            with open(name, "w") as out:
                out.write("\n".join(header) + "\n" + program)
            written += 1
    print(f"{written} programs written to {dest}")


if __name__ == "__main__":
    main()
