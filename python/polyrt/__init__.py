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
See docs/python.md.
"""

from __future__ import annotations

import operator
import os
import re
import warnings
from typing import Any, Dict, Iterator, List, Mapping, NamedTuple, Optional, Sequence, Union

import numpy as np

from . import _polyrt, _vectors
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

__version__ = _polyrt.__version__

__all__ = [
    "compile",
    "Program",
    "State",
    "Batch",
    "Extern",
    "DeviceColumn",
    "DeviceTextColumn",
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


class DeviceFaultWarning(RuntimeWarning):
    """A GPU faulted during a call on ``device="all"`` or ``"auto"``: it takes
    no more rows in this process and the CPU ran the rows it had taken, so
    the result is complete. (On ``device="gpu"`` a fault is a DeviceError,
    and a faulted GPU is unusable for the rest of the process.)"""



class Extern(NamedTuple):
    """An extern of a program: its type and its default (None when it has none)."""

    type: str
    default: Any


def compile(
    source_or_path: Union[str, "os.PathLike[str]"],
    *,
    engine: str = "native",
    provenance: str = "auto",
    outputs: Optional[Sequence[str]] = None,
    file_name: Optional[str] = None,
    lib: Sequence[Union[str, "os.PathLike[str]"]] = (),
    partition: Union[int, Mapping[str, int], None] = None,
    untrusted: bool = False,
    data_roots: Sequence[Union[str, "os.PathLike[str]"]] = (),
    allow_env: Sequence[str] = (),
    seed: Optional[int] = None,
    params: Optional[Mapping[str, Any]] = None,
) -> "Program":
    """Compiles a program from its source text or from a file.

    A ``pathlib.Path`` (any ``os.PathLike``) is always a file; a ``str`` is a
    file when it has no newline and either names something that exists or
    looks like a path (only path characters, with a slash or a dot: a
    missing one is a CompileError that says so), else source text. Files are read by polyrt under the command's rules
    (a regular file of at most 64 MiB). ``engine`` is what per-request
    states run ("native", "closures", "interpreter"); ``outputs`` keeps only
    those bindings (and what they need). ``lib`` lists directories of
    modules, searched after the program file's own directory and before
    ``POLYRT_LIB_PATH`` and the standard library. ``partition`` is the
    partition a top-level cursor over a spec of several takes
    (``cursor q = range(0, 1000000) over "*/4"``): an index for every such
    cursor, or ``{"q": 2}`` per cursor (see Program.cursors).
    ``untrusted=True`` compiles a program from someone you do not trust
    confined (docs/security.md): data files are read only under the
    directories of ``data_roots``, ``env()`` and ``env_or()`` only for the
    names in ``allow_env``, and no diagnostic quotes what a file or the
    environment holds; ``data_roots`` and ``allow_env`` imply it. A pickled
    copy compiles confined too. ``seed`` (an int in [0, 2^64)) re-keys every
    hashed value of the program: another data set, as reproducible, the same
    on every engine, tier and device; None gives the program's own values.
    ``params`` gives values by name, as nmbrs hands a workload's params to
    its bindings (``polyrt --param``): an extern's value, or for a name the
    program reads without declaring it an extern of that value (an int is a
    u64, a float an f64, a bool a bool, a str typed as its text reads); a
    name the program does not read is ignored. Top-level cursor bounds may
    read them (``cursor row = range(0, keys) over cursor``).
    Raises CompileError (with file, line and
    column) or ConstantFoldError.
    """
    outputs = _names(outputs, "compile(outputs=...)")
    roots = [os.fspath(d) for d in _sequence(data_roots, "compile(data_roots=...)")]
    names = _names(list(_sequence(allow_env, "compile(allow_env=...)")), "compile(allow_env=...)")
    confinement = (bool(untrusted) or bool(roots) or bool(names), roots, names)
    library = [os.fspath(d) for d in _sequence(lib, "compile(lib=...)")]
    partitions = _partitions(partition)
    seed = _seed(seed)
    params = _params(params)
    path = _program_path(source_or_path)
    if path is not None:
        native = _polyrt.compile_file(
            path, engine, provenance, outputs, library, partitions, confinement, seed, params
        )
        source = native.source.decode("utf-8", errors="surrogateescape")
        # A copy compiled elsewhere from the source alone (pickling) looks for
        # modules and data files where this one did: the file's directory.
        directory = os.path.dirname(os.path.abspath(path))
        return Program(
            native, source, file_name or path, engine, provenance, outputs,
            [directory] + library, partitions, confinement, directory, seed, params,
        )
    name = file_name or "<source>"
    native = _polyrt.compile_source(
        _utf8(source_or_path), name, engine, provenance, outputs, library, partitions, confinement,
        "", seed, params,
    )
    return Program(
        native, source_or_path, name, engine, provenance, outputs, library, partitions,
        confinement, "", seed, params,
    )


def _params(params):
    """compile(params=...) as the text of each value, as the command line
    gives it (True is "true": typed a bool)."""
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        raise TypeError(f"compile(params=...) must be a mapping of names to values, got {params!r}")
    texts = {}
    for name, value in params.items():
        if not isinstance(name, str):
            raise TypeError(f"compile(params=...): a name must be a str, got {name!r}")
        if isinstance(value, bool):
            texts[name] = "true" if value else "false"
        elif isinstance(value, (int, float, str)):
            texts[name] = value if isinstance(value, str) else repr(value)
        else:
            raise TypeError(
                f"compile(params=...): {name!r} must be an int, float, bool or str, got {value!r}"
            )
    return texts


def _seed(seed):
    if seed is None:
        return None
    try:
        value = operator.index(seed)
    except TypeError:
        raise TypeError(f"compile(seed=...) must be an int, got {seed!r}") from None
    if not 0 <= value < 2**64:
        raise ValueError(f"compile(seed=...) must be in [0, 2^64), got {value}")
    return value



def register_node(
    name: str,
    fn=None,
    *,
    inputs: Sequence[str],
    result: str,
    pure: bool = True,
    vectorized: bool = False,
    summary: str = "",
):
    """Registers a Python function as a node every program compiled afterwards
    may call by ``name`` (in this process; a name is registered once).

    ``inputs`` and ``result`` are types: ``"u64"``, ``"i64"``, ``"f64"``,
    ``"bool"`` or ``"str"``. A row function takes one Python value per input
    and returns one value. A ``vectorized`` function takes one numpy array per
    input (read-only views of the batch tier's columns, valid during the call;
    a ``str`` input is a list of str) and returns an array of the same length;
    it serves single rows too (arrays of one). A ``pure`` function (the
    default) must return the same value for the same inputs: it may be
    folded at compile time and called from any thread; an impure one is
    re-evaluated on every write, like a ``volatile`` binding. An exception the
    function raises becomes the ``EvalError`` of the row. Host nodes run on
    the CPU (a host step on a GPU too).

    Usable as a decorator::

        @polyrt.register_node("scaled", inputs=["u64"], result="f64", vectorized=True)
        def scaled(x):
            return x * 0.5
    """
    def register(function):
        if not callable(function):
            raise TypeError(f"register_node({name!r}): fn must be callable")
        _polyrt._register_node(
            name, list(_sequence(inputs, "inputs")), result, bool(pure), function,
            bool(vectorized), summary)
        return function

    return register if fn is None else register(fn)


def _partitions(partition) -> Dict[str, int]:
    """compile(partition=...) as the native choices: cursor name to index,
    "" for every cursor."""
    if partition is None:
        return {}
    named = isinstance(partition, Mapping)
    out = {}
    for name, index in (partition.items() if named else [("", partition)]):
        if named and (not isinstance(name, str) or not name):
            raise TypeError(f"compile(partition=...): a cursor's name is a non-empty str, got {name!r}")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 2**64:
            raise TypeError(
                f"compile(partition=...): a partition index is an int in [0, 2**64), got {index!r}"
            )
        out[name] = index
    return out


def _program_path(source_or_path) -> Optional[str]:
    """The file compile() reads, or None for source text."""
    if isinstance(source_or_path, os.PathLike):
        return os.fsdecode(source_or_path)
    if not isinstance(source_or_path, str):
        raise TypeError(
            f"compile() takes source text (str) or a path, not {type(source_or_path).__name__}"
        )
    if "\n" in source_or_path:
        return None
    if os.path.exists(source_or_path) or _looks_like_a_path(source_or_path):
        return source_or_path
    return None


def _looks_like_a_path(text: str) -> bool:
    """A missing file named like one ("examples/users.polydt"): only path
    characters, with a slash or a dot. One line of source has a space, ':=',
    or a call's parentheses."""
    return bool(re.fullmatch(r"[\w./~+-]+", text)) and ("/" in text or "." in text)


