"""Arrow, Parquet and record batches from polyrt's columns.

str columns arrive as (offsets, bytes) numpy arrays in Arrow's LargeString
layout; they become ``large_string`` arrays over the same memory.
"""

from __future__ import annotations

import itertools
import operator
import os
import warnings

from . import _polyrt, _vectors


def _pyarrow():
    try:
        import pyarrow
    except ImportError as e:
        raise ImportError("polyrt's Arrow and Parquet output needs pyarrow: pip install pyarrow") from e
    return pyarrow


_TYPES = {
    "u64": "uint64",
    "u32": "uint32",
    "u16": "uint16",
    "u8": "uint8",
    "i64": "int64",
    "i32": "int32",
    "i16": "int16",
    "i8": "int8",
    "f64": "float64",
    "f32": "float32",
    "bool": "bool_",
    "str": "large_string",
    "bytes": "large_binary",
    "json": "large_string",  # the JSON text
    "partition": "large_string",  # the JSON object polydat renders
    "partition_list": "large_string",  # the JSON array of them
}

# The types whose columns are text: (offsets, bytes) in Arrow's LargeString layout.
_STRING_TYPES = ("str", "json", "partition", "partition_list")


def _logical_arrow_type(pa, logical: str):
    """The Arrow type of a logical type's name (Program.logical_types)."""
    if logical == "timestamp":
        return pa.timestamp("ms", tz="UTC")
    if logical == "timestamp_us":
        return pa.timestamp("us", tz="UTC")
    if logical == "date":
        return pa.date32()
    precision, scale = logical[len("decimal(") : -1].split(",")
    return pa.decimal128(int(precision), int(scale))


def _arrow_type(pa, type_name: str, dimension=None, logical: str = ""):
    if logical:
        return _logical_arrow_type(pa, logical)
    if _vectors.is_vector(type_name):
        return _vectors.arrow_type(pa, type_name, dimension)
    return getattr(pa, _TYPES[type_name])()


def _array(pa, column, type_name: str, rows: int, name: str, dimension=None, logical: str = "", present=None):
    array = _values_array(pa, column, type_name, rows, name, dimension, logical)
    if present is None or present.all():
        return array
    # A nullable output: null where its presence is False.
    import pyarrow.compute as pc

    return pc.if_else(pa.array(present), array, pa.nulls(rows, array.type))


def _values_array(pa, column, type_name: str, rows: int, name: str, dimension, logical: str):
    arrow_type = _arrow_type(pa, type_name, dimension, logical)
    if column is None:  # None on every row
        return pa.nulls(rows, arrow_type)
    if logical.startswith("decimal"):
        # 16-byte two's complement values: each i64 and its sign's extension.
        import numpy as np

        values = np.empty((rows, 2), dtype=np.int64)
        values[:, 0] = column
        values[:, 1] = np.where(column < 0, -1, 0)
        return pa.Array.from_buffers(arrow_type, rows, [None, pa.py_buffer(values)])
    if logical:  # timestamps (i64) and dates (i32): the words as they are
        return pa.Array.from_buffers(arrow_type, rows, [None, pa.py_buffer(column)])
    if _vectors.is_vector(type_name):
        return _vectors.arrow_array(pa, column, type_name, dimension)
    if type_name in _STRING_TYPES:
        offsets, data = _valid_utf8(column, name)
        return pa.LargeStringArray.from_buffers(rows, pa.py_buffer(offsets), pa.py_buffer(data))
    if type_name == "bytes":
        offsets, data = column
        buffers = [None, pa.py_buffer(offsets), pa.py_buffer(data)]
        return pa.Array.from_buffers(pa.large_binary(), rows, buffers)
    return pa.array(column, type=arrow_type)


class InvalidUtf8Warning(UserWarning):
    """A str column held text that is not UTF-8 (e.g. a string literal of a
    Latin-1 program); Arrow's strings must be UTF-8, so each invalid
    sequence became U+FFFD there. ``evaluate`` keeps the bytes (surrogateescape)."""


def _valid_utf8(column, name: str):
    """(offsets, bytes) of a text column as valid UTF-8: itself when it is."""
    repaired = _polyrt.valid_utf8(*column)
    if repaired is None:
        return column
    offsets, data, rows = repaired
    warnings.warn(
        f"polyrt: column {name!r} has {rows} row(s) whose text is not valid UTF-8; Arrow "
        "strings must be, so each invalid sequence became U+FFFD (cast the output to bytes to "
        "keep them exactly)",
        InvalidUtf8Warning,
        stacklevel=4,
    )
    return offsets, data


def table_from_columns(columns: dict, types):
    """A table of numpy columns (str columns as object arrays of str) typed
    by polyrt's type names, in order."""
    pa = _pyarrow()
    arrays = []
    for (name, column), type_name in zip(columns.items(), types):
        if _vectors.is_vector(type_name):
            # A 2-D array: a fixed-size list per row; rows of varying length:
            # a large list (Batch.to_arrow's types).
            dimension = column.shape[1] if column.ndim == 2 else None
            vector_type = _vectors.arrow_type(pa, type_name, dimension)
            if dimension is not None:
                flat = pa.array(column.reshape(-1), type=vector_type.value_type)
                arrays.append(pa.FixedSizeListArray.from_arrays(flat, dimension))
            else:
                arrays.append(pa.array(list(column), type=vector_type))
            continue
        arrow_type = _arrow_type(pa, type_name)
        if column.dtype == object and type_name == "bytes":
            column = [bytes(v) if v is not None else None for v in column]
        arrays.append(pa.array(column, type=arrow_type))
    return pa.Table.from_arrays(arrays, names=list(columns))


