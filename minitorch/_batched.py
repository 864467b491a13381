"""vmap's batched tensors: each op runs once on the whole batch, as torch's batching rules do.

Inside ``vmap(func)``, ``func`` sees one example; a :class:`BatchedTensor` shows it that
example (its ``shape`` leaves out the batch) while holding the whole batch, batch first, in a
real tensor (``value``). Each method it has is a batching rule: it translates the example's
dims to the batch's (dim ``d`` is ``d + 1``; a shorter operand gets size-1 dims after the
batch so that broadcasting lines up), runs the op once, and wraps the result. So the result
of ``vmap`` is the last op's output, with that op's ``grad_fn``, as in torch.

An op with no rule here runs on each example and its results are stacked into a batch
(:func:`each_example`, torch's fallback), so ``func`` goes on with a batch and what it reads
of one example next (``.item()``, an ``if``) is refused as torch refuses it. What no batch can
be made of (an in-place op, a random draw, a result that is no tensor) raises
:class:`Unbatched`, and ``vmap`` then calls ``func`` once per example instead; an op is never
run on the batch where its rule does not say how. (What ``func`` did before that op, a print
say, it then does again for each example.)

>>> import minitorch
>>> x = minitorch.tensor([[1., -2.], [3., 4.]], requires_grad=True)
>>> minitorch.func.vmap(lambda r: (r * 2).relu())(x)
tensor([[2., 0.],
        [6., 8.]], grad_fn=<ReluBackward0>)
"""

from __future__ import annotations

import contextlib
import inspect
import math
import operator
import sys
from collections.abc import Callable, Iterator
from typing import Any

from . import _batched_function
from ._args import c_name
from ._batched_function import Unbatched, innermost, vmap_level
from ._tensor import Tensor, broadcast_shapes

__all__ = ["BatchedTensor", "Unbatched"]


def _example_check(cls: type, obj: Any) -> bool:
    """isinstance while ``func`` runs on batched tensors: a batched one is a Tensor to the
    user's code (minitorch's own code tells the two apart)."""
    return type.__instancecheck__(cls, obj) or (
        cls is Tensor and type(obj) is BatchedTensor
        and not sys._getframe(1).f_globals.get("__name__", "").startswith("minitorch."))


_calls_with_examples = _batched_function.calls_with_examples


@contextlib.contextmanager
def examples_are_tensors() -> Iterator[None]:
    """While ``func`` runs on batched tensors, each passes the user's ``isinstance(x,
    Tensor)`` as torch's does (its checks then take the tensor branch). The check is hooked
    in only meanwhile: isinstance elsewhere keeps CPython's fast path.

    >>> isinstance(BatchedTensor(minitorch.ones(2, 3)), Tensor)  # outside func
    False
    """
    meta = type(Tensor)
    if not _calls_with_examples[0]:
        meta.__instancecheck__ = _example_check
    _calls_with_examples[0] += 1
    try:
        yield
    finally:
        _calls_with_examples[0] -= 1
        if not _calls_with_examples[0]:
            del meta.__instancecheck__


def batch_at_once() -> bool:
    """Whether ``func`` is running on the whole batch at once (vmap's batched call)."""
    return _calls_with_examples[0] > 0


def refuse_dynamic_shape(aten: str, *operands: Any) -> None:
    """torch's refusal, under vmap, of the op ``aten`` on a batched operand: the shape of its
    result depends on each example's values (``nonzero``, ``unique``), so no batch holds them.

    >>> refuse_dynamic_shape("aten::nonzero", minitorch.ones(2))  # nothing batched: no refusal
    """
    if any(isinstance(o, BatchedTensor) for o in operands):
        raise Refused("vmap: We do not support batching operators that can output dynamic "
                      f"shape. Attempted to vmap over {aten}. Please file an issue at "
                      "https://github.com/pytorch/pytorch/issues if you need this feature.")


def refuse_batched_mask(mask: Any) -> None:
    """torch's refusal of ``masked_select`` under vmap with a batched ``mask``."""
    if isinstance(mask, BatchedTensor):
        raise Refused("vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) "
                      "We cannot support this because for each batch this would return a "
                      "differently shaped Tensor. Please file an issue at "
                      "https://github.com/pytorch/pytorch/issues if you need this feature.")


