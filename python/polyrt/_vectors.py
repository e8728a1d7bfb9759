"""Vector columns (vec_f32, vec_f64, vec_i32, vec_i64, vec_u64).

The batch tier hands a vector column over as (offsets, bytes): byte offsets
into the rows' packed little-endian elements. Here they become numpy arrays
(a 2-d array when every row has one dimension) and Arrow list arrays (a
fixed-size list when the program fixes the dimension).
"""

from __future__ import annotations

import numpy as np

ELEMENT_DTYPES = {
    "vec_f32": np.dtype("<f4"),
    "vec_f64": np.dtype("<f8"),
    "vec_i32": np.dtype("<i4"),
    "vec_i64": np.dtype("<i8"),
    "vec_u64": np.dtype("<u8"),
}


def is_vector(type_name: str) -> bool:
    return type_name in ELEMENT_DTYPES


def elements(column, type_name: str):
    """(element offsets, elements) of a column: the rows' starts and ends in
    one flat array of the element type (no copy)."""
    offsets, data = column
    dtype = ELEMENT_DTYPES[type_name]
    return offsets // dtype.itemsize, np.asarray(data).view(dtype)


def to_numpy(column, type_name: str):
    """A rows x dim array when every row has one dimension (no copy), else an
    object array of one 1-d array per row."""
    offsets, values = elements(column, type_name)
    rows = len(offsets) - 1
    lengths = np.diff(offsets)
    if rows == 0 or (lengths == lengths[0]).all():
        return values.reshape(rows, int(lengths[0]) if rows else 0)
    out = np.empty(rows, dtype=object)
    for r in range(rows):
        out[r] = values[offsets[r] : offsets[r + 1]]
    return out


def arrow_type(pa, type_name: str, dimension):
    """A fixed-size list when the dimension is fixed, else a large list."""
    element = pa.from_numpy_dtype(ELEMENT_DTYPES[type_name])
    return pa.list_(element, dimension) if dimension is not None else pa.large_list(element)


def arrow_array(pa, column, type_name: str, dimension):
    offsets, values = elements(column, type_name)
    flat = pa.array(values)
    if dimension is not None:
        return pa.FixedSizeListArray.from_arrays(flat, dimension)
    return pa.LargeListArray.from_arrays(pa.array(offsets), flat)
