"""torch's CPU random generator: a 32-bit Mersenne Twister (mt19937) seeded as torch seeds
it, so ``manual_seed(s)`` gives the same stream of 32-bit words as ``torch.manual_seed(s)``.

torch seeds mt19937 with ``init_genrand`` on the low 32 bits of the seed; a 64-bit draw is
two words, the first one high. numpy's ``MT19937`` bit generator holds the same state (its
``pos`` is torch's ``625 - left``), so it produces the words here, vectorised. The samplers
that turn words into numbers are in ``_sampling``.

>>> g = Generator().manual_seed(0)
>>> [int(w) for w in g.words(2)]
[2357136044, 2546248239]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import backend
from ._args import TorchCType, type_name

__all__ = ["Generator", "default_generator"]

_N = 624  # words of mt19937's state
_DEFAULT_SEED = 67280421310721  # the seed of a new torch.Generator()


def _init_genrand(seed: int) -> np.ndarray:
    """mt19937's state for ``seed`` (Matsumoto and Nishimura's init_genrand)."""
    key = [seed & 0xFFFFFFFF]
    for j in range(1, _N):
        prev = key[-1]
        key.append((1812433253 * (prev ^ (prev >> 30)) + j) & 0xFFFFFFFF)
    return np.array(key, dtype=np.uint32)


def _unsigned_seed(seed: Any) -> int:
    """torch's seed as the unsigned 64-bit integer it keeps (-1 becomes 2**64 - 1): a Python
    int, not a bool (a numpy int passes torch's check, not its unpacking)."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise RuntimeError(f"manual_seed expected a long, but got {type_name(seed)}")
    if not isinstance(seed, int):
        raise TypeError("an integer is required")
    value = int(seed)
    if not -(2 ** 63) <= value < 2 ** 64:
        raise ValueError("Overflow when unpacking long long")
    return value % 2 ** 64


def _device_argument(args: tuple, kwargs: dict) -> Any:
    """``Generator``'s one argument, ``device``, read as torch's parser reads it: a
    ``torch.device``, a string or an index (not a bool)."""
    if len(args) > 1:
        raise TypeError("Generator() takes from 0 to 1 positional arguments but "
                        f"{len(args)} were given")
    if unknown := next((k for k in kwargs if k != "device"), None):
        raise TypeError(f"Generator() got an unexpected keyword argument '{unknown}'")
    if args and "device" in kwargs:
        raise TypeError("Generator() got multiple values for argument 'device'")
    device = args[0] if args else kwargs.get("device", "cpu")
    if isinstance(device, bool) or not isinstance(device, (str, int, backend.device,
                                                             type(None))):
        where = " (position 1)" if args else ""
        raise TypeError(f"Generator(): argument 'device'{where} must be torch.device, not "
                        f"{type_name(device)}")
    return device


class Generator(metaclass=TorchCType, c_name="torch._C.Generator"):
    """A random generator whose numbers are torch's CPU generator's for the same seed.

    >>> Generator().manual_seed(3).initial_seed()
    3
    >>> Generator().initial_seed()
    67280421310721
    """

    __module__ = "torch._C"  # its repr, <torch._C.Generator object at 0x...>, is torch's

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        device = _device_argument(args, kwargs)
        self.device = backend.as_device(device) or backend.CPU
        if self.device.type == "cpu":  # torch's CPU generator has no index
            self.device = backend.CPU
        if self.device.type == "meta":  # meta tensors draw nothing: torch has no generator
            raise RuntimeError("META device type not an accelerator.")
        if self.device.type == "cuda":
            backend.cuda_library("get CUDA generator")
        self._bits = np.random.MT19937()
        self.manual_seed(_DEFAULT_SEED)

    def manual_seed(self, seed: Any) -> Generator:
        """Reseed, and return this generator."""
        self._seed = _unsigned_seed(seed)
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": _init_genrand(self._seed), "pos": _N}}
        self.next_double_normal: float | None = None  # the scalar Box-Muller's spare sample
        self._fresh = True  # no word drawn since seeding (torch's state then says next = 0)
        self._gpu_rng: Any = None
        return self

    def initial_seed(self) -> int:
        """The seed last given."""
        return self._seed

    def seed(self) -> int:
        """Reseed from fresh entropy and return the new seed."""
        import secrets

        value = secrets.randbits(63)
        self.manual_seed(value)
        return value

    def words(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit words (torch's ``random()``), as uint64."""
        self._fresh = self._fresh and n == 0
        return self._bits.random_raw(n)

    def _tell(self) -> tuple:
        """Where the stream of words is now (not the spare normal), for ``_seek``."""
        return self._bits.state, self._fresh

    def _seek(self, place: tuple) -> None:
        """Go back to a place ``_tell`` gave: the words after it come again."""
        self._bits.state, self._fresh = place

    def words64(self, n: int) -> np.ndarray:
        """The next ``n`` 64-bit draws (torch's ``random64()``): two words each, high first."""
        pairs = self.words(2 * n)
        return (pairs[0::2] << np.uint64(32)) | pairs[1::2]

    def gpu_rng(self) -> Any:
        """CuPy's own generator, seeded with this one's seed (torch's CUDA stream differs from
        its CPU one too, so no CUDA sample matches torch's)."""
        if self._gpu_rng is None:
            import importlib

            self._gpu_rng = importlib.import_module("cupy").random.default_rng(self._seed)
        return self._gpu_rng

    def manual_seed_gpu(self, seed: int) -> None:
        """Reseed only the GPU stream (``torch.cuda.manual_seed``); the CPU stream goes on."""
        import importlib

        self._gpu_rng = importlib.import_module("cupy").random.default_rng(_unsigned_seed(seed))


    def clone_state(self, *args: Any, **kwargs: Any) -> Generator:
        """A new generator in this one's state (its seed and its place in the stream).

        >>> g = Generator().manual_seed(3); g.clone_state().initial_seed()
        3
        """
        from ._args import no_arguments

        no_arguments("Generator.clone_state", args, kwargs)  # (torch's builtin's words)
        return Generator(self.device).set_state(self.get_state())

    def graphsafe_get_state(self) -> Any:
        """torch's CUDA-graph state, which a CPU generator has not: refused as torch's."""
        raise NotImplementedError("graphsafe_get_state is not supported in this Generator")

    def graphsafe_set_state(self, state: Any) -> Any:
        """torch's CUDA-graph state, which a CPU generator has not: refused as torch's."""
        raise NotImplementedError("graphsafe_set_state is not supported in this Generator")

    def get_state(self) -> Any:
        """The state as torch keeps it: its 5056 bytes, a uint8 tensor that torch's
        ``set_rng_state`` takes too.

        >>> Generator().manual_seed(3).get_state()[:9].tolist()
        [3, 0, 0, 0, 0, 0, 0, 0, 1]
        """
        from ._creation import _leaf

        key, pos = self._bits.state["state"]["key"], int(self._bits.state["state"]["pos"])
        record = np.zeros((), dtype=_STATE)
        record["seed"], record["left"], record["seeded"] = self._seed, _N + 1 - pos, 1
        record["next"] = 0 if self._fresh else pos
        record["state"] = key
        if self.next_double_normal is not None:
            record["normal_y"], record["normal_is_valid"] = self.next_double_normal, 1
        return _leaf(np.frombuffer(record.tobytes(), dtype=np.uint8).copy(), False)

    def set_state(self, new_state: Any) -> Generator:
        """Restore a state from ``get_state`` (this library's or torch's); returns self."""
        if not hasattr(new_state, "numpy"):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state.dtype.name != "uint8":
            raise TypeError("RNG state must be a torch.ByteTensor")
        ours = getattr(new_state, "_data", None)  # (read directly: inside a transform too)
        raw = np.asarray(new_state.numpy() if ours is None else backend.to_numpy(ours))
        if raw.size != _STATE.itemsize:
            raise RuntimeError("Expected a CPUGeneratorImplState of size 5056 but found the "
                               f"input RNG state size to be {raw.size}")
        record = np.frombuffer(raw.tobytes(), dtype=_STATE)[0]
        left = int(record["left"])
        if not 1 <= left <= _N:
            raise RuntimeError("The state.left value is invalid: expected 1 <= left <= 624, "
                               f"got {left}")
        self._seed = int(record["seed"])
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": record["state"].astype(np.uint32),
                                      "pos": _N + 1 - left}}
        self._fresh = left == 1 and int(record["next"]) == 0
        self.next_double_normal = float(record["normal_y"]) if record["normal_is_valid"] \
            else None
        return self


# torch's CPUGeneratorImplState, byte for byte (little-endian, C alignment)
_STATE = np.dtype([("seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8"),
                   ("state", "<u8", (_N,)), ("normal_x", "<f8"), ("normal_y", "<f8"),
                   ("normal_rho", "<f8"), ("normal_is_valid", "<i4"), ("pad", "V4"),
                   ("next_float_normal", "<f4"), ("float_normal_is_valid", "u1"),
                   ("pad_end", "V3")])
assert _STATE.itemsize == 5056

default_generator = Generator()
default_generator.seed()  # torch's default generator starts from fresh entropy