def _schema(pa, native):
    # An output that is never null is a non-nullable field, as the command's
    # Arrow and Parquet writers make it.
    return pa.schema(
        [
            pa.field(name, _arrow_type(pa, t, d, logical), nullable)
            for name, t, d, logical, nullable in zip(
                native.output_names,
                native.output_types,
                native.output_dimensions,
                native.output_logical_types,
                native.output_nullable,
            )
        ]
    )


def record_batch(native, start: int, stop: int):
    pa = _pyarrow()
    columns = native.evaluate(start, stop)
    arrays = [
        _array(pa, columns[name], t, stop - start, name, d, logical, columns.get(name + "#present"))
        for name, t, d, logical in zip(
            native.output_names, native.output_types, native.output_dimensions, native.output_logical_types
        )
    ]
    return pa.RecordBatch.from_arrays(arrays, schema=_schema(pa, native))


def table_of(native, start: int, stop: int):
    pa = _pyarrow()
    return pa.Table.from_batches([record_batch(native, start, stop)], schema=_schema(pa, native))


def record_batches(native, start: int, stop: int, rows: int):
    """Checked now (not at the first next()), then generated."""
    rows = _positive(rows, "iter_batches: rows")
    _pyarrow()
    return _generate_batches(native, start, stop, rows)


def _generate_batches(native, start: int, stop: int, rows: int):
    at = start
    while at < stop:
        end = min(stop, at + rows)
        yield record_batch(native, at, end)
        at = end


class ArrowStream:
    """Rows ``[start, stop)`` of a batch as an Arrow C stream (the Arrow
    PyCapsule interface): DuckDB, polars and pyarrow read it batch by batch,
    at most ``rows`` rows each, generated as they are read; numeric columns
    are handed over without a copy. Each ``__arrow_c_stream__`` call starts
    a new stream over the range."""

    def __init__(self, native, start: int, stop: int, rows: int):
        self._native = native
        self._range = (start, stop)
        self._rows = _positive(rows, "range: rows")
        self._schema = _schema(_pyarrow(), native)

    @property
    def schema(self):
        return self._schema

    def __arrow_c_schema__(self):
        return self._schema.__arrow_c_schema__()

    def __arrow_c_stream__(self, requested_schema=None):
        pa = _pyarrow()
        start, stop = self._range
        reader = pa.RecordBatchReader.from_batches(
            self._schema, _generate_batches(self._native, start, stop, self._rows)
        )
        return reader.__arrow_c_stream__(requested_schema)

    def __repr__(self) -> str:
        start, stop = self._range
        return f"<polyrt.ArrowStream rows {start}..{stop}, {self._rows} per batch>"


def _positive(value, what: str) -> int:
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an int, got {value!r}") from None
    if value <= 0:
        raise ValueError(f"{what} must be positive, got {value}")
    return value


def _dictionary_columns(batch, sample_rows: int = 65536):
    """Columns worth dictionary encoding, judged on a sample of the first
    batch: those with few distinct values (flags, codes, names). Trying a
    dictionary on unique ids and hashes costs Parquet writers about half
    their time before they fall back."""
    import pyarrow.compute as pc

    pa = _pyarrow()
    sample = batch.slice(0, sample_rows)
    chosen = []
    for name, column in zip(sample.schema.names, sample.columns):
        # (vectors, lists, have no dictionary encoding)
        if sample.num_rows and column.type != pa.bool_() and not pa.types.is_nested(column.type):
            if pc.count_distinct(column).as_py() * 4 <= sample.num_rows:
                chosen.append(name)
    return chosen


def write_parquet(
    native, path: str, start: int, stop: int, row_group_rows: int, compression: str, source_files
):
    row_group_rows = _positive(row_group_rows, "write_parquet: row_group_rows")
    if not _polyrt.columnar_module_error():
        # The command's own writer, its row groups encoded on every core: the
        # file `polyrt run --format parquet` writes.
        _polyrt.write_columnar(
            native, path, start, stop, "parquet", compression, row_group_rows, list(source_files), "write_parquet"
        )
        return
    # A package built without pyarrow has no Arrow module: pyarrow's writer.
    pa = _pyarrow()
    import pyarrow.parquet as pq

    # The command's rules: refusals first, then a temporary named after this
    # process (a later run removes it if this one is killed), renamed into
    # place only when complete.
    temporary = _polyrt.begin_output(path, list(source_files), "write_parquet")
    try:
        batches = _generate_batches(native, start, stop, row_group_rows)
        first = next(batches, None)
        dictionary = _dictionary_columns(first) if first is not None else True
        with pq.ParquetWriter(
            temporary, _schema(pa, native), compression=compression, use_dictionary=dictionary
        ) as writer:
            progress = _polyrt.Progress(stop - start, "write_parquet")
            for batch in itertools.chain([first] if first is not None else [], batches):
                writer.write_batch(batch, row_group_size=batch.num_rows)
                progress.advance(batch.num_rows)
            progress.finish()
        _polyrt.commit_output(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
