"""A long write_parquet shows the command's progress line on a terminal's
stderr (rows, percent, rows/s, the time left) and clears it; in a pipe it
stays silent."""

import os
import pty
import subprocess
import sys

import pytest

from conftest import ROOT

SCRIPT = f"""
import polyrt
batch = polyrt.compile({str(ROOT / "examples" / "users.polydat")!r}).batch()
batch.write_parquet({{path!r}}, 0, 6_000_000, row_group_rows=250_000)
"""


def test_write_parquet_shows_progress_on_a_terminal_only(tmp_path):
    pytest.importorskip("pyarrow")
    leader, follower = pty.openpty()
    script = SCRIPT.format(path=str(tmp_path / "tty.parquet"))
    child = subprocess.Popen([sys.executable, "-c", script], stderr=follower, stdout=subprocess.DEVNULL)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    assert child.wait(timeout=600) == 0, seen
    os.close(leader)
    text = seen.decode(errors="replace")
    assert "write_parquet [" in text and "rows/s" in text and "left" in text and "/6000000 rows" in text, text
    piped = subprocess.run([sys.executable, "-c", SCRIPT.format(path=str(tmp_path / "pipe.parquet"))],
                           capture_output=True, text=True, timeout=600)
    assert piped.returncode == 0 and piped.stderr == "", piped.stderr
