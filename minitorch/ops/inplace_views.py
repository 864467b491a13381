"""In-place changes of a tensor's shape (``t_``, ``transpose_``, ``unsqueeze_``,
``squeeze_``) and ``fill_diagonal_``.

``t_``, ``transpose_``, ``unsqueeze_`` and ``squeeze_`` make the tensor a new view of its own
memory: its values stay, its version goes up, and when recorded its grad_fn becomes
``TBackward1`` / ``TransposeBackward1`` / ``UnsqueezeBackward1`` / ``SqueezeBackward3``
(``4`` given a dim, ``5`` a tuple of dims): torch's names for the in-place forms.

>>> import minitorch
>>> x = minitorch.zeros(2, 3)
>>> x.t_().shape, x._version
(torch.Size([3, 2]), 1)
>>> minitorch.zeros(2, 2).fill_diagonal_(7.)
tensor([[7., 0.],
        [0., 7.]])
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._tensor import Tensor, check_inplace_allowed
from ..autograd import grad_mode
from .inplace import CopySlices
from .shape import Squeeze, SqueezeDim, SqueezeDims, SqueezeInplace, T, Transpose, Unsqueeze

__all__ = ["METHODS", "SQUEEZE_INPLACE", "SqueezeAllInplace", "SqueezeDimsInplace", "TInplace",
           "TransposeInplace", "UnsqueezeInplace", "fill_diagonal_", "reshape_in_place", "t_",
           "transpose_", "unsqueeze_"]


class TInplace(T):
    node_name = "TBackward1"


class TransposeInplace(Transpose):
    node_name = "TransposeBackward1"


class UnsqueezeInplace(Unsqueeze):
    node_name = "UnsqueezeBackward1"


class SqueezeAllInplace(Squeeze):
    node_name = "SqueezeBackward3"
    _profile_name = "aten::squeeze_"


class SqueezeDimsInplace(Squeeze):
    node_name = "SqueezeBackward5"
    _profile_name = "aten::squeeze_"


# torch's in-place node for each squeeze overload (all dims, one dim, a tuple of dims)
SQUEEZE_INPLACE = {Squeeze: SqueezeAllInplace, SqueezeDim: SqueezeInplace,
                   SqueezeDims: SqueezeDimsInplace}


def reshape_in_place(self: Tensor, op: Any, **options: Any) -> Tensor:
    """``self`` becomes ``op``'s view of itself, recorded as its new grad_fn."""
    check_inplace_allowed(self)
    records = grad_mode._state.grad_enabled and self.requires_grad
    if records and self._view_of is not None:
        self._rebased()  # (its grad_fn as of now: the new node's input)
    alias = Tensor._over(self._data)
    alias._memory = self._memory_root()  # (for a view that depends on where it lies)
    if records:
        alias._grad_fn, alias._output_nr = self._grad_fn, self._output_nr
        alias._requires_grad = self._requires_grad
    with grad_mode._recording(records):
        out = op.apply(alias, **options)
    self._data = out._data
    if records:
        self._take_grad_fn(out._grad_fn, out._output_nr)
    self._version_counter.value += 1
    if records and self._view_of is not None:  # a view still, its new grad_fn up to date
        self._view_of = (self._view_of[0], self._version_counter.value)
    return self


def t_(self: Tensor) -> Tensor:
    """In-place ``t()``: a matrix becomes its transpose.

    >>> minitorch.ones(1, 2).t_().shape
    torch.Size([2, 1])
    """
    check_inplace_allowed(self)  # (torch's leaf check comes before the dims')
    if self.dim() > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is "
                           f"{self.dim()}D")
    return reshape_in_place(self, TInplace, dims=tuple(reversed(range(self.dim()))))


def transpose_(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """In-place ``transpose(dim0, dim1)``.

    >>> minitorch.ones(1, 2, 3).transpose_(0, 2).shape
    torch.Size([3, 2, 1])
    """
    dims = list(range(self.dim()))
    dim0, dim1 = _args.integers("transpose_", (dim0, "dim0", 1), (dim1, "dim1", 2))
    check_inplace_allowed(self)  # (torch's leaf check comes before the dims' range)
    first, second = (_args.wrap_dim(d, max(self.dim(), 1)) for d in (dim0, dim1))
    if self.dim() == 0:
        return reshape_in_place(self, TransposeInplace, dims=(), given=(dim0, dim1))
    dims[first], dims[second] = dims[second], dims[first]
    return reshape_in_place(self, TransposeInplace, dims=tuple(dims), given=(dim0, dim1))


def unsqueeze_(self: Tensor, dim: int) -> Tensor:
    """In-place ``unsqueeze(dim)``.

    >>> minitorch.ones(2).unsqueeze_(0).shape
    torch.Size([1, 2])
    """
    dim = _args.integer("unsqueeze_", dim, "dim", 1)
    check_inplace_allowed(self)  # (torch's leaf check comes before the dim's range)
    return reshape_in_place(self, UnsqueezeInplace,
                             dim=_args.dim("unsqueeze_", dim, self.dim() + 1))


def _diagonal(shape: tuple, wrap: bool) -> list:
    """The index lists of the main diagonal; for a tall matrix with ``wrap`` it starts again
    every ``cols + 1`` rows, as torch's walk through the flat memory does."""
    if len(shape) > 2 or not wrap or shape[0] <= shape[1]:
        n = min(shape)
        return [list(range(n))] * len(shape)
    rows, cols = shape
    flat = range(0, rows * cols, cols + 1)
    return [[p // cols for p in flat], [p % cols for p in flat]]


@_call_form.parser_types(fill_value="Number")
def fill_diagonal_(self: Tensor, fill_value: Any, wrap: bool = False) -> Tensor:
    """Write ``fill_value`` on the main diagonal (every dim's index equal), in place.

    >>> minitorch.zeros(3, 2).fill_diagonal_(1)
    tensor([[1., 0.],
            [0., 1.],
            [0., 0.]])
    """
    if not isinstance(fill_value, complex):  # a Scalar: the kernel reads a complex below
        _args.number("fill_diagonal_", fill_value, "fill_value", 1)
    wrap = _args.flag("fill_diagonal_", wrap, "wrap", 2)
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.dim() > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    if grad_mode._state.grad_enabled and self.requires_grad and self._grad_fn is None:
        # torch writes through a diagonal view of the leaf
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation.")
    fill_value = _args.kernel_scalar(fill_value, self.dtype)  # fill_ on the diagonal's view
    xp = self._xp
    key = tuple(xp.asarray(k, dtype=xp.int64) for k in _diagonal(tuple(self.shape), wrap))
    return self._inplace(lambda a: CopySlices.apply(a, fill_value, key=key), fills=True)


METHODS = {"t_": t_, "transpose_": transpose_, "unsqueeze_": unsqueeze_,
           "fill_diagonal_": fill_diagonal_}