def _utf8(text: str) -> bytes:
    """Source text as polyrt reads it: UTF-8, surrogateescape's lone
    surrogates as the bytes they stand for (a file read as Latin-1 bytes)."""
    return text.encode("utf-8", errors="surrogateescape")


def _sequence(value, what: str) -> list:
    """A list or tuple of names or paths; a lone str (which Python would
    split into characters) is refused."""
    if isinstance(value, (str, bytes)) or isinstance(value, os.PathLike):
        raise TypeError(f"{what} takes a list, not a single {type(value).__name__}: wrap it in [...]")
    return list(value)


def _names(value, what: str) -> List[str]:
    names = _sequence(value or [], what)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"{what} takes names (str), got {name!r}")
    return names


def _driver_version(version) -> int:
    """A CUDA driver version as cuDriverGetVersion reports it (12040) from
    "12.4" or 12040; 0 for None."""
    if version is None:
        return 0
    if isinstance(version, int) and not isinstance(version, bool) and version >= 1000:
        return version
    if isinstance(version, str):
        parsed = _polyrt.cuda_driver_version_named(version)  # the command's rule too
        if parsed is not None:
            return parsed
    raise WriteError(f"cuda_driver expects a CUDA driver version such as '12.4' or 12040, got {version!r}")


def _range(start, stop, call: str):
    """[start, stop) as ints, checked as evaluate checks it: coordinates from
    0 to 2**64 - 1, stop not before start (an empty range is fine)."""
    import operator

    try:
        start, stop = operator.index(start), operator.index(stop)
    except TypeError:
        raise TypeError(f"{call}: start and stop are ints, got {start!r} and {stop!r}") from None
    for name, value in (("start", start), ("stop", stop)):
        if not 0 <= value < 1 << 64:
            raise WriteError(f"{call}({start}, {stop}): {name} is {value}; coordinates are 0 to 2**64 - 1")
    if stop < start:
        raise WriteError(f"{call}({start}, {stop}): stop is before start")
    return start, stop


