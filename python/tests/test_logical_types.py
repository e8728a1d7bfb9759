"""Timestamps, dates and decimals (`as timestamp`, `as date`, `as
decimal(p, s)`): Parquet and Arrow from the command and Python's to_arrow
carry the logical types, which pyarrow, DuckDB and polars read as such,
with the values the CSV of the same rows writes as text."""
import csv
import datetime as dt
import decimal
import io

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import polyrt
from conftest import run_polyrt

ORDERS = """
input cycle
private ms := 1704067200000 + hash_range(cycle, 31536000000) - 40000000000
placed_at := ms as timestamp
placed_us := placed_at as timestamp_us
ship_date := placed_at as date
amount := hash_interval(cycle, -100.0, 5000.0) as decimal(12, 2)
small := ((hash_range(cycle, 1000) as f64) / 8.0) as decimal(6, 3)
"""

EXPECTED = {
    "placed_at": pa.timestamp("ms", tz="UTC"),
    "placed_us": pa.timestamp("us", tz="UTC"),
    "ship_date": pa.date32(),
    "amount": pa.decimal128(12, 2),
    "small": pa.decimal128(6, 3),
}

ROWS = 70000  # more than one chunk



def from_text(name, text):
    """A CSV field as the Python value pyarrow gives for its column."""
    if name.startswith("placed"):
        return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if name == "ship_date":
        return dt.date.fromisoformat(text)
    return decimal.Decimal(text)


@pytest.fixture
def orders(tmp_path):
    path = tmp_path / "orders.polydat"
    path.write_text(ORDERS)
    return path


@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
def test_the_command_writes_the_logical_types(polyrt_cli, orders, tmp_path, fmt):
    out = tmp_path / f"o.{fmt}"
    r = run_polyrt(polyrt_cli, orders, "--rows", ROWS, "--format", fmt, "--out", out)
    assert r.returncode == 0, r.stderr.decode()
    table = pq.read_table(out) if fmt == "parquet" else pa.ipc.open_file(out).read_all()
    assert {f.name: f.type for f in table.schema} == EXPECTED
    text = run_polyrt(polyrt_cli, orders, "--rows", ROWS)
    rows = list(csv.DictReader(io.StringIO(text.stdout.decode())))
    for name in EXPECTED:
        got = table.column(name).to_pylist()
        assert got == [from_text(name, row[name]) for row in rows], name
    # Python's to_arrow is the same table.
    assert polyrt.compile(ORDERS).batch().to_arrow(0, ROWS).equals(table)


def test_duckdb_and_polars_see_timestamps_dates_and_decimals(polyrt_cli, orders, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    polars = pytest.importorskip("polars")
    out = tmp_path / "o.parquet"
    assert run_polyrt(polyrt_cli, orders, "--rows", 1000, "--format", "parquet", "--out", out).returncode == 0
    con = duckdb.connect()
    kinds = dict(con.execute(f"SELECT column_name, column_type FROM (DESCRIBE '{out}')").fetchall())
    assert kinds == {
        "placed_at": "TIMESTAMP WITH TIME ZONE",
        "placed_us": "TIMESTAMP WITH TIME ZONE",
        "ship_date": "DATE",
        "amount": "DECIMAL(12,2)",
        "small": "DECIMAL(6,3)",
    }
    same_day, total = con.execute(
        f"SET TimeZone = 'UTC'; SELECT count(*) FILTER (WHERE CAST(placed_at AS DATE) = ship_date), "
        f"sum(amount) FROM '{out}'"
    ).fetchone()
    assert same_day == 1000
    want = sum(pq.read_table(out).column("amount").to_pylist())
    assert total == want
    frame = polars.read_parquet(out)
    assert frame["ship_date"].dtype == polars.Date
    assert frame["amount"].dtype == polars.Decimal(12, 2)
    assert str(frame["placed_at"].dtype).startswith("Datetime(time_unit='ms', time_zone='UTC')")


def test_the_batch_reports_them(orders):
    batch = polyrt.compile(ORDERS).batch()
    assert batch.logical_types == {
        "placed_at": "timestamp",
        "placed_us": "timestamp_us",
        "ship_date": "date",
        "amount": "decimal(12, 2)",
        "small": "decimal(6, 3)",
    }
    assert batch.outputs["ship_date"] == "i32"  # the word's type


def test_the_orders_example_is_the_table_it_promises(polyrt_cli, examples, tmp_path):
    """examples/orders.polydat: exactly seven typed columns, email null in about 10 % of rows."""
    duckdb = pytest.importorskip("duckdb")
    out = tmp_path / "orders.parquet"
    r = run_polyrt(polyrt_cli, examples / "orders.polydat", "--cycles", "0..100K", "--format", "parquet", "--out", out)
    assert r.returncode == 0, r.stderr.decode()
    kinds = duckdb.sql(f"SELECT column_name, column_type FROM (DESCRIBE '{out}')").fetchall()
    assert kinds == [
        ("order_id", "UBIGINT"),
        ("customer_id", "UBIGINT"),
        ("placed_at", "TIMESTAMP WITH TIME ZONE"),
        ("ship_date", "DATE"),
        ("amount", "DECIMAL(12,2)"),
        ("status", "VARCHAR"),
        ("email", "VARCHAR"),
    ]
    rows, nulls, shipped = duckdb.connect().execute(
        f"SELECT count(*), count(*) - count(email), avg((status = 'shipped')::int) FROM '{out}'"
    ).fetchone()
    assert rows == 100_000 and 0.09 < nulls / rows < 0.11 and 0.48 < shipped < 0.52
