"""The cost of a numpy-vectorized Python host node (polyrt.register_node) in
the batch tier: a column computed by a registered function against the same
column computed natively, 2^24 rows in 64 Ki-row chunks on every core, in
alternating rounds; prints each round and the extra nanoseconds per row
(fastest and median).

    build-python/venv/bin/python bench/host_node_bench.py [--rounds 7] [--threads 0]
"""

import argparse
import statistics
import time

import numpy as np

import polyrt

ROWS = 1 << 24
CHUNK = 1 << 16


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", type=int, default=0)
    args = parser.parse_args()

    polyrt.register_node("bench_half", lambda x: x * 0.5, inputs=["f64"], result="f64", vectorized=True)
    host = polyrt.compile("input x\nf := to_f64(x)\nv := bench_half(f)\n")
    native = polyrt.compile("input x\nf := to_f64(x)\nv := f * 0.5\n")
    batches = {
        name: program.batch(["v"], chunk_rows=CHUNK, threads=args.threads)
        for name, program in (("host", host), ("native", native))
    }
    first = {name: batch.evaluate(0, CHUNK)["v"] for name, batch in batches.items()}  # warm
    np.testing.assert_array_equal(first["host"], first["native"])
    seconds = {"host": [], "native": []}
    for round in range(args.rounds):
        for name, batch in batches.items():
            began = time.perf_counter()
            batch.evaluate(0, ROWS)
            seconds[name].append(time.perf_counter() - began)
        print(f"round {round + 1}: host {seconds['host'][-1]:.3f} s, native {seconds['native'][-1]:.3f} s")
    for label, pick in (("fastest", min), ("median", statistics.median)):
        extra = (pick(seconds["host"]) - pick(seconds["native"])) / ROWS * 1e9
        print(f"{label}: host {pick(seconds['host']):.3f} s, native {pick(seconds['native']):.3f} s, "
              f"{extra:.2f} ns more per row")


if __name__ == "__main__":
    main()
