"""torch's other names for ops minitorch has (``divide``, ``concat``, ``sgn``, ``rsub``,
``absolute``, ``negative``, ``multiply``, ``subtract``, ``fix``, ...)
and the Tensor attributes a dense, real, CPU tensor answers plainly (``layout``,
``is_sparse``, ``output_nr``, ``resolve_conj``, ``H``, ...), plus the element-wise Python
callbacks ``map_`` and ``apply_``.

>>> import minitorch
>>> x = minitorch.tensor([[1., 2.]])
>>> minitorch.divide(x, 2), x.layout, x.H.shape
(tensor([[0.5000, 1.0000]]), torch.strided, torch.Size([2, 1]))
"""

from __future__ import annotations

import itertools
import operator
import sys
import warnings
from collections.abc import Callable
from typing import Any

from . import _args, _call_form, _layout, _storage, backend
from . import _dtype as D
from ._alpha_first import alpha_by_position
from ._layout import strided
from ._tensor import Tensor
from ._warn_once import warn_once
from .ops import pointwise, scan, shape, unary_more
from .ops._base import example, public_unary


@_call_form.alias_of("div")
@_call_form.overloads(*pointwise.DIV_SIGNATURES[:2], "Tensor input, Number other",
                      *pointwise.DIV_SIGNATURES[2:])
def divide(input: Any, other: Any, *, rounding_mode: Any = _args.OMITTED) -> Tensor:
    """torch's other name for :func:`div`.

    >>> minitorch.divide(minitorch.tensor([3.]), 2)
    tensor([1.5000])
    """
    return pointwise.div(input, other, rounding_mode=rounding_mode)


@_call_form.alias_of("div")
@_call_form.overloads(pointwise.DIV_SIGNATURES[0], "Tensor input, Number other")
def true_divide(input: Any, other: Any) -> Tensor:
    """:func:`div` without rounding.

    >>> minitorch.true_divide(minitorch.tensor([3]), 2)
    tensor([1.5000])
    """
    return pointwise.div(input, other)


@_call_form.alias_of("mul")
@_call_form.overloads("Tensor input, Tensor other, *, Tensor out = None",
                      "Tensor input, Number other")
