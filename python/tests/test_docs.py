"""The Python examples of docs/python.md run as written (GPU and
third-party blocks aside)."""

import ast
import os
import re

import pytest

from conftest import ROOT

BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "python.md").read_text(), re.S)


def test_the_guide_has_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index, tmp_path, monkeypatch):
    block = BLOCKS[index]
    if 'device="gpu"' in block:
        pytest.skip("needs a GPU")  # the device protocols are tested on the driver double
    pytest.importorskip("pyarrow")
    pytest.importorskip("polars")
    pytest.importorskip("dask.dataframe")
    os.symlink(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    # Earlier blocks define what later ones use, as in a session; a block
    # that registers host nodes runs once (a name is registered once per
    # process), in its own test.
    scope = {}
    for at, earlier in enumerate(BLOCKS[: index + 1]):
        if "register_node" in earlier and at != index:
            continue
        if 'device="gpu"' not in earlier:
            exec(compile(earlier, f"docs/python.md block {index}", "exec"), scope)


def test_readme_python_block_runs_and_shows_its_values(tmp_path, monkeypatch):
    """README.md's Python block runs as written, and an expression whose
    comment is a Python literal (`state["email"]  # '...'`) gives it."""
    pytest.importorskip("pyarrow")
    pytest.importorskip("dask.dataframe")
    (block,) = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    os.symlink(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    scope, shown = {}, 0
    for node in ast.parse(block).body:
        code = ast.get_source_segment(block, node)
        line = block.split("\n")[node.end_lineno - 1]
        comment = line.split("#", 1)[1].strip() if "#" in line else ""
        if isinstance(node, ast.Expr) and comment:
            try:
                expected = ast.literal_eval(comment)
            except (ValueError, SyntaxError):
                expected = None
            if expected is not None:
                assert eval(code, scope) == expected, code
                shown += 1
                continue
        exec(compile(ast.Module([node], []), "README.md", "exec"), scope)
    assert shown >= 1
    assert (tmp_path / "users.parquet").exists()
