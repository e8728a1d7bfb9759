"""Many machines: a polyrt program as a Dask DataFrame.

    import polyrt, polyrt.dask
    program = polyrt.compile("examples/users.polydat")
    frame = polyrt.dask.read_program(program, 0, 100_000_000, npartitions=64)
    frame.to_parquet("users/")            # a partitioned data set

Each partition is evaluated on the worker that computes it: the program's
source travels to the workers, never the data.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, Optional, Sequence

from ._arguments import _names, _range
from ._program import Program, _compile_source


def _dask_dataframe():
    try:
        import dask.dataframe as dd
    except ImportError as e:
        raise ImportError(
            "polyrt.dask needs Dask: pip install 'dask[dataframe]' distributed pyarrow"
        ) from e
    return dd


@functools.lru_cache(maxsize=16)
def _batch(source, file_name, engine, provenance, required, library, partitions, confinement,
           directory, seed, files_read, outputs, externs, inputs, iterate, device, threads):
    """One compiled batch per worker process and configuration: partitions
    after the first reuse its kernels. ``files_read`` (the digests of the
    files the program read when read_program was called) is only part of the
    key: a program whose data or module files changed compiles again."""
    del files_read
    untrusted, roots, names = confinement
    program = _compile_source(
        source, file_name, engine, provenance, list(required), list(library), dict(partitions),
        (untrusted, list(roots), list(names)), directory, seed,
    )
    return program.batch(
        list(outputs),
        externs={name: _value_of_key(v) for name, v in externs},
        inputs=dict(inputs),
        iterate=iterate,
        device=device,
        threads=threads,
    )


def _key_of_value(value):
    """An extern's value as part of a cache key: a vector (a list, tuple or
    numpy array, which are not hashable) as a tagged tuple of its elements."""
    if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
        elements = value.tolist() if hasattr(value, "tolist") else list(value)
        if isinstance(elements, list):
            return ("__vector__", tuple(elements))
    return value


def _value_of_key(value):
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "__vector__":
        return list(value[1])
    return value


def _files_digest(paths):
    """A digest of the files' contents (the program, its modules, its data
    files), so that a changed file is a new cache key."""
    import hashlib

    digest = hashlib.blake2b(digest_size=16)
    for path in paths:
        digest.update(path.encode("utf-8", "surrogateescape") + b"\0")
        try:
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
        except OSError as e:
            digest.update(f"unreadable: {e}".encode())
    return digest.hexdigest()


class _Partition:
    """Evaluates one row range into a pandas DataFrame (picklable: holds the source)."""

    def __init__(self, program: Program, outputs, externs, inputs, iterate, device, threads):
        self.key = (
            program._source,
            program._file_name,
            program._engine,
            program._provenance,
            tuple(program._required),
            tuple(program._library),
            tuple(sorted(program._partitions.items())),
            (program._confinement[0], tuple(program._confinement[1]),
             tuple(program._confinement[2])),
            program._directory,
            program._seed,
            _files_digest(program._native.source_files),
            tuple(outputs),
            tuple(sorted((name, _key_of_value(v)) for name, v in externs.items())),
            tuple(sorted(inputs.items())),
            iterate,
            device,
            threads,
        )

    def __call__(self, bounds):
        start, stop = bounds
        frame = _batch(*self.key).to_pandas(start, stop)
        frame.index = range(start, stop)
        return frame


def read_program(
    program: Program,
    start: int,
    stop: int,
    npartitions: int,
    outputs: Optional[Sequence[str]] = None,
    externs: Optional[Dict[str, Any]] = None,
    inputs: Optional[Dict[str, int]] = None,
    *,
    iterate: Optional[str] = None,
    device: str = "cpu",
    threads: int = 0,
):
    """Rows ``[start, stop)`` of ``program`` as a ``dask.dataframe.DataFrame`` of
    ``npartitions`` contiguous slices (built with ``from_map``). The index is
    the iterated coordinate, so partitions have known divisions. Arguments
    are those of Program.batch; ``threads`` is per worker (0: every core)."""
    dd = _dask_dataframe()
    if npartitions <= 0:
        raise ValueError(f"read_program: npartitions must be positive, got {npartitions}")
    start, stop = _range(start, stop, "read_program")  # the rule of every range
    outputs = _names(outputs, "read_program(outputs=...)") or list(program.outputs)
    externs = dict(externs or {})
    inputs = dict(inputs or {})
    partition = _Partition(program, outputs, externs, inputs, iterate, device, threads)
    # Checks the arguments here, and gives Dask the columns' types.
    meta = _batch(*partition.key).to_pandas(start, start)
    count = stop - start
    npartitions = max(1, min(npartitions, count))
    edges = [start + count * k // npartitions for k in range(npartitions + 1)]
    ranges = list(zip(edges[:-1], edges[1:]))
    divisions = tuple(edges[:-1]) + (edges[-1] - 1,) if count else None
    return dd.from_map(
        partition,
        ranges,
        meta=meta,
        divisions=divisions,
        label="polyrt",
        enforce_metadata=False,
    )
