"""The Python package's figures; run through bench/python_bench.sh.

1. evaluate() of the ladder graph (4 u64 columns, 2^22 rows) into numpy
   against the C++ BatchEvaluator::evaluate_into (Google Benchmark's
   BM_BatchLadder_EvaluateInto), on one thread and on every core.
2. write_parquet of 10 M ladder rows against DuckDB computing a comparable
   4-column hash table with COPY ... TO (FORMAT parquet), both snappy.
3. A users-like table (10 columns: ids, names, region, age, score, flag,
   plate, email, timestamp, label) from polyrt (to_arrow) against the same
   columns from Mimesis and from Faker, in rows/s.
4. Python against the command on examples/users.polydat, alternating:
   to_arrow against `polyrt run --format csv`, write_parquet against
   `polyrt run --format parquet` (both zstd), files in RAM (issue 49 asks
   >= 1x and >= 0.8x).
"""

import argparse
import json
import os
import statistics
import subprocess
import time

import polyrt

LADDER = "examples/ladder.polydat"
LADDER_OUTPUTS = ["account_id", "shard", "payload_class", "event_token"]
LADDER_INPUTS = {"tenant_seed": 77, "operation_seed": 5}


def timed(fn):
    began = time.perf_counter()
    fn()
    return time.perf_counter() - began


def cpp_evaluate_into(binary, threads):
    """rows/s of BM_BatchLadder_EvaluateInto/threads:N (0: every core)."""
    out = subprocess.run(
        [
            binary,
            f"--benchmark_filter=BM_BatchLadder_EvaluateInto/threads:{threads}/",
            "--benchmark_format=json",
            "--benchmark_min_time=1",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)["benchmarks"][0]["items_per_second"]


def python_evaluate(threads, rows=1 << 22, calls=12):
    batch = polyrt.compile(LADDER).batch(LADDER_OUTPUTS, inputs=LADDER_INPUTS, threads=threads)
    columns = batch.evaluate(0, rows)  # warm: kernels compiled, buffers cached
    seconds = []
    for call in range(calls):
        first = (call + 1) * rows
        began = time.perf_counter()
        columns = batch.evaluate(first, first + rows)  # the natural loop: no del
        seconds.append(time.perf_counter() - began)
    del columns
    return rows / statistics.median(seconds)


def evaluate_vs_cpp(binary, rounds):
    print("== evaluate() into numpy vs C++ evaluate_into, ladder graph, 2^22 rows")
    for threads in (1, 0):
        ours, theirs = [], []
        for _ in range(rounds):
            theirs.append(cpp_evaluate_into(binary, threads))
            ours.append(python_evaluate(threads))
        label = "every core" if threads == 0 else "1 thread"
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"  {label}: Python {a / 1e6:.1f} M rows/s, C++ {b / 1e6:.1f} M rows/s, ratio {a / b:.3f}")


def parquet_vs_duckdb(work, rounds, rows=10_000_000):
    import duckdb

    print(f"== write_parquet vs DuckDB COPY TO parquet, {rows:,} rows, 4 u64 hash columns, snappy")
    batch = polyrt.compile(LADDER).batch(LADDER_OUTPUTS, inputs=LADDER_INPUTS)
    ours_path, theirs_path = os.path.join(work, "polyrt.parquet"), os.path.join(work, "duckdb.parquet")
    query = f"""COPY (SELECT hash(i + 77) % 10000000 AS account_id,
                             hash(xor(hash(i + 77) % 10000000, 5)) % 64 AS shard,
                             hash(xor(hash(i + 77), 5)) % 8 AS payload_class,
                             hash(xor(hash(xor(hash(i + 77) % 10000000, 5)), hash(xor(hash(i + 77), 5))))
                               AS event_token
                      FROM range({rows}) t(i))
                TO '{theirs_path}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 1048576)"""
    con = duckdb.connect()
    ours, theirs = [], []
    for _ in range(rounds):
        ours.append(
            timed(lambda: batch.write_parquet(ours_path, 0, rows, row_group_rows=1 << 20, compression="snappy"))
        )
        theirs.append(timed(lambda: con.execute(query)))
    a, b = statistics.median(ours), statistics.median(theirs)
    print(
        f"  polyrt {rows / a / 1e6:.1f} M rows/s ({os.path.getsize(ours_path) / 2**20:.0f} MiB), "
        f"DuckDB {rows / b / 1e6:.1f} M rows/s ({os.path.getsize(theirs_path) / 2**20:.0f} MiB), "
        f"ratio {b / a:.2f}x"
    )


USERS = """
input cycle: u64
seed       := hash(cycle ^ 7)
user_id    := mod(seed, 1000000)
first_name := one_of(seed, "Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")
last_name  := one_of(hash(seed + 9), "Smith", "Jones", "Brown", "Lee", "Diaz", "Khan")
region     := one_of(cycle, "us-east", "us-west", "eu-central", "ap-south")
age        := 18 + hash_range(seed + 1, 62)
score      := dist_normal(unit_interval(hash(seed + 2)), 600.0, 80.0)
plate      := combinations(hash(seed + 4), "A-Z;A-Z;A-Z;-;0-9;0-9;0-9")
email      := "{first_name}.{user_id}@example.com"
signup_ms  := 1704067200000 + hash_range(seed + 5, 31536000000)
"""


