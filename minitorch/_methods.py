"""Tensor methods and operators, each a thin call to the op of the same name.

Kept apart from ``_tensor.py`` so that the Tensor class reads as the autograd bookkeeping
it is, and the op modules can import ``Tensor`` without a cycle.

>>> import minitorch
>>> x = minitorch.tensor([1., -2.])
>>> x.abs().exp().sum() == minitorch.sum(minitorch.exp(minitorch.abs(x)))
tensor(True)
"""

from __future__ import annotations

from typing import Any

from . import _factories, _random
from ._tensor import Tensor, expanded_shape, normalize_dims
from .autograd import grad_mode
from .ops import (
    indexing,
    inplace,
    inplace_more,
    linalg,
    masked,
    nn_ops,
    norm,
    pointwise,
    reduction,
    shape,
)
from .ops.pointwise import compare, logical


def _shape_args(args: tuple) -> tuple:
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(int(a) for a in args)


def _resolve(shape_: tuple, numel: int) -> tuple:
    if -1 not in shape_:
        return shape_
    known = 1
    for s in shape_:
        if s != -1:
            known *= s
    if shape_.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if known == 0 or numel % known:
        raise RuntimeError(f"shape '{list(shape_)}' is invalid for input of size {numel}")
    return tuple(numel // known if s == -1 else s for s in shape_)


def reshape(self: Tensor, *shape_: Any) -> Tensor:
    """The same values in a new shape (one dim may be -1)."""
    return shape.View.apply(self, shape=_resolve(_shape_args(shape_), self.numel()))


def permute(self: Tensor, *dims: Any) -> Tensor:
    """Reorder the dimensions."""
    order = normalize_dims(_shape_args(dims), self.dim())
    if sorted(order) != list(range(self.dim())):
        raise RuntimeError("permute(): dims must be a permutation of the tensor's dims")
    return shape.Permute.apply(self, dims=order)


def transpose(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """Swap two dimensions."""
    order = list(range(self.dim()))
    a, b = normalize_dims((dim0, dim1), self.dim())
    order[a], order[b] = order[b], order[a]
    return shape.Transpose.apply(self, dims=tuple(order))


def t(self: Tensor) -> Tensor:
    """Transpose a matrix (a vector is returned as is)."""
    if self.dim() > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{self.dim()}D")
    return shape.T.apply(self, dims=tuple(reversed(range(self.dim()))))


def unsqueeze(self: Tensor, dim: int) -> Tensor:
    """Insert a dimension of size one."""
    return shape.Unsqueeze.apply(self, dim=normalize_dims(dim, self.dim() + 1)[0])


def squeeze(self: Tensor, dim: Any = None) -> Tensor:
    """Remove dimensions of size one (all, or those in ``dim``)."""
    if dim is None:
        dims = tuple(i for i, s in enumerate(self.shape) if s == 1)
        return shape.Squeeze.apply(self, dims=dims)
    dims = tuple(d for d in normalize_dims(dim, self.dim()) if self.dim() and self.shape[d] == 1)
    return shape.SqueezeDim.apply(self, dims=dims)


def expand(self: Tensor, *sizes: Any) -> Tensor:
    """Broadcast to a larger shape without copying (-1 keeps a size)."""
    return shape.Expand.apply(self, shape=expanded_shape(self._data.shape, _shape_args(sizes)))


def flatten(self: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merge the dims from ``start_dim`` to ``end_dim`` into one."""
    if self.dim() == 0:
        return self.reshape(1)
    s, e = normalize_dims((start_dim, end_dim), self.dim())
    dims = tuple(self.shape)
    merged = 1
    for d in dims[s:e + 1]:
        merged *= d
    return self.reshape((*dims[:s], merged, *dims[e + 1:]))


def unbind(self: Tensor, dim: int = 0) -> tuple:
    """The slices along ``dim``, as a tuple of views."""
    return shape.Unbind.apply(self, dim=normalize_dims(dim, self.dim())[0])


def narrow(self: Tensor, dim: int, start: int, length: int) -> Tensor:
    """The slice ``start:start+length`` of ``dim``."""
    d = normalize_dims(dim, self.dim())[0]
    return shape.Slice.apply(self, key=(slice(None),) * d + (slice(start, start + length),))


def std(self: Tensor, dim: Any = None, unbiased: bool = True, keepdim: bool = False) -> Tensor:
    """Standard deviation (the square root of ``var``)."""
    return reduction.var(self, dim, unbiased, keepdim).sqrt()


# ---- in-place operations (Tensor._inplace does the bookkeeping) ---------------------------
def add_(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    """In-place ``self += alpha * other``."""
    return self._inplace(pointwise.add, other, alpha=alpha, ufunc="add" if alpha == 1 else None)


def sub_(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    """In-place ``self -= alpha * other``."""
    return self._inplace(pointwise.sub, other, alpha=alpha,
                         ufunc="subtract" if alpha == 1 else None)


def mul_(self: Tensor, other: Any) -> Tensor:
    """In-place ``self *= other``."""
    return self._inplace(pointwise.mul, other, ufunc="multiply")


def div_(self: Tensor, other: Any) -> Tensor:
    """In-place ``self /= other``."""
    return self._inplace(pointwise.div, other, ufunc="divide")


def clamp_(self: Tensor, min: Any = None, max: Any = None) -> Tensor:
    """In-place clamp."""
    return self._inplace(pointwise.clamp, min, max)


def zero_(self: Tensor) -> Tensor:
    """Fill with zeros, in place."""
    return self._inplace(inplace.Zero.apply, value=0)


def fill_(self: Tensor, value: Any) -> Tensor:
    """Fill with ``value``, in place (a 0-d tensor value gets its gradient)."""
    if isinstance(value, Tensor):
        return self._inplace(inplace.Copy.apply, value)
    return self._inplace(inplace.Fill.apply, value=value)


def copy_(self: Tensor, src: Tensor) -> Tensor:
    """Copy ``src`` (broadcast) into this tensor, in place."""
    return self._inplace(inplace.Copy.apply, src)


def _setitem(self: Tensor, key: Any, value: Any) -> None:
    if grad_mode._state.grad_enabled and self.grad_fn is None and self._requires_grad:
        raise RuntimeError(  # torch writes through a view of the leaf
            "a view of a leaf Variable that requires grad is being used in an in-place "
            "operation.")
    self._inplace(inplace.CopySlices.apply, value, key=indexing.array_key(key, self._xp))


def _binary(op: Any, reflected: bool = False) -> Any:
    def method(self: Tensor, other: Any) -> Tensor:
        return op(other, self) if reflected else op(self, other)

    return method


def _tensor_first(op: Any) -> Any:
    """An operator whose tensor goes first: straight to the op (no swapping, no alpha)."""

    def method(self: Tensor, other: Any) -> Tensor:
        return op.apply(self, other)

    return method


def _cmp(name: str) -> Any:
    def method(self: Tensor, other: Any) -> Any:
        if not isinstance(other, (Tensor, int, float)):
            return NotImplemented
        return compare(name, self, other)

    return method


def _logic(name: str) -> Any:
    def method(self: Tensor, other: Any) -> Tensor:
        return logical(name, self, other)

    return method


def _invert(self: Tensor) -> Tensor:
    from .ops._base import wrap

    if self.dtype.is_floating_point:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    xp = self._xp
    return wrap(xp.logical_not(self._data) if self.dtype.name == "bool"
                else xp.bitwise_invert(self._data))


def _unary(op: Any) -> Any:
    def method(self: Tensor) -> Tensor:
        return op.apply(self)

    method.__doc__ = f"Element-wise ``{op.__name__.lower()}`` (node ``{op.node_name}``)."
    return method


_METHODS = {
    "__add__": _tensor_first(pointwise.Add), "__radd__": _tensor_first(pointwise.Add),
    "__sub__": _tensor_first(pointwise.Sub), "__rsub__": _binary(pointwise.sub, reflected=True),
    "__mul__": _tensor_first(pointwise.Mul), "__rmul__": _tensor_first(pointwise.Mul),
    "__truediv__": _tensor_first(pointwise.Div),
    "__rtruediv__": _binary(pointwise.div, reflected=True),
    "__pow__": _binary(pointwise.pow), "__rpow__": _binary(pointwise.pow, reflected=True),
    "__matmul__": _binary(linalg.matmul), "__rmatmul__": _binary(linalg.matmul, reflected=True),
    "__neg__": _unary(pointwise.Neg),
    "__pos__": lambda self: self,
    "__abs__": _unary(pointwise.Abs),
    "__lt__": _cmp("lt"), "__le__": _cmp("le"), "__gt__": _cmp("gt"), "__ge__": _cmp("ge"),
    "__eq__": _cmp("eq"), "__ne__": _cmp("ne"),
    "__and__": _logic("and"), "__or__": _logic("or"), "__xor__": _logic("xor"),
    "__invert__": _invert,
    "add_": add_, "sub_": sub_, "mul_": mul_, "div_": div_, "clamp_": clamp_, "zero_": zero_,
    "fill_": fill_, "copy_": copy_,
    "__iadd__": add_, "__isub__": sub_, "__imul__": mul_, "__itruediv__": div_,
    "__setitem__": _setitem, "__getitem__": indexing.getitem,
    "add": pointwise.add, "sub": pointwise.sub, "mul": pointwise.mul, "div": pointwise.div,
    "pow": pointwise.pow, "clamp": pointwise.clamp, "clip": pointwise.clamp,
    "maximum": pointwise.maximum, "minimum": pointwise.minimum,
    "neg": _unary(pointwise.Neg),
    "square": lambda self: pointwise.pow(self, 2),
    "lt": _cmp("lt"), "le": _cmp("le"), "gt": _cmp("gt"), "ge": _cmp("ge"),
    "eq": _cmp("eq"), "ne": _cmp("ne"),
    "matmul": linalg.matmul, "mm": linalg.mm, "addmm": linalg.addmm,
    "mv": lambda self, v: linalg.Mv.apply(self, v),
    "dot": lambda self, v: linalg.Dot.apply(self, v),
    "bmm": lambda self, m: linalg.Bmm.apply(self, m),
    "sum": reduction.sum, "mean": reduction.mean, "var": reduction.var, "std": std,
    "max": reduction.max, "min": reduction.min, "argmax": reduction.argmax,
    "reshape": reshape, "view": reshape, "permute": permute, "transpose": transpose, "t": t,
    "unsqueeze": unsqueeze, "squeeze": squeeze, "expand": expand, "flatten": flatten,
    "expand_as": lambda self, other: expand(self, *other.shape),
    "view_as": lambda self, other: reshape(self, *other.shape),
    "reshape_as": lambda self, other: reshape(self, *other.shape),
    "unbind": unbind, "narrow": narrow,
    "softmax": nn_ops.softmax, "log_softmax": nn_ops.log_softmax,
    "T": property(lambda self: self.permute(*reversed(range(self.dim())))),
    "mT": property(lambda self: self.transpose(-2, -1)),
}


for _name in ("exp", "log", "sqrt", "sin", "cos", "abs", "sigmoid", "tanh", "relu",
              "reciprocal", "sign"):
    _METHODS[_name] = _unary(getattr(pointwise, _name.capitalize()))

def _reduce_bool(name: str) -> Any:
    """``all``/``any`` as a method, over everything or over ``dim``."""

    def method(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
        from .ops._base import wrap

        xp = self._xp
        axis = None if dim is None else normalize_dims(dim, self.dim())
        return wrap(getattr(xp, name)(xp.astype(self._data, xp.bool), axis=axis,
                                      keepdims=keepdim))

    method.__name__ = name
    method.__doc__ = f"True where {'every' if name == 'all' else 'some'} element is non-zero."
    return method


_METHODS.update(_random.METHODS)
_METHODS.update(inplace_more.METHODS)
_METHODS.update({"norm": norm.norm, "type": _factories.tensor_type,
                 "masked_fill": masked.masked_fill, "masked_fill_": masked.masked_fill_,
                 "all": _reduce_bool("all"), "any": _reduce_bool("any")})

for _name, _fn in _METHODS.items():
    setattr(Tensor, _name, _fn)
