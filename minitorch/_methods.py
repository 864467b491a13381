"""Tensor methods and operators, each a thin call to the op of the same name.

Kept apart from ``_tensor.py`` so that the Tensor class reads as the autograd bookkeeping
it is, and the op modules can import ``Tensor`` without a cycle.

>>> import minitorch
>>> x = minitorch.tensor([1., -2.])
>>> x.abs().exp().sum() == minitorch.sum(minitorch.exp(minitorch.abs(x)))
tensor(True)
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any

from . import (
    _aliases,
    _args,
    _attributes,
    _batched_function,
    _call_form,
    _factories,
    _random,
    _storage,
    backend,
    overrides,
)
from . import _dtype as D
from ._alpha_first import alpha_by_position, alpha_first
from ._batched_function import vmapped
from ._dtype import result_type
from ._tensor import (
    Tensor,
    broadcast_pair,
    check_inplace_allowed,
    check_inplace_operands,
    check_internal_overlap,
    check_no_overlap,
    check_output_shape,
    check_partial_overlap,
    expanded,
    expanded_shape,
    same_data,
    view_refusal,
    warn_expanded,
)
from ._warn_once import warn_once
from .autograd import grad_mode, profiler
from .backend import c_order, reinterpret
from .ops import (
    activation_more,
    as_strided,
    binary_more,
    broadcast,
    compare_inplace,
    counting,
    cross,
    decompositions,
    diagonal,
    differences,
    dist,
    divisors,
    floating,
    gamma,
    gather,
    hardshrink,
    householder,
    hyperbolic,
    index_reduce,
    index_write,
    indexing,
    inplace,
    inplace_more,
    inplace_views,
    inverse,
    kl_div,
    linalg,
    logic,
    masked,
    matrix_exp,
    nn_ops,
    nonzero,
    norm,
    normalize,
    pointwise,
    products,
    rearrange,
    reduction,
    reduction_more,
    renorm,
    scaled_products,
    scan,
    scan_more,
    selection,
    shape,
    sorting,
    special,
    special_functions,
    special_more,
    split,
    statistics,
    take,
    tensor_split,
    triangle,
    triangular_solve,
    trig,
    unary_more,
    unique,
    view_scatter,
)
from .ops import lu as lu_factorization
from .ops._base import check_unsigned
from .ops.pointwise import compare, logical, shift
from .ops.unfold import unfold_method


def _resolve(shape_: tuple, numel: int) -> tuple:
    """``shape_`` with its -1 inferred from ``numel``, with torch's errors."""
    infer = None
    known = 1
    for i, s in enumerate(shape_):
        if s == -1:
            if infer is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape "
                               f"{list(shape_)}")
        else:  # torch's int64 product, which wraps
            known = _args.int64_wrapped(known * s)
    if infer is None:
        if known != numel:
            raise RuntimeError(f"shape '{list(shape_)}' is invalid for input of size {numel}")
        return shape_
    if known == 0:
        if numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {list(shape_)} because the "
                "unspecified dimension size -1 can be any value and is ambiguous")
        raise RuntimeError(f"shape '{list(shape_)}' is invalid for input of size {numel}")
    if known < 0 or numel % known:
        raise RuntimeError(f"shape '{list(shape_)}' is invalid for input of size {numel}")
    return tuple(numel // known if s == -1 else s for s in shape_)


def _target(fn: str, self: Tensor, shape_: Any, name: str = "size") -> tuple:
    """The shape ``reshape``/``view`` make of ``self``: its -1 inferred; then torch counts
    its elements (an overflow is refused), and numpy must be able to hold it."""
    target = _resolve(_args.sizes(fn, shape_, name, check_negative=False), self.numel())
    _args.check_numel(target)
    _args.check_holdable(target, self.dtype.itemsize)
    return target


@_args.sizes_by_keyword("shape")
def reshape(self: Tensor, *shape_: Any) -> Tensor:
    """The same values in a new shape (one dim may be -1): a view when the memory allows,
    else a copy.

    >>> minitorch.ones(2, 3).t().reshape(-1).shape
    torch.Size([6])
    """
    target = _target("reshape", self, shape_, "shape")
    return profiler.run_op("aten::reshape", "aten::reshape", lambda: _reshaped(self, target),
                           (self, target))


def _reshaped(self: Tensor, target: tuple) -> Tensor:
    """A view in shape ``target`` if the strides allow one, else torch's copy: a contiguous
    clone seen in the new shape (``UnsafeViewBackward0`` over ``CloneBackward0``)."""
    if shape.viewable(self, target):  # torch views contiguous memory, aliases other strides
        view = shape.View if self.is_contiguous() else shape.ReshapeAlias
        return view.apply(self, shape=target)
    return shape.UnsafeView.apply(shape.Clone.apply(self, contiguous=True), shape=target)


def view(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """The same memory seen in a new shape (one dim may be -1), or read as another dtype
    (``view(dtype)``); never a copy, so it refuses what the strides do not allow, as torch.

    >>> x = minitorch.zeros(2, 3)
    >>> x.view(6)[0] = 1.; x[0, 0].item()
    1.0
    >>> x.t().view(6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    RuntimeError: view size is not compatible with input tensor's size and stride ...
    >>> x.view(minitorch.int32)[0]
    tensor([1065353216,          0,          0], dtype=torch.int32)
    """
    kind, value = _view_form(args, kwargs)
    if kind == "dtype":
        return _view_dtype(self, value)
    target = _target("view", self, value)
    if not shape.viewable(self, target):
        raise RuntimeError(shape.VIEW_REFUSAL)
    return shape.View.apply(self, shape=target)


_VIEW_FORMS = ("torch.dtype dtype", "tuple of ints size")
_PYTHON_DTYPES = (float, int, bool)


def _view_form(args: tuple, kwargs: dict) -> tuple[str, Any]:
    """Which of torch's two ``view`` overloads a call is: ``("dtype", dtype)`` or
    ``("size", sizes as given)``; torch's parser refuses anything else as an invalid
    combination (a first size that is no int, a dtype with more)."""
    given = (*args, *kwargs.values())
    if len(given) == 1 and set(kwargs) <= {"dtype"} and (
            isinstance(given[0], D.dtype) or any(given[0] is t for t in _PYTHON_DTYPES)):
        return "dtype", _args.dtype("view", given[0])
    if len(given) == 1 and set(kwargs) <= {"size"}:
        value = given[0]
        if isinstance(value, (tuple, list)):
            if not value or _args.as_int(value[0]) is not None:
                return "size", (value,)
        elif args and _args.as_int(value) is not None:
            return "size", args
    elif len(args) > 1 and not kwargs and _args.as_int(args[0]) is not None:
        return "size", args
    if len(given) == 1 and given[0] is complex:
        raise TypeError("minitorch has no complex tensors: it cannot view a tensor as complex")
    raise _args.invalid_combination("view", args, *_VIEW_FORMS, keywords=kwargs)


def _view_dtype(self: Tensor, dtype: D.dtype) -> Tensor:
    """``self``'s memory read as ``dtype`` (torch's ``view(dtype)``): its bits, outside the
    graph, sharing storage and version counter; a dtype of another size changes the last
    dim's length, where torch's checks allow it."""
    if dtype.itemsize != self.element_size():
        _check_view_dtype(self, dtype)
    return self._sharing(reinterpret(self._data, dtype.np))


def _check_view_dtype(self: Tensor, dtype: D.dtype) -> None:
    """torch's conditions for reading memory as a dtype of another element size."""
    what = f"to view {self.dtype.legacy} as {dtype.legacy} (different element sizes)"
    if not self.dim():
        raise RuntimeError(f"self.dim() cannot be 0 {what}")
    ratio = dtype.itemsize // self.element_size()  # 0 when the new elements are smaller
    if ratio:
        if self.shape[-1] % ratio:
            raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {what}, but got "
                               f"{self.shape[-1]}")
        if self.storage_offset() % ratio:
            raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} {what}, but "
                               f"got {self.storage_offset()}")
    strides = self.stride()
    if strides[-1] != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {strides[-1]}")
    for d, step in enumerate(strides[:-1]):
        if ratio and step % ratio:
            raise RuntimeError(f"self.stride({d}) must be divisible by {ratio} {what}, but got "
                               f"{step}")


@_args.sizes_by_keyword("dims")
def permute(self: Tensor, *dims: Any) -> Tensor:
    """Reorder the dimensions."""
    ndim = self.dim()
    if not dims:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    order = _args.sizes("permute", dims, "dims", check_negative=False)
    if len(order) != ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {ndim} is not "
            f"equal to len(dims) = {len(order)}")
    seen: list = []
    for d in order:  # wrapped and compared one by one, as torch: a repeat before a later range
        seen.append(_args.wrap_dim(d, ndim))
        if seen[-1] in seen[:-1]:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
    return shape.Permute.apply(self, dims=tuple(seen), given=tuple(order))


@_call_form.overloads("Tensor input, int source, int destination",
                      "Tensor input, tuple of ints source, tuple of ints destination")
