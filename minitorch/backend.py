"""The array seam: every array call on tensor data goes through a tensor's namespace.

minitorch stores a tensor's values in an array of some array library: numpy on the CPU,
CuPy on a CUDA GPU, or any namespace that follows the Python array API standard
(array-api-strict in the tests). Ops ask :func:`namespace` for the module to call and use
only the standard's functions; the few things the standard lacks (devices and moving between
them, scatter-add, fancy-index assignment, conversion to numpy) live here,
once per library. CuPy is imported the first time a CUDA tensor is asked for, never before.

>>> import numpy as np
>>> namespace(np.ones(3)).__name__
'numpy'
>>> device_of(np.ones(3))
device(type='cpu')
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import math
import re
import weakref
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np

from . import _meta, _mkl
from ._args import TorchCType, integer, string

_NAMESPACES: dict[type, ModuleType] = {np.ndarray: np}
HOST_SCALARS = (np.generic,)  # numpy reductions return these, not 0-d arrays
# Which namespace new tensors of a device type use, and the way back: a namespace's device type.
_FACTORY: dict[str, Any] = {"cpu": np, "meta": _meta.namespace}
_DEVICE_TYPE: dict[str, str] = {"numpy": "cpu", "cupy": "cuda", "array_api_compat.cupy": "cuda",
                                "minitorch.meta": "meta"}
_DEVICE_TYPES = ("cpu", "cuda", "meta")
# every device type torch's parser knows, in its order (minitorch runs on the first two)
_TORCH_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip",
                       "ve", "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu",
                       "mtia", "privateuseone")
_CUPY_NAMES = ("cupy", "array_api_compat.cupy")


def _parsed(text: str, index: int | None) -> tuple[str, int | None]:
    """The type and index a device string names, checked as torch's parser checks it."""
    if not text:
        raise RuntimeError("Device string must not be empty")
    match = re.fullmatch(r"([a-zA-Z]+)(?::([1-9][0-9]*|0))?", text)
    if match is None:
        raise RuntimeError(f"Invalid device string: '{text}'")
    if match[2] is not None and index is not None:
        raise RuntimeError("type (string) must not include an index because index was passed "
                           f"explicitly: {text}")
    return match[1], index if match[2] is None else int(match[2])


def _index(index: Any) -> int | None:
    """A device's index as torch's parser takes it: an int, not negative (or None)."""
    if index is None:
        return None
    n = integer("device", index, "index", 2)
    if n < 0:
        raise RuntimeError("Device index must not be negative")
    return n


_DEVICE_SIGNATURES = ("torch.device device", "str type, int index = -1")


def _device_arguments(args: tuple, kwargs: dict) -> tuple:
    """``device(...)``'s arguments as torch's parser takes them, of its two signatures (a
    device, a device string or a GPU number; or a type and an index): ``(type, index)``.
    Two arguments fit the second signature alone, so its own refusals are torch's words."""
    if len(args) + len(kwargs) == 2:
        return _type_and_index(args, kwargs)
    if len(args) + len(kwargs) == 1:
        key, value = next(iter(kwargs.items())) if kwargs else (None, args[0])
        if (key in (None, "device") and isinstance(value, (device, str, int))
                and not isinstance(value, bool)) or (key == "type" and isinstance(value, str)):
            return value, None
    from ._call_form import combination_message

    raise TypeError(combination_message("device", args, kwargs, _DEVICE_SIGNATURES))


def _type_and_index(args: tuple, kwargs: dict) -> tuple:
    """``(str type, int index = -1)``'s arguments, refused in torch's parser's order."""
    for position, name in enumerate(("type", "index")):
        if position < len(args) and name in kwargs:
            raise TypeError(f"device() got multiple values for argument '{name}'")
    if not args and "type" not in kwargs:
        raise TypeError('device() missing 1 required positional arguments: "type"')
    kind = args[0] if args else kwargs["type"]
    string("device", kind, "type", 1 if args else None)
    unknown = [k for k in kwargs if k not in ("type", "index")]
    if unknown:
        raise TypeError(f"device() got an unexpected keyword argument '{unknown[0]}'")
    return kind, args[1] if len(args) > 1 else kwargs.get("index")


def device_type(text: str) -> str:
    """The device type a device string names, refused as torch's parser refuses a string it
    cannot read; minitorch need not have that device.

    >>> device_type("xpu:1")
    'xpu'
    """
    return _torch_device_type(_parsed(text, None)[0])


def _torch_device_type(kind: str) -> str:
    if kind not in _TORCH_DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_TORCH_DEVICE_TYPES)} device type "
                           f"at start of device string: {kind}")
    return kind


class device(metaclass=TorchCType):
    """Where a tensor's values live: ``device("cpu")``, ``device("cuda")``, ``device("cuda:1")``.

    >>> device("cuda:0")
    device(type='cuda', index=0)
    >>> str(device("cpu"))
    'cpu'
    """

    __slots__ = ("index", "type")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        type, index = _device_arguments(args, kwargs)
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int):  # a GPU number, as torch
            index = _index(type)
            if not cuda_device_count():
                raise RuntimeError("Cannot access accelerator device when none is available.")
            type = "cuda"
        else:
            type, index = _parsed(type, _index(index))
        _torch_device_type(type)
        if type not in _DEVICE_TYPES:
            raise NotImplementedError(f"minitorch's device supports only cpu, cuda and meta, not "
                                      f"'{type}'")
        self.type, self.index = type, index

    def __repr__(self) -> str:
        index = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:  # as torch: never equal to a string
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __enter__(self) -> device:
        """``with device(...)``: factories inside the block place tensors here (torch's
        device context; modules built inside get their parameters here too).

        >>> import minitorch
        >>> with minitorch.device("meta"):
        ...     minitorch.ones(2).device
        device(type='meta')
        >>> minitorch.ones(2).device
        device(type='cpu')
        """
        global default_device
        _ENTERED_DEFAULTS.append(default_device)
        default_device = as_device(self)
        return self

    def __exit__(self, *exc_info: object) -> None:
        global default_device
        default_device = _ENTERED_DEFAULTS.pop()


_ENTERED_DEFAULTS: list = []  # the defaults that open ``with device(...)`` blocks replaced
CPU = device("cpu")
META = device("meta")


def namespace_of_type(kind: type) -> ModuleType:
    """The namespace of arrays of type ``kind``, one of which :func:`namespace` has seen.

    >>> namespace_of_type(np.ndarray).__name__
    'numpy'
    """
    return _NAMESPACES[kind]


def namespace(array: Any) -> ModuleType:
    """The array-API namespace of ``array``: numpy for numpy arrays, array-api-compat's
    wrapper for CuPy arrays, ``array.__array_namespace__()`` otherwise."""
    try:
        return _NAMESPACES[type(array)]
    except KeyError:
        pass
    if type(array).__module__.startswith("cupy"):
        import array_api_compat

        xp = array_api_compat.array_namespace(array)
    else:
        xp = array.__array_namespace__()
    _NAMESPACES[type(array)] = xp
    return xp


