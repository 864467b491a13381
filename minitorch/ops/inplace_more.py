"""In-place variants that tutorials use: the unary ops (``sin_``, ``exp_``, ``relu_``, ...),
``pow_`` and ``index_add_``. Each runs the out-of-place op through ``Tensor._inplace``, so
the version counter, the leaf check and the node (``SinBackward0``, ...) are torch's.

>>> import minitorch
>>> x = minitorch.tensor([0., 1.], requires_grad=True)
>>> y = x * 1
>>> y.exp_()
tensor([1.0000, 2.7183], grad_fn=<ExpBackward0>)
>>> y._version
1
"""

from __future__ import annotations

import inspect
from typing import Any

from .. import _args, _call_form, backend
from .._dtype import get_default_dtype, result_type
from .._tensor import Tensor, check_inplace_allowed, check_inplace_operands, check_internal_overlap
from ..autograd.grad_mode import no_grad
from . import binary_more, pointwise, scan, special
from ._base import Op, check_indices, save_indices, wrap

__all__ = ["METHODS", "IndexAdd", "index_add", "index_add_"]

_UNARY = ("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg",
          "reciprocal", "sign", "log1p", "expm1", "rsqrt")


def _inplace_unary(name: str) -> Any:
    op = getattr(pointwise, name.capitalize(), None) or getattr(special, name.capitalize())

    def method(self: Tensor) -> Tensor:
        return self._inplace(op.apply)

    method.__name__ = f"{name}_"
    method.__doc__ = f"In-place ``{name}`` (node ``{op.node_name}``)."
    return method


@_call_form.overloads("Tensor exponent", "Number exponent")
def pow_(self: Tensor, exponent: Any) -> Tensor:
    """In-place ``self **= exponent``.

    >>> minitorch.tensor([2.]).pow_(3)
    tensor([8.])
    """
    pointwise.check_uint64_exponent(self, exponent)  # before _inplace wraps it
    _args.unpack_int(exponent)  # (the parser's, then its meta check: before TensorIterator's)
    pointwise.check_int_power(self, exponent)
    if isinstance(exponent, Tensor):  # the written shape before pow's dtype checks
        check_inplace_operands(self, exponent)
    return self._inplace(pointwise.pow, exponent)


def _check_cast(name: str, self: Tensor, other: Tensor) -> None:
    """torch's refusal of ``self.<name>_(other)`` whose result ``self`` cannot hold (atan2's
    result is floating), made before its kernel's dtype check."""
    result = result_type(self, other)
    if name in _FLOATING_RESULT and not result.is_floating_point:
        result = get_default_dtype()
    if result._category > self.dtype._category:
        raise _args.cast_error(result, self.dtype)


def _parser_before_autograd(fn: Any, name: str, self: Tensor, args: tuple,
                            kwargs: dict, first: str | None = None) -> None:
    """Where autograd refuses to write into ``self`` (a leaf that requires grad, ...), or its
    TensorIterator an expanded ``self``, torch's parser has read the arguments first: its
    refusal of one of the wrong type, or of their count, wins (``fn``'s own parsing, run
    on a detached ``self``, finds those its signature does not declare)."""
    try:
        check_inplace_allowed(self, *args)
        check_internal_overlap(self)
    except RuntimeError:
        if typed := _call_form.types_first(fn, name, (self, *args), kwargs, method=True):
            raise TypeError(typed) from None
        if first and args:
            args, kwargs = args[1:], {first: args[0], **kwargs}
        try:
            with no_grad():
                fn(self.detach(), *args, **kwargs)
        except (TypeError, ValueError, OverflowError):  # the parser's: a type, a big int
            raise
        except Exception:  # (the op's own checks come after autograd's refusal)
            pass
        raise


def _refuse(message: str) -> None:
    """A refusal already in torch's words: raised here, not in the method, the call's entry
    takes it for the op's own, not for Python's refusal of the binding to word again."""
    raise TypeError(message)