class Program:
    """A compiled program: immutable and safe to share between threads.

    Pickling sends the source, not machine code: the receiving process
    compiles it again (this is how Dask workers get it).
    """

    def __init__(
        self, native, source, file_name, engine, provenance, outputs, library, partitions,
        confinement, directory, seed=None, params=None,
    ):
        self._native = native
        self._seed = seed
        self._params = dict(params or {})
        self._confinement = confinement
        self._directory = directory  # a file's: where a copy finds its relative data files
        self._library = list(library)
        self._partitions = dict(partitions)
        self._source = source
        self._file_name = file_name
        self._engine = engine
        self._provenance = provenance
        self._required = list(outputs)
        self._output_index = {name: i for i, name in enumerate(native.output_names)}

    def __reduce__(self):
        return (
            _compile_source,
            (
                self._source,
                self._file_name,
                self._engine,
                self._provenance,
                self._required,
                self._library,
                self._partitions,
                self._confinement,
                self._directory,
                self._seed,
                self._params,
            ),
        )

    @property
    def cursors(self) -> List[Dict[str, Any]]:
        """The top-level cursors, in source order, each a dict: ``name``, the
        ``partition`` taken of its ``partitions`` (``every_partition`` when
        none was chosen of several that tile: rows walk them in turn), and
        the slice's ``first``
        ordinal and ``size`` (None over a partition wire or for a time-boxed
        cursor): coordinates ``0 .. size-1`` walk the slice. ``wall_clock``
        is a time-boxed cursor's rule (``until_elapsed``: a dict of ``base``,
        ``delta``, ``min_ms``, ``min_rows``, ``max_rows``), else None."""
        return self._native.cursors

    @property
    def source(self) -> str:
        return self._source

    @property
    def inputs(self) -> Dict[str, str]:
        """Coordinate inputs in declaration order, name -> type (always "u64")."""
        return {name: "u64" for name in self._native.input_names}

    @property
    def externs(self) -> Dict[str, Extern]:
        return {name: Extern(t, default) for name, t, default in self._native.externs}

    @property
    def outputs(self) -> Dict[str, str]:
        """Named bindings in source order, name -> "u64" | "f64" | "bool" | "str"."""
        return dict(zip(self._native.output_names, self._native.output_types))

    @property
    def warnings(self) -> List[str]:
        return list(self._native.warnings)

    @property
    def engine(self) -> str:
        """What states of this program run, e.g. "native (PushPull)"."""
        return self._native.engine

    def plan(
        self,
        kind: str = "batch",
        *,
        device: str = "cpu",
        outputs: Optional[Sequence[str]] = None,
        llvm: bool = False,
        sm: int = 90,
        cuda_driver: Union[str, int, None] = None,
    ) -> str:
        """What this program runs as, as ``polyrt plan`` prints it.

        ``kind="batch"``: the batch plan of ``outputs`` (default: all) on
        ``device`` ("cpu" or "gpu": kernels, host steps, copies; on a GPU each
        kernel's registers and occupancy when the CUDA toolkit's ptxas is
        found). ``kind="state"``: the per-state plan (closures and native
        programs). ``llvm=True`` gives the optimized LLVM IR instead. ``sm``
        and ``cuda_driver`` ("12.4" or 12040) pick the GPU target."""
        return self._native.plan(
            kind, device, _names(outputs or [], "outputs"), llvm, sm, _driver_version(cuda_driver)
        )

    def plan_data(
        self,
        kind: str = "batch",
        *,
        device: str = "cpu",
        outputs: Optional[Sequence[str]] = None,
    ) -> dict:
        """The plan ``plan()`` prints, as data. Every kind has ``steps``: dicts
        of ``kind`` ("native kernel", "host", "GPU kernel", "host, on a CPU
        worker"; per state "native segment", "kit", "host step"), ``nodes``
        ((node, binding) pairs in evaluation order), ``flags``, ``reads`` and
        ``writes`` (per-state slots), ``copied_before`` (on a GPU: the
        columns copied before the step), ``why_host`` (on a GPU: why a host
        step's node is not in a kernel) and ``text_bytes_per_row`` (on a GPU:
        the most text bytes a kernel writes per row). ``kind="batch"`` adds ``device``,
        ``columns``, ``scalars``, ``copied_to_host_last``, ``rows_on_device``
        (on a GPU: whether CSV, TSV and JSON Lines rows are encoded on the
        device) and ``why_rows_on_host`` (why not); ``kind="state"``
        adds ``engine``, ``mode``, ``slot_count`` and ``slots`` ((slot,
        binding, type, lifecycle) tuples)."""
        return self._native.plan_data(kind, device, _names(outputs or [], "outputs"))

    def traverse(
        self,
        start: int,
        stop: int,
        *,
        traversal: int = 0,
        outputs: Optional[Sequence[str]] = None,
        inputs: Optional[dict] = None,
        externs: Optional[Dict[str, Any]] = None,
        device: str = "cpu",
        gpu: int = 0,
        threads: int = 0,
    ) -> dict:
        """The rows of a traversal (``for ... { body }``) for the first
        input's values ``start`` to ``stop - 1``, as ``polyrt run`` writes
        them: one row per tuple of each coordinate's opening. Returns a dict
        of numpy arrays in column order: the iterated input, the elements,
        then the body's ``outputs`` (default: all of them); str columns are
        object arrays. ``inputs`` fixes the program's other inputs and
        ``externs`` sets externs as Program.batch takes them (one left unset
        reads as None, and a source reading None yields no tuple); ``traversal`` picks
        one in source order. Columns have the types
        Batch.evaluate gives an output of the same type (uint32, float32,
        ...; a vector of fixed dimension as a 2-D array; a nullable output as
        a masked array) on every path. The rows run where ``polyrt run``
        runs them (a literal lattice in the batch tier, long activations of a
        body with a cursor as batches: on ``device`` and ``gpu`` as
        Program.batch takes them; the rest on the per-state engine), with
        the same values; Ctrl-C stops it."""
        start, stop = _range(start, stop, "traverse")  # Batch's rules, on every path
        names = list(self.inputs)
        coordinates = [0] * len(names)
        for name, value in (inputs or {}).items():
            if name not in names[1:]:
                raise WriteError(
                    f"traverse(inputs=...) names {name!r}, which is not an input the rows keep fixed; "
                    f"those are {names[1:]}"
                )
            coordinates[names.index(name)] = _range(value, value, f"traverse(inputs={{{name!r}: ...}})")[0]
        chosen = self._traverse_outputs(traversal, outputs)
        raw = self._native.traverse(
            traversal, start, stop - start, coordinates, chosen, dict(externs or {}), True, device,
            gpu, threads,
        )
        return _numpy_columns(raw, self._native.traversal_column_types(traversal))

    def traverse_arrow(
        self,
        start: int,
        stop: int,
        *,
        traversal: int = 0,
        outputs: Optional[Sequence[str]] = None,
        inputs: Optional[dict] = None,
        externs: Optional[Dict[str, Any]] = None,
        device: str = "cpu",
        gpu: int = 0,
        threads: int = 0,
    ):
        """traverse()'s rows as a ``pyarrow.Table``, typed by the elements'
        and the body's types (str as ``large_string``, a partition as its
        JSON text)."""
        from ._arrow import table_from_columns

        columns = self.traverse(
            start, stop, traversal=traversal, outputs=outputs, inputs=inputs, externs=externs,
            device=device, gpu=gpu, threads=threads,
        )
        return table_from_columns(columns, self._traverse_types(traversal, list(columns)))

    def _traverse_outputs(self, traversal: int, outputs) -> List[str]:
        """The body outputs traverse() writes: all for None or [], else the
        named ones, each once (Batch's rule)."""
        body = list(self._native.traversal_outputs(traversal))
        chosen = _names(outputs, "traverse(outputs=...)") or body
        for k, name in enumerate(chosen):
            if name not in body:
                raise WriteError(
                    f"traverse(outputs=...) names {name!r}, which is not an output of the "
                    f"traversal's body; those are {body}"
                )
            if name in chosen[:k]:
                raise WriteError(
                    f"traverse(outputs=...) names {name!r} twice; name each column once (a dict, "
                    "a table or a file cannot hold two columns of one name)"
                )
        return list(chosen)

    def _traverse_types(self, traversal: int, names: List[str]) -> List[str]:
        """The type names of traverse()'s columns `names`."""
        types = self._native.traversal_column_types(traversal)
        return [types[name] for name in names]

    def ptx(
        self,
        outputs: Optional[Sequence[str]] = None,
        *,
        sm: int = 90,
        cuda_driver: Union[str, int, None] = None,
    ) -> str:
        """The PTX of the batch kernels of ``outputs`` (default: all) for
        compute capability ``sm`` and the oldest CUDA driver that must load it
        (``cuda_driver``, "12.4" or 12040; default: the newest PTX ISA)."""
        return self._native.ptx(_names(outputs or [], "outputs"), sm, _driver_version(cuda_driver))

    def state(self, **externs: Any) -> "State":
        """A fresh per-request state with these externs set (others keep their defaults)."""
        state = self._native.new_state()
        if externs:
            state.set_externs(**externs)
        return state

    def batch(
        self,
        outputs: Optional[Sequence[str]] = None,
        *,
        externs: Optional[Dict[str, Any]] = None,
        inputs: Optional[Dict[str, int]] = None,
        iterate: Optional[str] = None,
        device: str = "cpu",
        gpu: int = 0,
        threads: int = 0,
        chunk_rows: int = 0,
    ) -> "Batch":
        """Bulk evaluation of ``outputs`` (default: all) over coordinate ranges.

        ``iterate`` names the input that takes each row's value (default: the
        first); ``inputs`` fixes the others by name (unnamed ones are 0).
        ``device`` is "cpu", "gpu" (``gpu`` picks which), "auto" (the CPU and
        every usable GPU, measured on the first rows, then only those worth
        their cost) or "all" (every GPU and the CPU cores together).
        ``threads=0`` uses every core.
        """
        settings = (dict(externs or {}), dict(inputs or {}), iterate, device, gpu, threads, chunk_rows)

        def make(names):
            return _polyrt.make_batch(self._native, names, *settings)

        return Batch(make(_names(outputs, "batch(outputs=...)")), self._native.source_files, make)

    def __repr__(self) -> str:
        return f"<polyrt.Program {self._file_name!r}: {len(self._output_index)} outputs>"

    def _repr_html_(self) -> str:
        from ._html import definition

        return definition(
            f"polyrt.Program {self._file_name}",
            [("inputs", ", ".join(self.inputs) or "none"), ("engine", self._native.engine)]
            + [(name, kind) for name, kind in self.outputs.items()],
        )


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


