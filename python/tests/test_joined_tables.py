"""examples/customers.polydat and examples/orders.polydat join by
construction: every order's customer_id is a customer row and its email
that customer's, whatever ranges or parts made either table, and orders
fall on customers as orders.polydat says (the first eighth of the
customers place half the orders)."""

import pytest

from conftest import run_polyrt

CUSTOMERS = 100_000


def test_orders_join_customers_with_no_orphan(polyrt_cli, examples, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    # Customers in two ranges, orders in three parts: rows depend on their
    # coordinate alone.
    for name, cycles in (("c1", "0..40000"), ("c2", "40000..100000")):
        r = run_polyrt(polyrt_cli, examples / "customers.polydat", "--cycles", cycles, "--format", "parquet",
                       "--out", tmp_path / f"{name}.parquet")
        assert r.returncode == 0, r.stderr.decode()
    r = run_polyrt(polyrt_cli, examples / "orders.polydat", "--cycles", "0..300000", "--parts", "3",
                   "--format", "parquet", "--out", tmp_path / "orders")
    assert r.returncode == 0, r.stderr.decode()
    db = duckdb.connect()
    db.execute(f"CREATE VIEW customers AS SELECT * FROM '{tmp_path}/c*.parquet'")
    db.execute(f"CREATE VIEW orders AS SELECT * FROM '{tmp_path}/orders/*.parquet'")
    assert db.execute("SELECT count(*), count(DISTINCT customer_id), min(customer_id), max(customer_id) "
                      "FROM customers").fetchone() == (CUSTOMERS, CUSTOMERS, 0, CUSTOMERS - 1)
    orders, orphans, mismatched = db.execute(
        "SELECT count(*), count(*) FILTER (WHERE c.customer_id IS NULL), "
        "count(*) FILTER (WHERE o.email IS NOT NULL AND o.email <> c.email) "
        "FROM orders o LEFT JOIN customers c USING (customer_id)"
    ).fetchone()
    assert orders == 300_000 and orphans == 0 and mismatched == 0
    # Customers of the ten locales, each locale with its one country
    # (tests/locale_lists_test.cpp checks the cities and names per locale).
    assert db.execute("SELECT count(DISTINCT locale), count(DISTINCT country) FROM customers").fetchone() == (10, 10)
    assert db.execute("SELECT max(n) FROM (SELECT count(DISTINCT country) AS n FROM customers GROUP BY locale)"
                      ).fetchone()[0] == 1
    first_eighth = db.execute(f"SELECT avg((customer_id < {CUSTOMERS // 8})::int) FROM orders").fetchone()[0]
    assert abs(first_eighth - 0.5) < 0.005
    # Another customer count moves every id into the new range.
    r = run_polyrt(polyrt_cli, examples / "orders.polydat", "--cycles", "0..50000", "--set", "customers=10",
                   "--outputs", "customer_id", "--format", "csv")
    ids = {int(v) for v in r.stdout.decode().split()[1:]}
    assert r.returncode == 0 and ids == set(range(10))