def multiply(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
    """torch's other name for :func:`mul`.

    >>> minitorch.multiply(minitorch.tensor([1., 2.]), 3)
    tensor([3., 6.])
    """
    return pointwise.mul(input, other, out=out)


@_call_form.alias_of("sub")
@_call_form.overloads("Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None",
                      "Tensor input, Number other, Number alpha = 1")
@alpha_by_position
def subtract(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    """torch's other name for :func:`sub`: ``input - alpha * other``.

    >>> minitorch.subtract(minitorch.tensor([5., 6.]), 1, alpha=2)
    tensor([3., 4.])
    """
    return pointwise.sub(input, other, alpha=alpha)


absolute = public_unary(pointwise.Abs, "absolute", example(
    "torch's other name for :func:`abs`.", "minitorch.absolute(minitorch.tensor([-1.5, 2.]))",
    "tensor([1.5000, 2.0000])"))
negative = public_unary(pointwise.Neg, "negative", example(
    "torch's other name for :func:`neg`.", "minitorch.negative(minitorch.tensor([1, -2]))",
    "tensor([-1,  2])"))
fix = public_unary(unary_more.Trunc, "fix", example(
    "torch's other name for :func:`trunc`.", "minitorch.fix(minitorch.tensor([-1.5, 2.7]))",
    "tensor([-1.,  2.])"))


@_call_form.alias_of("clamp")
@_call_form.overloads(*pointwise.CLAMP_SIGNATURES["clamp"])
def clip(input: Any, min: Any = None, max: Any = None) -> Tensor:
    """torch's other name for :func:`clamp`.

    >>> minitorch.clip(minitorch.tensor([-1., 2.]), 0, 1)
    tensor([0., 1.])
    """
    return pointwise.clamp(input, min, max)


@_call_form.alias_of("cat")
def concat(tensors: Any, dim: int = 0) -> Tensor:
    """torch's other name for :func:`cat`.

    >>> minitorch.concat([minitorch.ones(1), minitorch.zeros(1)])
    tensor([1., 0.])
    """
    return shape.cat(tensors, dim)


concatenate = concat


_RSUB_SIGNATURES = ("Tensor input, Tensor other, *, Number alpha = 1",
                    "Tensor input, Number other, Number alpha = 1")


@_call_form.overloads(*_RSUB_SIGNATURES)
@alpha_by_position
def rsub(input: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    """``other - alpha * input``: :func:`sub` with its operands swapped.

    >>> minitorch.rsub(minitorch.tensor([1., 2.]), 5)
    tensor([4., 3.])
    """
    _args.tensor_args("rsub", (input, "input", 1))
    if not isinstance(other, Tensor):
        _args.tensor_or_number("rsub", other, "other", 2)
    if not (_args.is_real(alpha) or isinstance(alpha, complex)):
        raise TypeError(_call_form.combination_message("rsub", (input, other), {"alpha": alpha},
                                                       _RSUB_SIGNATURES))
    if not pointwise.is_unit(alpha):
        alpha = pointwise._alpha("sub", other, input, alpha)  # sub's checks, operands swapped
    if isinstance(other, Tensor):
        return pointwise.RsubTensors.apply(input, other, alpha=alpha)
    if pointwise.is_unit(alpha):
        return pointwise.rsub_number(other, input)
    # scaled in the result's dtype: an int tensor times alpha must not wrap before a float other
    return pointwise.rsub_number(other, pointwise._scaled(other, input, alpha))


def positive(input: Tensor) -> Tensor:
    """``+input``: ``input`` itself (refused on bool, as torch).

    >>> x = minitorch.ones(2); minitorch.positive(x) is x
    True
    """
    _args.tensor_args("positive", (input, "input", 1))
    if input.dtype.name == "bool":
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def sgn(input: Tensor) -> Tensor:
    """The sign of each element (its complex generalisation; node ``SgnBackward0``).

    >>> minitorch.sgn(minitorch.tensor([-2., 0., 3.]))
    tensor([-1.,  0.,  1.])
    """
    _args.tensor_args("sgn", (input, "input", 1))
    return pointwise.Sgn.apply(input)


def is_floating_point(input: Tensor) -> bool:
    """True if ``input`` has a floating dtype.

    >>> minitorch.is_floating_point(minitorch.tensor([1]))
    False
    """
    _args.tensor_args("is_floating_point", (input, "input", 1))
    return input.is_floating_point()


def typename(obj: Any, /) -> str:
    """The torch type name of a tensor (``torch.FloatTensor``), else the object's class, under
    torch's path (one torch has at its top, as ``torch.dtype``, by its name there).

    >>> minitorch.typename(minitorch.ones(1)), minitorch.typename(1.5)
    ('torch.FloatTensor', 'float')
    >>> minitorch.typename(minitorch.float32), minitorch.typename(minitorch.no_grad())
    ('torch.dtype', 'torch.autograd.grad_mode.no_grad')
    """
    if isinstance(obj, Tensor):
        return obj.type()
    from .nn.module import typename as class_name  # nn's classes under torch's paths
    name = class_name(obj)
    cls = obj if isinstance(obj, type) else type(obj)
    package, _, rest = name.partition(".")
    if package != __package__:
        return name
    if getattr(sys.modules[__package__], cls.__name__, None) is cls and (
            "._" in cls.__module__ or rest.startswith("backend.")):  # (in no module torch
        return f"torch.{cls.__name__}"  # has: torch's own, as torch.dtype)
    return f"torch.{rest}"


def _where(self: Tensor, condition: Tensor, other: Any) -> Tensor:
    """``where(condition, self, other)`` (torch's docs write ``y``; its keyword is ``other``).

    >>> minitorch.tensor([1., 2.]).where(minitorch.tensor([True, False]), 0.)
    tensor([1., 0.])
    """
    return pointwise.where(condition, self, other)


def _reversed(self: Tensor) -> Tensor:
    """``reversed(x)``: ``x`` flipped along its first dim (a 0-d tensor unchanged)."""
    return self if self.dim() == 0 else scan.flip(self, 0)


def _conjugate_transpose(self: Tensor) -> Tensor:
    """``x.H``: the transpose of a matrix (real tensors have nothing to conjugate); a 0-D
    tensor itself, as torch's, which warns once."""
    if self.dim() == 0:
        warn_once("Tensor.H is deprecated on 0-D tensors. Consider using x.conj().")
        return self
    if self.dim() != 2:
        hint = " For batches of matrices, consider using tensor.mH" if self.dim() > 2 else ""
        raise RuntimeError("tensor.H is only supported on matrices (2-D tensors). Got "
                           f"{self.dim()}-D tensor.{hint}")
    return self.transpose(-2, -1)  # (torch's node shows these dims)


def _batched_conjugate_transpose(self: Tensor, called: str = "mH") -> Tensor:
    """``x.mH``: ``x.mT`` (real tensors have nothing to conjugate), with its own words (those
    of ``adjoint()`` where ``called`` so)."""
    if self.dim() == 0:
        warn_once(f"{'Tensor.mH' if called == 'mH' else called} is deprecated on 0-D tensors. "
                  "Consider using x.conj().")
        return self
    if self.dim() < 2:
        raise RuntimeError(f"tensor.{called} is only supported on matrices or batches of "
                           f"matrices. Got {self.dim()}-D tensor.")
    return self.transpose(-2, -1)


def adjoint(input: Tensor) -> Tensor:
    """The conjugate transpose of the last two dims: their transpose, for a real tensor.

    >>> minitorch.adjoint(minitorch.ones(2, 3)).shape
    torch.Size([3, 2])
    """
    _args.tensor_args("adjoint", (input, "input", 1))
    return _batched_conjugate_transpose(input, "adjoint()")


def _given_back(name: str, what: str) -> Callable[[Tensor], Tensor]:
    """torch's function ``name`` of a tensor that gives a real tensor back itself (``what``
    it computes: a conjugate, a bit resolved), its input's type checked as torch's parser."""
    def fn(input: Tensor) -> Tensor:
        _args.tensor_args(name, (input, "input", 1))
        return input

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"{what}: ``input`` itself, for a real tensor.\n\n"
                  f"    >>> x = minitorch.ones(2); minitorch.{name}(x) is x\n    True\n    ")
    return fn


conj = _given_back("conj", "The complex conjugate")
conj_physical = _given_back("conj_physical", "The complex conjugate, computed")
resolve_conj = _given_back("resolve_conj", "``input`` with its conjugate bit resolved")
resolve_neg = _given_back("resolve_neg", "``input`` with its negative bit resolved")


def conj_physical_(input: Tensor) -> Tensor:
    """The complex conjugate, in place: a real tensor's values kept, but written as torch's
    kernel writes them (a new version, ``ConjPhysicalBackward1``, autograd's in-place checks).

    >>> x = minitorch.ones(2); minitorch.conj_physical_(x) is x, x._version
    (True, 1)
    """
    from .ops.inplace import ConjPhysical_

    _args.tensor_args("conj_physical_", (input, "input", 1))
    return input._inplace(ConjPhysical_.apply)


def is_conj(input: Tensor) -> bool:
    """Whether ``input``'s conjugate bit is set: never, for a real tensor.

    >>> minitorch.is_conj(minitorch.ones(2))
    False
    """
    _args.tensor_args("is_conj", (input, "input", 1))
    return False


def is_neg(input: Tensor) -> bool:
    """Whether ``input``'s negative bit is set: never, in minitorch.

    >>> minitorch.is_neg(minitorch.ones(2))
    False
    """
    _args.tensor_args("is_neg", (input, "input", 1))
    return False


def _dim_order(self: Tensor, *, ambiguity_check: Any = False) -> tuple:
    """The dims from the outermost to the innermost in memory, as torch orders them (by
    stride, ties by size); with ``ambiguity_check`` refusing a tensor whose order is not
    unique (a size-one dim, equal strides) unless it is contiguous in exactly one of the
    memory formats listed."""
    if not isinstance(ambiguity_check, bool) and (
            not isinstance(ambiguity_check, list)
            or not all(isinstance(f, _layout.memory_format) for f in ambiguity_check)):
        raise TypeError("The ambiguity_check argument must be a bool or a list of memory "
                        "formats.")
    strides, shape = self.stride(), tuple(self.shape)
    formats = ambiguity_check if isinstance(ambiguity_check, list) else []
    if (ambiguity_check is not False
            and (1 in shape or any(a == b for a, b in itertools.pairwise(strides)))
            and sum(self.is_contiguous(memory_format=f) for f in formats) != 1):
        raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact "
                           "one of the given memory formats.")
    order, ambiguous = _physical_order(self, bool(ambiguity_check))
    if ambiguous:
        raise RuntimeError("The tensor does not have unique dim order.")
    return tuple(order)


def _physical_order(t: Tensor, check: bool) -> tuple[list, bool]:
    """torch's order of ``t``'s dims from outermost to innermost in memory (an insertion sort
    by stride, zero strides compared with nothing), and whether some pair stayed unordered."""
    ndim, strides, shape = t.dim(), t.stride(), tuple(t.shape)
    if ndim < 2:
        return list(range(ndim)), False
    plain, last = t.is_contiguous(), t.is_contiguous(memory_format=_layout.channels_last)
    if plain != last:  # (a tensor both ways is sorted, as torch's)
        return (list(range(ndim)) if plain else [0, *range(2, ndim), 1]), False

    def ge(a: int, b: int) -> bool:
        return b == 0 or (a != 0 and (a >= b or a % b == 0))

    def swap(a: int, b: int) -> int:
        if strides[a] == 0 or strides[b] == 0:
            return 0
        if strides[a] == strides[b]:
            return 0 if ge(shape[b], shape[a]) else 1
        return -1 if ge(strides[b], strides[a]) else 1

    perm = backend.swap_sorted(ndim, swap)
    ambiguous = check and any(swap(perm[i], perm[i + 1]) != -1 for i in range(ndim - 1))
    return list(reversed(perm)), ambiguous


_NOT_BUILT = {  # how torch's CPU build refuses the accelerators minitorch has no backend for
    "xpu": AssertionError("Torch not compiled with XPU enabled"),
    "ipu": RuntimeError("PyTorch is not linked with support for ipu devices"),
    "mtia": AssertionError("Torch not compiled with MTIA enabled. Ensure you have `import "
                           "mtia.host_runtime.torch_mtia.dynamic_library` in your python src "
                           "file and include `//mtia/host_runtime/torch_mtia:torch_mtia` as "
                           "your target dependency!")}


def _not_built(kind: str) -> Callable[..., Tensor]:
    """``Tensor.<kind>()``: its device checked as torch's, then torch's refusal."""
    def move(self: Tensor, device: Any = None, non_blocking: bool = False,
             memory_format: Any = None) -> Tensor:
        from ._tensor import accelerator_target

        accelerator_target(kind, device, non_blocking, memory_format)
        raise type(_NOT_BUILT[kind])(*_NOT_BUILT[kind].args)

    move.__name__ = kind
    move.__doc__ = (f"torch's move to an {kind.upper()} device, which minitorch has not: "
                    "refused as torch's CPU build refuses it.")
    return move


# the parts of a sparse tensor, each with the layout whose tensors have it
SPARSE_PARTS = {"indices": "sparse coordinate tensor", "values": "sparse tensor",
                "crow_indices": "sparse row compressed tensor",
                "col_indices": "sparse row compressed tensor",
                "ccol_indices": "sparse column compressed tensor",
                "row_indices": "sparse column compressed tensor"}


def sparse_part(name: str) -> Callable[[Tensor], Tensor]:
    """``Tensor.<name>()`` of a sparse layout's part: refused for minitorch's only layout,
    strided, as torch refuses it for a strided tensor.

    >>> sparse_part("values")(minitorch.ones(2))
    Traceback (most recent call last):
    RuntimeError: values expected sparse tensor layout but got Strided
    """
    def part(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        _args.no_arguments(f"TensorBase.{name}", args, kwargs)
        raise RuntimeError(f"{name} expected {SPARSE_PARTS[name]} layout but got Strided")

    part.__name__ = part.__qualname__ = name
    return part


def _pin_memory(self: Tensor, device: Any = None) -> Tensor:
    """torch's refusal without an accelerator: a named device's type first (deprecated)."""
    kind = _deprecated_device("pin_memory", device)
    if kind is not None:  # torch's pin_memory asks is_pinned(device) first, which warns too
        _deprecated_device("is_pinned", device)
    if kind == "cuda":
        backend.cuda_library("initialize CUDA")
    elif kind is not None:
        raise RuntimeError(f"{kind.upper()} device type not an accelerator.")
    raise RuntimeError("Cannot access accelerator device when none is available.")


def _is_pinned(self: Tensor, device: Any = None) -> bool:
    """False: no memory is pinned without an accelerator."""
    _deprecated_device("is_pinned", device)
    return False


def _deprecated_device(method: str, device: Any) -> str | None:
    """The type of the device ``method`` was given (None: none), as torch reads its
    deprecated ``device``: an index needs an accelerator, anything else must be a device or
    a valid name; only a device read warns."""
    if device is None:
        return None
    index = None if isinstance(device, bool) else _args.as_int(device)
    if index is not None:
        if index < 0:
            raise RuntimeError("Device index must not be negative")
        raise RuntimeError("Cannot access accelerator device when none is available.")
    if not isinstance(device, (str, backend.device)):
        raise TypeError(f"{method}(): argument 'device' (position 1) must be torch.device, not "
                        f"{_args.type_name(device)}")
    kind = backend.device(device).type
    warnings.warn(f"The argument 'device' of Tensor.{method}() is deprecated. Please do not "
                  "pass this argument.", DeprecationWarning, stacklevel=3)
    return kind


def _unpacked(value: Any, dt: Any) -> Any:
    """One result of ``apply_``/``map_`` as torch writes it into dtype ``dt``: a float read
    as a double (unchecked), an int as a C long long, then converted with its overflow check
    (an unsigned type wraps what is within minus its maximum)."""
    if dt.is_floating_point:
        if not isinstance(value, (int, float)):
            raise TypeError(f"must be real number, not {_args.type_name(value)}")
        return float(value)
    if dt.name == "bool":
        return bool(value if isinstance(value, float) else operator.index(value))
    n = value if isinstance(value, float) else operator.index(value)
    if isinstance(n, int) and not _args.INT64_MIN <= n <= _args.INT64_MAX:
        raise ValueError("Overflow when unpacking long long")
    if D.overflows(n, dt):
        raise RuntimeError(f"value cannot be converted to type {dt.name} without overflow")
    return D.wrapped(int(n), dt)


def _elementwise_(name: str, self: Tensor, fn: Callable, *others: Tensor) -> Tensor:
    """``self[i] = fn(self[i], *others[i])`` for every element, in Python, as torch's CPU
    ``map_``/``apply_`` (which refuse tensors that require grad)."""
    if self.requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                           f"var.detach().{name}() instead.")
    xp, data = self._xp, self._data
    values = [xp.broadcast_to(o._data, data.shape) for o in others]
    flat = [_unpacked(fn(*items), self.dtype) for items in zip(
        data.reshape(-1).tolist(), *(v.reshape(-1).tolist() for v in values))]
    if flat:
        from ._creation import tensor  # (a float past float16's range is inf, silently)

        self.copy_(tensor(flat, dtype=self.dtype, device=self.device).reshape(data.shape))
    return self


def _map_(self: Tensor, other: Tensor, callable: Callable) -> Tensor:
    """``self[i] = callable(self[i], tensor[i])`` (``tensor`` broadcast to ``self``).

    >>> minitorch.tensor([1., 2.]).map_(minitorch.tensor([3., 4.]), lambda a, b: a * b)
    tensor([3., 8.])
    """
    if not isinstance(other, Tensor):
        raise TypeError("map_(): argument 'other' (position 1) must be Tensor, not "
                        f"{_args.type_name(other)}")
    if self.requires_grad:  # torch's order: autograd's refusal, the dtypes, the shapes
        return _elementwise_("map_", self, callable)
    if other.dtype != self.dtype:
        raise TypeError(f"map_: expected {_args.type_string(self.dtype)} for 'other' (got "
                        f"{_args.type_string(other.dtype)})")
    return _elementwise_("map_", self, callable, other.expand(self.shape))


@_args.one_argument("TensorBase.apply_", method=True)
def _apply_(self: Tensor, fn: Callable) -> Tensor:
    """``self[i] = fn(self[i])`` (torch's C method: one argument, by position).

    >>> minitorch.tensor([1., 2.]).apply_(lambda a: a + 1)
    tensor([2., 3.])
    """
    return _elementwise_("apply_", self, fn)


def _itself(self: Tensor) -> Tensor:
    return self


def _no(self: Tensor) -> bool:
    return False


FUNCTIONS = (adjoint, conj, conj_physical, conj_physical_, resolve_conj, resolve_neg, is_conj,
             is_neg, divide, true_divide, clip, concat, concatenate, rsub, positive, sgn,
             is_floating_point, typename, multiply, subtract, absolute, negative, fix)

METHODS = {
    "divide": divide, "true_divide": true_divide, "positive": positive,
    "multiply": multiply, "subtract": subtract, "absolute": absolute, "negative": negative,
    "fix": fix,
    "sgn": sgn, "where": _where, "__reversed__": _reversed,
    "H": property(_conjugate_transpose), "mH": property(_batched_conjugate_transpose),
    "adjoint": lambda self: _batched_conjugate_transpose(self, "adjoint()"),
    "dim_order": _dim_order,
    "layout": property(lambda self: strided), "is_sparse": property(_no),
    "output_nr": property(lambda self: self._output_nr),
    "pin_memory": _pin_memory, "is_pinned": _is_pinned, "share_memory_": _storage.share_memory_,
    "is_shared": _storage.is_shared,
    "resolve_conj": _itself, "resolve_neg": _itself, "conj": _itself, "is_conj": _no,
    "conj_physical": _itself, "conj_physical_": conj_physical_,
    "is_neg": _no, "is_complex": _no, "map_": _map_, "apply_": _apply_,
    **{kind: _not_built(kind) for kind in _NOT_BUILT},
    **{name: sparse_part(name) for name in SPARSE_PARTS},
}