def _positive(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{what} must be a positive int, got {value!r}")
    return value


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


def _compile_source(
    source, file_name, engine, provenance, outputs, library, partitions, confinement, directory,
    seed=None, params=None,
):
    native = _polyrt.compile_source(
        _utf8(source), file_name, engine, provenance, list(outputs), list(library),
        dict(partitions), confinement, directory, seed, dict(params or {}),
    )
    return Program(
        native, source, file_name, engine, provenance, outputs, library, partitions, confinement,
        directory, seed, params,
    )


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
        uint8 bytes, each a DeviceColumn)."""
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
        row_group_rows: int = 1 << 20,
        compression: str = "zstd",
    ) -> None:
        """Streams rows ``[start, stop)`` into a Parquet file, one row group of
        ``row_group_rows`` at a time (memory stays bounded). The file appears
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


def _masked(column, present):
    """A nullable column: a masked array, or for objects None where null."""
    if column.dtype == object:
        column = column.copy()
        column[~present] = None
        return column
    return np.ma.masked_array(column, mask=~present)


def _device_column(native, name, type, gpu, address, rows, tensor, text_address, text_bytes, text_tensor):
    """evaluate_to_device's fields of one output as a DeviceColumn or DeviceTextColumn (None: None on every row)."""
    if tensor is None:
        return None
    copy = lambda: native.device_to_host(name, type, gpu, address, rows, text_address, text_bytes)
    if text_tensor is None:
        return DeviceColumn(name, type, gpu, address, rows, tensor, copy)
    return DeviceTextColumn(
        name,
        type,
        rows,
        DeviceColumn(name + ".offsets", "i64", gpu, address, rows + 1, tensor, None),
        DeviceColumn(name + ".data", "u8", gpu, text_address, text_bytes, text_tensor, None),
        copy,
    )


