"""How the package checks the arguments every call shares (ranges, name lists,
driver versions) and imports an optional dependency, saying which."""

from __future__ import annotations

import os
from typing import List

from . import _polyrt
from ._polyrt import WriteError


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


def _positive(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{what} must be a positive int, got {value!r}")
    return value


def _utf8(text: str) -> bytes:
    """Source text as polyrt reads it: UTF-8, surrogateescape's lone
    surrogates as the bytes they stand for (a file read as Latin-1 bytes)."""
    return text.encode("utf-8", errors="surrogateescape")


def _optional(module: str, feature: str):
    try:
        return __import__(module)
    except ImportError as e:
        raise ImportError(
            f"polyrt's {feature} needs {module}: pip install {module}"
        ) from e