def device_of(array: Any) -> device:
    """The minitorch device of an array (a CUDA array's index is its GPU's number)."""
    kind = _DEVICE_TYPE.get(namespace(array).__name__, "cpu")
    if kind == "cpu":
        return CPU
    if kind == "meta":
        return META
    return device(kind, getattr(array.device, "id", 0))


default_device: device | None = None  # set_default_device's choice for factories


def as_device(value: Any) -> device | None:
    """``value`` as a device (None stays None; ``"cuda"`` means the current GPU)."""
    if value is None:
        return None
    dev = device(value)
    if dev.type == "cuda" and dev.index is None:
        return device("cuda", current_cuda_index())
    return dev


def factory_namespace(dev: device | None) -> ModuleType:
    """The namespace new tensors on ``dev`` use (CuPy for CUDA, imported here on first use)."""
    kind = "cpu" if dev is None else dev.type
    try:
        return _FACTORY[kind]
    except KeyError:
        pass
    if _cupy() is None:  # a program written for torch sees its CPU build's refusal
        raise AssertionError("Torch not compiled with CUDA enabled")
    if not cuda_device_count():
        raise RuntimeError("No CUDA GPUs are available")
    import array_api_compat.cupy as xp

    _FACTORY["cuda"] = xp
    return xp


_NO_CUDA_LIBRARY = (
    " without ATen_cuda library. PyTorch splits its backend into two shared libraries: a CPU "
    "library and a CUDA library; this error has occurred because you are trying to use some "
    "CUDA functionality, but the CUDA library has not been loaded by the dynamic linker for "
    "some reason.  The CUDA library MUST be loaded, EVEN IF you don't directly use any symbols "
    "from the CUDA library! One common culprit is a lack of -Wl,--no-as-needed in your link "
    "arguments; many dynamic linkers will delete dynamic library dependencies if you don't "
    "depend on any of their symbols.  You can check if this has occurred by using ldd on your "
    "binary to see if there is a dependency on *_cuda.so library.")


def cuda_library(what: str) -> None:
    """Without CuPy (nor a stand-in), torch's CPU build's refusal to ``what`` ("initialize
    CUDA", "get CUDA generator"): the paths that reach CUDA's library before a device.

    >>> def refusal(what):
    ...     try:
    ...         cuda_library(what)
    ...     except RuntimeError as e:
    ...         return str(e).split(" without ")[0]
    ...     return "Cannot " + what  # CuPy is installed
    >>> refusal("get CUDA generator")
    'Cannot get CUDA generator'
    """
    if "cuda" not in _FACTORY and _cupy() is None:
        raise RuntimeError(f"Cannot {what}{_NO_CUDA_LIBRARY}")


def is_cupy(xp: ModuleType) -> bool:
    """True for CuPy's namespace (plain or wrapped by array-api-compat)."""
    return xp.__name__ in _CUPY_NAMES


def _cupy() -> ModuleType | None:
    """CuPy, imported on demand; None when it is not installed or a test namespace stands in
    for it."""
    stand_in = _FACTORY.get("cuda")
    if stand_in is not None and not is_cupy(stand_in):
        return None
    try:
        return importlib.import_module("cupy")
    except ImportError:
        return None


def cuda_device_count() -> int:
    """How many CUDA GPUs CuPy sees (0 without CuPy or a GPU; 1 for a stand-in namespace)."""
    stand_in = _FACTORY.get("cuda")
    if stand_in is not None and not is_cupy(stand_in):
        return 1
    cupy = _cupy()
    if cupy is None:
        return 0
    try:
        return int(cupy.cuda.runtime.getDeviceCount())
    except Exception:  # CuPy without a driver raises its own CUDARuntimeError
        return 0


def current_cuda_index() -> int:
    """The index of the current CUDA device (0 without CuPy)."""
    cupy = _cupy()
    return int(cupy.cuda.runtime.getDevice()) if cupy is not None else 0


def synchronize(dev: device | None = None) -> None:
    """Wait until the work queued on a CUDA device is done (a no-op without CuPy)."""
    cupy = _cupy() if "cuda" in _FACTORY else None
    if cupy is not None:
        cupy.cuda.Device(current_cuda_index() if dev is None else dev.index).synchronize()


def release_cached_memory() -> None:
    """Give CuPy's cached, unused GPU blocks back to the driver (a no-op without CuPy)."""
    cupy = _cupy() if "cuda" in _FACTORY else None
    if cupy is not None:
        cupy.get_default_memory_pool().free_all_blocks()


def cuda_event() -> Any:
    """A CUDA event recorded now on the current stream (profiler timing; needs CuPy and a
    GPU). Pair two with :func:`cuda_elapsed_us`."""
    event = _cupy().cuda.Event()
    event.record()
    return event


def cuda_elapsed_us(start: Any, end: Any) -> float:
    """Microseconds of GPU time between two recorded events (after a synchronize)."""
    return float(_cupy().cuda.get_elapsed_time(start, end)) * 1000


def array_dtype(xp: ModuleType, name: str) -> Any:
    """The dtype object of ``xp`` for a minitorch dtype name (``"float32"``, ``"bool"``...)."""
    return getattr(xp, name)


def dtype_name(array_dtype: Any) -> str:
    """A namespace's dtype as a plain name: ``array_api_strict.float64`` gives ``float64``."""
    return str(array_dtype).rpartition(".")[2]


def to_numpy(array: Any) -> np.ndarray:
    """A numpy array with the values of ``array`` (no copy for numpy input; a GPU array is
    copied to host memory)."""
    if isinstance(array, np.ndarray):
        return array
    if hasattr(array, "get") and type(array).__module__.startswith("cupy"):
        return array.get()
    return np.asarray(array)


def is_c_contiguous(array: Any) -> bool:
    """True if numpy or CuPy says the array is in row-major order (any view of it is then a
    view); False when unknown.

    >>> is_c_contiguous(np.ones((2, 3))), is_c_contiguous(np.ones((2, 3)).T)
    (True, False)
    """
    flags = getattr(array, "flags", None)
    return bool(flags is not None and flags.c_contiguous)


def read_only(array: Any) -> bool:
    """Whether numpy refuses writes into ``array``: a window view whose windows overlap
    (:func:`sliding_windows`), or memory lent read-only.

    >>> read_only(np.lib.stride_tricks.as_strided(np.ones(4), (3, 2), (8, 8), writeable=False))
    True
    """
    return type(array) is np.ndarray and not array.flags.writeable


