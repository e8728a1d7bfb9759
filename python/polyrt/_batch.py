"""Batch: bulk evaluation over coordinate ranges, to numpy, Arrow, Parquet,
polars, pandas, text and column statistics."""

from __future__ import annotations

import os
import warnings
from typing import Any, Dict, Iterator, List, Optional, Union

import numpy as np

from . import _polyrt, _vectors
from ._arguments import _names, _range, _positive, _optional
from ._devices import DeviceFaultWarning, _device_column


_STATS_FIELDS = ("finite", "nan", "positive_infinity", "negative_infinity", "min", "max", "mean", "stddev")


def _stats_row(column: Dict[str, Any]) -> Dict[str, Any]:
    """One column of a stats report as a flat frame row."""
    numeric = column.get("numeric") or {}
    text = column.get("text") or {}
    row = {key: column[key] for key in ("name", "type", "rows", "nones")}
    for key in _STATS_FIELDS:
        value = numeric.get(key)
        row[key] = float(value) if key in ("min", "max") and value is not None else value
    for p in ("p1", "p5", "p25", "p50", "p75", "p95", "p99"):
        value = numeric.get("quantiles", {}).get(p)
        row[p] = float(value) if value is not None else None
    for key in ("distinct", "distinct_exact", "min_length", "max_length", "mean_length"):
        row[key] = text.get(key)
    row["trues"] = column.get("trues")
    return row


def _python_value(column, row: int):
    """Row `row` of an evaluated column as a Python value (None for a None column)."""
    if column is None:
        return None
    value = column[row]
    if isinstance(value, np.ndarray):  # a vector's row, as `polyrt preview` shows it
        return "[" + ",".join(str(x) for x in value) + "]"
    return value.item() if hasattr(value, "item") else value


def _numpy_columns(raw: dict, types: dict) -> dict:
    """A native evaluate()'s entries as numpy columns of each output's own
    type: vectors as 2-D arrays (object arrays of arrays when ragged), text
    as object arrays of str (bytes for bytes), a nullable column masked
    where it is null (entries NAME#present), None for a column None on
    every row."""
    presence = {name: raw.pop(name + "#present") for name in types if name + "#present" in raw}
    out = {}
    for name, column in raw.items():
        if isinstance(column, tuple) and _vectors.is_vector(types[name]):
            out[name] = _vectors.to_numpy(column, types[name])
        elif isinstance(column, tuple):  # str and json as str objects, bytes as bytes
            objects = _polyrt.bytes_objects if types[name] == "bytes" else _polyrt.str_objects
            out[name] = np.array(objects(*column), dtype=object)
        else:
            out[name] = column
        if name in presence:
            out[name] = _masked(out[name], presence[name])
    return out


def _masked(column, present):
    """A nullable column: a masked array, or for objects None where null."""
    if column.dtype == object:
        column = column.copy()
        column[~present] = None
        return column
    return np.ma.masked_array(column, mask=~present)


