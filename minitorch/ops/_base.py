"""What every built-in op shares: the op base class and gradient reduction to a shape.

A built-in op is a :class:`~minitorch.autograd.Function` whose forward works on arrays of
the input tensors' namespace and whose backward is written in Tensor operations, so the
same formula serves plain backward and ``create_graph=True``.
"""

from __future__ import annotations

from typing import Any

from .._args import as_int, float_scalar, int_scalar, operand, tensor_args
from .._dtype import bool as bool_
from .._dtype import check_unsigned, dtype, result_type, wrapped
from .._tensor import Tensor, sum_to
from ..autograd.function import Function
from ..backend import array_dtype, to_device, torch_layout

__all__ = [
    "INPUT_SIZES",
    "REDUCED",
    "Op",
    "array_of",
    "c_ints",
    "cast_operands",
    "check_indices",
    "check_same_device",
    "example",
    "kept",
    "like",
    "public_binary",
    "public_unary",
    "save_indices",
    "sum_to",
    "wrap",
    "written_dims",
]


class Op(Function):
    """Base of the built-in ops: trusted backward, profiled under ``aten::<name>``."""

    _trusted = True
    index_operands: tuple[int, ...] = ()  # operands torch's node has no edge for (indices,
    # masks, conditions: never differentiable), left out of its next_functions
    records_integer_writes = True  # written in place into an integer or bool tensor by a
    # value that requires grad, recorded as torch records it (copy_ is not: it checks)


def save_indices(ctx: Any, *indices: Tensor | None) -> None:
    """Save the index tensors an op's key reads (its arrays are their memory), as torch's node
    saves its index: a write into one is refused when backward unpacks them
    (``ctx.saved_tensors``), where reading the changed memory would give wrong gradients."""
    ctx.save_for_backward(*(i for i in indices if isinstance(i, Tensor)))


def check_indices(ctx: Any) -> None:
    """Unpack what :func:`save_indices` saved, at backward: torch's refusal where one of them
    was written since."""
    _ = ctx.saved_tensors


wrap = Tensor._make
"""A new tensor (no grad) holding ``array``: ``Tensor._make`` itself (one call fewer per op)."""


def kept(name: str, form: Any = None) -> Any:
    """A ``saved_values`` reader: the node's attribute ``name`` (in ``form``, a function, when
    torch shows it otherwise).

    >>> y = minitorch.ones(2, 3, requires_grad=True).sum(1)
    >>> y.grad_fn._saved_dim, y.grad_fn._saved_keepdim, y.grad_fn._saved_self_sym_sizes
    ((1,), False, (2, 3))
    """
    return (lambda node: getattr(node, name)) if form is None else \
        (lambda node: form(getattr(node, name)))


def c_ints(value: Any) -> Any:
    """An int (or a tuple of them) as torch's nodes show a saved int64: a negative one read
    back as unsigned (-1 is 2**64 - 1)."""
    return tuple(v % 2 ** 64 for v in value) if isinstance(value, tuple) else value % 2 ** 64


def written_dims(dim: Any) -> tuple | None:
    """A reduction's ``dim`` argument as torch's node keeps it: a tuple of the ints as
    written (an int in a tuple of one), or None.

    >>> written_dims(-1), written_dims([0, 1]), written_dims(None)
    ((-1,), (0, 1), None)
    """
    if dim is None:
        return None
    return tuple(map(as_int, dim)) if isinstance(dim, (tuple, list)) else (as_int(dim),)


# what torch's reduction nodes save: the dims as the call wrote them (``given``, negative ones
# shown unsigned), and from the ``meta`` (shape, dims, keepdim) they keep
REDUCED = {"dim": kept("given", lambda dims: None if dims is None else c_ints(dims)),
           "keepdim": kept("meta", lambda m: m[2]),
           "self_sym_sizes": kept("meta", lambda m: tuple(m[0]))}
INPUT_SIZES = {"self_sym_sizes": kept("shape", tuple)}


def example(summary: str, call: str, printed: str) -> str:
    """A docstring: ``summary`` and a doctest of ``call`` printing ``printed``.

    >>> example("Twice x.", "2 * x", "tensor([2.])").splitlines()
    ['Twice x.', '', '    >>> 2 * x', '    tensor([2.])', '    ']
    """
    return f"{summary}\n\n    >>> {call}\n    {printed}\n    "


def public_unary(op: Any, name: str, doc: str) -> Any:
    """The public ``minitorch.<name>(input)``, also the method ``Tensor.<name>()``: ``op`` of
    a tensor (anything else refused with torch's message)."""
    def fn(input: Tensor) -> Tensor:
        tensor_args(name, (input, "input", 1))
        return op.apply(input)

    fn.__name__, fn.__doc__ = name, doc
    return fn