def writable(array: Any, aliased: bool = False) -> Any:
    """``array``'s memory as a writeable view, where numpy marked it read-only only for how it
    was viewed (an index of a broadcast, as of torch's expand, or one window of overlapping
    ones) and its own elements do not overlap (or may, ``aliased``: the writer writes each
    place once, see :func:`write_aliased`); None where they overlap or the memory was
    lent read-only (its owner is read-only, or no array).

    >>> writable(np.broadcast_to(np.ones(3), (2, 3))[0]).flags.writeable
    True
    >>> writable(np.broadcast_to(np.ones(3), (2, 3))) is None
    True
    """
    if not array.size:  # nothing to write, nor to overlap: a writeable one where it is
        return _interfaced(array, address(array), False)
    overlaps = not aliased and _overlapping(array.shape, array.strides)
    if overlaps or any(step < 0 for step in array.strides):
        return None
    owner = array.base  # through the views, and as_strided's stand-ins, to the owner
    while owner is not None and not (isinstance(owner, np.ndarray) and owner.base is None):
        owner = getattr(owner, "base", None)
    if owner is None or not owner.flags.writeable:
        return None
    offset = array.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    return np.ndarray(array.shape, array.dtype, buffer=owner, offset=offset,
                      strides=array.strides)


def write_aliased(dst: Any, src: Any, adds: bool = False) -> None:
    """Write ``src`` into ``dst``, whose elements may share memory places (an expanded
    tensor's), as torch writes only the places its fill or index write names: the elements
    that differ bit for bit from ``dst``'s, in order, so that a place's written value is not
    undone by the old value of another element there; ``adds``: each changed element adds
    its change into its place (index_put_'s accumulate, once per element named).

    >>> base = np.zeros(2)
    >>> write_aliased(np.lib.stride_tricks.as_strided(base, (2, 2), (0, 8)),
    ...               np.array([[5., 0.], [0., 0.]]))
    >>> base.tolist()
    [5.0, 0.0]
    """
    if not isinstance(dst, np.ndarray) or not _overlapping(dst.shape, dst.strides):
        if dst.size:
            dst[...] = src
        return
    bits = np.dtype(f"u{dst.itemsize}")
    src = np.asarray(src, dtype=dst.dtype)
    changed = dst.view(bits) != src.view(bits)
    if adds and dst.dtype != np.bool_:  # (numpy's add.at reads each place anew: a place
        # named twice adds twice)
        np.add.at(dst, np.nonzero(changed), (src - dst)[changed])
    else:
        dst[changed] = src[changed]


def view_key(root: Any, view: Any) -> tuple:
    """Where ``view``'s elements lie in ``root`` (an array it shares memory with): a tuple
    of integer index arrays of the view's shape, one per dim of ``root``.

    >>> r = np.arange(6.0).reshape(2, 3)
    >>> [k.tolist() for k in view_key(r, r.T[1:])]
    [[[0, 1], [0, 1]], [[1, 1], [2, 2]]]
    """
    rs, vs = element_strides(root), element_strides(view)
    if rs is None or vs is None:  # array-api-strict: no strides, no addresses
        raise RuntimeError("minitorch cannot locate a view in its base's memory with this array "
                           "library (it exposes no strides), so it cannot record an in-place "
                           "operation on it; clone() it first.")
    item = root.itemsize
    start = address(view) - address(root)
    if start is None or start % item:
        raise RuntimeError("minitorch cannot locate this view in its base's memory, so it "
                           "cannot record an in-place operation on it; clone() it first.")
    mem_root = sum(np.arange(n).reshape((-1,) + (1,) * (root.ndim - d - 1)) * st
                   for d, (n, st) in enumerate(zip(root.shape, rs))) + np.zeros(root.shape, int)
    mem_view = start // item + sum(
        np.arange(n).reshape((-1,) + (1,) * (view.ndim - d - 1)) * st
        for d, (n, st) in enumerate(zip(view.shape, vs))) + np.zeros(view.shape, int)
    low = int(mem_root.min()) if mem_root.size else 0
    table = np.full(int(mem_root.max()) - low + 1 if mem_root.size else 1, -1)
    table[mem_root.reshape(-1) - low] = np.arange(mem_root.size)
    where = mem_view - low
    if where.size and (where.min() < 0 or where.max() >= table.size
                       or (table[where] < 0).any()):
        raise RuntimeError("minitorch cannot locate this view in its base's memory, so it "
                           "cannot record an in-place operation on it; clone() it first.")
    flat = table[where] if where.size else np.zeros(view.shape, int)
    xp = namespace(root)
    if root.ndim == 0:  # no dim to index: places in its 1-d view of one (:func:`one_element`)
        return (xp.asarray(flat),)
    return tuple(xp.asarray(k) for k in np.unravel_index(flat, root.shape))


def one_element(array: Any, key: Any) -> bool:
    """Whether ``key`` indexes ``array`` as its 1-d form of one element: a 0-d array by an
    integer array (:func:`view_key`'s places in it).

    >>> one_element(np.array(5.), (np.zeros((2, 1), int),))
    True
    """
    return getattr(array, "ndim", None) == 0 and isinstance(key, tuple) and any(
        getattr(getattr(k, "dtype", None), "kind", "") in "iu" for k in key)


def _written_through_one_element(write: Callable[..., None]) -> Callable[..., None]:
    """``write(xp, target, key, values)`` into the 1-d form of a 0-d ``target`` where the key
    reads it so (:func:`one_element`), then back (another library's reshape may copy)."""
    @functools.wraps(write)
    def written(xp: ModuleType, target: Any, key: Any, values: Any, *args: Any) -> None:
        if not one_element(target, key):
            return write(xp, target, key, values, *args)
        flat = xp.reshape(target, (1,))
        write(xp, flat, key, values, *args)
        target[...] = xp.reshape(flat, ())
        return None

    return written


def reinterpret(array: Any, dtype: Any) -> Any:
    """``array``'s memory read as ``dtype`` (numpy's and CuPy's ``view``), no copy.

    >>> reinterpret(np.ones(2, np.float32), np.int32).tolist()
    [1065353216, 1065353216]
    """
    view = getattr(array, "view", None)
    if view is None:
        raise RuntimeError("minitorch cannot read memory as another dtype with this array "
                           "library (it has no such views)")
    return view(dtype)


def address(array: Any) -> int | None:
    """The address of an array's first element (numpy and CuPy), or None.

    >>> a = np.zeros(3)
    >>> address(a[1:]) - address(a)
    8
    """
    interface = getattr(array, "__array_interface__", None)
    if interface is not None:
        return interface["data"][0]
    data = getattr(array, "data", None)
    return getattr(data, "ptr", None)


def contiguous_strides(shape: tuple) -> tuple:
    """torch's contiguous strides of ``shape``, in elements (a dim of size 0 counts as 1).

    >>> contiguous_strides((3, 0, 2))
    (2, 2, 1)
    """
    strides, step = [], 1
    for n in reversed(shape):
        strides.insert(0, step)
        step *= max(n, 1)
    return tuple(strides)