def _inplace_of(fn: Any, name: str | None = None, first: str | None = None) -> Any:
    """``x.<name>_(...)``: ``fn(x, ...)`` written into ``x`` (``lerp_``, ``addcmul_``, ...),
    with ``fn``'s parameters; a positional argument is passed as ``first=`` when ``first``
    names it. A tensor-only ``other`` is checked before the write's own checks."""
    name = name or fn.__name__
    required = [p.name for p in list(inspect.signature(fn).parameters.values())[1:]
                if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD]

    def bare(self: Tensor) -> Tensor:  # Python refuses any argument, as torch's C method
        return self._inplace(fn)

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        if too_many := _call_form.too_many_positional(fn, f"{name}_", (self, *args), True):
            _refuse(too_many)  # the parser's count and its missing arguments come
        for missing in required[len(args):]:  # before autograd's or the kernel's refusals,
            _args.required(f"{name}_", kwargs.get(missing, _args.OMITTED), missing)  # in
        if first and args and first in kwargs:  # (passed by keyword below, it would bind;
            # the parser reads the positional one's type first)
            _refuse(_call_form.types_first(fn, f"{name}_", (self, *args), kwargs, method=True)
                    or f"{name}_() got multiple values for argument '{first}'")
        if kwargs and not _call_form.binds(fn, (self, *args), kwargs):
            if typed := _call_form.types_first(fn, f"{name}_", (self, *args), kwargs, True):
                _refuse(typed)  # torch's parser reads the types before a stray keyword
            fn(self, *args, **kwargs)  # Python's refusal (an unknown keyword), here: the
            # call's entry words it as torch's parser
        _parser_before_autograd(fn, f"{name}_", self, args, kwargs, first)  # torch's words
        if name in _TENSOR_OTHER and (args or "other" in kwargs):
            other = args[0] if args else kwargs["other"]
            _args.tensor_args(name, (other, "other", 2))
            check_inplace_operands(self, other)  # before the kernel's dtype checks
            _check_cast(name, self, other)
        elif name in _BINARY and args and isinstance(args[0], Tensor):
            if name == "heaviside":  # its own check comes before the shapes'
                binary_more.same_dtypes(self, args[0])
            check_inplace_operands(self, args[0])  # before the kernel's (a divisor's zeros)
            _check_cast(name, self, args[0])
        elif name in ("fmod", "remainder") and args and \
                type(number := _args.numpy_scalar(args[0])) in (int, float):
            check_inplace_operands(self, number)  # a number divisor's zero: after the cast
            _check_cast(name, self, number)
        if first and args:
            args, kwargs = args[1:], {first: args[0], **kwargs}
        if written := getattr(fn, "written_check", None):  # (the output's own checks)
            written(self, *args, **kwargs)
        return self._inplace(fn, *args, **kwargs)

    if len(inspect.signature(fn).parameters) == 1:
        method = bare
    method.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    method.__name__ = f"{name}_"
    method.__wrapped__ = fn  # type: ignore[attr-defined]  # its parameters are fn's
    if hasattr(fn, "torch_signatures"):  # its overloads too (the method's forms of them)
        method.torch_signatures = fn.torch_signatures  # type: ignore[attr-defined]
        method.torch_hidden = getattr(fn, "torch_hidden", False)  # type: ignore[attr-defined]
    method.__doc__ = f"In-place ``{name}``.\n\n    >>> minitorch.ones(1).{name}_ " \
                     "is not None\n    True\n    "
    return method