def movedim(self: Tensor, source: Any, destination: Any) -> Tensor:
    """The dims at ``source`` moved to ``destination`` (ints, or tuples of ints); the others
    keep their order in the places left. A permute: its grad_fn is ``PermuteBackward0``.

    >>> minitorch.zeros(1, 2, 3).movedim(2, 0).shape
    torch.Size([3, 1, 2])
    """
    src, dst = _movedim_dims(source, destination)
    if len(src) != len(dst):  # before any range, with the dims as given
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({src} dims) should contain "
            f"the same number of dims as destination ({dst} dims)")
    ndim = self.dim()
    given = {"source": src, "destination": dst}
    src = [_args.wrap_dim(d, ndim) for d in src]
    dst = [_args.wrap_dim(d, ndim) for d in dst]
    for dims, name in ((src, "source"), (dst, "destination")):
        if len(set(dims)) != len(dims):  # (torch's message lists the dims as given)
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(given[name])})")
    if not ndim:  # torch's movedim of a 0-d tensor: an alias, once the dims are checked
        return shape.Alias.apply(self)
    rest = iter(d for d in range(ndim) if d not in src)
    placed = dict(zip(dst, src))
    return self.permute(tuple(placed[i] if i in placed else next(rest) for i in range(ndim)))


def _movedim_dims(source: Any, destination: Any) -> tuple[list, list]:
    """``source`` and ``destination`` as lists of ints, or torch's TypeError."""
    def is_int(v: Any) -> bool:  # a numpy int or a 0-d integer tensor too
        return _args.as_param_int(v, "source") is not None

    def is_ints(v: Any) -> bool:  # as the parser matches: the first item (the rest unpacked)
        return isinstance(v, (tuple, list)) and (not v or is_int(v[0]))

    if is_int(source) and is_int(destination):
        _args.integers("movedim", (source, "source", 1), (destination, "destination", 2))
        return [_args.as_int(source)], [_args.as_int(destination)]
    if is_ints(source) and is_ints(destination):
        for v, name in ((source, "source"), (destination, "destination")):
            _args.sizes("movedim", (v,), name, check_negative=False)  # int64 each, as parsed
        return list(source), list(destination)
    values = (source, destination)

    def named(v: Any) -> str:  # torch's parser names a list's items: "list of [int]"
        if isinstance(v, (tuple, list)):
            return f"{_args.type_name(v)} of [{', '.join(dict.fromkeys(map(_args.type_name, v)))}]"
        return _args.type_name(v)

    def marked(check: Any) -> str:  # the tuple form fails as a whole: every argument marked
        whole = check is is_ints
        return ", ".join(named(v) if check(v) and not whole else f"!{named(v)}!"
                         for v in values)
    raise TypeError(
        f"movedim() received an invalid combination of arguments - got "
        f"({', '.join(map(_args.type_name, values))}), but expected one of:\n"
        " * (int source, int destination)\n"
        f"      didn't match because some of the arguments have invalid types: ({marked(is_int)})\n"
        " * (tuple of ints source, tuple of ints destination)\n"
        f"      didn't match because some of the arguments have invalid types: "
        f"({marked(is_ints)})\n")