class DeviceColumn:
    """One output column in GPU memory (Batch.evaluate(..., on_device=True)):
    ``rows`` 8-byte values at ``address`` on GPU ``gpu``, freed when the last
    reference (this object or a tensor made from it) goes. u64 columns are
    uint64, i64 columns int64, f64 columns float64, bool columns uint64
    words of 0 or 1 (narrower outputs are refused: cast them to 8 bytes). The
    columns are complete when evaluate returns: no stream to wait on. (A
    DeviceTextColumn's ``offsets`` are int64 and its ``data`` uint8.)

        import cupy, torch
        cupy.asarray(column)            # __cuda_array_interface__
        torch.from_dlpack(column)       # __dlpack__ / __dlpack_device__
        column.to_numpy()               # copied to the host
    """

    __slots__ = ("name", "type", "gpu", "address", "rows", "_tensor", "_copy")

    def __init__(self, name, type, gpu, address, rows, tensor, copy):
        self.name, self.type, self.gpu = name, type, gpu
        self.address, self.rows, self._tensor, self._copy = address, rows, tensor, copy

    @property
    def dtype(self) -> np.dtype:
        return np.dtype({"f64": np.float64, "i64": np.int64, "u8": np.uint8}.get(self.type, np.uint64))

    def to_numpy(self) -> np.ndarray:
        """The column copied to host memory (evaluate's array of the output)."""
        if self._copy is None:
            raise WriteError(f"{self.name} is part of a DeviceTextColumn: copy that column (to_numpy, to_arrow)")
        words = self._copy()
        return words.astype(bool) if self.type == "bool" else words.view(self.dtype)

    @property
    def shape(self):
        return (self.rows,)

    @property
    def __cuda_array_interface__(self):
        return {
            "shape": (self.rows,),
            "typestr": self.dtype.str,
            "data": (self.address, False),
            "strides": None,
            "version": 3,
            "stream": None,  # complete: nothing to synchronize with
        }

    def __dlpack__(self, **kwargs):
        return self._tensor.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._tensor.__dlpack_device__()

    def __len__(self) -> int:
        return self.rows

    def __repr__(self) -> str:
        return f"<polyrt.DeviceColumn {self.name!r}: {self.rows} x {self.dtype} on GPU {self.gpu}>"


