"""Nulls per row (null_if, null_with_probability, `if c { None } else { x }`):
the command's Parquet and Arrow carry them as null bits that pyarrow, DuckDB
and polars count exactly where the CSV of the same rows has empty fields,
and Python's evaluate, to_arrow and State.pull agree."""
import csv
import io

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import polyrt
from conftest import run_polyrt

PROGRAM = """
input cycle
private h := hash(cycle)
email := null_with_probability(h + 1, 0.1, "u" + format_u64(cycle) + "@example.com")
age := if h % 4 == 0 { None } else { 18 + h % 60 }
older := age + 1
safe := default_or(age, 0)
when := null_if(cycle % 3 == 0, (1704067200000 + cycle * 86400000) as timestamp)
"""

ROWS = 70000  # more than one chunk


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "nulls.polydat"
    path.write_text(PROGRAM)
    return path



def test_parquet_nulls_are_the_csv_empty_fields(polyrt_cli, program, tmp_path):
    out = tmp_path / "n.parquet"
    r = run_polyrt(polyrt_cli, program, "--rows", ROWS, "--format", "parquet", "--out", out)
    assert r.returncode == 0, r.stderr.decode()
    table = pq.read_table(out)
    rows = list(csv.DictReader(io.StringIO(run_polyrt(polyrt_cli, program, "--rows", ROWS).stdout.decode())))
    for name in ("email", "age", "older", "safe", "when"):
        empty = [row[name] == "" for row in rows]
        assert [v is None for v in table.column(name).to_pylist()] == empty, name
    assert table.column("safe").null_count == 0
    # An output that is never null is a non-nullable field (a required
    # Parquet column); the others may be null.
    assert [table.schema.field(n).nullable for n in ("email", "age", "older", "safe", "when")] == [
        True,
        True,
        True,
        False,
        True,
    ]
    parquet_schema = pq.ParquetFile(out).schema
    assert parquet_schema.column(3).max_definition_level == 0  # safe: required
    assert parquet_schema.column(1).max_definition_level == 1  # age: optional
    assert table.column("when").null_count == (ROWS + 2) // 3
    assert 0.08 < table.column("email").null_count / ROWS < 0.12
    # The footer's statistics count them.
    meta = pq.ParquetFile(out).metadata
    counted = sum(meta.row_group(g).column(0).statistics.null_count for g in range(meta.num_row_groups))
    assert counted == table.column("email").null_count
    assert polyrt.compile(PROGRAM).batch().to_arrow(0, ROWS).equals(table)
    arrow = tmp_path / "n.arrow"
    assert run_polyrt(polyrt_cli, program, "--rows", ROWS, "--format", "arrow", "--out", arrow).returncode == 0
    assert pa.ipc.open_file(arrow).read_all().equals(table)


def test_duckdb_and_polars_count_the_nulls(polyrt_cli, program, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    polars = pytest.importorskip("polars")
    out = tmp_path / "n.parquet"
    assert run_polyrt(polyrt_cli, program, "--rows", 3000, "--format", "parquet", "--out", out).returncode == 0
    missing = duckdb.connect().execute(
        f"SELECT count(*) - count(age), count(*) - count(\"when\") FROM '{out}'"
    ).fetchone()
    table = pq.read_table(out)
    assert missing == (table.column("age").null_count, 1000)
    assert polars.read_parquet(out)["age"].null_count() == table.column("age").null_count


def test_evaluate_masks_and_pull_gives_none():
    program = polyrt.compile(PROGRAM)
    columns = program.batch().evaluate(0, 1000)
    age = columns["age"]
    assert isinstance(age, np.ma.MaskedArray) and age.dtype == np.uint64
    assert isinstance(columns["safe"], np.ndarray) and not isinstance(columns["safe"], np.ma.MaskedArray)
    assert columns["email"].dtype == object
    state = program.state()
    for cycle in range(0, 1000, 37):
        state.set_inputs([cycle])
        got = state["age"]
        assert (got is None) == bool(age.mask[cycle])
        assert got is None or got == age[cycle]
        assert (state["email"] is None) == (columns["email"][cycle] is None)
        assert state["safe"] == (0 if got is None else got)


def test_traversal_bodies_give_nulls_on_both_paths():
    """A traversal's nullable body outputs are masked (numbers) or None
    (text) in traverse() and null in traverse_arrow(), whether the body
    runs in the batch tier (a lattice that reads nothing of the program)
    or per state (it reads x)."""
    for reads in ("a * 10", "x % 10 + a"):
        program = polyrt.compile(
            "input cycle\nx := hash(cycle)\n"
            f"for a in 0..3 {{\n  v := null_if(a == 1, {reads})\n  s := null_if(a == 2, \"x{{a}}\")\n}}\n"
        )
        columns = program.traverse(0, 2)
        assert list(np.ma.getmaskarray(columns["v"])) == [False, True, False] * 2, reads
        assert [s is None for s in columns["s"]] == [False, False, True] * 2, reads
        table = program.traverse_arrow(0, 2)
        assert table.column("v").null_count == 2 and table.column("s").null_count == 2
        assert table.schema.field("v").type == pa.uint64()
