#!/usr/bin/env bash
# Regenerates the node reference section of docs/nodes.md from the registry.
set -euo pipefail
cd "$(dirname "$0")/.."
polyrt=${POLYRT:-build/cli/polyrt}
python3 - "$polyrt" <<'PY'
import subprocess, sys
doc = open("docs/nodes.md").read()
begin, end = "<!-- BEGIN GENERATED: polyrt nodes -->\n", "<!-- END GENERATED -->"
generated = subprocess.run([sys.argv[1], "nodes"], check=True, capture_output=True, text=True).stdout
head, rest = doc.split(begin, 1)
_, tail = rest.split(end, 1)
open("docs/nodes.md", "w").write(head + begin + generated + end + tail)
PY