class DeviceTextColumn:
    """A str, json or bytes output in GPU memory (Batch.evaluate(...,
    on_device=True)), in Arrow's large layout: ``offsets``, ``rows + 1``
    int64 values, and ``data``, their ``nbytes`` bytes; row r is
    ``data[offsets[r]:offsets[r + 1]]``. Each is a DeviceColumn (DLPack,
    CUDA array interface), and both live as long as either does. A
    device-made text never crossed to the host.

        offsets = cupy.asarray(column.offsets)
        data = torch.from_dlpack(column.data)
        column.to_arrow()               # a pyarrow large_string array, copied to the host
    """

    __slots__ = ("name", "type", "rows", "offsets", "data", "_copy")

    def __init__(self, name, type, rows, offsets, data, copy):
        self.name, self.type, self.rows = name, type, rows
        self.offsets, self.data, self._copy = offsets, data, copy

    @property
    def gpu(self) -> int:
        return self.offsets.gpu

    @property
    def nbytes(self) -> int:
        return self.data.rows

    def to_numpy(self) -> np.ndarray:
        """The column copied to the host as evaluate returns it: an object array of str (bytes for bytes)."""
        offsets, data = self._copy()
        objects = _polyrt.bytes_objects if self.type == "bytes" else _polyrt.str_objects
        return np.array(objects(offsets, data), dtype=object)

    def to_arrow(self):
        """The column copied to the host as a ``pyarrow`` ``large_string``
        array (``large_binary`` for bytes) over the copied buffers."""
        from ._arrow import _array, _pyarrow

        return _array(_pyarrow(), self._copy(), self.type, self.rows, self.name)

    def __len__(self) -> int:
        return self.rows

    def __repr__(self) -> str:
        return (
            f"<polyrt.DeviceTextColumn {self.name!r}: {self.rows} x {self.type} "
            f"({self.nbytes} bytes) on GPU {self.gpu}>"
        )


def set_buffer_cache_limit(nbytes: int) -> None:
    """How many bytes of freed column buffers polyrt keeps for the next
    evaluate (default 1 GiB). Fresh memory costs a page fault per 4 KiB, more
    than computing simple columns; 0 keeps none and returns memory at once."""
    _polyrt.set_buffer_cache_limit(nbytes)


def devices() -> dict:
    """What the batch tier can run on here, as ``polyrt devices`` prints it,
    from every registered device family: ``{"cpu": {"cores", "target",
    "vector_isa"}, "gpus": [{"index", "family", "name", "fault", ...its
    family's properties: a CUDA GPU's "compute_capability",
    "multiprocessors", "memory_bytes"}], "no_gpu_reason", "text"}`` and each
    family's own facts under its name (``cuda_driver_version``,
    ``cuda_driver_library`` once a CUDA driver is loaded).
    ``no_gpu_reason`` says why no GPU is usable (None when one is); a GPU's
    ``fault`` is set once a sticky fault made it unusable for the process."""
    return _polyrt.devices()


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


def _optional(module: str, feature: str):
    try:
        return __import__(module)
    except ImportError as e:
        raise ImportError(
            f"polyrt's {feature} needs {module}: pip install {module}"
        ) from e
