"""register_node: a Python function as a node every later program may call."""

from __future__ import annotations

from typing import Sequence

from . import _polyrt
from ._arguments import _sequence


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
