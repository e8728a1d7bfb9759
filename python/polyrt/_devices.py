"""What the batch tier can run on (devices()), and columns left in GPU memory
(DeviceColumn, DeviceTextColumn, DeviceVectorColumn: DLPack and the CUDA
array interface)."""

from __future__ import annotations

import numpy as np

from . import _polyrt, _vectors
from ._polyrt import WriteError


class DeviceFaultWarning(RuntimeWarning):
    """A GPU faulted during a call on ``device="all"`` or ``"auto"``: it takes
    no more rows in this process and the CPU ran the rows it had taken, so
    the result is complete. (On ``device="gpu"`` a fault is a DeviceError,
    and a faulted GPU is unusable for the rest of the process.)"""


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


def _device_column(native, name, type, gpu, address, rows, tensor, text_address, text_bytes, text_tensor, matrix, dim):
    """evaluate_to_device's fields of one output as a DeviceColumn,
    DeviceTextColumn or DeviceVectorColumn (None: None on every row)."""
    if tensor is None:
        return None
    copy = lambda: native.device_to_host(name, type, gpu, address, rows, text_address, text_bytes)
    if text_tensor is None:
        return DeviceColumn(name, type, gpu, address, rows, tensor, copy)
    offsets = DeviceColumn(name + ".offsets", "i64", gpu, address, rows + 1, tensor, None)
    data = DeviceColumn(name + ".data", "u8", gpu, text_address, text_bytes, text_tensor, None)
    if _vectors.is_vector(type):
        return DeviceVectorColumn(name, type, rows, offsets, data, matrix, dim, copy)
    return DeviceTextColumn(name, type, rows, offsets, data, copy)


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


class DeviceVectorColumn(DeviceTextColumn):
    """A vector output (vec_f32, ...) in GPU memory (Batch.evaluate(...,
    on_device=True)), in Arrow's large layout as a DeviceTextColumn is:
    ``offsets`` (byte offsets) and ``data`` (the rows' packed elements). When
    the program fixes the dimension the elements are dense, and the column
    itself is a ``rows x dim`` array of the element type for DLPack and the
    CUDA array interface, with no copy:

        embeddings = torch.from_dlpack(column)   # rows x 768 float32 on the GPU
        cupy.asarray(column)
        column.to_numpy()                        # copied to the host, rows x dim

    A vector whose dimension varies by row has only ``offsets`` and ``data``
    (its ``__dlpack__`` raises, naming them)."""

    __slots__ = ("_matrix", "_dim")

    def __init__(self, name, type, rows, offsets, data, matrix, dim, copy):
        super().__init__(name, type, rows, offsets, data, copy)
        self._matrix, self._dim = matrix, dim

    @property
    def dtype(self) -> np.dtype:
        return _vectors.ELEMENT_DTYPES[self.type]

    @property
    def shape(self):
        self._dense()
        return (self.rows, self._dim)

    def _dense(self):
        if self._matrix is None:
            raise WriteError(
                f"{self.name} is a {self.type} whose dimension the program does not fix: "
                "read its rows through .offsets and .data"
            )
        return self._matrix

    def to_numpy(self) -> np.ndarray:
        """The column copied to the host as evaluate returns it: rows x dim
        (an object array of 1-d arrays when the dimension varies)."""
        return _vectors.to_numpy(self._copy(), self.type)

    def to_arrow(self):
        """The column copied to the host as a ``pyarrow`` list array."""
        import pyarrow as pa

        dimension = self.shape[1] if self._matrix is not None else None
        return _vectors.arrow_array(pa, self._copy(), self.type, dimension)

    @property
    def __cuda_array_interface__(self):
        return {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (self.data.address, False),
            "strides": None,
            "version": 3,
            "stream": None,
        }

    def __dlpack__(self, **kwargs):
        return self._dense().__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.data.__dlpack_device__()

    def __repr__(self) -> str:
        shape = "x".join(str(n) for n in self.shape) if self._matrix is not None else f"{self.rows} rows"
        return f"<polyrt.DeviceVectorColumn {self.name!r}: {shape} {self.type} on GPU {self.gpu}>"