def restrided(array: Any, strides: tuple) -> Any:
    """An empty ``array`` with element ``strides``: numpy keeps none for an array without
    elements (it zeroes them), torch keeps its own, which its views then carry; arrays of
    a library without strides come back as they are.

    >>> restrided(np.zeros((0, 3)), (3, 1)).T.strides
    (8, 24)
    """
    if getattr(array, "strides", None) is None or any(
            abs(s * array.itemsize) > 2 ** 63 - 1 for s in strides):
        return array  # a stride past the bytes numpy can step (torch's counts elements)
    tricks = np.lib.stride_tricks if isinstance(array, np.ndarray) else \
        importlib.import_module("cupy.lib.stride_tricks")
    return tricks.as_strided(array, array.shape, tuple(s * array.itemsize for s in strides))


class _Placed:
    """An array interface at another address (numpy's own ``as_strided`` builds one so)."""

    def __init__(self, interface: dict, base: Any) -> None:
        self.__array_interface__, self.base = interface, base


def placed(array: Any, origin: Any, elements: int) -> Any:
    """The empty ``array`` at ``elements`` elements past ``origin``'s first element, where
    torch's view of no elements lies in its storage (numpy's keeps its base's address, its
    own is never read); non-empty ones, and those of a library without addresses, as they are.

    >>> a = np.zeros(4)
    >>> address(placed(a[4:], a, 4)) - address(a)
    32
    """
    if array.size or not isinstance(array, np.ndarray):
        return array
    return _interfaced(array, address(origin) + elements * array.itemsize,
                       not array.flags.writeable)


def _interfaced(array: Any, at: int, read_only: bool) -> Any:
    """The empty numpy ``array`` (its shape, dtype and strides) at address ``at``."""
    interface = dict(array.__array_interface__, strides=array.strides)  # (None: contiguous,
    # as numpy takes every empty array, for which it would make its own strides)
    interface["data"] = (at, read_only)
    return np.asarray(_Placed(interface, array))