class IndexAdd(Op):
    """``index_add``: rows of ``source`` added to ``a`` at ``index`` along ``dim``."""

    node_name = "IndexAddBackward0"
    saved_slots = ("key",)  # torch saves the index
    _profile_name = "aten::index_add"

    @staticmethod
    def forward(ctx: Any, a: Tensor, source: Tensor, *, key: tuple, alpha: Any,
                index: Tensor | None = None) -> Tensor:
        ctx.key, ctx.alpha, ctx.source_shape = key, alpha, source.shape
        save_indices(ctx, index)
        xp = a._xp
        out = backend.c_order(xp.asarray(a._data, copy=True))  # out-of-place: contiguous
        values = xp.astype(source._data, out.dtype)
        target = xp.reshape(out, (1,)) if out.ndim == 0 else out  # a view: writes reach out
        if out.size:  # torch reads no index for an empty self
            backend.index_add(xp, target, key, values if alpha == 1 else values * alpha)
        return wrap(out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        check_indices(ctx)
        grad_source = None
        if ctx.needs_input_grad[1]:  # torch's grad.index_select(dim, index), its checks too
            from .gather import index_select  # (gather's IndexSelect backward is an IndexAdd)

            grad_source = index_select(g, len(ctx.key) - 1, wrap(ctx.key[-1]))
            if grad_source.shape != ctx.source_shape:  # a 0-d source of a 0-d self
                grad_source = grad_source.reshape(ctx.source_shape)
            if ctx.alpha != 1:
                grad_source = grad_source * ctx.alpha
        return g, grad_source


def _index_key(fn: str, self: Tensor, dim: Any, index: Any, source: Any, alpha: Any) -> tuple:
    """The key of ``index_add``'s slices and its ``alpha`` as a number, after torch's checks:
    the arguments' types, then (in place) the refusal of a leaf that requires grad, then the
    tensors."""
    _args.tensor_args(fn, (self, "input", 0))
    dim, _, _, alpha = _args.parsed(fn, ("int", dim, "dim", 1), ("tensor", index, "index", 2),
                                    ("tensor", source, "source", 3),
                                    ("number", alpha, "alpha", None))
    if fn.endswith("_"):
        check_inplace_allowed(self, source)
    d = _args.wrap_dim(dim, self.dim())
    check_index_add(self, d, index, source, alpha, ranged=False)
    given = alpha
    if type(alpha) is not int or alpha != 1:  # the kernel reads it in self's dtype, first:
        # an integer self's truncated (0.5 adds nothing) and wrapped, a bool's non-zero
        alpha = _args.kernel_scalar(alpha, self.dtype)
    check_index_range(self, d, index, given)
    return (slice(None),) * d + (self._xp.reshape(index._data, (-1,)),), alpha


def check_index_add(self: Tensor, d: int, index: Tensor, source: Tensor, alpha: Any,
                    fn: str = "index_add_", ranged: bool = True) -> None:
    """torch's checks of ``index_add``'s tensors (``fn``'s, which shares them), in torch's
    order; the range of the indices last (unless not ``ranged``), in the words of the kernel
    that runs (see :func:`check_index_range`)."""
    name = _args.legacy
    if index.dim() > 1:
        raise IndexError(f"{fn}(): Index is supposed to be a vector, but got dim: "
                         f"{index.dim()} with type: {name(index.dtype)} and size: "
                         f"{list(index.shape)}")
    if index.dtype.name not in ("int64", "int32"):
        raise RuntimeError(f"{fn}(): Expected dtype int32/int64 for index but got: "
                           f"{name(index.dtype)}")
    if self.dtype is not source.dtype:
        raise RuntimeError(f"{fn}(): self ({name(self.dtype)}) and source "
                           f"({name(source.dtype)}) must have the same scalar type")
    if d and d >= source.dim():
        raise RuntimeError(f"{fn}(): Indexing dim {d} is out of bounds of the source "
                           f"tensor with dim {source.dim()}")
    if index.numel() != (source.shape[d] if source.dim() else 1):
        size = source.shape[_args.wrap_dim(d, source.dim(), scalar=False)]  # torch's message
        raise RuntimeError(f"{fn}(): Number of indices ({index.numel()}) should be equal "
                           f"to source.size(dim): ({size}), for dim: {d}")
    rest = [list(self.shape), list(source.shape)]
    if self.dim() and source.dim():
        rest = [r[:d] + r[d + 1:] for r in rest]
    if rest[0] != rest[1]:
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(self.shape)} "
                           f"source.shape = {list(source.shape)}")
    if ranged:
        check_index_range(self, d, index, alpha)


def check_index_range(self: Tensor, d: int, index: Tensor, alpha: Any) -> None:
    """The indices in range of ``self``'s dim ``d``, as torch's index_add kernel checks them:
    an empty ``self`` of more than one dim is not read at all; along its first or last dim,
    an int64 index with ``alpha`` 1 runs scatter_add, which names the first index out of
    range; the other paths say only "index out of range in self"."""
    if not index.numel() or (self.dim() > 1 and not self.numel()):
        return
    xp, data = self._xp, self._xp.reshape(index._data, (-1,))
    size = self.shape[d] if self.dim() else 1
    outside = (data < 0) | (data >= size)
    if not bool(xp.any(outside)):
        return
    if self.dim() > 1 and d in (0, self.dim() - 1) and alpha == 1 and alpha is not True and \
            index.dtype.name == "int64":
        first = int(data[int(xp.argmax(outside))])
        raise RuntimeError(f"index {first} is out of bounds for dimension {d} with size {size}")
    raise IndexError("index out of range in self")


