"""What a tensor tells about itself, as torch's functions and methods ask it: its GPU number
(``get_device``), its size in bytes (``nbytes``, ``itemsize``), its kind (``is_signed``,
``is_complex``, ``is_cpu``), whether it holds a true value (``is_nonzero``) and whether
another tensor has its shape (``is_same_size``).

>>> import minitorch
>>> x = minitorch.ones(2, 3)
>>> x.get_device(), x.nbytes, x.ndimension(), minitorch.is_signed(x)
(-1, 24, 2, True)
"""

from __future__ import annotations

from typing import Any

from . import _args
from ._tensor import Tensor

__all__ = ["METHODS", "get_device", "imag", "is_complex", "is_nonzero", "is_same_size", "is_signed",
           "real"]


def get_device(input: Tensor) -> int:
    """The number of the GPU ``input`` is on, -1 for the CPU.

    >>> minitorch.get_device(minitorch.ones(1))
    -1
    """
    _args.tensor_args("get_device", (input, "input", 1))
    dev = input.device
    return dev.index or 0 if dev.type == "cuda" else -1


def is_complex(input: Tensor) -> bool:
    """False: minitorch has no complex dtypes.

    >>> minitorch.is_complex(minitorch.ones(1))
    False
    """
    _args.tensor_args("is_complex", (input, "input", 1))
    return False


def real(input: Tensor) -> Tensor:
    """The real part of ``input``: the tensor itself, minitorch's dtypes being all real.

    >>> x = minitorch.ones(2)
    >>> minitorch.real(x) is x, x.real is x
    (True, True)
    """
    _args.tensor_args("real", (input, "input", 1))
    return input


def imag(input: Tensor) -> Tensor:
    """The imaginary part, which torch refuses for a tensor of a real dtype (all of
    minitorch's).

    >>> minitorch.ones(2).imag
    Traceback (most recent call last):
    RuntimeError: imag is not implemented for tensors with non-complex dtypes.
    """
    _args.tensor_args("imag", (input, "input", 1))
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


def is_nonzero(input: Tensor) -> bool:
    """Whether the one value of ``input`` is true (non-zero); other sizes are refused.

    >>> minitorch.is_nonzero(minitorch.tensor([0.5]))
    True
    """
    _args.tensor_args("is_nonzero", (input, "input", 1))
    return bool(input)


def is_same_size(input: Tensor, other: Tensor) -> bool:
    """Whether both tensors have the same shape.

    >>> minitorch.is_same_size(minitorch.ones(2, 3), minitorch.zeros(3, 2))
    False
    """
    _args.tensor_args("is_same_size", (input, "input", 1), (other, "other", 2))
    return input.shape == other.shape


def is_set_to(self: Tensor, tensor: Tensor) -> bool:
    """Whether both tensors are the same view of the same memory: one storage, offset, shape
    and strides (``Tensor.is_set_to``).

    >>> x = minitorch.ones(3)
    >>> x.is_set_to(x.detach()), x.is_set_to(x[1:])
    (True, False)
    """
    _args.tensor_args("is_set_to", (tensor, "tensor", 2))
    return (_one_storage(self, tensor) and self.dim() == tensor.dim()
            and self.storage_offset() == tensor.storage_offset()
            and self.shape == tensor.shape and self.stride() == tensor.stride())


def _one_storage(a: Tensor, b: Tensor) -> bool:
    """Whether two tensors live in one memory (empty ones: only as views of one tensor)."""
    if a._memory_root() is b._memory_root():
        return True
    start = a.untyped_storage().data_ptr()
    return bool(start) and start == b.untyped_storage().data_ptr()


def is_signed(input: Tensor) -> bool:
    """Whether ``input``'s dtype holds negative values (all but bool and uint8).

    >>> minitorch.is_signed(minitorch.tensor([1], dtype=minitorch.uint8))
    False
    """
    _args.tensor_args("is_signed", (input, "input", 1))
    return input.dtype.name not in ("bool", "uint8")


def _nbytes(self: Tensor) -> int:
    """The bytes its elements take (a broadcast view counts each element it shows)."""
    return self.numel() * self.element_size()


def _ndimension(self: Tensor) -> int:
    """The number of dimensions (``dim()``).

    >>> minitorch.ones(2, 3).ndimension()
    2
    """
    return self.dim()


def _never(self: Tensor) -> bool:
    """False: minitorch has no tensors on this device, of this layout or quantized, so torch's
    ``is_xpu``, ``is_mps``, ``is_quantized``, ``is_nested`` ... always read False.

    >>> minitorch.ones(1).is_xpu, minitorch.ones(1).is_quantized
    (False, False)
    """
    return False


# the kinds of tensor torch can tell apart and minitorch never makes
_NEVER = ("is_ipu", "is_maia", "is_mkldnn", "is_mps", "is_mtia", "is_nested", "is_quantized",
          "is_sparse_csr", "is_vulkan", "is_xla", "is_xpu")

METHODS: dict[str, Any] = {
    **{name: property(_never) for name in _NEVER},
    "get_device": get_device, "is_nonzero": is_nonzero, "is_signed": is_signed,
    "is_same_size": is_same_size, "is_set_to": is_set_to, "ndimension": _ndimension,
    "nbytes": property(_nbytes),
    "itemsize": property(Tensor.element_size),
    "is_cpu": property(lambda self: self.device.type == "cpu"),
    "real": property(real), "imag": property(imag),
}