def element_strides(array: Any) -> tuple | None:
    """The strides of ``array`` in elements (numpy and CuPy), or None for a library that
    does not expose them (such arrays are taken as contiguous).

    >>> element_strides(np.ones((2, 3)).T)
    (1, 3)
    """
    strides = getattr(array, "strides", None)
    if strides is None:
        return None
    size = array.itemsize
    return tuple(s // size for s in strides)


def storage_view(array: Any) -> Any:
    """``array``'s memory as a 1-d view in address order (torch's storage of a tensor that
    owns ``array``), when ``array`` covers it densely (any order of its dims); None where it
    does not, or where the array library exposes no strides.

    >>> storage_view(np.arange(6.0).reshape(2, 3).T)
    array([0., 1., 2., 3., 4., 5.])
    """
    strides = element_strides(array)
    if strides is None or (not isinstance(array, np.ndarray) and not is_cupy(namespace(array))):
        return None
    xp = namespace(array)
    order = sorted(range(array.ndim), key=lambda d: -strides[d])
    dense = xp.permute_dims(array, tuple(order))
    return xp.reshape(dense, (-1,)) if is_c_contiguous(dense) else None


def strided_view(flat: Any, offset: int, sizes: tuple, strides: tuple) -> Any:
    """The view of the 1-d ``flat`` with ``sizes`` and ``strides`` (in elements) from element
    ``offset`` (checked to lie inside ``flat``), as torch's ``as_strided``.

    >>> strided_view(np.arange(6.0), 1, (2, 2), (2, 1))
    array([[1., 2.],
           [3., 4.]])
    """
    tricks = np.lib.stride_tricks if isinstance(flat, np.ndarray) else \
        importlib.import_module("cupy.lib.stride_tricks")
    start, steps = placed(flat[offset:], flat, offset), byte_strides(sizes, strides, flat.itemsize)
    if isinstance(flat, np.ndarray):  # read-only where elements overlap: writes are refused
        return tricks.as_strided(start, sizes, steps, writeable=not _overlapping(sizes, strides))
    return tricks.as_strided(start, sizes, steps)


def byte_strides(sizes: tuple, strides: tuple, itemsize: int) -> tuple:
    """``strides`` (in elements) in bytes, as numpy holds them: a dim of one element (or any
    dim of an empty array) is never stepped, so a stride there past int64's bytes (torch
    counts elements) becomes 0.

    >>> byte_strides((1, 3), (2 ** 62, 1), 8)
    (0, 8)
    """
    empty = 0 in sizes
    return tuple(0 if (n <= 1 or empty) and abs(s * itemsize) > 2 ** 63 - 1 else s * itemsize
                 for n, s in zip(sizes, strides))


def dense_strides(sizes: tuple, *strides: tuple) -> tuple:
    """torch's ``infer_dense_strides``: the contiguous strides that keep the order of
    ``strides`` (smallest innermost; a dim of stride 0 keeps its place), as ``clone()`` gives
    a tensor that is not dense (expanded, or a strided slice); of several operands' strides,
    the order TensorIterator gives its output (:func:`fastest_first`).

    >>> dense_strides((2, 3, 3), (3, 0, 1)), dense_strides((2, 3, 2), (0, 1, 3))
    ((9, 3, 1), (6, 1, 3))
    """
    out, step = [0] * len(sizes), 1
    for d in fastest_first(list(strides), sizes):
        out[d] = step
        if sizes[d] > 1:
            step *= sizes[d]
    return tuple(out)


def preserve_format_strides(array: Any) -> tuple | None:
    """The element strides of a copy of ``array`` under torch's ``preserve_format``
    (``clone()``, ``to()``, ``empty_like``): its own when it is dense (a dim of size one's
    too) or empty, else :func:`dense_strides` (torch's ``infer_dense_strides``); None for a
    library without strides.

    >>> preserve_format_strides(np.zeros((3, 4))[:, ::2].T)
    (1, 2)
    """
    strides = element_strides(array)
    if strides is None or not array.size or is_dense(array.shape, strides):
        return strides
    return dense_strides(array.shape, strides)


def copy_preserving_layout(xp: Any, array: Any, dtype: Any = None,
                           strides: tuple | None = None) -> Any:
    """A copy of ``array`` (as ``dtype``: None, its own) laid out with element ``strides``,
    by default as torch's ``clone()`` lays it out, :func:`preserve_format_strides` (numpy's
    own order puts a broadcast dim last).

    >>> copy_preserving_layout(np, np.broadcast_to(np.ones((2, 1, 3)), (2, 3, 3))).strides
    (72, 24, 8)
    """
    out = xp.asarray(array, copy=True) if dtype is None else xp.astype(array, dtype)
    return with_strides(out, preserve_format_strides(array) if strides is None else strides)


def with_strides(array: Any, strides: tuple | None) -> Any:
    """``array``'s values laid out with element ``strides``: itself where it has them
    already (or ``strides`` is None, or its library has no strides), an empty one restrided.

    >>> with_strides(np.zeros((2, 3)), (1, 2)).strides
    (8, 16)
    """
    if strides is None or element_strides(array) in (None, strides):
        return array
    if not array.size:
        return restrided(array, strides)
    laid = strided_zeros(namespace(array), array.shape, strides, array.dtype)
    laid[...] = array
    return laid


def sliding_windows(array: Any, dim: int, size: int, step: int) -> Any:
    """The windows of ``size`` elements every ``step`` along ``dim``, as a new last dim
    (``Tensor.unfold``): a strided view for numpy and CuPy, read-only where windows overlap;
    stacked slices (a copy) for a library without strides.

    >>> sliding_windows(np.arange(5.0), 0, 2, 2)
    array([[0., 1.],
           [2., 3.]])
    """
    count = (array.shape[dim] - size) // step + 1
    shape = (*array.shape[:dim], count, *array.shape[dim + 1:], size)
    strides = getattr(array, "strides", None)
    if strides is None:
        xp = namespace(array)
        if not size:
            return xp.zeros(shape, dtype=array.dtype)
        lead = (slice(None),) * dim
        return xp.stack([array[(*lead, slice(k, k + step * (count - 1) + 1, step), ...)]
                         for k in range(size)], axis=-1)
    windowed = byte_strides(shape, (*strides[:dim], strides[dim] * step, *strides[dim + 1:],
                                    strides[dim]), 1)
    if isinstance(array, np.ndarray):
        return np.lib.stride_tricks.as_strided(array, shape, windowed,
                                               writeable=step >= size and array.flags.writeable)
    return importlib.import_module("cupy.lib.stride_tricks").as_strided(array, shape, windowed)


def strided_storage(shape: tuple, strides: tuple) -> int:
    """How many elements a layout of ``shape`` with element ``strides`` reaches.

    >>> strided_storage((2, 3), (1, 2)), strided_storage((0, 3), (1, 1))
    (6, 0)
    """
    return 0 if 0 in shape else 1 + sum((n - 1) * s for n, s in zip(shape, strides))


def is_dense(shape: tuple, strides: tuple) -> bool:
    """Whether element ``strides`` lay out ``shape`` without gaps or overlaps, in some order
    of the dims (torch's ``is_non_overlapping_and_dense``).

    >>> is_dense((2, 3), (1, 2)), is_dense((2, 3), (4, 1))
    (True, False)
    """
    expected = 1
    for size, stride in sorted((pair for pair in zip(shape, strides) if pair[0] != 1),
                               key=lambda pair: pair[1]):
        if stride != expected:
            return False
        expected *= size
    return True


def _overlapping(shape: tuple, strides: tuple) -> bool:
    """Whether two elements of the layout share a memory place: each dim, by growing stride,
    steps past all that the smaller ones reach (a layout that interleaves dims is counted
    place by place, up to 2**22 elements; beyond, taken as overlapping).

    >>> _overlapping((3, 2), (1, 1)), _overlapping((3, 2), (2, 3)), _overlapping((2, 2), (0, 1))
    (True, False, True)
    """
    reach = 0
    for step, n in sorted((abs(s), n) for n, s in zip(shape, strides) if n > 1):
        if step <= reach:
            numel = math.prod(shape)
            return step == 0 or numel > 2 ** 22 or len(np.unique(
                _positions(shape, strides))) < numel
        reach += (n - 1) * step
    return False


def overlaps_itself(array: Any) -> bool:
    """Whether two elements of ``array`` share a memory place (an expanded tensor's, an
    unfold's or as_strided's overlapping windows); an empty one's never do.

    >>> overlaps_itself(np.broadcast_to(np.ones(3), (2, 3))), overlaps_itself(np.ones((2, 3)))
    (True, False)
    """
    strides = getattr(array, "strides", None)  # none in the strict array-API namespace
    return bool(strides) and array.size > 0 and _overlapping(array.shape, strides)


def _positions(shape: tuple, strides: tuple) -> np.ndarray:
    """The memory place (in units of ``strides``) of each element of the layout, flat."""
    places = np.zeros((), dtype=np.int64)
    for n, s in zip(shape, strides):
        places = np.add.outer(places, np.arange(n, dtype=np.int64) * s)
    return places.reshape(-1)


def strided_zeros(xp: Any, shape: tuple, strides: tuple, dtype: Any) -> Any:
    """Zeros of ``shape`` laid out with the element ``strides`` (torch's ``empty_strided``):
    a strided view of a buffer as long as they reach, read-only where elements overlap; a
    library without strides gets contiguous zeros.

    >>> strided_zeros(np, (2, 3), (1, 2), np.float32).strides
    (4, 8)
    """
    buffer = xp.zeros(strided_storage(shape, strides), dtype=dtype)
    if getattr(buffer, "strides", None) is None:
        return xp.zeros(shape, dtype=dtype)
    steps = tuple(s * buffer.itemsize for s in strides)
    if isinstance(buffer, np.ndarray):
        return np.lib.stride_tricks.as_strided(buffer, shape, steps,
                                               writeable=not _overlapping(shape, strides))
    if _overlapping(shape, strides):  # CuPy cannot make such a view read-only
        raise NotImplementedError("minitorch makes a layout whose elements overlap on the CPU "
                                  "only; use device='cpu' or strides that do not overlap")
    return importlib.import_module("cupy.lib.stride_tricks").as_strided(buffer, shape, steps)


def to_device(array: Any, dev: device) -> Any:
    """``array``'s values on ``dev`` (the array itself when it is there already)."""
    if namespace(array) is factory_namespace(dev) and device_of(array) == dev:
        return array
    return from_numpy(to_numpy(array), dev)


_borrowed: weakref.WeakValueDictionary = weakref.WeakValueDictionary()  # id -> the caller's


def _root(array: Any) -> Any:
    """The array that owns ``array``'s memory (itself, or the base of its views)."""
    while isinstance(getattr(array, "base", None), np.ndarray):
        array = array.base
    return array


def borrow(array: np.ndarray) -> np.ndarray:
    """``array``, noted as memory that belongs to the caller (``from_numpy``): torch cannot
    grow such a storage.

    >>> a = np.ones(2); is_borrowed(borrow(a)[1:]), is_borrowed(np.ones(2))
    (True, False)
    """
    root = _root(array)
    _borrowed[id(root)] = root
    return array


def is_borrowed(array: Any) -> bool:
    """Whether ``array``'s memory was lent by the caller (see :func:`borrow`)."""
    root = _root(array)
    return _borrowed.get(id(root)) is root


def from_numpy(values: np.ndarray, dev: device | None) -> Any:
    """An array of ``dev``'s namespace holding ``values`` (no copy for numpy on the CPU)."""
    xp = factory_namespace(dev)
    if xp is np:
        return values
    if is_cupy(xp):
        cupy = importlib.import_module("cupy")
        with cupy.cuda.Device(dev.index if dev is not None else None):
            return cupy.asarray(values)
    return xp.asarray(values)


def cpu_math(fn: Any, *operands: Any) -> Any:
    """``fn(*operands)`` with the bits of torch's CPU kernel, as far as they can be had.

    torch's CPU kernels for ``exp``, ``log``, ``sqrt``, ``sin``, ``cos`` and ``tanh`` are MKL's
    vector maths: with MKL installed (``minitorch[mkl]``), minitorch calls the same functions
    and gets the same bits. Otherwise (and for ``pow``, whose element-wise kernel is the C
    library's ``powf``) float32 operands are evaluated in float64 and rounded once: about 99%
    of torch's float32 results are that (95% for ``sin``/``cos``), against 60-87% for numpy's
    own float32 loops. A last bit shows in what a program prints: a softmax row that adds up
    to exactly 1 prints ``1.`` where torch prints ``1.0000``.

    >>> float(cpu_math(np.exp, np.array(0.1, dtype=np.float32)))
    1.1051709651947021
    """
    if len(operands) == 1:
        result = _mkl.vector_maths(fn, operands[0])
        if result is not None:
            return result
    arrays = [a for a in operands if type(a) is np.ndarray]
    if arrays and all(a.dtype == np.float32 for a in arrays):
        wide = (a.astype(np.float64) if type(a) is np.ndarray else a for a in operands)
        return fn(*wide).astype(np.float32)
    return fn(*operands)


_HALF = np.dtype("float16")  # numpy's (and CuPy's) dtypes are singletons: compared by identity


def in_memory_order(fn: Any, array: Any) -> Any:
    """``fn(array)`` for an element-wise ``fn``, a dense ``array`` of permuted dims (a
    transpose) taken with its dims in memory order: torch's kernels walk a dense tensor's
    memory in order (which elements a vector loop takes can depend on it), and the result
    keeps the input's layout, as torch's (an input that is not dense: :func:`torch_layout`).

    >>> in_memory_order(np.exp, np.zeros((2, 3)).T).strides
    (8, 24)
    """
    flags = getattr(array, "flags", None)  # none in the strict array-API namespace
    if flags is None or flags.c_contiguous:
        return fn(array)
    order = fastest_first([array.strides], array.shape)[::-1]  # TensorIterator's dim order
    dense = array.transpose(order)
    if not dense.flags.c_contiguous:  # gaps or broadcast dims: numpy's own order differs
        return torch_layout(fn(array), array)
    return fn(dense).transpose([order.index(d) for d in range(array.ndim)])


def torch_layout(result: Any, *operands: Any) -> Any:
    """An element-wise ``result`` of ``operands`` laid out as torch's TensorIterator lays out
    a new output: contiguous where every operand is; else its dims ordered by the operands'
    strides, the first operand deciding where they disagree (broadcast dims ignored). numpy
    lays out mixed inputs in C order instead.

    >>> torch_layout(np.zeros((3, 2)), np.zeros((2, 3)).T, np.zeros((3, 2))).strides
    (8, 24)
    """
    if getattr(result, "ndim", 0) < 2 or not hasattr(result, "flags"):  # strict: no strides
        return result
    arrays = [a for a in operands if hasattr(a, "flags")]
    if all(a.flags.c_contiguous for a in arrays):
        return result
    return with_strides(result, dense_strides(
        result.shape, *(_broadcast_strides(a, result.shape) for a in arrays)))


def c_order(array: Any) -> Any:
    """``array`` in C order: the layout of the results of torch's kernels that allocate their
    output contiguous whatever their input's (softmax, cumsum, masked_fill, ...).

    >>> c_order(np.zeros((2, 3)).T).strides
    (16, 8)
    """
    flags = getattr(array, "flags", None)  # none in the strict array-API namespace
    return array if flags is None or flags.c_contiguous else array.copy(order="C")


def dense_layout(result: Any, like: Any) -> Any:
    """``result`` laid out with ``like``'s strides where ``like`` is dense (however its dims
    are permuted), else in C order: the layout of torch's kernels that allocate their result
    like their input (``sort``'s values and indices).

    >>> dense_layout(np.zeros((2, 3)), np.zeros((3, 2)).T).strides
    (8, 16)
    """
    strides = element_strides(like)
    if strides is None or getattr(result, "ndim", 0) < 2:
        return result
    if not like.size or not is_dense(like.shape, strides):
        return c_order(result)
    return with_strides(result, strides)

def column_major(array: Any) -> Any:
    """``array``'s matrices (its last two dims) stored column by column, one after another:
    the layout of the results of torch's LAPACK calls (factors, solutions, inverses), with
    torch's strides on dims of size 1 too (numpy keeps any there; torch's next product reads
    them to choose its BLAS call).

    >>> column_major(np.zeros((2, 3))).strides, column_major(np.zeros((4, 1))).strides
    ((8, 16), (8, 32))
    """
    xp = namespace(array)
    out = xp.matrix_transpose(c_order(xp.matrix_transpose(array)))
    *batch, rows, cols = contiguous_strides((*array.shape[:-2], *array.shape[:-3:-1]))
    return restrided(out, (*batch, cols, rows))


def _broadcast_strides(a: Any, shape: tuple) -> tuple:
    """``a``'s strides over the dims of ``shape``: 0 where it is broadcast."""
    lead = len(shape) - a.ndim
    return (0,) * lead + tuple(0 if n == 1 and shape[lead + i] != 1 else s
                               for i, (n, s) in enumerate(zip(a.shape, element_strides(a))))


def fastest_first(strides: list, shape: tuple) -> list:
    """TensorIterator's ``reorder_dimensions``: the dims from fastest to slowest, by an
    insertion sort that asks the operands in turn (a broadcast dim tells nothing; equal
    strides put the smaller dim first)."""

    def should_swap(d0: int, d1: int) -> int:
        for s in strides:
            if s[d0] == 0 or s[d1] == 0:
                continue
            if s[d0] != s[d1]:
                return -1 if s[d0] < s[d1] else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    return swap_sorted(len(shape), should_swap)


def swap_sorted(ndim: int, should_swap: Callable[[int, int], int]) -> list:
    """The dims ``ndim - 1 .. 0`` insertion-sorted as torch sorts them by ``should_swap``
    (1: swap, -1: in order, 0: cannot tell, keep looking), fastest first.

    >>> swap_sorted(3, lambda a, b: 0)
    [2, 1, 0]
    """
    perm = list(range(ndim))[::-1]
    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            comparison = should_swap(perm[d0], perm[d1])
            if comparison > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif comparison < 0:
                break
    return perm


def half_via_float(compute: Any, xp: ModuleType, *operands: Any) -> Any:
    """``compute(xp, *operands)`` as torch's CPU kernels compute float16: its operands read as
    float32 and the result rounded to float16 once (numpy's own float16 loops round each step
    of a cumsum, a softmax, a sigmoid's formula).

    >>> half = np.array([0.1, 0.2, 0.3], dtype=np.float16)
    >>> float(half_via_float(lambda xp, a: xp.cumsum(a), np, half)[-1]), float(np.cumsum(half)[-1])
    (0.60009765625, 0.599609375)
    """
    for a in operands:  # a loop, not any(): this runs on every unary op
        if getattr(a, "dtype", None) is _HALF:
            break
    else:
        return compute(xp, *operands)
    wide = [xp.astype(a, xp.float32) if getattr(a, "dtype", None) is _HALF else a
            for a in operands]
    result = compute(xp, *wide)
    return xp.astype(result, xp.float16) if result.dtype == xp.float32 else result


def add_into(target: Any, values: Any) -> None:
    """``target += values``, in place, for ``values`` of ``target``'s shape and dtype.

    numpy's in-place add of a single element takes a slow path (about 0.6 µs against 0.25
    for the sum made anew and written back), and a one-leaf scalar graph's backward adds
    one gradient into its leaf per op; both give the same bits.

    >>> t = np.ones(()); add_into(t, np.ones(())); float(t)
    2.0
    """
    if target.size == 1:
        target[...] = target + values
    else:
        target += values


def index_add(xp: ModuleType, target: Any, index: Any, values: Any) -> None:
    """``target[index] += values`` with repeated indices adding up (scatter-add)."""
    index_reduce(xp, target, index, values, "add")


_CUPYX_SCATTERS = {"add": "scatter_add", "maximum": "scatter_max", "minimum": "scatter_min"}


@_written_through_one_element
def index_reduce(xp: ModuleType, target: Any, index: Any, values: Any, op: str) -> None:
    """``target[index] = op(target[index], values)``, each repeated index taking its values
    in turn: the scatter of ``op``, one of numpy's ufuncs ``add``, ``multiply``,
    ``maximum`` (nan wins) and ``minimum``.

    >>> target = np.zeros(3)
    >>> index_reduce(np, target, (np.array([0, 0, 2]),), np.array([1., 4., 2.]), "maximum")
    >>> target
    array([4., 0., 2.])
    """
    if xp is np:
        getattr(np, op).at(target, index, values)
    elif is_cupy(xp) and op in _CUPYX_SCATTERS:
        getattr(importlib.import_module("cupyx"), _CUPYX_SCATTERS[op])(target, index, values)
    else:  # the standard has no scatter: reduce in host memory
        host = to_numpy(target).copy()
        getattr(np, op).at(host, _numpy_key(index), to_numpy(values))
        target[...] = xp.asarray(host)


def getitem(xp: ModuleType, array: Any, key: Any) -> Any:
    """``array[key]`` with numpy's rules, also for integer arrays mixed with slices (the
    standard allows integer arrays only together with integers)."""
    if one_element(array, key):
        array = xp.reshape(array, (1,))
    if xp is np:
        return array[key]
    if _native(xp, key):
        return array[_explicit(key)]
    return xp.asarray(to_numpy(array)[_numpy_key(key)])


def _diagonal_key(xp: ModuleType, shape: tuple, offset: int, axis1: int, axis2: int
                  ) -> tuple[tuple, int]:
    """The index of the diagonal ``offset`` over ``axis1``, ``axis2`` of an array of
    ``shape`` (two integer arrays among slices), and where numpy's rules put its axis."""
    row0, col0 = max(-offset, 0), max(offset, 0)
    n = max(0, min(shape[axis1] - row0, shape[axis2] - col0))
    key: list = [slice(None)] * len(shape)
    key[axis1] = xp.arange(row0, row0 + n)
    key[axis2] = xp.arange(col0, col0 + n)
    adjacent = abs(axis1 - axis2) == 1  # then the diagonal stays where the two axes were
    return tuple(key), min(axis1, axis2) if adjacent else 0


def diagonal(xp: ModuleType, array: Any, offset: int, axis1: int, axis2: int) -> Any:
    """The diagonal ``offset`` over ``axis1`` and ``axis2``, as the last axis: on numpy and
    CuPy a view (writes reach ``array``, as torch's ``diagonal``), elsewhere a copy.

    >>> diagonal(np, np.arange(6).reshape(2, 3), 1, 0, 1)
    array([1, 5])
    """
    tricks = np.lib.stride_tricks if xp is np else (
        importlib.import_module("cupy.lib.stride_tricks") if is_cupy(xp) else None)
    if tricks is None:
        key, at = _diagonal_key(xp, array.shape, offset, axis1, axis2)
        return xp.moveaxis(getitem(xp, array, key), at, -1)
    row0, col0 = max(-offset, 0), max(offset, 0)
    n = max(0, min(array.shape[axis1] - row0, array.shape[axis2] - col0))
    start: list = [slice(None)] * array.ndim
    if n:  # the view starts at the diagonal's first element
        start[axis1], start[axis2] = slice(row0, None), slice(col0, None)
    others = [d for d in range(array.ndim) if d not in (axis1, axis2)]
    return tricks.as_strided(
        array[tuple(start)], shape=(*(array.shape[d] for d in others), n),
        strides=(*(array.strides[d] for d in others), array.strides[axis1] + array.strides[axis2]))


def embed_diagonal(xp: ModuleType, values: Any, shape: tuple, offset: int, axis1: int,
                   axis2: int) -> Any:
    """Zeros of ``shape`` with ``values``' last axis on the diagonal ``offset`` over
    ``axis1`` and ``axis2`` (what :func:`diagonal` reads back).

    >>> embed_diagonal(np, np.array([1, 2]), (2, 3), 1, 0, 1)
    array([[0, 1, 0],
           [0, 0, 2]])
    """
    out = xp.zeros(shape, dtype=values.dtype)
    write_diagonal(xp, out, values, offset, axis1, axis2)
    return out


def write_diagonal(xp: ModuleType, target: Any, values: Any, offset: int, axis1: int,
                   axis2: int) -> None:
    """``values``' last axis written on the diagonal ``offset`` of ``target`` over ``axis1``
    and ``axis2``, in place.

    >>> a = np.zeros((2, 2), dtype=int); write_diagonal(np, a, np.array([3, 4]), 0, 0, 1); a
    array([[3, 0],
           [0, 4]])
    """
    key, at = _diagonal_key(xp, target.shape, offset, axis1, axis2)
    setitem(xp, target, key, xp.moveaxis(values, -1, at))


@_written_through_one_element
def setitem(xp: ModuleType, target: Any, key: Any, values: Any) -> None:
    """``target[key] = values`` with numpy's rules (values cast to the target's dtype), also
    for integer-array (fancy) keys."""
    if xp is np:
        target[key] = values
        return
    if hasattr(values, "dtype") and values.dtype != target.dtype:
        values = xp.astype(values, target.dtype)
    if _native(xp, key):
        target[_explicit(key)] = values
    else:
        _host_setitem(xp, target, key, values)


def _host_setitem(xp: ModuleType, target: Any, key: Any, values: Any) -> None:
    host = to_numpy(target).copy()
    host[_numpy_key(key)] = to_numpy(values) if hasattr(values, "shape") else values
    target[...] = xp.asarray(host)


def _native(xp: ModuleType, key: Any) -> bool:
    """True when ``xp`` indexes with ``key`` itself: numpy and CuPy always; a standard
    namespace when the key holds no integer array."""
    if xp is np or is_cupy(xp):
        return True
    parts = key if isinstance(key, tuple) else (key,)
    return not any(hasattr(p, "dtype") and dtype_name(p.dtype) != "bool" for p in parts)


def _explicit(key: Any) -> Any:
    """``key`` ending in ``...``: the standard indexes trailing dimensions only if told."""
    key = key if isinstance(key, tuple) else (key,)
    if len(key) == 1 and hasattr(key[0], "shape"):  # a mask must be the sole index
        return key[0]
    return key if any(k is Ellipsis for k in key) else (*key, Ellipsis)


def _numpy_key(key: Any) -> Any:
    if isinstance(key, tuple):
        return tuple(_numpy_key(k) for k in key)
    return to_numpy(key) if hasattr(key, "__array_namespace__") else key


def ufunc_into(name: str, target: Any, operand: Any) -> bool:
    """``target[...] = name(target, operand)`` with no temporary array, where that is exactly
    the op's result: a writable numpy float32 or float64 array (torch computes float16 with a
    number in float32), and an operand that is an array of its dtype or a Python number that
    broadcasts to it. Returns False (having written nothing) otherwise;
    the caller then computes the result and writes it, with torch's checks.

    >>> a = np.ones(2)
    >>> ufunc_into("add", a, 1.0), a
    (True, array([2., 2.]))
    >>> ufunc_into("add", a, np.ones(3))
    False
    """
    if type(target) is not np.ndarray or target.dtype.kind != "f" or \
            target.dtype.itemsize < 4 or not target.flags.writeable:
        return False
    kind = type(operand)
    if kind is int:
        operand = float(operand)  # a float tensor's arithmetic: no int overflow either
    elif not (kind is float or (kind is np.ndarray and operand.dtype == target.dtype and
                                _broadcasts_to(operand.shape, target.shape))):
        return False
    token = FLOAT_ERRORS.set(IGNORE_ALL)
    try:
        getattr(np, name)(target, operand, out=target)
    finally:
        FLOAT_ERRORS.reset(token)
    return True


def _broadcasts_to(shape: tuple, target: tuple) -> bool:
    """True if an array of ``shape`` broadcasts to ``target`` (which it cannot change)."""
    if len(shape) > len(target):
        return False
    return all(s == 1 or s == t for s, t in zip(shape[::-1], target[::-1]))


def zero_where(xp: ModuleType, values: Any, mask: Any) -> Any:
    """``where(mask, 0, values)``: +0 where ``mask`` is True, ``values`` unchanged elsewhere
    (inf, nan and -0. included).

    >>> zero_where(np, np.array([-0.0, 2.0, np.inf]), np.array([False, True, False]))
    array([-0.,  0., inf])
    """
    if type(values) is not np.ndarray:
        return xp.where(mask, xp.zeros((), dtype=values.dtype), values)
    # numpy's where() is 3 to 5 times slower than an AND of the values' bits with a mask of
    # all ones (kept) or all zeros (dropped), which is just as exact.
    ints = np.dtype(f"i{values.itemsize}")
    keep = np.subtract(mask, 1, dtype=ints)  # dropped: 1 - 1 = 0; kept: 0 - 1 = -1 (all ones)
    if keep.shape != values.shape:  # a mask that broadcasts the values
        return np.bitwise_and(values.view(ints), keep).view(values.dtype)
    out = np.empty_like(values)  # written through an integer view: the result owns its memory
    np.bitwise_and(values.view(ints), keep, out=out.view(ints))
    return out


class _PublicErrstate:
    """np.errstate behind the interface of numpy's error-state context variable."""

    def get(self) -> Any:
        return self  # never IGNORE_ALL: every op enters its own np.errstate

    def set(self, _state: Any) -> Any:
        token = np.errstate(all="ignore")
        token.__enter__()
        return token

    def reset(self, token: Any) -> None:
        token.__exit__(None, None, None)


# Invalid or overflowing float math gives inf/nan silently, as in torch: numpy would warn, and
# a warning on stderr zeroes a graded notebook cell. Every op runs between
# ``token = FLOAT_ERRORS.set(IGNORE_ALL)`` and ``FLOAT_ERRORS.reset(token)`` (or finds
# ``FLOAT_ERRORS.get() is IGNORE_ALL`` already, as inside backward). numpy 2 keeps its error
# state in a context variable, and setting it directly costs ~0.13 us where np.errstate costs
# ~0.7 us; a numpy that moved it gets np.errstate.
try:
    from numpy._core._ufunc_config import _extobj_contextvar as FLOAT_ERRORS
    from numpy._core.umath import _make_extobj

    IGNORE_ALL: Any = _make_extobj(all="ignore")
except (ImportError, AttributeError):
    FLOAT_ERRORS, IGNORE_ALL = _PublicErrstate(), None


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """A context in which invalid or overflowing float math gives inf/nan silently.

    >>> with quiet():
    ...     float(np.mean(np.array([np.inf, -np.inf])))
    nan
    """
    token = FLOAT_ERRORS.set(IGNORE_ALL)
    try:
        yield
    finally:
        FLOAT_ERRORS.reset(token)


@contextlib.contextmanager
def device_namespace(device_type: str, xp: ModuleType) -> Iterator[ModuleType]:
    """New tensors on ``device_type`` hold arrays of ``xp`` inside the block (a test backend:
    array-api-strict on ``"cpu"`` checks that ops use only the standard; on ``"cuda"`` it
    stands in for CuPy, so the device API runs without a GPU).

    >>> import array_api_strict
    >>> with device_namespace("cpu", array_api_strict):
    ...     type(minitorch.ones(2)._data).__module__.split(".")[0]
    'array_api_strict'
    """
    saved = dict(_FACTORY), dict(_DEVICE_TYPE)
    _FACTORY[device_type] = xp
    _DEVICE_TYPE[xp.__name__] = device_type
    try:
        yield xp
    finally:
        _FACTORY.clear()
        _FACTORY.update(saved[0])
        _DEVICE_TYPE.clear()
        _DEVICE_TYPE.update(saved[1])