def index_add_(self: Tensor, dim: int, index: Tensor, source: Tensor, *,
               alpha: Any = 1) -> Tensor:
    """Add ``alpha * source`` into the slices ``index`` of ``dim``, in place (repeated indices
    add up).

    >>> minitorch.zeros(3).index_add_(0, minitorch.tensor([0, 0, 2]), minitorch.ones(3))
    tensor([2., 0., 1.])
    """
    key, alpha = _index_key("index_add_", self, dim, index, source, alpha)
    return self._inplace(IndexAdd.apply, source, key=key, alpha=alpha, index=index)


def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *,
              alpha: Any = 1) -> Tensor:
    """Out-of-place ``index_add_``.

    >>> minitorch.index_add(minitorch.zeros(2), 0, minitorch.tensor([1]), minitorch.ones(1))
    tensor([0., 1.])
    """
    key, alpha = _index_key("index_add", input, dim, index, source, alpha)
    return IndexAdd.apply(input, source, key=key, alpha=alpha, index=index)


# torch's in-place twins of methods minitorch has, each writing ``x.<name>(...)`` back into
# ``x``. Not among them: squeeze_/transpose_ (they change the shape in place), the comparisons
# (torch records a node with zero gradients), floor_divide_ (torch refuses its derivative).
TWINS = ("addmm", "ceil", "clamp_max", "erf",
         "exp2", "floor", "fmod", "frac", "log10", "log2", "remainder", "round", "square",
         "tril", "triu", "trunc", "acos", "asin", "atan", "tan", "erfc", "logit", "nan_to_num",
         "deg2rad", "rad2deg", "negative", "fix", "sinc", "i0", "addmv", "hypot", "sgn",
         "atan2", "arctan2", "copysign", "xlogy", "arccos", "arcsin", "arctan", "absolute",
         "erfinv", "lgamma", "digamma", "heaviside", "nextafter", "igamma", "igammac")
# ops whose ``other`` is a tensor only (no Number overload)
_TENSOR_OTHER = ("hypot", "atan2", "arctan2", "igamma", "igammac")
# the binary ops whose result is floating for integral operands
_FLOATING_RESULT = ("atan2", "arctan2", "copysign", "xlogy")
# the other binary element-wise ops: a tensor ``other`` broadcasts to ``x`` before their kernel
_BINARY = ("fmod", "remainder", "copysign", "xlogy", "heaviside", "nextafter", "igamma",
           "igammac")
# integer parameters, passed by name: ``_inplace`` reads a leading Python int as a value of
# the tensor's dtype (``x.add_(1)``), which a dim is not
_INT_PARAMETER = {"tril": "diagonal", "triu": "diagonal"}


def inplace_twins(methods: dict, tensor: type) -> dict:
    """``x.<name>_(...)`` for each name of TWINS that ``tensor`` (or ``methods``) has
    out of place and not in place."""
    def has(name: str) -> bool:
        return name in methods or hasattr(tensor, name)

    twins = {f"{name}_": _inplace_of(methods.get(name) or getattr(tensor, name), name,
                                     _INT_PARAMETER.get(name))
             for name in TWINS if has(name) and not has(f"{name}_")}
    if "nan_to_num_" in twins:
        twins["nan_to_num_"] = _copied_when_integral(twins["nan_to_num_"])
    return twins


def _copied_when_integral(method: Any) -> Any:
    """``x.nan_to_num_(...)`` of an integer or bool ``x`` (no NaN, no inf): torch copies ``x``
    into itself, which writes nothing and so checks no overlap (an expanded ``x`` is taken),
    once its arguments parse and autograd allows the write; its version still counts it."""
    def nan_to_num_(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        if not isinstance(self, Tensor) or self.dtype.is_floating_point:
            return method(self, *args, **kwargs)
        with no_grad():
            method(self.clone(), *args, **kwargs)  # the parser's refusals
        check_inplace_allowed(self)
        self._version_counter.value += 1
        return self

    nan_to_num_.__doc__ = method.__doc__
    return nan_to_num_


METHODS = {f"{name}_": _inplace_unary(name) for name in _UNARY}
METHODS.update({f"{fn.__name__}_": _inplace_of(fn) for fn in (special.addcmul, special.addcdiv)})
METHODS["lerp_"] = special.lerp_
METHODS.update({"pow_": pow_, "index_add_": index_add_, "index_add": index_add,
                "cumsum_": scan.cumsum_, "cumprod_": scan.cumprod_})
