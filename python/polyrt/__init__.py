"""polyrt: deterministic procedural data from polydat programs.

    import polyrt
    program = polyrt.compile("examples/users.polydat")
    state = program.state(tenant=7)
    state.set_inputs(42)
    state["email"]                       # one value, per request
    batch = program.batch(outputs=["user_id", "email"])
    batch.evaluate(0, 1_000_000)         # dict of numpy arrays
    batch.to_arrow(0, 1_000_000)         # pyarrow.Table
    batch.write_parquet("users.parquet", 0, 10_000_000)

The same coordinates give the same values as the polyrt command and the C++
API, on every engine, thread and device. Every failure is a polyrt.Error.
See docs/python.md. The package's modules: _program (compile, Program),
_batch (Batch), _devices (devices, device-resident columns), _nodes
(register_node), _arguments (the argument checks they share), _arrow,
_html and _vectors (conversions), dask.
"""

from __future__ import annotations

import os
from typing import Optional, Sequence, Union

from . import _polyrt
from ._polyrt import (  # noqa: F401  (the exception classes and State are the public API)
    CompileError,
    ConstantFoldError,
    DeviceError,
    InternalError,
    Error,
    EvalError,
    RefusedError,
    RegistrationError,
    State,
    StoppedError,
    OutputError,
    WriteError,
)

from ._arrow import InvalidUtf8Warning  # noqa: E402

from ._arguments import _names, _sequence  # noqa: E402
from ._batch import Batch  # noqa: E402,F401
from ._devices import (  # noqa: E402,F401
    DeviceColumn,
    DeviceFaultWarning,
    DeviceTextColumn,
    DeviceVectorColumn,
    devices,
    set_buffer_cache_limit,
)
from ._nodes import register_node  # noqa: E402,F401
from ._program import Extern, Program, compile  # noqa: E402,F401


__version__ = _polyrt.__version__


__all__ = [
    "compile",
    "Program",
    "State",
    "Batch",
    "Extern",
    "DeviceColumn",
    "DeviceTextColumn",
    "DeviceVectorColumn",
    "set_buffer_cache_limit",
    "bench",
    "devices",
    "register_node",
    "Error",
    "CompileError",
    "ConstantFoldError",
    "RefusedError",
    "RegistrationError",
    "WriteError",
    "EvalError",
    "DeviceError",
    "InternalError",
    "StoppedError",
    "OutputError",
    "InvalidUtf8Warning",
    "DeviceFaultWarning",
]


def bench(
    path: Union[str, "os.PathLike[str]"],
    *,
    seconds: float = 0.5,
    threads: Optional[int] = None,
    outputs: Optional[Sequence[str]] = None,
    inputs: Optional[dict] = None,
    externs: Optional[dict] = None,
    lib: Sequence[Union[str, "os.PathLike[str]"]] = (),
) -> dict:
    """Measures the program file at ``path`` on every tier and device here,
    each for about ``seconds``, as ``polyrt bench --json`` does: ``{"program",
    "seconds", "compile": [{"engine", "cold_ms", "cached_ms"}], "per_state":
    [{"engine", "ns_per_pull", "pulls_per_second", "requests", "p50_ns",
    "p99_ns", "p999_ns"}] (with "native, request" when every output is a
    scalar: ``State.request``), "batch": [{"device", "rows", "rows_per_second",
    "gb_per_second", "skipped"}], "all_of_sum", "text"}``. The first input
    iterates from 0; ``inputs`` fixes the others, ``externs`` sets externs.
    ``threads`` is the CPU's threads beyond the 1-thread row (None: every
    core). ``cold_ms`` is the first compile in this process: cold only on an
    empty compile cache (``polyrt bench`` uses an empty one of its own).
    ``text`` is the tables ``polyrt bench`` prints."""
    names = _names(outputs, "bench(outputs=...)") or []
    library = [os.fspath(d) for d in _sequence(lib, "bench(lib=...)")]
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise WriteError(f"bench(threads=...) must be an int of at least 1 or None, got {threads!r}")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise WriteError(f"bench(seconds=...) must be a number, got {seconds!r}")
    return _polyrt.bench(
        os.fspath(path), float(seconds), threads or 0, names, dict(inputs or {}), dict(externs or {}), library
    )