def each_example(call: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """torch's fallback for an op with no batching rule: ``call`` on each example of its
    batched operands, the results stacked into a batch. ``func`` then goes on with the batch,
    so what it does next with it (``.item()``, ``if``) is refused as torch refuses it. What
    makes no batch (a result that is not tensors, examples' results of different shapes, a
    random draw, ``out=``, a batch of none) sends vmap to one call of ``func`` per example.

    >>> b = BatchedTensor(minitorch.tensor([[1., 2.], [3., 4.]]))
    >>> each_example(minitorch.flip, (b, (0,)), {}).value
    tensor([[2., 1.],
            [4., 3.]])
    """
    size = next(a for a in _operands(args, kwargs) if isinstance(a, BatchedTensor)).value.shape[0]
    if not size or kwargs.get("out") is not None:
        raise Unbatched("out" if size else "size")
    with _batched_function.looping():
        results = [call(*_at(args, i), **dict(zip(kwargs, _at(kwargs.values(), i))))
                   for i in range(size)]
    return _stacked(results)


def _operands(args: tuple, kwargs: dict) -> Iterator[Any]:
    for a in (*args, *kwargs.values()):
        yield from a if isinstance(a, (list, tuple)) else (a,)


def has_batched(args: tuple, kwargs: dict) -> bool:
    """Whether an op's arguments hold a batched tensor (alone, or in a list or tuple).

    >>> has_batched((minitorch.ones(2), [BatchedTensor(minitorch.ones(3, 2))]), {})
    True
    """
    return any(isinstance(a, BatchedTensor) for a in _operands(args, kwargs))


def _at(values: Any, i: int) -> list:
    """``values`` with each batched tensor (alone or in a list or tuple) as its example ``i``."""
    return [type(v)(_at(v, i)) if isinstance(v, (list, tuple)) and not hasattr(v, "_fields")
            else v.value.select(0, i) if isinstance(v, BatchedTensor) else v for v in values]


def _stacked(results: list) -> Any:
    """The examples' results as one batch: a tensor, or a tuple of them (named too)."""
    first = results[0]
    if isinstance(first, Tensor):
        return BatchedTensor(_stack(results))
    named = hasattr(first, "_make")
    if not isinstance(first, tuple) or (type(first) is not tuple and not named):
        raise Unbatched("result")
    parts = [BatchedTensor(_stack(list(p))) for p in zip(*results)]
    return first._make(parts) if named else tuple(parts)


def _stack(tensors: list) -> Tensor:
    first = tensors[0]
    if not all(isinstance(t, Tensor) and t.shape == first.shape and t.dtype == first.dtype
               for t in tensors):
        raise Unbatched("result")
    import minitorch

    return minitorch.stack(tensors)


def _shift(dim: int, rank: int) -> int:
    """The batch's dim for dim ``dim`` of an example of rank ``rank`` (negative dims count
    from the end alike). A 0-d example's dim, or one out of range, has no batch dim that
    means it (-1 would be the batch's own): no rule, the per-example call decides."""
    if not isinstance(dim, int) or not -rank <= dim < rank:
        raise Unbatched("dim")
    return dim + 1 if dim >= 0 else dim


def _padded(value: Tensor, rank: int) -> Tensor:
    """``value`` (batch first) with size-1 dims after the batch up to example rank ``rank``."""
    missing = rank - (value.dim() - 1)
    if missing <= 0:
        return value
    return value.reshape(value.shape[0], *([1] * missing), *value.shape[1:])


def _aligned(a: Any, b: Any) -> tuple[Any, Any]:
    """Both operands of an element-wise op, batched ones as their (padded) batch."""
    rank = max(x.dim() for x in (a, b) if isinstance(x, (Tensor, BatchedTensor)))
    return tuple(_padded(x.value, rank) if isinstance(x, BatchedTensor) else x for x in (a, b))


def _first_example(a: Any, b: Any) -> None:
    """torch's rule for ``+ - * /`` reads the first example of an operand whose examples are
    0-d when the other operand's are not (to promote types): a batch of none has none."""
    for x, y in ((a, b), (b, a)):
        if isinstance(x, BatchedTensor) and x.dim() == 0 and not x.value.shape[0] \
                and not (isinstance(y, BatchedTensor) and y.dim() == 0):
            raise Raised(IndexError("select(): index 0 out of range for tensor of size [0] at "
                                    "dimension 0"))


def _binary(name: str, reflected: bool = False) -> Callable[..., Any]:
    """The rule of an element-wise binary operator such as ``__mul__``."""
    def rule(self: BatchedTensor, other: Any) -> BatchedTensor:
        if not isinstance(other, (BatchedTensor, Tensor, int, float, bool)):
            raise Unbatched(name)
        if name in _PROMOTING:
            _first_example(self, other)
        a, b = _aligned(other, self) if reflected else _aligned(self, other)
        return BatchedTensor(op(a, b))
    op = getattr(operator, name.strip("_").removeprefix("r") if reflected else name.strip("_"))
    rule.__name__ = name
    return rule


def _unary(name: str) -> Callable[..., Any]:
    """The rule of a method that works on each value alone (``relu``, ``exp``, ``float``...)."""
    def rule(self: BatchedTensor) -> BatchedTensor:
        return BatchedTensor(getattr(self.value, name)())
    rule.__name__ = name
    return rule


_UNARY = ("relu", "sigmoid", "tanh", "exp", "log", "sin", "cos", "abs", "sqrt", "rsqrt",
          "neg", "square", "log1p", "expm1", "sign", "reciprocal", "float", "double", "long",
          "int", "half", "bool", "short", "char", "byte", "bfloat16",
          "detach", "clone", "contiguous", "__neg__", "__abs__", "floor", "ceil", "trunc",
          "frac", "fix", "erf", "erfc", "erfinv", "atan", "asin", "acos", "tan", "sinh", "cosh",
          "asinh", "acosh", "atanh", "exp2", "log2", "log10", "isnan", "isinf", "isfinite",
          "isposinf", "isneginf", "signbit", "logical_not", "deg2rad", "rad2deg", "positive",
          "lgamma", "digamma", "sinc", "i0", "sgn", "logit", "__invert__", "bitwise_not")
# element-wise methods whose other arguments are numbers (or flags, names): the batch as it is
_POINTWISE = ("clamp", "clip", "clamp_min", "clamp_max", "nan_to_num", "round", "fmod",
              "remainder", "float_power", "hardshrink", "xlogy", "true_divide", "div",
              "logical_and", "logical_or", "logical_xor", "to", "type", "copysign",
              "sub", "add", "mul", "__mod__", "__floordiv__")


def _numbers_only(name: str, args: tuple, kwargs: dict) -> None:
    """Unbatched where a rule's other arguments hold a tensor: it may be another example's."""
    if any(isinstance(a, (Tensor, BatchedTensor)) for a in (*args, *kwargs.values())):
        raise Unbatched(name)


def _pointwise(name: str) -> Callable[..., Any]:
    """The rule of an element-wise method given numbers only."""
    def rule(self: BatchedTensor, *args: Any, **kwargs: Any) -> BatchedTensor:
        _numbers_only(name, args, kwargs)
        return BatchedTensor(getattr(self.value, name)(*args, **kwargs))
    rule.__name__ = name
    return rule


def _along(name: str, every: bool) -> Callable[..., Any]:
    """The rule of a method along the example's ``dim`` (its first argument, or ``dim=``):
    that dim moved past the batch; no dim (where ``every``: over all of the example's dims)."""
    def rule(self: BatchedTensor, *args: Any, **kwargs: Any) -> BatchedTensor:
        _numbers_only(name, args, kwargs)
        args, dim = (args[1:], args[0]) if args else (args, kwargs.pop("dim", None))
        if isinstance(dim, bool) and not args and not kwargs:  # std's and var's unbiased
            dim, kwargs = None, {"unbiased": dim}
        if dim is None and name in ("argmax", "argmin") and not args and not kwargs:
            return self._whole(name, (), {})  # (the index in the flattened example)
        if isinstance(dim, bool) or (dim is None and not (every and self.dim())):
            raise Unbatched(name)  # (no dim: per example)
        dims = tuple(range(self.dim())) if dim is None else dim
        return BatchedTensor(getattr(self.value, name)(self._dims(dims), *args, **kwargs))
    rule.__name__ = name
    return rule


# methods along a dim: their rules (True: those that take no dim as every dim of the example)
_ALONG = {"std": True, "var": True, "logsumexp": False, "nansum": True, "nanmean": True,
          "count_nonzero": True, "cumsum": False, "cumprod": False, "logcumsumexp": False,
          "argmax": False, "argmin": False}
# methods with a refusal of their own under vmap, and the example's own metadata
_REFUSED = ("item", "tolist", "numpy", "nonzero", "unique", "unique_consecutive",
            "masked_select", "size", "dim", "numel")
# methods whose calls on each example would act on each (a graph, a hook): no fallback
_NO_FALLBACK = ("backward", "register_hook", "register_post_accumulate_grad_hook",
                "retain_grad", "data_ptr", "storage", "untyped_storage")
_PROMOTING = ("__add__", "__radd__", "__sub__", "__mul__", "__rmul__", "__truediv__",
              "__rtruediv__")  # not __rsub__: torch's rsub has a rule of its own
_BINARY = ("__add__", "__sub__", "__mul__", "__truediv__", "__pow__", "__lt__", "__le__",
           "__gt__", "__ge__", "__eq__", "__ne__")
_OPERATORS = (*_BINARY, "__getitem__", "__matmul__", "__mod__", "__floordiv__")


class Refused(RuntimeError):
    """What torch's vmap refuses outright (no per-example loop would be torch's answer)."""


class Raised(Exception):
    """An exception vmap passes on as it is, with no per-example retry: a Function's own vmap
    rule raised it (``error``)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


class BatchedTensor:
    """One example as ``func`` sees it inside vmap; ``value`` holds the batch (dim 0).

    >>> b = BatchedTensor(minitorch.ones(5, 3))
    >>> b.shape, b.sum().value.shape
    (torch.Size([3]), torch.Size([5]))
    """

    __slots__ = ("_source", "shared", "value")
    __hash__ = object.__hash__  # __eq__ is an element-wise rule
    vmap_example = True  # the argument parser takes it for a tensor (F.linear has a rule)

    def __init__(self, value: Tensor, shared: bool = False) -> None:
        self.value = value
        self._source: tuple[Tensor, int] | None = None
        self.shared = shared  # one tensor expanded to the batch: the same in every example

    @classmethod
    def at(cls, tensor: Tensor, dim: int) -> BatchedTensor:
        """``tensor`` batched along ``dim`` (moved first in ``value``)."""
        dim %= tensor.dim()
        order = [dim, *(d for d in range(tensor.dim()) if d != dim)]
        batched = cls(tensor if dim == 0 else tensor.permute(*order))
        batched._source = (tensor, dim)
        return batched

    @property
    def source(self) -> tuple[Tensor, int]:
        """The batch as a tensor and the dim it is batched along, as given to :meth:`at`
        (what a Function's own vmap rule receives), else ``value`` and 0."""
        return self._source or (self.value, 0)

    def __getattr__(self, name: str) -> Any:
        """A method of Tensor's with no rule here runs on each example (torch's fallback);
        anything else (an attribute, an in-place or private method) has no batch."""
        if name.startswith("_") or name.endswith("_") or name in _NO_FALLBACK or \
                not inspect.isfunction(getattr(Tensor, name, None)):
            raise Unbatched(name)
        method = getattr(Tensor, name)
        return lambda *args, **kwargs: each_example(method, (self, *args), kwargs)

    def __bool__(self) -> bool:
        _refuse_wrapped_scalar()
        raise Refused("vmap: It looks like you're attempting to use a Tensor in some "
                      "data-dependent control flow. We don't support that yet, please file an "
                      "issue at https://github.com/pytorch/pytorch/issues .")

    def item(self) -> Any:
        """Refused as torch: one number per example is no tensor to batch."""
        _refuse_wrapped_scalar()
        raise Refused("vmap: It looks like you're calling .item() on a Tensor. We don't "
                      "support vmap over calling .item() on a Tensor, please try to rewrite "
                      "what you're doing with other operations. If error is occurring "
                      "somewhere inside PyTorch internals, please file a bug report.")

    __float__ = __int__ = item

    @property
    def data(self) -> Any:
        """Refused as torch: a batched tensor's values are the batch's, not one example's
        (inside a grad level under the vmap, torch's wrapper has data: one per example)."""
        if innermost() != "vmap":
            raise Unbatched("data")
        raise Refused("accessing `data` under vmap transform is not allowed")

    def tolist(self) -> Any:
        """Refused as torch: a batched tensor has no storage of its own to read."""
        raise Refused("Cannot access data pointer of Tensor that doesn't have storage")

    numpy = tolist

    def nonzero(self, *args: Any, **kwargs: Any) -> Any:
        """Refused as torch: its result's shape would differ between examples."""
        refuse_dynamic_shape("aten::nonzero", self)

    def unique(self, *args: Any, **kwargs: Any) -> Any:
        """torch's ``unique``: refused as the function refuses a batched tensor."""
        import minitorch

        return minitorch.unique(self, *args, **kwargs)

    def unique_consecutive(self, *args: Any, **kwargs: Any) -> Any:
        """torch's ``unique_consecutive``: refused as the function refuses a batched tensor."""
        import minitorch

        return minitorch.unique_consecutive(self, *args, **kwargs)

    def masked_select(self, mask: Any) -> Any:
        """torch's ``masked_select``: refused for a batched mask, as the function refuses it."""
        import minitorch

        return minitorch.masked_select(self, mask)

    def __iter__(self) -> Any:
        raise Unbatched("__iter__")

    # the example's metadata
    @property
    def shape(self) -> Any:
        return self.value.shape[1:]

    def size(self, dim: int | None = None) -> Any:
        return self.shape if dim is None else self.shape[dim]

    def dim(self) -> int:
        return self.value.dim() - 1

    ndim = property(dim)

    def numel(self) -> int:
        return self.shape.numel()

    def __len__(self) -> int:
        return self.shape[0]

    @property
    def dtype(self) -> Any:
        return self.value.dtype

    @property
    def device(self) -> Any:
        return self.value.device

    @property
    def requires_grad(self) -> bool:
        return self.value.requires_grad

    # reductions and shapes: the example's dims moved past the batch
    def _dims(self, dim: Any) -> Any:
        if isinstance(dim, (tuple, list)):
            return tuple(_shift(d, self.dim()) for d in dim)
        return _shift(dim, self.dim())

    def sum(self, dim: Any = None, keepdim: bool = False) -> BatchedTensor:
        return self._reduce("sum", dim, keepdim)

    def mean(self, dim: Any = None, keepdim: bool = False) -> BatchedTensor:
        return self._reduce("mean", dim, keepdim)

    def amax(self, dim: Any = (), keepdim: bool = False) -> BatchedTensor:
        return self._reduce("amax", dim if dim != () else None, keepdim)

    def amin(self, dim: Any = (), keepdim: bool = False) -> BatchedTensor:
        return self._reduce("amin", dim if dim != () else None, keepdim)

    def max(self, *args: Any, **kwargs: Any) -> BatchedTensor:
        return self._whole("max", args, kwargs)

    def min(self, *args: Any, **kwargs: Any) -> BatchedTensor:
        return self._whole("min", args, kwargs)

    def prod(self, *args: Any, **kwargs: Any) -> BatchedTensor:
        return self._whole("prod", args, kwargs)

    def _whole(self, name: str, args: tuple, kwargs: dict) -> BatchedTensor:
        """``max()``, ``min()``, ``prod()`` or ``argmax()`` of each example's elements, as
        torch's rule: the op along the dim of the examples' flattened rows (a dim or another
        tensor: per example)."""
        if args or kwargs:
            raise Unbatched(name)
        rows = self.value.reshape(self.value.shape[0], self.numel())
        try:
            reduced = getattr(rows, name)(1)
        except IndexError as error:  # empty examples: the rule's refusal, not each example's
            raise Raised(error) from None
        return BatchedTensor(reduced.values if name in ("max", "min") else reduced)

    def _reduce(self, name: str, dim: Any, keepdim: bool) -> BatchedTensor:
        if self.dim() == 0:  # reduce a size-1 dim of each example's own: its value, its node
            if dim not in (None, 0, -1, (0,), (-1,)):
                raise Unbatched(name)
            return BatchedTensor(getattr(self.value.unsqueeze(-1), name)(-1))
        if dim is None:
            dim = tuple(range(self.dim()))
        return BatchedTensor(getattr(self.value, name)(self._dims(dim), keepdim=keepdim))

    def flip(self, *dims: Any) -> BatchedTensor:
        """torch's rule: the example's dims moved past the batch. A 0-d example's dim (0 or
        -1, as a 0-d tensor takes them) becomes the batch's dim 1, which its rule then finds
        out of range."""
        dims = tuple(dims[0]) if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims
        if not dims or not all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
            raise Unbatched("flip")
        if self.dim() == 0:
            if not all(d in (0, -1) for d in dims):
                raise Unbatched("flip")  # (the example's own refusal)
            raise Raised(_batched_function.zero_dim_flip_error())
        try:
            return BatchedTensor(self.value.flip(self._dims(dims)))
        except RuntimeError as error:  # (its refusal names the batch's dims, as torch's)
            raise Raised(error) from None

    def softmax(self, dim: int, dtype: Any = None) -> BatchedTensor:
        return BatchedTensor(self.value.softmax(_shift(dim, self.dim()), dtype=dtype))

    def log_softmax(self, dim: int, dtype: Any = None) -> BatchedTensor:
        return BatchedTensor(self.value.log_softmax(_shift(dim, self.dim()), dtype=dtype))

    def reshape(self, *shape: Any) -> BatchedTensor:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return BatchedTensor(self.value.reshape(self.value.shape[0], *shape))

    view = reshape

    def unsqueeze(self, dim: int) -> BatchedTensor:
        return BatchedTensor(self.value.unsqueeze(_shift(dim, self.dim() + 1)))

    def squeeze(self, dim: int) -> BatchedTensor:
        return BatchedTensor(self.value.squeeze(_shift(dim, self.dim())))

    def transpose(self, dim0: int, dim1: int) -> BatchedTensor:
        rank = self.dim()
        return BatchedTensor(self.value.transpose(_shift(dim0, rank), _shift(dim1, rank)))

    def t(self) -> BatchedTensor:
        if self.dim() < 2:
            return self
        return self.transpose(0, 1)

    @property
    def T(self) -> BatchedTensor:
        if self.dim() != 2:
            raise Unbatched("T")
        return self.t()

    def __getitem__(self, index: Any) -> BatchedTensor:
        index = index if isinstance(index, tuple) else (index,)
        if any(isinstance(i, BatchedTensor) and i.dtype.name == "bool" for i in index):
            raise Refused("vmap: We do not support batching operators that can support "
                          "dynamic shape. Attempting to batch over indexing with a boolean "
                          "mask.")
        if not all(i is None or i is Ellipsis or isinstance(i, (int, slice)) for i in index):
            raise Unbatched("__getitem__")  # tensor and bool indices move dims
        if sum(i is not None and i is not Ellipsis for i in index) > self.dim():
            raise Unbatched("__getitem__")  # the example's refusal names its own dims
        return BatchedTensor(self.value[(slice(None), *index)])

    # factories: torch's new_* of a batched tensor is batched too
    def new_ones(self, *size: Any, **kwargs: Any) -> BatchedTensor:
        return self._new("new_ones", size, kwargs)

    def new_zeros(self, *size: Any, **kwargs: Any) -> BatchedTensor:
        return self._new("new_zeros", size, kwargs)

    def new_tensor(self, data: Any, *args: Any, **kwargs: Any) -> Tensor:
        """torch's ``new_tensor`` copies ``data``: no batch (only its dtype and device)."""
        return self.value.new_tensor(data, *args, **kwargs)

    def _new(self, name: str, size: tuple, kwargs: dict) -> BatchedTensor:
        if len(size) == 1 and isinstance(size[0], (tuple, list)):
            size = tuple(size[0])
        if not all(isinstance(n, int) for n in size) or "size" in kwargs:
            raise Unbatched(name)
        return BatchedTensor(getattr(self.value, name)((self.value.shape[0], *size), **kwargs))

    # products
    def dot(self, other: Any) -> BatchedTensor:
        """torch's rule: a batch of vectors times a vector is ``mv``, two batches a ``bmm``.
        A vector ``grad`` expanded to the batch (:attr:`shared`) is torch's unbatched vector
        there: the products summed, whose backward is the per-example dot's (``grad * self``,
        torch's ``MulBackward0`` at the end of the gradient)."""
        if self.dim() != 1 or not isinstance(other, (Tensor, BatchedTensor)) or other.dim() != 1:
            raise Unbatched("dot")
        if isinstance(other, Tensor):
            return BatchedTensor(self.value.mv(other))
        if self.shared or other.shared:
            return BatchedTensor((self.value * other.value).sum(-1))
        product = self.value.unsqueeze(-2) @ other.value.unsqueeze(-1)
        return BatchedTensor(product.squeeze(-1).squeeze(-1))

    def matmul(self, other: Any) -> BatchedTensor:
        """A batch times an (unbatched) matrix: the batch's rows go through one product. An
        operand with more dims than the example would broadcast against the batch: no rule."""
        if isinstance(other, (Tensor, BatchedTensor)):
            check_inner_sizes(self, other)
        if isinstance(other, Tensor) and 2 <= other.dim() <= max(self.dim(), 2) \
                and self.dim() >= 1:
            return BatchedTensor(self.value @ other)
        if self.dim() == 1 and isinstance(other, (Tensor, BatchedTensor)) and other.dim() == 1:
            return self.dot(other)
        raise Unbatched("matmul")

    __matmul__ = matmul

    def __rmatmul__(self, other: Any) -> BatchedTensor:
        """An (unbatched) matrix times a batch of vectors: one product with the batch as its
        columns, moved back first as torch's rule moves it (its ``PermuteBackward0``, and the
        gradient's through the permuted columns)."""
        if isinstance(other, Tensor):
            check_inner_sizes(other, self)
        if not isinstance(other, Tensor) or other.dim() != 2 or self.dim() != 1:
            raise Unbatched("__rmatmul__")
        return BatchedTensor((other @ self.value.permute(1, 0)).permute(1, 0))

    def pow(self, exponent: Any) -> BatchedTensor:
        return self.__pow__(exponent)

    def mm(self, other: Any) -> BatchedTensor:
        if isinstance(other, (Tensor, BatchedTensor)):
            check_inner_sizes(self, other)
        if self.dim() != 2 or not isinstance(other, Tensor) or other.dim() != 2:
            raise Unbatched("mm")
        return self.matmul(other)

    def mv(self, other: Any) -> BatchedTensor:
        if self.dim() != 2 or not isinstance(other, Tensor) or other.dim() != 1:
            raise Unbatched("mv")
        return BatchedTensor((self.value @ other.unsqueeze(-1)).squeeze(-1))




def _or_each_example(name: str, rule: Callable[..., Any]) -> Callable[..., Any]:
    """``rule``, but where it has no rule for the arguments given (a dim of a 0-d example, a
    tensor among a rule's numbers...): torch's fallback, the method on each example."""
    def ruled(self: BatchedTensor, *args: Any, **kwargs: Any) -> Any:
        try:
            return rule(self, *args, **kwargs)
        except Unbatched:  # (Tensor's methods are looked up now: they join it after us)
            return each_example(getattr(Tensor, name), (self, *args), kwargs)
    ruled.__name__, ruled.__doc__ = rule.__name__, rule.__doc__
    return ruled


for _name in _UNARY:
    setattr(BatchedTensor, _name, _unary(_name))
for _name in _POINTWISE:
    setattr(BatchedTensor, _name, _pointwise(_name))
for _name, _every in _ALONG.items():
    setattr(BatchedTensor, _name, _along(_name, _every))
for _name in _BINARY:
    setattr(BatchedTensor, _name, _binary(_name))
    if _name not in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"):
        _reflected = "__r" + _name[2:]
        setattr(BatchedTensor, _reflected, _binary(_reflected, reflected=True))
for _name, _rule in list(vars(BatchedTensor).items()):
    if inspect.isfunction(_rule) and _name not in _REFUSED and (
            not _name.startswith("_") or _name in _OPERATORS or _name.startswith("__r")):
        setattr(BatchedTensor, _name, _or_each_example(_name, _rule))


# ---------------------------------------------------------------- in-place ops on the unbatched
# An in-place op on a tensor vmap does not batch, given a batched value, would write a whole
# batch into one example's memory: torch refuses it, in words that depend on the op's rule.

# ops whose rule runs the op on the batch as it is: the write's broadcast check refuses it
_BROADCASTING = frozenset({
    "add_", "atan2_", "arctan2_", "bitwise_and_", "bitwise_or_", "bitwise_xor_",
    "bitwise_left_shift_", "bitwise_right_shift_", "copysign_", "gcd_", "lcm_"})
# ops of torch's in-place arithmetic rule
_ARITHMETIC = frozenset({
    "sub_", "mul_", "multiply_", "div_", "divide_", "true_divide_", "copy_", "clamp_min_",
    "clamp_max_", "logical_and_", "logical_or_", "logical_xor_"})
# ops with a rule of their own, named bare
_OWN_RULE = frozenset({"fill_", "index_add_", "index_fill_", "scatter_add_"})
_RANDOM = frozenset({"bernoulli_", "normal_", "uniform_", "random_", "exponential_",
                     "cauchy_", "geometric_", "log_normal_"})


def _refuse_wrapped_scalar() -> None:
    """A batched value read as a number inside a grad or jvp level under vmap: torch's
    wrapper sees neither ``item()`` nor ``bool`` for what it is and names all three causes."""
    if innermost() not in (None, "vmap"):
        raise Refused(
            "vmap: It looks like you're either (1) calling .item() on a Tensor or (2) "
            "attempting to use a Tensor in some data-dependent control flow or (3) encountering "
            "this error in PyTorch internals. For (1): we don't support vmap over calling "
            ".item() on a Tensor, please try to rewrite what you're doing with other "
            "operations. For (2): we don't support data-dependent control flow in vmap yet, "
            "please file an issue at https://github.com/pytorch/pytorch/issues . For (3): "
            "please file an issue.")


def check_running_stats(input: Any, running_mean: Any, running_var: Any) -> None:
    """torch's refusal of a training batch norm (or instance norm) of a batched input whose
    running statistics, updated in place, are not batched: one buffer cannot hold each
    example's update.

    >>> check_running_stats(BatchedTensor(minitorch.ones(2, 4, 3)), minitorch.zeros(3), None)
    Traceback (most recent call last):
    minitorch._batched.Refused: Batch norm got a batched tensor as input while the ...
    """
    stats = (running_mean, running_var)
    if isinstance(input, BatchedTensor) and any(
            s is not None and not isinstance(s, BatchedTensor) for s in stats):
        raise Refused(
            "Batch norm got a batched tensor as input while the running_mean or running_var, "
            "which will be updated in place, were not batched.\nIf you are using a module "
            "and do not need eval mode, please set `track_running_stats` to be False.If you "
            "are using a prebuilt module and do not need eval mode, please see the functorch "
            "website for resources on how to patch your module to work with vmap")


def check_inner_sizes(left: Any, right: Any) -> None:
    """torch's refusal of a matrix product of an example by a matrix whose inner sizes
    differ, in its batch rule's words: a batched right operand goes through ``bmm`` (a
    two-dim left expanded to the batch), a batched left one alone (of any dims) through one
    ``mm`` of all the batch's rows."""
    if right.dim() != 2 or not left.dim() or left.shape[-1] == right.shape[0]:
        return
    if isinstance(right, BatchedTensor) and left.dim() == 2:
        size = right.value.shape[0]
        raise Refused(f"Expected size for first two dimensions of batch2 tensor to be: "
                      f"[{size}, {left.shape[1]}] but got: [{size}, {right.shape[0]}].")
    if isinstance(left, BatchedTensor) and not isinstance(right, BatchedTensor):
        rows = left.value.shape[0] * math.prod(left.shape[:-1])
        raise Refused(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{left.shape[-1]} "
                      f"and {right.shape[0]}x{right.shape[1]})")


def check_folded_dtypes(left: Any, right: Any) -> None:
    """torch's refusal of a batched example times an unbatched matrix of another dtype: the
    batch rule's one ``mm`` of the folded rows (F.linear's ``addmm`` words it otherwise)."""
    if isinstance(left, BatchedTensor) and not isinstance(right, BatchedTensor) and \
            right.dim() == 2 and left.dim() and left.dtype is not right.dtype:
        raise Refused(f"expected m1 and m2 to have the same dtype, but got: "
                      f"{c_name(left.dtype)} != {c_name(right.dtype)}")


def linear(input: Any, weight: Any, bias: Any) -> BatchedTensor:
    """``F.linear`` with a batched weight or bias (an ensemble's, through functional_call):
    the product of each example with its own weight, then its own bias added (torch's
    batched linear ends in that add: ``AddBackward0``) for an example of one or two dims.
    Anything else has no rule here."""
    if isinstance(weight, (Tensor, BatchedTensor)) and weight.dim() == 2 \
            and isinstance(input, (Tensor, BatchedTensor)):
        check_inner_sizes(input, weight.t())
    if bias is None or not (isinstance(weight, BatchedTensor) or isinstance(bias, BatchedTensor)) \
            or weight.dim() != 2 or not 1 <= input.dim() <= 2 or bias.dim() != 1:
        raise Unbatched("linear")
    x = input.value if isinstance(input, BatchedTensor) else input
    w = weight.value if isinstance(weight, BatchedTensor) else weight
    rows = x.reshape(*x.shape[:1], -1, x.shape[-1]) if isinstance(input, BatchedTensor) \
        else x.reshape(-1, x.shape[-1])
    product = rows @ w.transpose(-1, -2)
    size = max(b.value.shape[0] for b in (input, weight, bias) if isinstance(b, BatchedTensor))
    product = product.expand(size, *product.shape[-2:]).reshape(size, *input.shape[:-1], -1)
    b = bias.value.reshape(size, *[1] * (input.dim() - 1), -1) \
        if isinstance(bias, BatchedTensor) else bias
    return BatchedTensor(product + b)


def draws(name: str) -> bool:
    """Whether the in-place ``name`` draws random numbers (vmap's randomness rule's).

    >>> draws("normal_"), draws("add_")
    (True, False)
    """
    return name in _RANDOM


def refused_by_kernel(name: str) -> bool:
    """Whether vmap's refusal of the in-place ``name`` writing a batched value into an
    unbatched tensor comes from the kernel below its batch rule (a broadcast's), after the
    levels below have had their say.

    >>> refused_by_kernel("add_"), refused_by_kernel("copy_")
    (True, False)
    """
    return name in _BROADCASTING


def refuse_inplace(name: str, self: Any, args: tuple, kwargs: dict) -> None:
    """torch's refusal of the in-place method ``name`` on ``self``, a tensor vmap does not
    batch, given a batched argument; nothing when there is none.

    >>> y = minitorch.zeros(3)
    >>> refuse_inplace("add_", y, (BatchedTensor(minitorch.ones(2, 3)),), {})
    Traceback (most recent call last):
    minitorch._batched.Refused: output with shape [3] doesn't match the broadcast shape [2, 3]
    """
    batched = [a for a in (*args, *kwargs.values()) if isinstance(a, BatchedTensor)]
    if not batched or isinstance(self, BatchedTensor) or name in _RANDOM:
        return
    if name in _BROADCASTING:
        shape = [batched[0].value.shape[0],
                 *broadcast_shapes(self.shape, *(b.shape for b in batched))]
        raise Refused(f"output with shape {list(self.shape)} doesn't match the broadcast "
                      f"shape {shape}")
    if name in _ARITHMETIC or (name == "masked_fill_" and args and
                               isinstance(args[0], BatchedTensor)):  # (a batched mask)
        op, where = "inplace arithmetic", "in a vmap"
    elif name in _OWN_RULE:
        op, where = name, "in a vmap"
    else:
        op, where = f"aten::{name}", f"at level {vmap_level()}"
    raise Refused(f"vmap: {op}(self, *extra_args) is not possible because there exists a "
                  "Tensor `other` in extra_args that has more elements than `self`. This "
                  f"happened due to `other` being vmapped over but `self` not being vmapped "
                  f"over {where}. Please try to use out-of-place operators instead of {op}. "
                  "If said operator is being called inside the PyTorch framework, please "
                  "file a bug report instead.")