def transpose(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """Swap two dimensions."""
    order = list(range(self.dim()))
    given = _args.integers("transpose", (dim0, "dim0", 1), (dim1, "dim1", 2))
    a, b = (_args.wrap_dim(d, self.dim()) for d in given)
    if order:  # a 0-d tensor has nothing to swap
        order[a], order[b] = order[b], order[a]
    return shape.Transpose.apply(self, dims=tuple(order), given=given)


def t(self: Tensor) -> Tensor:
    """Transpose a matrix (a vector is returned as is)."""
    if self.dim() > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{self.dim()}D")
    return shape.T.apply(self, dims=tuple(reversed(range(self.dim()))))


def unsqueeze(self: Tensor, dim: int) -> Tensor:
    """Insert a dimension of size one."""
    return shape.Unsqueeze.apply(self, dim=_args.dim("unsqueeze", dim, self.dim() + 1),
                                 given=_args.as_int(dim))


_ALL = object()  # squeeze's default: every dim (None is refused, as torch does)


@_call_form.int_varargs
@_call_form.overloads("Tensor input", "Tensor input, int dim", "Tensor input, tuple of ints dim")
def squeeze(self: Tensor, dim: Any = _ALL) -> Tensor:
    """Remove dimensions of size one (all, or those in ``dim``)."""
    op, dims, given = _squeezed("squeeze", self, dim)
    return op.apply(self, dims=dims, given=given)


@_call_form.int_varargs
@_call_form.overloads("", "int dim", "tuple of ints dim")
def squeeze_(self: Tensor, dim: Any = _ALL) -> Tensor:
    """In-place ``squeeze``: the tensor becomes a view of itself without those dims.

    >>> minitorch.zeros(1, 2, 1).squeeze_().shape
    torch.Size([2])
    """
    try:  # autograd's refusal before the dims' ranges, after their types, as torch's
        check_inplace_allowed(self)
    except RuntimeError:
        try:
            _squeezed("squeeze_", self.detach(), dim)
        except (TypeError, ValueError):  # the parser's: a type, an int past int64
            raise
        except Exception:  # (the op's own checks come after autograd's refusal)
            pass
        raise
    op, dims, given = _squeezed("squeeze_", self, dim)
    return inplace_views.reshape_in_place(self, inplace_views.SQUEEZE_INPLACE[op], dims=dims,
                                          given=given)


def _squeezed(name: str, self: Tensor, dim: Any) -> tuple:
    """The squeeze op of torch's overload for ``dim`` (all, one, a tuple), the dims it
    removes, and the dims as written (one in a tuple), which torch's node shows."""
    if dim is _ALL:
        return shape.Squeeze, tuple(i for i, s in enumerate(self.shape) if s == 1), None
    if not isinstance(dim, (tuple, list)) and _args.as_param_int(dim, "dim") is None:
        raise _args.invalid_combination(name, (dim,), "", "int dim", "tuple of ints dim")
    dims = tuple(d for d in _args.dims(name, dim, self.dim())
                 if self.dim() and self.shape[d] == 1)
    if isinstance(dim, (tuple, list)):
        return shape.SqueezeDims, dims, tuple(map(_args.as_int, dim))
    return shape.SqueezeDim, dims, (_args.as_int(dim),)


@_args.sizes_by_keyword("size")
def expand(self: Tensor, *sizes: Any, implicit: bool = False) -> Tensor:
    """Broadcast to a larger shape without copying (-1 keeps a size). ``implicit`` (for
    torch's tracer) changes nothing.

    >>> minitorch.ones(1, 2).expand(3, -1, implicit=True).shape
    torch.Size([3, 2])
    """
    _args.flag("expand", implicit, "implicit")
    target = _args.sizes("expand", sizes, check_negative=False)
    out = expanded_shape(self._data.shape, target, _args.type_string(self.dtype))
    _args.check_numel(out)
    _args.check_holdable(out, self.dtype.itemsize)
    return shape.Expand.apply(self, shape=out)


def flatten(self: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merge the dims from ``start_dim`` to ``end_dim`` into one."""
    s, e = _args.integers("flatten", (start_dim, "start_dim", 1), (end_dim, "end_dim", 2))
    s, e = _args.wrap_dim(s, self.dim()), _args.wrap_dim(e, self.dim())
    if self.dim() == 0:
        return self.reshape(1)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    # torch's aten::flatten reshapes without an aten::reshape event of its own
    return profiler.run_op("aten::flatten", "aten::flatten", lambda: _flattened(self, s, e),
                           (self, s, e))


def _flattened(self: Tensor, s: int, e: int) -> Tensor:
    if s == e:  # nothing to merge: torch returns the tensor itself
        return self
    dims = tuple(self.shape)
    merged = 1
    for d in dims[s:e + 1]:
        merged *= d
    return _reshaped(self, (*dims[:s], merged, *dims[e + 1:]))


def unflatten(self: Tensor, dim: int, sizes: Any) -> Tensor:
    """Split dim ``dim`` into ``sizes`` (one may be -1), a view.

    >>> minitorch.ones(2, 6).unflatten(1, (2, -1)).shape
    torch.Size([2, 2, 3])
    """
    # torch's method (Python) refuses false sizes (None, 0 too) before its parser sees anything
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    return unflatten_parsed(self, dim, sizes)


def unflatten_parsed(self: Tensor, dim: int, sizes: Any) -> Tensor:
    """``unflatten`` as torch's parser takes it (``torch.unflatten``): dim's type, the sizes'
    type, dim's range, and only then no sizes.

    >>> unflatten_parsed(minitorch.ones(2, 6), 1, (3, 2)).shape
    torch.Size([2, 3, 2])
    """
    if _args.as_int(dim) is None:
        _args.integer("unflatten", dim, "dim", 2)
    sizes = _args.int_tuple("unflatten", sizes, "sizes", 3)
    d = _args.dim("unflatten", dim, self.dim(), position=2)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    # torch's infer_size of the sizes for dim d; its checks' errors reach the user wrapped
    unexpected = "unflatten got an unexpected error:\n"
    if not self.dim():
        raise RuntimeError(f"{unexpected}Dimension specified as {d} but tensor has no dimensions")
    n, known, inferred = self.shape[d], 1, None
    for i, s in enumerate(sizes):
        if s == -1:
            if inferred is not None:
                raise RuntimeError(f"{unexpected}only one dimension can be inferred")
            inferred = i
        elif s >= 0:
            known *= s
        else:
            raise RuntimeError(f"{unexpected}invalid shape dimension {s} at index {i} of shape "
                               f"{list(sizes)}")
    if not (n == known or (inferred is not None and known > 0 and n % known == 0)):
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the "
                           f"size of dim {d} ({n}) in the input tensor")
    if inferred is not None and not known:
        raise RuntimeError(f"{unexpected}cannot reshape tensor of {n} elements into shape "
                           f"{list(sizes)} because the unspecified dimension size -1 can be any "
                           "value and is ambiguous")
    if inferred is not None:  # inferred within dim d (the whole view may hold no element)
        sizes = tuple(n // known if i == inferred else s for i, s in enumerate(sizes))
    return self.view(*self.shape[:d], *sizes, *self.shape[d + 1:])


def unbind(self: Tensor, dim: int = 0) -> tuple:
    """The slices along ``dim``, as a tuple of views."""
    d = _args.dim("unbind", dim, self.dim())
    if self.dim() == 0:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    return shape.Unbind.apply(self, dim=d, given=_args.as_int(dim))


@_call_form.overloads("Tensor input, int dim, Tensor start, int length",
                      "Tensor input, int dim, int start, int length")
def narrow(self: Tensor, dim: int, start: int, length: int) -> Tensor:
    """The slice ``start:start+length`` of ``dim`` (``start`` may be a 0-d integer tensor:
    torch's Tensor overload)."""
    if _args.as_int(dim) is None or _args.as_int(length) is None or not (
            _args.is_tensor(start) or _args.as_int(start) is not None):  # torch's 2 overloads
        raise _args.invalid_combination("narrow", (dim, start, length),
                                        "int dim, Tensor start, int length",
                                        "int dim, int start, int length")
    if _args.is_tensor(start):
        d, length = _args.integers("narrow", (dim, "dim", 1), (length, "length", 3))
        if start.dim() or start.dtype.is_floating_point or start.dtype.name == "bool":
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int(start.item())
    else:
        d, start, length = _args.integers("narrow", (dim, "dim", 1), (start, "start", 2),
                                          (length, "length", 3))
    if self.dim() == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    given, d = d, _args.wrap_dim(d, self.dim())
    size = self._data.shape[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return shape.Slice.apply(self, key=(slice(None),) * d + (slice(start, start + length),),
                             given=(given, slice(start, start + length, 1)))


# ---- in-place operations (Tensor._inplace does the bookkeeping) ---------------------------
def _inplace_other(name: str, other: Any, alpha: Any = 1) -> None:
    """torch's refusal of an in-place op's operand that is neither a tensor nor a number (a
    numpy array too: only the operators let numpy take it); ``alpha``'s type is checked
    with it, and unpacked before it (the parser's right to left)."""
    number = isinstance(other, (Tensor, int, float, complex)) or _args.is_array(other)
    if type(other).__name__ == "ndarray" or not number:
        _args.tensor_args(name, (other, "other", 1))
    if not pointwise.is_unit(alpha):
        _args.number_types(name, (alpha, "alpha", None))
        _args.unpack_int(alpha)
    _args.unpack_int(other)


def _inplace_operator(inplace_op: Any) -> Any:
    """``x op= other``: ``inplace_op``, except for what the operators do not take, where
    Python then tries ``x op other`` (for a numpy array, numpy computes it: a new tensor, not a
    write into ``x``), as in torch."""

    def method(self: Tensor, other: Any) -> Tensor:
        _refuse_batched(inplace_op.__name__, self, other)
        if not _operand(other):
            return overrides.operand_refused(method, self, other)
        _batched_function.refuse_captured(self, inplace_op.__name__, (other,))
        return inplace_op(self, other)

    method.__name__ = f"__i{inplace_op.__name__[:-1]}__"
    return method


def _binary_(self: Tensor, op: Callable[..., Tensor], other: Any, **kwargs: Any) -> Tensor:
    """``self._inplace(op, other, ...)`` recorded as torch's ``aten::<op>_``, which holds the
    conversion of ``other`` to ``self``'s dtype (a Python number), not the out-of-place op."""
    if profiler._active is None:
        return self._inplace(op, other, **kwargs)
    with profiler.op_event(f"aten::{op.__name__}_", (self, other)):
        pointwise._record_conversions(self, other, self.dtype)
        with profiler.paused():
            return self._inplace(op, other, **kwargs)


def _inplace_cast(self: Tensor, other: Any, alpha: Any) -> None:
    """torch's refusal of an in-place result that ``self`` cannot hold (its shape, then its
    dtype), made before add_'s and sub_'s checks of a given ``alpha``, after autograd's."""
    check_inplace_allowed(self, other)
    if pointwise.is_unit(alpha) or isinstance(other, complex):
        return
    other = _args.numpy_scalar(other)
    if isinstance(other, Tensor) and broadcast_pair(self, other) != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast "
                           f"shape {list(broadcast_pair(self, other))}")
    check_unsigned(self, other)  # torch's promotion, then its cast check
    result = result_type(self, other)
    if result._category > self.dtype._category:
        raise _args.cast_error(result, self.dtype)


@_call_form.overloads(pointwise.ALPHA_SIGNATURE, hidden=True)
def add_(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    """In-place ``self += alpha * other``."""
    _inplace_other("add_", other, alpha)
    _args.numbers("add_", (alpha, "alpha", None))  # the parser's, before the in-place checks
    _inplace_cast(self, other, alpha)
    return _binary_(self, pointwise.add, other, alpha=alpha,
                    ufunc="add" if pointwise.is_unit(alpha) else None)


@_call_form.overloads(pointwise.ALPHA_SIGNATURE, hidden=True)
def sub_(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    """In-place ``self -= alpha * other``."""
    _inplace_other("sub_", other, alpha)
    _args.numbers("sub_", (alpha, "alpha", None))  # the parser's, before the in-place checks
    check_inplace_allowed(self, other)  # autograd's refusal, then torch's sub_check
    pointwise.no_bool(self, other)  # (before its result type)
    _inplace_cast(self, other, alpha)
    return _binary_(self, pointwise.sub, other, alpha=alpha,
                    ufunc="subtract" if pointwise.is_unit(alpha) else None)


@_call_form.parser_types(other="Tensor")  # (a number passes: the parser wraps it)
def mul_(self: Tensor, other: Any) -> Tensor:
    """In-place ``self *= other``."""
    _inplace_other("mul_", other)
    return _binary_(self, pointwise.mul, other, ufunc="multiply")


@_call_form.overloads("Tensor other", "Tensor other, *, str rounding_mode",
                      "Number other, *, str rounding_mode")
def div_(self: Tensor, other: Any, *, rounding_mode: Any = _args.OMITTED) -> Tensor:
    """In-place ``self /= other`` (rounded with ``rounding_mode``, see :func:`div`)."""
    pointwise._rounding_mode("div_", (other,), rounding_mode)
    _inplace_other("div_", other)
    if rounding_mode is not _args.OMITTED:
        pointwise.rounding_mode_value(rounding_mode)
        if rounding_mode is not None:  # the shapes and the cast before a division by zero
            _inplace_checks(self, _args.numpy_scalar(other))
        elif isinstance(other, Tensor):
            check_inplace_operands(self, other)
        return _binary_(self, pointwise.div, other, rounding_mode=rounding_mode)
    return _binary_(self, pointwise.div, other, ufunc="divide")


@_call_form.alias_of("div_")
@_call_form.overloads(*_aliases.divide.torch_signatures)
def divide_(self: Tensor, other: Any, *, rounding_mode: Any = _args.OMITTED) -> Tensor:
    """In-place ``divide``: :meth:`div_` by torch's other name.

    >>> minitorch.tensor([3.]).divide_(2)
    tensor([1.5000])
    """
    return div_(self, other, rounding_mode=rounding_mode)


@_call_form.alias_of("div_")
@_call_form.overloads("Tensor other", "Number other")
def true_divide_(self: Tensor, other: Any) -> Tensor:
    """In-place ``true_divide``: :meth:`div_` by torch's other name.

    >>> minitorch.tensor([3]).float().true_divide_(2)
    tensor([1.5000])
    """
    return div_(self, other)


@_call_form.alias_of("mul_")
@_call_form.overloads("Tensor other", "Number other")
def multiply_(self: Tensor, other: Any) -> Tensor:
    """In-place ``multiply``: :meth:`mul_` by torch's other name.

    >>> minitorch.tensor([3.]).multiply_(2)
    tensor([6.])
    """
    return mul_(self, other)


@_call_form.alias_of("sub_")
@_call_form.overloads("Tensor other, *, Number alpha = 1", "Number other, Number alpha = 1")
@alpha_by_position
def subtract_(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    """In-place ``subtract``: :meth:`sub_` by torch's other name.

    >>> minitorch.tensor([3.]).subtract_(1, alpha=2)
    tensor([1.])
    """
    return sub_(self, other, alpha=alpha)


@_call_form.overloads(*pointwise.CLAMP_SIGNATURES["clamp_"])
def clamp_(self: Tensor, min: Any = None, max: Any = None) -> Tensor:
    """In-place clamp: torch's parser reads the bounds before its in-place checks."""
    min, max = pointwise.clamp_bounds("clamp_", min, max)
    pointwise.clamp_result_type(self, min, max)
    if min is None and max is None:  # after autograd's refusal, before the write's checks
        check_inplace_allowed(self)
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return self._inplace(pointwise.clamp, min, max)
    return self._inplace(pointwise.clamp, min=min, max=max)  # numbers as they are


@_call_form.alias_of("clamp_")
@_call_form.overloads(*pointwise.CLAMP_SIGNATURES["clamp_"])
def clip_(self: Tensor, min: Any = None, max: Any = None) -> Tensor:
    """torch's other name for ``clamp_``.

    >>> minitorch.tensor([-1., 2.]).clip_(0, 1)
    tensor([0., 1.])
    """
    return clamp_(self, min, max)


SET_SIGNATURES = ("", "torch.Storage source",
                  "torch.Storage source, int storage_offset, tuple of ints size, "
                  "tuple of ints stride = None", "Tensor source",
                  "Tensor source, int storage_offset, tuple of ints size, "
                  "tuple of ints stride = None")


@_call_form.overloads(*SET_SIGNATURES)
def set_(self: Tensor, source: Any = None) -> Tensor:
    """This tensor made to hold ``source``'s memory (its shape too), or, without one, an
    empty storage: writes through either show in the other; an in-place op, recorded under
    ``NotImplemented`` where autograd records it (its backward is refused, as torch's).
    (torch's storage forms are not supported.)

    >>> s = minitorch.arange(3.); t = minitorch.ones(1).set_(s); t[0] = 9; s
    tensor([9., 1., 2.])
    """
    from .ops.pointwise import SetNotImplemented

    if source is not None and not isinstance(source, Tensor):
        raise TypeError(_call_form.combination_message(
            "set_", (source,), {}, ["no arguments", *SET_SIGNATURES[1:]]))
    if source is not None and source.dtype is not self.dtype:
        raise RuntimeError(f"Could not set tensor of type {source.dtype.c_type} to a tensor "
                           f"of type {self.dtype.c_type}")
    check_inplace_allowed(self)
    array = backend.restrided(self._xp.empty((0,), dtype=self._data.dtype), (1,)) \
        if source is None else source._data
    operands = (self,) if source is None else (self, source)
    if grad_mode._state.grad_enabled and any(t.requires_grad for t in operands):
        old = self._detached_copy()
        old._grad_fn, old._output_nr, old._requires_grad = (
            self._grad_fn, self._output_nr, self._requires_grad)
        old._accumulator = self._accumulator
        recorded = SetNotImplemented.on(old, *operands[1:])
        self._take_grad_fn(recorded._grad_fn, recorded._output_nr)
    self._data = array
    root = Tensor._over(array) if source is None else source._memory_root()
    self._memory = None if root is self else root  # its storage now: where it lies in it
    self._version_counter.value += 1
    return self


def zero_(self: Tensor) -> Tensor:
    """Fill with zeros, in place."""
    return self._inplace(inplace.Zero.apply, value=0)


@_call_form.overloads("Tensor value", "Number value")
def fill_(self: Tensor, value: Any) -> Tensor:
    """Fill with ``value``, in place (a 0-d tensor value gets its gradient)."""
    if isinstance(value, Tensor):
        check_inplace_allowed(self, value)  # autograd's refusals before the kernel's
    value = _fill_value("fill_", self, value, (value,), ["Tensor value", "Number value"],
                        parsed=lambda: check_inplace_allowed(self))  # (and its conversion)
    if isinstance(value, Tensor):
        return self._inplace(inplace.FillTensor_.apply, value)
    return self._inplace(inplace.Fill.apply, value=value)


_FILL_SIGNATURES = ("Tensor input, Tensor value", "Tensor input, Number value")


@_call_form.overloads(*_FILL_SIGNATURES)
def fill(input: Tensor, value: Any) -> Tensor:
    """A new tensor like ``input``, every element ``value`` (``fill_`` out of place; a 0-d
    tensor ``value`` gets the sum of the gradient, ``input`` none).

    >>> minitorch.fill(minitorch.zeros(2), 3)
    tensor([3., 3.])
    """
    if not isinstance(input, Tensor):
        raise TypeError(_call_form.combination_message("fill", (input, value), {},
                                                       _FILL_SIGNATURES))
    value = _fill_value("fill", input, value, (input, value), _FILL_SIGNATURES)
    if isinstance(value, Tensor):  # its gradient would flow into an integer result
        _args.differentiable_dtype(value, input.dtype)
        return inplace.FillTensor.apply(input, value)
    return inplace.FillNumber.apply(input, value=value)


def _fill_value(fn: str, self: Tensor, value: Any, args: tuple, signatures: Any,
                parsed: Callable[[], None] | None = None) -> Any:
    """``value`` as the fills take it: a 0-d tensor, or a number ``self``'s dtype holds;
    ``parsed`` runs once the parser took a number, before its conversion."""
    if isinstance(value, Tensor):
        if value.dim():
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value.dim()} dimensions.")
        return value
    if not isinstance(value, (int, float, complex)) and not _args.holds_number(value):
        # fill has a Tensor and a Number overload: torch names neither alone
        raise TypeError(_call_form.combination_message(fn, args, {}, signatures))
    (value,) = _args.numbers(fn, (value, "value", len(args)))
    if parsed is not None:
        parsed()
    if self.numel() == 1 and self.dtype.name == "float16":  # torch's fast path
        return _args.one_half(value)
    return _args.assigned(value, self.dtype, unsigned=True)


@_call_form.overloads("Tensor other, bool non_blocking = False")
def copy_(self: Tensor, other: Any, non_blocking: bool = False) -> Tensor:
    """Copy ``other`` (broadcast) into this tensor, in place; a number is copied as torch's
    parser wraps it, a 0-d tensor (a complex one's real part, with torch's warning).
    ``non_blocking`` changes nothing on the CPU."""
    if not isinstance(other, (Tensor, complex)) and not _args.is_real(other):
        _wrapped_number("copy_", other)  # its type's refusal, the parser's first
    _args.flag("copy_", non_blocking, "non_blocking", 2)  # before a number is unpacked
    if not isinstance(other, Tensor):
        other = _wrapped_number("copy_", other)
    check_inplace_allowed(self, other)  # autograd's refusals come before the kernel's
    same = same_data(self, other)  # nothing to write: an expanded self is no matter
    if not same:
        check_internal_overlap(self)
    _check_output_shape(self, other)
    return self._inplace(inplace.Copy.apply, other, fills=same)


def _check_output_shape(self: Tensor, other: Tensor) -> None:
    """torch's refusal of an in-place write whose operand broadcasts ``self`` to a new shape
    (after the broadcast itself is checked)."""
    check_output_shape(tuple(self._data.shape), tuple(broadcast_pair(self, other)))


def _wrapped_number(fn: str, value: Any) -> Tensor:
    """A number where torch's parser takes a Tensor, as it wraps it: a 0-d tensor of its
    kind (bool, int64, float64; an int up to 2**64 as a float), a complex one's real part
    with torch's warning; anything else is refused."""
    if isinstance(value, complex):
        warnings.warn("Casting complex values to real discards the imaginary part",
                      UserWarning, stacklevel=3)
        value = value.real
    if not _args.is_real(value):
        raise TypeError(f"{fn}(): argument 'other' (position 1) must be Tensor, not "
                        f"{_args.type_name(value)}")
    value = _args.numpy_scalar(value)
    if type(value) is int and not _args.INT64_MIN <= value <= _args.INT64_MAX:
        if not 0 <= value < 2 ** 64:
            raise _args.int_overflow(value)
        value = float(value)
    return _factories_tensor(value)


def _slot(fn: Callable[..., Any], name: str, count: int) -> Callable[..., Any]:
    """``fn`` as the C slot ``name`` of torch's Tensor type, taking ``count`` arguments after
    the tensor: Python's slot wrapper refuses keywords and another count by its own words
    (``__setitem__``'s unpacks its two with no name, hence the leading space).

    >>> minitorch.ones(2).__getitem__(0, 1)
    Traceback (most recent call last):
    TypeError: expected 1 argument, got 2
    """
    def wrapper(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise TypeError(f"wrapper {name}() takes no keyword arguments")
        if len(args) != count:
            lead = " " if count == 2 else ""
            raise TypeError(f"{lead}expected {count} argument{'s' * (count != 1)}, got "
                            f"{len(args)}")
        return fn(self, *args)

    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = fn.__doc__
    return wrapper


def _delitem(self: Tensor, key: Any) -> None:
    """torch's refusal of ``del t[key]``."""
    raise TypeError("Tensor does not support deleting items")


def _setitem(self: Tensor, key: Any, value: Any) -> None:
    _refuse_batched("copy_", self, value)
    if not isinstance(value, Tensor):
        value = _args.item_assigned(value, self.dtype)
    if key is False:  # torch writes nothing, and checks nothing more
        return
    if key is True:  # alone (not in a tuple), torch writes through a new dim, as for None
        key = None
    if grad_mode._state.grad_enabled and self._view_creation is not None and \
            self._view_of is not None and not self._inference and (self.requires_grad or (
                isinstance(value, Tensor) and value.requires_grad)):
        parts = indexing.check_key(self, key)  # (its index errors first)
        raise view_refusal(self, indirect=False, made_by=_basic_view_op(self, parts)
                           if self.requires_grad else None)  # (else its view has no grad_fn)
    if grad_mode._state.grad_enabled and self.requires_grad and (
            self._grad_fn is None or _leaf_view(self)):
        _refuse_leaf_write(self, key, value)
    # a one-element value: torch reads the indices in order (a larger one: dtypes first)
    parts = indexing.check_key(self, key, bounds=False, writes=not isinstance(
        value, Tensor) or value.numel() == 1)
    mask = indexing.byte_array(_only_index(key))
    if isinstance(mask, list) and mask and all(type(v) is bool for v in mask):
        mask = _factories_tensor(mask)  # torch reads a list of bools as a mask tensor
    fills_mask = isinstance(mask, Tensor) and mask.dim() and mask.dtype.name in (
        "bool", "uint8") and (not isinstance(value, Tensor) or value.numel() == 1)
    if fills_mask:
        masked.check_fill_through_mask(self, mask, value if isinstance(value, Tensor) else None)
    if isinstance(value, Tensor) and _writes_by_index(self, parts, value):
        for part in (*(p for p in indexing.key_parts(key) if isinstance(p, Tensor)), value):
            check_no_overlap(self, part)  # index_put_'s checks, before its value's shape
    dims = value.dim() if isinstance(value, Tensor) else 0
    given = value  # (torch's choice of fill_ or copy_ reads its dims before they are cut)
    if isinstance(value, Tensor):  # its shape and dtype before the indices' values
        value = indexing.check_value_shape(self, parts, value)
    indexing.check_bounds(self, parts)
    indices = indexing.index_tensors(key)
    key = indexing.readable_key(self, parts)
    if all(k is None or k is Ellipsis or isinstance(k, (int, slice)) for k in key):
        whole = key if any(k is Ellipsis for k in key) else (*key, Ellipsis)  # (the array
        view = Tensor._make(self._data[whole])  # API's full key)
        check_internal_overlap(view)  # torch copies into the view the basic key makes
        if isinstance(value, Tensor):  # (as copy_: its overlap with the value)
            check_partial_overlap(view._data, value)
            value = indexing.copied_value(tuple(view.shape), given, value)
    if _batched_function.captured(self):
        raise _batched_function.captured_refusal(_write_name(self, key, value))
    if expanded(self) and _write_name(self, key, value) == "aten::index_put_":  # (a mask
        warn_expanded(self, "index_put_", "tensor[indices] = tensor")  # and one value: its
        if fills_mask:  # masked_fill_ too)
            warn_expanded(self, "masked_fill_")
    recorded = grad_mode._state.grad_enabled and (  # (torch's copy_ records no write into
        self.dtype.is_floating_point or _write_name(self, key, given) != "aten::copy_")  # an
    with grad_mode._recording(recorded):  # integer or bool tensor)
        self._inplace(_write_op(self, key, dims).apply, value, key=key, overlap=False,
                      fills=True, indices=indices)  # (torch's index_put_ writes the places
    # it names, into an expand too; the whole tensor's overlap is not torch's check: the
    # written part's is)


def _basic_view_op(self: Tensor, parts: tuple) -> str | None:
    """The op of the last view torch's indexing makes of ``self`` for the basic ``parts`` of
    a key (an int selects, a slice that is not the whole dim slices, None unsqueezes), which
    ``self[key] = value`` then writes into; None where it makes none (``...``, ``:``).

    >>> _basic_view_op(minitorch.zeros(2, 3), (0, slice(None)))
    'Select'
    """
    consumed = [p for p in parts if p is not None and p is not Ellipsis and not isinstance(
        p, bool)]
    dim, last = 0, None
    for p in parts:
        if p is Ellipsis:
            dim = self.dim() - (len(consumed) - dim)
        elif p is None:
            last = "Unsqueeze"
        elif isinstance(p, slice):
            if p.indices(self.shape[dim]) != (0, self.shape[dim], 1):
                last = "Slice"
            dim += 1
        elif not isinstance(p, bool):
            last = "Select" if _args.as_int(p) is not None and not isinstance(p, Tensor) \
                else last
            dim += 1
    return last


def _write_name(self: Tensor, key: tuple, value: Any) -> str:
    """The aten op torch's ``self[key] = value`` writes with: index_put_ through index
    tensors, else (into the part the key views) fill_ of a 0-d value where the part has
    dims, copy_ otherwise."""
    if any(getattr(k, "ndim", 0) or getattr(getattr(k, "dtype", None), "kind", "") == "b"
           for k in key):
        return "aten::index_put_"  # (a mask, even a 0-d one, is an index)
    part = self._data[key if any(k is Ellipsis for k in key) else (*key, Ellipsis)].ndim
    single = not isinstance(value, Tensor) or not value.dim()
    return "aten::fill_.Tensor" if single and part else "aten::copy_"


def _only_index(key: Any) -> Any:
    """The key's index tensor (or list) where it has one and its other parts index basically
    (ints, slices, None, ``...``): torch writes a one-element value through it, if a mask,
    with masked_fill_ on the view the basic parts make. None where it has none or several (a
    bool or 0-d bool tensor is one: a mask of a new dim)."""
    parts = indexing.given_parts(key)
    indexes = [p for p in parts if indexing.is_index_array(p) or isinstance(p, bool) or (
        isinstance(p, Tensor) and p.dtype.name in ("bool", "uint8"))]
    return indexes[0] if len(indexes) == 1 else None


def _writes_by_index(self: Tensor, parts: tuple, value: Tensor) -> bool:
    """Whether ``self[key] = value`` is torch's index_put_ into ``self`` itself (no view
    made first) rather than its masked_fill_ of one value through one mask."""
    key = indexing.readable_key(self, parts)
    if _sliced(self, key) or not any(getattr(k, "ndim", 0) for k in key):
        return False
    masks = [p for p in parts if isinstance(p, Tensor) and p.dtype.name == "bool"]
    return not (value.numel() == 1 and len(masks) == 1 and len(parts) == 1)


def _write_op(self: Tensor, key: Any, dims: int) -> type:
    """The op (and node) torch records for ``self[key] = value`` (a value of ``dims``
    dims): a write into a view of ``self`` is CopySlices; into ``self`` itself (only full
    slices), index_put_ where the key holds index tensors, else fill_ of a 0-d value into
    a ``self`` with dims, or copy_."""
    if _sliced(self, key):
        return inplace.CopySlices
    if any(getattr(k, "ndim", 0) for k in key):
        return inplace.IndexPut
    return inplace.CopyInto if dims or not self.dim() else inplace.FillInto


def _refuse_leaf_write(self: Tensor, key: Any, value: Any) -> None:
    """torch's refusal of ``leaf[key] = value`` for a leaf that requires grad: after the
    number's checks and the basic indexing's (ints, slices, None); before the index
    tensors' (its index kernel checks them after its in-place check), but after the value
    tensor's shape where the key is basic only (torch expands the value, then copies); it
    names a leaf, or a view of one where the basic indexing made a view."""
    parts = indexing.key_parts(key)
    basic = tuple((slice(None),) * _consumed_dims(p) if _indexes(p) else (p,) for p in parts)
    lone = len(parts) == 1 and not isinstance(key, tuple) and \
        not _indexes(parts[0])  # a lone int or slice: 0-d's own refusals
    checked = indexing.check_key(self, parts[0] if lone else sum(basic, ()))
    indexed = any(_indexes(p) or isinstance(p, bool) or (  # a bool's mask
        isinstance(p, Tensor) and p.dtype.name == "bool") for p in parts)  # a 0-d mask too
    if isinstance(value, Tensor) and not indexed:
        indexing.check_value_shape(self, checked, value)
    view = self._grad_fn is not None or _sliced(self, indexing.array_key(checked, self._xp)) \
        or (self._view_of is not None and not self._inference and self._view_of[0].is_leaf)
    raise RuntimeError(f"a {'view of a ' if view else ''}leaf Variable that requires grad is "
                       "being used in an in-place operation.")


def _indexes(part: Any) -> bool:
    """Whether a key's ``part`` goes to torch's index kernel: an index tensor, array or list,
    or a floating tensor (which that kernel refuses, after the in-place check)."""
    return indexing.is_index_array(part) or (isinstance(part, Tensor) and
                                             part.dtype.is_floating_point)


def _leaf_view(t: Tensor) -> bool:
    """Whether ``t`` is a plain view of a leaf (autograd refuses writing it as the leaf)."""
    return t._view_of is not None and not t._inference and t._view_creation is None and \
        t._view_of[0].is_leaf


def _consumed_dims(index: Any) -> int:
    """The dims an index tensor, array or list takes: a mask its own, others one."""
    mask = (_args.kind_of(index.dtype) == "bool" if hasattr(index, "dtype") else
            bool(index) and all(isinstance(v, bool) for v in index))
    return max(getattr(index, "ndim", 1), 1) if mask else 1


def _sliced(self: Tensor, parts: tuple) -> bool:
    """True if torch's basic indexing of the array key's ``parts`` makes a view before it writes
    (an int, None, a bool or a partial slice); full slices and index arrays leave the tensor
    itself (so a leaf's refusal names a leaf, not a view of one)."""
    dim = 0
    for p in parts:
        if isinstance(p, slice):
            if not _whole_slice(p, self.shape[dim]):
                return True
            dim += 1
        elif p is None or isinstance(p, bool) or not getattr(p, "ndim", 0):
            return True  # an int, a 0-d tensor or array
        else:
            dim += p.ndim if _args.kind_of(getattr(p, "_data", p).dtype) == "bool" else 1
    return False


def _whole_slice(s: slice, size: int) -> bool:
    """Whether torch's basic indexing keeps the tensor itself for slice ``s`` of a dim of
    ``size``: a step of 1 from 0 to the end, the bounds as written (a negative one is a view,
    even ``-size``), a stop past the end clipped, a start past it not (``x[5:]`` of an empty
    ``x`` is a view).

    >>> _whole_slice(slice(None), 0), _whole_slice(slice(5, None), 0)
    (True, False)
    """
    start, stop, step = (None if b is None else int(b) for b in (s.start, s.stop, s.step))
    return step in (None, 1) and start in (None, 0) and (
        stop is None or (stop >= 0 and min(stop, size) == size))


_OPERANDS = (Tensor, int, float, complex)  # bool is an int


def _past_int64(scalar: Any) -> bool:
    """True for a numpy unsigned scalar past int64, which torch's operators cannot read."""
    return scalar.shape == () and scalar.dtype.kind == "u" and int(scalar) > _args.INT64_MAX


def _operand(other: Any, kinds: tuple = _OPERANDS) -> bool:
    """True if an operator takes ``other``; else it returns NotImplemented, so that Python
    raises its own "unsupported operand type(s)" error as with torch."""
    if isinstance(other, kinds):
        return True
    if _args.is_array(other):
        if type(other).__name__ == "ndarray":  # numpy's reflected operator runs, as with torch
            return False
        if _past_int64(other):  # torch cannot read it as a Number: numpy's operator runs
            return False
        _args.operand(other)  # refuses other arrays; numpy scalars go on as numbers
        return kinds is _OPERANDS
    return False


def _binary(op: Any, reflected: bool = False, kinds: tuple = _OPERANDS) -> Any:
    def method(self: Tensor, other: Any) -> Tensor:
        if not _operand(other, kinds):
            return overrides.operand_refused(method, self, other)
        return op(other, self) if reflected else op(self, other)

    return method


def _without_modulo(power: Any) -> Any:
    """``__pow__`` that answers Python's three-argument ``pow(x, y, m)`` with NotImplemented:
    torch's method takes no modulo, and turns its TypeError into NotImplemented, so Python
    refuses the operands in its own words.

    >>> pow(minitorch.ones(1), 2, 3)
    Traceback (most recent call last):
    TypeError: unsupported operand type(s) for ** or pow(): 'Tensor', 'int', 'int'
    """
    def method(self: Tensor, other: Any, modulo: Any = None) -> Tensor:
        return NotImplemented if modulo is not None else power(self, other)

    for fn in (power, method):  # (the name __torch_function__ sees, as the loop below gives)
        fn.__name__, fn.__qualname__ = "__pow__", "Tensor.__pow__"
    return method


def _rtruediv() -> Any:
    """``other / self``: torch's is ``self.reciprocal() * other`` in Python, so where the
    product refuses a numpy scalar or array, numpy's own ``__rmul__`` answers (with numpy's
    promotion); any other operand gets NotImplemented (torch's TypeError, turned into it).

    >>> import numpy as np
    >>> np.uint64(2 ** 63) / minitorch.ones(1, dtype=minitorch.float16)
    array([9.22337204e+18])
    """
    def method(self: Tensor, other: Any) -> Any:
        if _operand(other):
            return pointwise.rdiv_number(other, self)
        answer = overrides.operand_refused(method, self, other)
        if answer is not NotImplemented or not _args.is_array(other):
            return answer
        return type(other).__rmul__(other, self.reciprocal())

    return method


def _tensor_first(op: Any) -> Any:
    """An operator whose tensor goes first: straight to the op (no swapping, no alpha)."""

    def method(self: Tensor, other: Any) -> Tensor:
        kind = type(other)
        if kind is not Tensor and kind is not float and kind is not int and not _operand(other):
            return overrides.operand_refused(method, self, other)
        return op.apply(self, other)

    return method


def _factories_tensor(array: Any) -> Tensor:
    from ._creation import tensor

    return tensor(array)


def _reversed_dims(self: Tensor) -> Tensor:
    """``x.T``: the dims reversed (torch warns once where there are not two; a 0-D tensor's
    is a permutation of nothing)."""
    if self.dim() == 0:
        warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity in "
                  "these cases.")
    elif self.dim() != 2:
        warn_once("The use of `x.T` on tensors of dimension other than 2 to reverse their "
                  "shape is deprecated and it will throw an error in a future release. "
                  "Consider `x.mT` to transpose batches of matrices or `x.permute(*torch."
                  "arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.")
    return self.permute(tuple(reversed(range(self.dim()))))


def _matrix_transpose(self: Tensor) -> Tensor:
    """``x.mT``: the last two dims swapped, on matrices or batches of them only (a 0-D
    tensor itself, as torch's, which warns once)."""
    if self.dim() == 0:
        warn_once("Tensor.mT is deprecated on 0-D tensors. This function is the identity in "
                  "these cases.")
        return self
    if self.dim() < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                           f"Got {self.dim()}-D tensor.")
    return self.transpose(-2, -1)


@_args.tensors("mv", vec="vec")
def mv(self: Tensor, vec: Tensor) -> Tensor:
    """``x.mv(vec)``: torch's keyword is ``vec``."""
    return linalg.Mv.apply(self, vec)


@_args.tensors("dot", tensor="tensor")
def dot(self: Tensor, tensor: Tensor) -> Tensor:
    """``x.dot(tensor)``: torch's keyword is ``tensor``."""
    return linalg.Dot.apply(self, tensor)


@_call_form.overloads(*linalg.with_out_dtype("Tensor input, Tensor mat2"))
@_args.tensors("bmm", mat2="mat2")
def bmm(self: Tensor, mat2: Tensor) -> Tensor:
    """``x.bmm(mat2)``: torch's keyword is ``mat2``."""
    return linalg.Bmm.apply(self, mat2)


def _shaped_as(reshaper: Callable, name: str) -> Callable:
    """``name(self, other)``: ``self`` given ``other``'s shape by ``reshaper``."""
    @_args.tensors(name, other="other")
    def method(self: Tensor, other: Tensor) -> Tensor:
        return reshaper(self, other.shape)

    method.__name__ = name
    return method


def _cmp(name: str, named: bool = False, public: str | None = None) -> Any:
    """The comparison ``name`` as an operator (NotImplemented for an operand it does not take,
    so Python tries the other side) or, ``named``, as the method (called ``public``: torch's
    longer names such as ``greater``), which refuses it."""
    public = public or name
    def method(self: Tensor, other: Any) -> Any:
        if type(other).__name__ == "ndarray":  # torch: == takes an array as a tensor (its !=
            if name != "eq":  # answers NotImplemented: numpy's reflected != runs)
                return NotImplemented
            other = _factories_tensor(other)
        elif _args.is_array(other):
            if _past_int64(other) and not named:  # (the method: the parser's refusal)
                return NotImplemented
            other = _args.operand(other)
        if isinstance(other, complex) and name in ("eq", "ne"):
            if other.imag == 0:
                other = other.real
            else:  # a real tensor never equals a number with an imaginary part
                return compare(name, self, float("nan"))
        if not isinstance(other, (Tensor, int, float)):
            if name not in ("eq", "ne"):
                _args.no_complex_kernel(name, self, other)
            return overrides.operand_refused(method, self, other)
        return compare(name, self, other)

    def named_method(self: Tensor, other: Any) -> Any:
        result = NotImplemented if type(other).__name__ == "ndarray" else method(self, other)
        if result is NotImplemented:  # (only the operators read an array as a tensor)
            raise _args.invalid_combination(public, (self, other), *COMPARE_SIGNATURES)
        return result

    named_method.__name__ = public
    named_method.torch_signatures = COMPARE_SIGNATURES  # type: ignore[attr-defined]
    return named_method if named else method


COMPARE_SIGNATURES = ("Tensor input, Tensor other, *, Tensor out = None",
                      "Tensor input, Number other, *, Tensor out = None")


def _logic(name: str) -> Any:
    def method(self: Tensor, other: Any) -> Tensor:
        if not _operand(other):
            return overrides.operand_refused(method, self, other)
        return logical(name, self, other)

    return method


def _shift(name: str, reflected: bool = False) -> Any:
    """``<<`` (``name`` "lshift") or ``>>`` ("rshift"), or their reflected forms."""
    def method(self: Tensor, other: Any) -> Tensor:
        if not _operand(other):
            return overrides.operand_refused(method, self, other)
        return shift(name, other, self) if reflected else shift(name, self, other)

    return method


def _refuse_batched(inplace: str, self: Tensor, value: Any) -> None:
    """Inside vmap, torch's refusal of the in-place op ``inplace`` writing a batched ``value``
    into ``self`` (a batched value is no operand of the operators, but torch refuses it)."""
    if vmapped():
        from ._batched import refuse_inplace

        refuse_inplace(inplace, self, (value,), {})


def _inplace_binary(op: Callable, *name: str, inplace: str) -> Callable:
    """``x op= other`` for an op with no in-place method of its own (``&=``, ``<<=``, ...):
    ``op(x, other)`` written into ``x``, with torch's casting and broadcast checks (torch's
    op ``inplace``)."""
    def method(self: Tensor, other: Any) -> Tensor:
        _refuse_batched(inplace, self, other)
        if not _operand(other):
            return NotImplemented
        if op is pointwise.pow:  # pow_'s own checks of its exponent come first
            _args.unpack_int(other)
            pointwise.check_uint64_exponent(self, other)
            pointwise.check_int_power(self, other)
        _inplace_checks(self, other)
        return self._inplace(functools.partial(op, *name) if name else op, other)

    return method


def _inplace_checks(self: Tensor, other: Any) -> None:
    """torch's checks of ``self.op_(other)`` before its kernel's: autograd's rules, the
    shapes, then the cast of the result into ``self``."""
    _args.unpack_int(other)  # the parser's, first
    check_inplace_allowed(self, other)
    check_internal_overlap(self)
    if isinstance(other, Tensor):
        _check_output_shape(self, other)
    if not isinstance(other, complex):
        D.check_unsigned(self, other)  # an int past int64 is torch's uint64
        result = result_type(self, other)
        if result._category > self.dtype._category:
            raise _args.cast_error(result, self.dtype)


@_call_form.overloads("Tensor other", "Number other")
def floor_divide_(self: Tensor, other: Any) -> Tensor:
    """In-place ``self //= other``.

    >>> minitorch.tensor([5, 7]).floor_divide_(2)
    tensor([2, 3])
    """
    _inplace_other("floor_divide_", other)
    _inplace_checks(self, other)  # before the kernel's division by an integer zero
    return self._inplace(pointwise.FloorDivideInplace.on, other)


@_call_form.overloads("Tensor other", "Number other")
def remainder_(self: Tensor, other: Any) -> Tensor:
    """In-place ``self %= other``.

    >>> minitorch.tensor([5, 7]).remainder_(3)
    tensor([2, 1])
    """
    _inplace_other("remainder_", other)
    _inplace_checks(self, other)
    return self._inplace(pointwise.remainder, other)


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


def _format(self: Tensor, format_spec: str) -> str:
    """A 0-d tensor formats as its number, as torch (``f"{loss:.3f}"``); any other tensor
    takes only the empty format spec (its str).

    >>> f"{minitorch.tensor(2.0) / 3:.3f}"
    '0.667'
    """
    if self.dim() == 0 and type(self) is Tensor:
        return format(self.detach().item(), format_spec)
    return object.__format__(self, format_spec)


_METHODS = {
    "__add__": _tensor_first(pointwise.Add), "__radd__": _tensor_first(pointwise.Add),
    "__sub__": _tensor_first(pointwise.Sub),
    "__rsub__": _binary(pointwise.rsub_number, reflected=True),
    "__mul__": _tensor_first(pointwise.Mul), "__rmul__": _tensor_first(pointwise.Mul),
    "__truediv__": _tensor_first(pointwise.Div),
    "__rtruediv__": _rtruediv(),
    "__pow__": _without_modulo(_binary(pointwise.pow)),
    "__rpow__": _binary(pointwise.pow, reflected=True),
    "__mod__": _binary(pointwise.remainder),
    "__rmod__": _binary(pointwise.remainder, reflected=True),
    "__floordiv__": _binary(pointwise.floor_divide),
    "__rfloordiv__": _binary(pointwise.floor_divide, reflected=True),
    "remainder": pointwise.remainder, "floor_divide": pointwise.floor_divide,
    "fmod": pointwise.fmod,
    "__matmul__": _binary(linalg.matmul, kinds=(Tensor,)),
    "__rmatmul__": _binary(linalg.matmul, reflected=True, kinds=(Tensor,)),
    "__neg__": _unary(pointwise.Neg),
    "__pos__": _aliases.positive,  # the tensor itself, refused on bool as torch
    "__abs__": _unary(pointwise.Abs),
    "__lt__": _cmp("lt"), "__le__": _cmp("le"), "__gt__": _cmp("gt"), "__ge__": _cmp("ge"),
    "__eq__": _cmp("eq"), "__ne__": _cmp("ne"),
    "__and__": _logic("and"), "__or__": _logic("or"), "__xor__": _logic("xor"),
    # bitwise operations commute: ``3 | x`` is ``x | 3``
    "__rand__": _logic("and"), "__ror__": _logic("or"), "__rxor__": _logic("xor"),
    "__lshift__": _shift("lshift"), "__rshift__": _shift("rshift"),
    "__rlshift__": _shift("lshift", reflected=True),
    "__rrshift__": _shift("rshift", reflected=True),
    "__invert__": _invert,
    "add_": alpha_first("add_")(add_), "sub_": alpha_first("sub_")(sub_),
    "mul_": mul_, "div_": div_, "clamp_": clamp_, "clip_": clip_,
    "zero_": zero_, "set_": set_,
    "fill_": fill_, "copy_": copy_,
    "__iadd__": _inplace_operator(add_), "__isub__": _inplace_operator(sub_),
    "__imul__": _inplace_operator(mul_), "__itruediv__": _inplace_operator(div_),
    "floor_divide_": floor_divide_, "remainder_": remainder_,
    "__ifloordiv__": _inplace_operator(floor_divide_),
    "__imod__": _inplace_operator(remainder_),
    "__ipow__": _inplace_binary(pointwise.pow, inplace="pow_"),
    "__iand__": _inplace_binary(logical, "and", inplace="bitwise_and_"),
    "__ior__": _inplace_binary(logical, "or", inplace="bitwise_or_"),
    "__ixor__": _inplace_binary(logical, "xor", inplace="bitwise_xor_"),
    "__ilshift__": _inplace_binary(shift, "lshift", inplace="bitwise_left_shift_"),
    "__irshift__": _inplace_binary(shift, "rshift", inplace="bitwise_right_shift_"),
    "__format__": _format, "__setitem__": _slot(_setitem, "__setitem__", 2),
    "__getitem__": _slot(indexing.getitem, "__getitem__", 1),
    "__delitem__": _slot(_delitem, "__delitem__", 1),
    "add": alpha_first("add")(pointwise.add), "sub": alpha_first("sub")(pointwise.sub),
    "mul": pointwise.mul, "div": pointwise.div,
    "pow": pointwise.pow, "clamp": pointwise.clamp, "clip": _aliases.clip,
    "round": pointwise.round_method,
    "maximum": pointwise.maximum, "minimum": pointwise.minimum,
    "neg": _unary(pointwise.Neg),
    "square": lambda self: pointwise.pow(self, 2),
    "lt": _cmp("lt", True), "le": _cmp("le", True), "gt": _cmp("gt", True),
    "ge": _cmp("ge", True), "eq": _cmp("eq", True), "ne": _cmp("ne", True),
    "matmul": linalg.matmul, "mm": linalg.mm, "addmm": linalg.addmm,
    "mv": mv, "dot": dot, "bmm": bmm,
    "sum": reduction.sum_method, "mean": reduction.mean_method, "var": reduction.var,
    "std": reduction.std,
    "max": reduction.max, "min": reduction.min, "argmax": reduction.argmax,
    "argmin": reduction.argmin, "logsumexp": reduction.logsumexp,
    "reshape": reshape, "view": view, "permute": permute, "movedim": movedim,
    "moveaxis": movedim, "transpose": transpose, "t": t,
    "unsqueeze": unsqueeze, "squeeze": squeeze, "squeeze_": squeeze_, "expand": expand,
    "flatten": flatten,
    "expand_as": _shaped_as(expand, "expand_as"),
    "view_as": _shaped_as(view, "view_as"),
    "reshape_as": _shaped_as(reshape, "reshape_as"),
    "unbind": unbind, "narrow": narrow, "unflatten": unflatten,
    "softmax": nn_ops.softmax, "log_softmax": nn_ops.log_softmax,
    "T": property(_reversed_dims),
    "mT": property(_matrix_transpose),
}
# Python 2's names, which torch's Tensor still answers to
_METHODS.update(__div__=_METHODS["__truediv__"], __rdiv__=_METHODS["__rtruediv__"],
                __idiv__=_METHODS["__itruediv__"])


for _name in ("exp", "log", "sqrt", "sin", "cos", "abs", "sigmoid", "tanh", "relu",
              "reciprocal", "sign"):
    _METHODS[_name] = _unary(getattr(pointwise, _name.capitalize()))

# torch's overloads of all and any (function form)
REDUCE_BOOL_SIGNATURES = ("Tensor input, *, Tensor out = None",
                          "Tensor input, tuple of ints dim = None, bool keepdim = False, *, "
                          "Tensor out = None",
                          "Tensor input, int dim, bool keepdim = False, *, Tensor out = None")


def check_tensor_dim(name: str, values: tuple, method: bool) -> None:
    """``all``/``any``'s refusal of a ``dim`` tensor that is not 0-d and integral (or a 0-d
    numpy array): none of
    their overloads (an int64 dim, a tuple) takes it (``values``: the arguments from the dim
    on, after the tensor for the function; a keepdim left False is not printed).

    >>> check_tensor_dim("all", (minitorch.tensor([0]),), method=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    TypeError: all() received an invalid combination of arguments - got (Tensor), but ...
    """
    dim = values[1 - method]
    array = type(dim).__name__ == "ndarray" and dim.shape == ()  # taken by no overload
    if not (_args.is_tensor(dim) or array) or _args.as_param_int(dim, "dim") is not None:
        return
    given = values[:-1] if values[-1] is False else values
    forms = list(REDUCE_BOOL_SIGNATURES)
    raise _args.invalid_combination(name, given, *(_call_form.method_signatures(forms)
                                                   if method else forms))


def _reduce_bool(name: str) -> Any:
    """``all``/``any`` as a method, over everything or over ``dim``."""

    @_call_form.overloads(*REDUCE_BOOL_SIGNATURES)
    def method(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
        from .ops._base import wrap

        check_tensor_dim(name, (dim, keepdim), method=True)
        xp = self._xp
        _args.dim_types(name, dim)  # the parser's types, then the dims' ranges
        keepdim = _args.flag(name, keepdim, "keepdim")
        axis = _args.dims(name, dim, self.dim(), ranges_first=True)
        found = c_order(getattr(xp, name)(xp.astype(self._data, xp.bool),  # torch's layout
                                          axis=axis if self.dim() else None, keepdims=keepdim))
        # torch's uint8 all/any keep uint8 (from the days before bool tensors)
        return wrap(xp.astype(found, xp.uint8) if self.dtype.name == "uint8" else found)

    method.__name__ = name
    method.__doc__ = f"True where {'every' if name == 'all' else 'some'} element is non-zero."
    return method


_METHODS.update(_random.METHODS)
_METHODS.update(inplace_more.METHODS)
_METHODS.update(index_reduce.METHODS)
_METHODS.update(inplace_views.METHODS)
_METHODS.update(hyperbolic.METHODS)
_METHODS.update(nonzero.METHODS)
_METHODS.update(diagonal.METHODS)
_METHODS.update(_factories.NEW_METHODS)
_METHODS.update({"log1p": _unary(special.Log1p), "expm1": _unary(special.Expm1),
                 "rsqrt": _unary(special.Rsqrt), "lerp": special.lerp,
                 "addcmul": special.addcmul, "addcdiv": special.addcdiv,
                 "sort": sorting.sort, "argsort": sorting.argsort, "topk": sorting.topk})
_METHODS.update({"split": split.split_method, "chunk": split.chunk, "select": split.select,
                 "repeat": split.repeat, "repeat_interleave": split.repeat_interleave_method,
                 "nelement": Tensor.numel, "tril": triangle.tril, "triu": triangle.triu})
_METHODS.update({name: getattr(gather, name) for name in gather.__all__ if name.islower()})
_METHODS.update({name: getattr(scan, name) for name in scan.__all__ if name.islower()})
_METHODS.update({name: getattr(selection, name) for name in selection.__all__})
_METHODS.update({name: getattr(tensor_split, name) for name in tensor_split.__all__
                 if name.islower()})
_METHODS.update({"masked_select": masked.masked_select, "take_along_dim": take.take_along_dim,
                 "unique": unique.unique,
                 "unique_consecutive": unique.unique_consecutive, "type_as": _factories.type_as,
                 "resize_": _factories.resize_, "resize_as_": _factories.resize_as_,
                 "resize": _factories.resize, "resize_as": _factories.resize_as})
_METHODS.update({name.lower(): _unary(getattr(unary_more, name)) for name in unary_more.__all__
                 if name[0].isupper()})
_METHODS.update({"isnan": unary_more.isnan, "clamp_min": normalize.clamp_min,
                 "clamp_min_": normalize.clamp_min_, "clamp_max": normalize.clamp_max,
                 "clamp_max_": normalize.clamp_max_,
                 "outer": products.outer, "ger": products.outer, "xlogy": kl_div.xlogy})
_METHODS.update({"norm": norm.norm_method, "type": _factories.tensor_type,
                 "masked_fill": masked.masked_fill, "masked_fill_": masked.masked_fill_,
                 "all": _reduce_bool("all"), "any": _reduce_bool("any"),
                 "inverse": inverse.inv, "det": inverse.det, "unfold": unfold_method,
                 "storage": _storage.storage, "untyped_storage": _storage.untyped_storage})

_METHODS.update(logic.METHODS)
_METHODS.update(binary_more.METHODS)
_METHODS.update(reduction_more.METHODS)
_METHODS.update(scan_more.METHODS)
_METHODS.update(_aliases.METHODS)
_METHODS.update({public: _cmp(name, True, public) for name, public in compare_inplace.NAMES})
_METHODS.update(compare_inplace.in_place_methods(_METHODS))
_METHODS.update(trig.METHODS)
_METHODS.update(gamma.METHODS)
_METHODS.update(special_functions.METHODS)
_METHODS.update(special_more.METHODS)
_METHODS.update(floating.METHODS)
_METHODS.update(divisors.METHODS)
_METHODS.update({"hardshrink": hardshrink.hardshrink})
_METHODS.update(_attributes.METHODS)
_METHODS.update({"divide_": divide_, "true_divide_": true_divide_, "multiply_": multiply_,
                 "subtract_": subtract_})
_METHODS.update({"dist": dist.dist, "matrix_exp": matrix_exp.matrix_exp})
_METHODS.update(rearrange.METHODS)
_METHODS.update(broadcast.METHODS)
_METHODS.update({"split_with_sizes": split.split_with_sizes,
                 "masked_scatter": masked.masked_scatter,
                 "masked_scatter_": masked.masked_scatter_})
for _module in (index_write, view_scatter, as_strided, renorm):
    _METHODS.update(_module.METHODS)
_METHODS.update(scaled_products.METHODS)
_METHODS["prelu"] = activation_more.prelu
_METHODS.update({name: getattr(decompositions, name) for name in (
    "svd", "qr", "slogdet", "logdet", "pinverse", "cholesky", "cholesky_solve",
    "cholesky_inverse")})
_METHODS["lu"] = lu_factorization.tensor_lu
_METHODS["lu_solve"] = lu_factorization.lu_solve
_METHODS.update({"geqrf": householder.geqrf, "orgqr": householder.orgqr,
                 "triangular_solve": triangular_solve.triangular_solve})
_METHODS.update({"inner": products.inner, "kron": products.kron, "vdot": products.vdot,
                 "matrix_power": products.matrix_power, "cross": cross.cross})
_METHODS.update({"diff": differences.diff, "cov": statistics.cov,
                 "corrcoef": statistics.corrcoef, "quantile": statistics.quantile,
                 "nanquantile": statistics.nanquantile, "histc": counting.histc,
                 "histogram": counting.histogram,
                 "bincount": counting.bincount})

from ._removed import METHODS as _REMOVED_METHODS  # noqa: E402  (it needs Tensor only)

_METHODS.update(_REMOVED_METHODS)
_METHODS.update(inplace_more.inplace_twins(_METHODS, Tensor))

for _name, _fn in _METHODS.items():  # torch counts a method's arguments after self
    is_method = inspect.isfunction(_fn) and not _name.startswith("__")
    if inspect.isfunction(_fn) and _fn.__name__ == "method":  # an operator made by a factory:
        _fn.__name__, _fn.__qualname__ = _name, f"Tensor.{_name}"  # __torch_function__ sees it
    setattr(Tensor, _name, _call_form.entry(_fn, _name, method=True) if is_method else _fn)
for _name, _fn in list(vars(Tensor).items()):  # the class's own methods: torch's C ones refuse
    if inspect.isfunction(_fn) and not _name.startswith("_") and not hasattr(_fn, "op") and \
            _name not in _call_form.PYTHON_METHODS:
        setattr(Tensor, _name, _call_form.entry(_fn, _name, method=True))


def _read_only(name: str, prop: property) -> property:
    """``prop`` refusing assignment and deletion in torch's words (``x.is_leaf = False``)."""
    def refuse(self: Tensor, value: Any = None) -> None:
        raise AttributeError(f"attribute '{name}' of 'torch._C.TensorBase' objects is not "
                             "writable")

    return property(prop.fget, refuse, prop.fdel or refuse, prop.__doc__)


for _name, _attr in list(vars(Tensor).items()):
    if isinstance(_attr, property) and _attr.fset is None:
        setattr(Tensor, _name, _read_only(_name, _attr))


def _contains(self: Tensor, element: Any) -> bool:
    """``element in tensor``: whether some element equals it (torch's rule).

    >>> 2 in minitorch.tensor([1, 2])
    True
    """
    if isinstance(element, (Tensor, int, float, complex)):
        return bool((element == self).any().item())
    raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
                       f"{type(element)}.")


Tensor.__contains__ = _contains