class Batch:
    """Bulk evaluation over coordinate ranges ``[start, stop)``; see Program.batch."""

    def __init__(self, native, source_files=(), make=None):
        self._native = native
        self._source_files = list(source_files)  # write_parquet never replaces one
        self._make = make  # the batch of other outputs, with this one's settings
        self._projections = {}
        self._faults_reported = 0

    def _report_faults(self) -> None:
        """Warns once for each GPU that faulted during a call so far."""
        faults = self._native.device_faults()
        for fault in faults[self._faults_reported :]:
            warnings.warn(
                f"polyrt: {fault}; it takes no more rows in this process, and the rows it had "
                "taken ran on the CPU (the result is complete)",
                DeviceFaultWarning,
                stacklevel=3,
            )
        self._faults_reported = len(faults)

    @property
    def outputs(self) -> Dict[str, str]:
        return dict(zip(self._native.output_names, self._native.output_types))

    @property
    def logical_types(self) -> Dict[str, str]:
        """The outputs that have a logical type (``x as timestamp``, ``as date``,
        ``as decimal(p, s)``) and its name; ``outputs`` gives their words'
        type (i64, i32), which ``evaluate`` returns, and Arrow the logical one."""
        names = zip(self._native.output_names, self._native.output_logical_types)
        return {name: logical for name, logical in names if logical}

    @property
    def device(self) -> str:
        """Where the batch runs, e.g. "cpu" or "gpu 0 (NVIDIA H200, ...)"."""
        return self._native.device

    def describe(self) -> str:
        """The batch plan: kernels, host steps, columns."""
        return self._native.describe()

    def device_shares(self) -> List[tuple]:
        """Per device: (name, rows evaluated, active seconds), over every call so far."""
        return list(self._native.device_shares())

    def evaluate(
        self, start: int, stop: int, *, on_device: bool = False
    ) -> Dict[str, Any]:
        """Rows ``[start, stop)`` as numpy arrays of each output's own type
        (uint64, int32, float32, ..., bool; no copy: the arrays own polyrt's
        buffers), and str columns as object arrays of
        str. An output that is None on every row (an unset extern) is None.
        A nullable output (``null_if``, an ``if`` with a None branch) is a
        ``numpy.ma.MaskedArray`` masked where it is null (an object array
        with None there for text).
        Ctrl-C stops it within a fraction of a second.

        ``on_device=True`` (a batch on a GPU) leaves the columns in GPU memory
        as DeviceColumn objects, which CuPy, PyTorch and JAX take without a
        copy (DLPack, CUDA array interface), and text columns as
        DeviceTextColumn objects (Arrow's large layout: int64 offsets and
        uint8 bytes, each a DeviceColumn), and vector columns as
        DeviceVectorColumn objects (the same layout; a rows x dim array for
        DLPack when the program fixes the dimension)."""
        start, stop = _range(start, stop, "evaluate")
        if on_device:
            return {
                fields[0]: _device_column(self._native, *fields)
                for fields in self._native.evaluate_to_device(start, stop)
            }
        raw = self._native.evaluate(start, stop)
        self._report_faults()
        return _numpy_columns(raw, dict(zip(self._native.output_names, self._native.output_types)))

    def text(self, start: int, stop: int, format: str = "csv", *, header: bool = True) -> bytes:
        """Rows ``[start, stop)`` as the bytes ``polyrt run --format`` writes:
        ``"csv"``, ``"tsv"`` or ``"jsonl"``, after the header line of CSV and
        TSV unless ``header=False``. On a GPU whose plan allows it
        (``plan_data(device="gpu")["rows_on_device"]``) the rows are encoded
        on the device and only their bytes are copied back. The whole range
        is one bytes object in memory: ``polyrt run --format csv --out FILE``
        streams a range of any size to a file."""
        start, stop = _range(start, stop, "text")
        return self._native.text(start, stop, format, header)

    def range(self, start: int, stop: int, rows: int = 65536, *, columns=None):
        """Rows ``[start, stop)`` as an Arrow C stream object
        (``__arrow_c_stream__``, ``__arrow_c_schema__``) of batches of at
        most ``rows`` rows, generated as a consumer reads them:
        ``duckdb.sql("select region, count(*) from r group by region")``,
        ``polars.DataFrame(r)``, ``pyarrow.table(r)`` or
        ``pyarrow.RecordBatchReader.from_stream(r)``. ``columns`` projects:
        only those outputs (and what they read) are generated."""
        from ._arrow import ArrowStream

        start, stop = _range(start, stop, "range")
        return ArrowStream(self._columns(columns, "range"), start, stop, rows)

    def _columns(self, columns, call: str):
        """The native batch of ``columns`` (a subset of the outputs, in the
        order given), compiled once per subset: only they, and what they
        read, are generated. None: every output."""
        if columns is None:
            return self._native
        names = tuple(_names(columns, f"{call}(columns=...)"))
        unknown = [n for n in names if n not in self._native.output_names]
        if unknown:
            raise ValueError(
                f"{call}(columns=...) names {unknown[0]!r}, which is not an output of this batch; "
                f"outputs: {', '.join(self._native.output_names)}"
            )
        if names not in self._projections:
            if self._make is None:
                raise ValueError(f"{call}(columns=...) needs a batch made by Program.batch")
            self._projections[names] = self._make(list(names))
        return self._projections[names]

    def preview(self, start: int = 0, rows: int = 10):
        """The first ``rows`` rows from ``start``: shown as a table (an HTML
        one in Jupyter), None distinct, long text cut."""
        from ._html import Preview

        rows = _positive(rows, "preview: rows")
        start, _ = _range(start, start, "preview")
        stop = min(start + rows, 2**64 - 1)  # evaluate's ranges end before 2**64 - 1
        columns = self.evaluate(start, stop)
        names = list(self._native.output_names)
        data = [[_python_value(columns[n], r) for n in names] for r in range(stop - start)]
        return Preview(names, self._native.output_types, data, start)

    def _repr_html_(self) -> str:
        from ._html import definition

        return definition(
            "polyrt.Batch", [("device", self.device)] + [(n, t) for n, t in self.outputs.items()]
        )

    def stats(self, start: int, stop: int, frame: Optional[str] = None):
        """Each column's statistics over rows ``[start, stop)``, as
        ``polyrt stats --json`` reports them (docs/stats.md): a dict with
        ``count``, ``passes`` and ``columns``, each column's ``numeric``
        (exact quantiles, histogram, moments), ``text`` (distinct and top
        values, lengths) or ``trues``. The rows are generated once per pass,
        never stored. ``frame="pandas"`` or ``"polars"`` returns instead a
        frame of one row per column: name, type, rows, nones, the numeric
        summary and quantiles, the text summary, trues (absent ones None)."""
        import json

        start, stop = _range(start, stop, "stats")
        report = json.loads(self._native.stats_json(start, stop))
        if frame is None:
            return report
        if frame not in ("pandas", "polars"):
            raise ValueError(f'stats(frame=...) is "pandas", "polars" or None, got {frame!r}')
        rows = [_stats_row(column) for column in report["columns"]]
        if frame == "pandas":
            import pandas as pd

            return pd.DataFrame(rows)
        import polars as pl

        return pl.DataFrame(rows, infer_schema_length=None)

    def to_arrow(self, start: int, stop: int, *, columns=None):
        """Rows ``[start, stop)`` as a ``pyarrow.Table`` (str columns as
        ``large_string`` built on polyrt's buffers, no per-row Python object);
        ``columns`` generates only those outputs."""
        from ._arrow import table_of

        start, stop = _range(start, stop, "to_arrow")
        table = table_of(self._columns(columns, "to_arrow"), start, stop)
        self._report_faults()
        return table

    def iter_batches(
        self, start: int, stop: int, rows: int = 1 << 20, *, columns=None
    ) -> Iterator[Any]:
        """``pyarrow.RecordBatch`` es of at most ``rows`` rows covering
        ``[start, stop)``; ``columns`` generates only those outputs."""
        from ._arrow import record_batches

        start, stop = _range(start, stop, "iter_batches")
        native = self._columns(columns, "iter_batches")
        return self._reporting(record_batches(native, start, stop, rows))

    def _reporting(self, batches):
        for batch in batches:
            self._report_faults()
            yield batch

    def to_polars(self, start: int, stop: int):
        """Rows ``[start, stop)`` as a ``polars.DataFrame``."""
        pl = _optional("polars", "to_polars")
        return pl.from_arrow(self.to_arrow(start, stop))

    def to_pandas(self, start: int, stop: int):
        """Rows ``[start, stop)`` as a ``pandas.DataFrame``."""
        _optional("pandas", "to_pandas")
        return self.to_arrow(start, stop).to_pandas()

    def write_parquet(
        self,
        path: Union[str, "os.PathLike[str]"],
        start: int,
        stop: int,
        *,
        row_group_rows: int = 1 << 17,
        compression: str = "zstd",
    ) -> None:
        """Streams rows ``[start, stop)`` into a Parquet file of row groups of
        ``row_group_rows``, written by the command's own writer (the file
        ``polyrt run --format parquet --compress COMPRESSION`` writes, its row
        groups encoded on every core; compression none, snappy, gzip or
        zstd, the last two with a ``:LEVEL``), or by pyarrow's where the
        package was built without the Arrow module. Memory stays bounded by
        a few row groups. The file appears
        only when complete, with a new file's mode: a failure or Ctrl-C leaves
        an existing file untouched and no file behind. Like ``polyrt run
        --out``, it refuses to replace a symbolic link, a read-only file or a
        source file of the program."""
        from ._arrow import write_parquet

        start, stop = _range(start, stop, "write_parquet")
        write_parquet(
            self._native,
            os.fsdecode(path),
            start,
            stop,
            row_group_rows,
            compression,
            self._source_files,
        )
        self._report_faults()