def public_binary(op: Any, name: str, doc: str) -> Any:
    """The public ``minitorch.<name>(input, other)`` of two tensors, also the method
    ``Tensor.<name>(other)``."""
    def fn(input: Tensor, other: Tensor) -> Tensor:
        tensor_args(name, (input, "input", 1), (other, "other", 2))
        return op.apply(input, other)

    fn.__name__, fn.__doc__ = name, doc
    return fn


def array_of(value: Any) -> Any:
    """The array of a tensor, or the Python scalar itself."""
    return value._data if isinstance(value, Tensor) else value


def like(g: Any, *arrays: Any) -> bool:
    """Every array is of ``g``'s library and dtype: an array backward can use it as ``backward``
    would, with no promotion.

    >>> import numpy as np
    >>> like(np.ones(2), np.zeros(3)), like(np.ones(2), np.zeros(3, dtype=np.float32))
    (True, False)
    """
    kind, dt = type(g), g.dtype
    for a in arrays:  # noqa: SIM110 - a loop is cheaper than all() on a few items
        if type(a) is not kind or a.dtype != dt:
            return False
    return True


def check_same_device(*values: Any) -> None:
    """torch's error when the tensors among ``values`` live on different devices.

    >>> check_same_device(minitorch.ones(1), 2.0, minitorch.zeros(1))
    """
    kinds = {type(v._data) for v in values if isinstance(v, Tensor)}
    if len(kinds) <= 1:  # the fast path: one array library (or no tensor at all)
        return
    tensors = [v for v in values if isinstance(v, Tensor)]
    devices = [t.device for t in tensors]
    if any(d.type == "meta" for d in devices):  # torch's meta kernels name the first device
        for d in devices:
            if d != devices[0]:
                raise RuntimeError(f"Tensor on device {d} is not on the expected device "
                                   f"{devices[0]}!")
    common = next((d for d in devices if d.type != "cpu"), devices[0])  # torch's order
    for d in devices:
        if d != common:
            raise RuntimeError("Expected all tensors to be on the same device, but found at "
                               f"least two devices, {common} and {d}!")


def _on_one_device(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    """As torch, a 0-d CPU tensor may join an op on another device (here only when it needs
    no gradient); other mixes raise torch's error."""
    for scalar, other in ((a, b), (b, a)):
        if scalar.dim() == 0 and not scalar.requires_grad and scalar.device.type == "cpu":
            moved = Tensor._make(to_device(scalar._data, other.device))
            return (moved, b) if scalar is a else (a, moved)
    check_same_device(a, b)
    return a, b


def cast_operands(a: Any, b: Any) -> tuple[Any, Any, dtype]:
    """Arrays of ``a`` and ``b`` on one device, converted to their torch result type (scalars
    stay scalars)."""
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        if type(a._data) is not type(b._data):
            a, b = _on_one_device(a, b)
        elif a._data.dtype == b._data.dtype:  # the common case: nothing to promote
            return a._data, b._data, a.dtype
    elif (type(b) is float or type(b) is int) and isinstance(a, Tensor):
        dt = a.dtype
        if dt.is_floating_point:  # a Python number never widens a floating tensor
            return a._data, float(b) if type(b) is float else float_scalar(b), dt
    else:
        a, b = operand(a), operand(b)
    dt = result_type(a, b)
    check_unsigned(a, b)
    return _as(a, dt), _as(b, dt), dt


def iterator_layout(out: Any, a: Any, b: Any, x: Any, y: Any) -> Any:
    """``out``, an element-wise result of ``a`` and ``b``, laid out as torch's TensorIterator
    lays it out: by the operands as given (``x`` and ``y``, their arrays from
    :func:`cast_operands`, are copies where cast, which lose an expanded operand's zero
    strides).

    >>> import minitorch
    >>> b = minitorch.tensor([[True, False, True]]).expand(2, 3).reshape(1, 2, 1, 3)
    >>> (minitorch.ones(2, 1, 1, 1, dtype=minitorch.int32) * b).stride()
    (6, 3, 3, 1)
    """
    return torch_layout(out, *(t._data if isinstance(t, Tensor) else v
                               for t, v in ((a, x), (b, y))))


def _as(value: Any, dt: dtype) -> Any:
    if isinstance(value, Tensor):
        if value.dtype is dt:
            return value._data
        xp = value._xp
        return xp.astype(value._data, array_dtype(xp, dt.name))
    if dt.is_floating_point:
        return float_scalar(value)
    if type(value) is not int:
        return value
    value = int_scalar(value)  # torch reads it as int64, then as the op's dtype: its low bits
    return value if dt.itemsize == 8 or dt is bool_ else wrapped(value, dt)