REGIONS = ["us-east", "us-west", "eu-central", "ap-south"]


def peer_rows(rows, columns):
    """Row by row, as these libraries are used: one call per value."""
    out = {name: [] for name in columns}
    for _ in range(rows):
        for name, make in columns.items():
            out[name].append(make())
    return out


def mimesis_columns():
    from mimesis import Numeric, Person
    from mimesis.locales import Locale

    person, numeric = Person(Locale.EN), Numeric()
    return {
        "user_id": lambda: numeric.integer_number(0, 999999),
        "first_name": person.first_name,
        "last_name": person.last_name,
        "region": lambda: REGIONS[numeric.integer_number(0, 3)],
        "age": lambda: numeric.integer_number(18, 79),
        "score": lambda: numeric.float_number(300.0, 900.0),
        "plate": lambda: person.identifier(mask="@@@-###"),
        "email": person.email,
        "signup_ms": lambda: numeric.integer_number(1704067200000, 1735603200000),
    }


def faker_columns():
    from faker import Faker

    fake = Faker()
    Faker.seed(1)
    return {
        "user_id": lambda: fake.random_int(0, 999999),
        "first_name": fake.first_name,
        "last_name": fake.last_name,
        "region": lambda: fake.random_element(REGIONS),
        "age": lambda: fake.random_int(18, 79),
        "score": lambda: fake.pyfloat(min_value=300, max_value=900),
        "plate": lambda: fake.bothify("???-###").upper(),
        "email": fake.email,
        "signup_ms": lambda: fake.random_int(1704067200000, 1735603200000),
    }


def users_vs_peers(rounds, rows=2_000_000, peer_count=20_000):
    print(
        f"== users-like table, 9 columns: polyrt to_arrow ({rows:,} rows) "
        f"vs Mimesis and Faker ({peer_count:,} rows)"
    )
    batch = polyrt.compile(USERS).batch()
    batch.to_arrow(0, 1000)
    ours, mimesis, faker = [], [], []
    for r in range(rounds):
        ours.append(rows / timed(lambda: batch.to_arrow(r * rows, (r + 1) * rows)))
        mimesis.append(peer_count / timed(lambda: peer_rows(peer_count, mimesis_columns())))
        faker.append(peer_count / timed(lambda: peer_rows(peer_count, faker_columns())))
    a, m, f = (statistics.median(x) for x in (ours, mimesis, faker))
    print(
        f"  polyrt {a / 1e6:.2f} M rows/s, Mimesis {m / 1e3:.1f} k rows/s ({a / m:.0f}x), "
        f"Faker {f / 1e3:.1f} k rows/s ({a / f:.0f}x)"
    )


def python_vs_command(cli, work, rounds, rows=5_000_000):
    print(f"== Python against the command, examples/users.polydat, {rows:,} rows")
    batch = polyrt.compile("examples/users.polydat").batch()
    batch.to_arrow(0, 10_000)  # kernels compiled
    out = os.path.join(work, "users")

    def command(fmt):
        subprocess.run([cli, "run", "examples/users.polydat", "--rows", str(rows), "--format", fmt,
                        "--out", f"{out}.{fmt}"], check=True)

    arrow, csv, py_parquet, cli_parquet = [], [], [], []
    for _ in range(rounds):
        arrow.append(timed(lambda: batch.to_arrow(0, rows)))
        csv.append(timed(lambda: command("csv")))
        py_parquet.append(timed(lambda: batch.write_parquet(f"{out}.py.parquet", 0, rows,
                                                            compression="zstd")))
        cli_parquet.append(timed(lambda: command("parquet")))
    for label, ours, theirs in (("to_arrow / run --format csv", arrow, csv),
                                ("write_parquet / run --format parquet", py_parquet, cli_parquet)):
        print(f"  {label}: rows/s ratio fastest {min(theirs) / min(ours):.2f}, "
              f"median {statistics.median(theirs) / statistics.median(ours):.2f} "
              f"({rows / min(ours) / 1e6:.2f} against {rows / min(theirs) / 1e6:.2f} M rows/s)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpp-bench", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cli", default="build/cli/polyrt")
    parser.add_argument("--only", choices=["command"], help="run only the Python-vs-command part")
    args = parser.parse_args()
    if args.only == "command":
        python_vs_command(args.cli, args.work, args.rounds)
        return
    print(f"polyrt {polyrt.__version__}, {os.cpu_count()} cores")
    evaluate_vs_cpp(args.cpp_bench, args.rounds)
    parquet_vs_duckdb(args.work, args.rounds)
    users_vs_peers(args.rounds)
    python_vs_command(args.cli, args.work, args.rounds)


if __name__ == "__main__":
    main()
