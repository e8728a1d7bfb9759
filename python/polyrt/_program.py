"""compile() and Program: a compiled polydat program, its per-request states,
plans, traversals and pickling."""

from __future__ import annotations

import operator
import os
import re
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Union

from . import _polyrt
from ._polyrt import State, WriteError
from ._arguments import _sequence, _names, _driver_version, _range, _utf8
from ._batch import _numpy_columns, Batch


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
        cursor): coordinates ``0 .. size-1`` walk the slice. ``range`` is a
        range cursor's ``(START, END)`` before narrowing (what ``all(q)``
        enumerates; None for a time-boxed cursor). ``wall_clock``
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
