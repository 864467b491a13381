"""Reverse-mode automatic differentiation, mirroring ``torch.autograd``.

``backward`` accumulates gradients into the leaves' ``.grad``; ``grad`` returns them
without touching ``.grad``. Both hand the graph to the engine (:mod:`.engine`).

>>> import minitorch
>>> A = minitorch.tensor(2., requires_grad=True)
>>> B = minitorch.tensor(.5, requires_grad=True)
>>> D = (A * B).exp()
>>> minitorch.autograd.grad(D, (A,))
(tensor(1.3591),)
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import _batched_function
from .. import _tensor as T
from .._args import py_flag, type_name
from .._warn_once import warn_once
from . import (
    anomaly_mode,
    engine,
    forward_ad,
    function,
    functional,
    grad_mode,
    graph,
    profiler,
    torch_events,
)
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .function import Function, FunctionCtx, once_differentiable
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    is_multithreading_enabled,
    no_grad,
    set_grad_enabled,
    set_multithreading_enabled,
)
from .gradcheck import gradcheck, gradgradcheck

if TYPE_CHECKING:
    from .._tensor import Tensor

__all__ = [
    "Function", "FunctionCtx", "Variable", "anomaly_mode", "backward", "detect_anomaly",
    "enable_grad", "engine", "functional", "grad", "grad_mode", "gradcheck", "gradgradcheck",
    "graph", "inference_mode", "is_anomaly_enabled",
    "is_grad_enabled", "is_inference_mode_enabled", "is_multithreading_enabled", "no_grad",
    "once_differentiable", "profiler", "set_detect_anomaly", "set_grad_enabled",
    "set_multithreading_enabled",
]

is_anomaly_enabled = anomaly_mode.is_anomaly_enabled
TensorOrTensors = Any


def _as_tuple(value: Any) -> tuple:
    """One tensor (or gradient edge), or an iterable of them, as a tuple (None is no
    iterable, as in torch)."""
    if isinstance(value, (T.Tensor, graph.GradientEdge)):
        return (value,)
    return _iterated(value)


def _iterated(value: Any) -> tuple:
    """``tuple(value)``, which torch calls in Python: its TypeError for a non-iterable."""
    if not hasattr(value, "__iter__"):
        raise TypeError(f"'{type_name(value)}' object is not iterable")
    return tuple(value)


def _inputs_tuple(inputs: Any, caller: str) -> tuple:
    """The ``inputs`` of ``backward`` or ``grad`` as a tuple: as :func:`_as_tuple`, and a
    ``dict`` (``dict(model.named_parameters())``) gives its values; torch refuses other
    mappings."""
    if type(inputs) is dict:
        return tuple(inputs.values())
    if isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `{caller}()` must be a dict, not "
                        f"{type(inputs).__name__}. Other Mapping types are not supported.")
    return _as_tuple(inputs)


_REFERENCE_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak.")


def _make_grads(outputs: Sequence[Tensor], grads: Any, batched: bool = False) -> list:
    """The root gradients, checked as torch's ``_make_grads``: pairs of output and gradient
    (extra gradients are ignored, as ``zip`` does; too few are the engine's to refuse, in
    :func:`_roots`). ``batched``: each gradient is a batch of them along dim 0
    (``is_grads_batched``)."""
    grads = [None] * len(outputs) if grads is None else list(_as_grads(grads))
    out = []
    for t, g in zip(outputs, grads):
        if not isinstance(t, T.Tensor):
            raise AssertionError("Expected output to be a torch.Tensor")
        if not (g is None or isinstance(g, T.Tensor)):
            raise TypeError("gradients can be either Tensors or None, but got "
                            f"{type(g).__name__}")
        if g is None and not t.requires_grad:  # torch leaves it None (the engine refuses t)
            pass
        elif g is None:
            if t.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            g = T.Tensor._make(t._xp.ones(t._data.shape, dtype=t._data.dtype))
            profiler._mark(*torch_events.IMPLICIT_GRAD)
        elif batched and _row_shape(g) != t.shape:  # torch's message: g[0].shape[1:]
            gi, ti = _numbered(grads, g), _numbered(outputs, t)
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each "
                "grad_output as the batch dimension. The sizes of the remaining dimensions are "
                f"expected to match the shape of corresponding output, but a mismatch was "
                f"detected: grad_output[{gi}] has a shape of {g.shape[2:]!r} and "
                f"output[{ti}] has a shape of {t.shape!r}. If you only want some tensors in "
                "`grad_output` to be considered batched, consider using vmap.")
        elif not batched and g.shape != t.shape:
            gi, ti = _numbered(grads, g), _numbered(outputs, t)
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{gi}] has a shape of {g.shape!r} and "
                f"output[{ti}] has a shape of {t.shape!r}.")
        elif g.dtype is not t.dtype and t.dtype.is_floating_point:
            g = g.to(t.dtype)  # torch's engine casts a root's gradient to the root's dtype
        out.append(g)
    return out


def _row_shape(grad: Tensor) -> Any:
    """The shape of ``grad[0]`` (torch reads the row; a meta batch's rows have no data here,
    only their shape)."""
    if grad.is_meta and grad.dim() and grad.shape[0]:
        return grad.shape[1:]
    return grad[0].shape


def _numbered(items: Sequence[Tensor], item: Tensor) -> int:
    """Where torch's messages say ``item`` is in ``items``: ``list.index``, which compares
    with ``==``, so an equal earlier tensor takes its number (and one of several values
    is refused as ambiguous), as in torch's ``_make_grads``."""
    return list(items).index(item)


def _check_inputs(inputs: tuple) -> None:
    """``inputs`` of ``backward`` or ``grad``: tensors or gradient edges, with torch's
    message."""
    for t in inputs:
        if not isinstance(t, (T.Tensor, graph.GradientEdge)):
            raise RuntimeError("all inputs have to be Tensors or GradientEdges, but got "
                               f"{type_name(t)}")


def _edge_of(input: Tensor | graph.GradientEdge) -> tuple:
    """Where the gradient of an input of ``backward`` or ``grad`` is taken: a tensor's
    edge, or the edge given."""
    return input[:2] if isinstance(input, graph.GradientEdge) else input._edge()


def _as_grads(grads: Any) -> tuple:
    if isinstance(grads, T.Tensor):
        return (grads,)
    return _iterated(grads)


def _roots(outputs: Sequence[Tensor], grads: list) -> tuple[list, list]:
    """The engine's roots: one gradient per output (its count checked after the flags are
    parsed, as torch's engine does), each output requiring grad."""
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    edges, root_grads = [], []
    for i, (t, g) in enumerate(zip(outputs, grads)):
        if not t.requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn")
        edges.append(t._edge())
        root_grads.append(g)
    return edges, root_grads


def _on_devices(outputs: Sequence[Tensor], grads: list) -> list:
    """The engine's device check of the root gradients, as it starts."""
    return [g if g is None else function.on_device(g, t.device, f"invalid gradient at index {i}")
            for i, (t, g) in enumerate(zip(outputs, grads))]


def _flags(retain_graph: Any, create_graph: Any) -> tuple[bool, bool]:
    """``retain_graph`` (None: as ``create_graph``) and ``create_graph`` as bools."""
    retain = None if retain_graph is None else py_flag(retain_graph)  # torch reads it first
    create_graph = py_flag(create_graph, none=False)
    return (create_graph if retain is None else retain), create_graph


def backward(
    tensors: TensorOrTensors,
    grad_tensors: TensorOrTensors | None = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    grad_variables: Any = None,
    inputs: TensorOrTensors | None = None,
) -> None:
    """Accumulate d(tensors)/d(leaf) into every leaf's ``.grad`` (or only ``inputs``').

    >>> x = minitorch.tensor([1., 2.], requires_grad=True)
    >>> minitorch.autograd.backward((x * x).sum()); x.grad
    tensor([2., 4.])
    """
    # torch's order: the inputs first
    if _batched_function.functorch():  # torch.func's gradients are its own: refused first
        raise RuntimeError("backward() called inside a functorch transform. This is not "
                           "supported, please use functorch.grad or functorch.vjp instead or "
                           "call backward() outside of functorch transforms.")
    if grad_variables is not None:
        warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.",
                      FutureWarning, stacklevel=2)
        if grad_tensors is not None:
            raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both "
                               "passed to `backward()`. Please only use `grad_tensors`.")
        grad_tensors = grad_variables
    targets = () if inputs is None else _inputs_tuple(inputs, "backward")
    if inputs is not None and not targets:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    outputs = _as_tuple(tensors)
    grads = _make_grads(outputs, grad_tensors)
    retain_graph, create_graph = _flags(retain_graph, create_graph)
    edges, root_grads = _roots(outputs, grads)
    if create_graph:  # torch's engine, once per process: .grad will hold a graph
        warn_once(_REFERENCE_CYCLE)
    if not targets:
        engine.execute(edges, _on_devices(outputs, root_grads), keep_graph=retain_graph,
                       create_graph=create_graph)
        return
    _check_inputs(targets)
    for t in targets:
        if isinstance(t, T.Tensor):  # as torch: a non-leaf input gets .grad; one without
            t.retain_grad()  # grad is refused
    engine.execute(edges, _on_devices(outputs, root_grads), keep_graph=retain_graph,
                   create_graph=create_graph, capture=[_edge_of(t) for t in targets],
                   accumulate=True)


def grad(
    outputs: TensorOrTensors,
    inputs: TensorOrTensors,
    grad_outputs: TensorOrTensors | None = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> tuple[Tensor | None, ...] | dict[Any, Tensor | None]:
    """The gradients of ``outputs`` with respect to ``inputs``, as a tuple (a dict with the
    same keys when ``inputs`` is a dict); ``.grad`` is left alone.

    >>> x = minitorch.tensor(5., requires_grad=True)
    >>> g, = minitorch.autograd.grad(x ** 3, x, create_graph=True); g
    tensor(75., grad_fn=<MulBackward0>)
    >>> minitorch.autograd.grad(x ** 2, {"x": x})
    {'x': tensor(10.)}
    >>> v = minitorch.tensor([1., 2.], requires_grad=True)  # a Jacobian, one row per grad_output
    >>> minitorch.autograd.grad(v * v, v, minitorch.eye(2), is_grads_batched=True)
    (tensor([[2., 0.],
            [0., 4.]]),)
    """
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    if not is_grads_batched and _vmapped_over(grad_outputs):
        # vmap's rule (a vector-Jacobian product per example of grad_outputs): one batched
        # backward of the shared graph, as torch's, not one backward per example
        from .._batched import BatchedTensor

        given = grad_outputs if isinstance(grad_outputs, (tuple, list)) else (grad_outputs,)
        batch = tuple(g.value for g in given)
        result = grad(outputs, inputs, batch, retain_graph, create_graph, only_inputs,
                      allow_unused, True, materialize_grads)
        if isinstance(result, dict):
            return {k: None if g is None else BatchedTensor(g) for k, g in result.items()}
        return tuple(None if g is None else BatchedTensor(g) for g in result)
    outs, ins = _as_tuple(outputs), _inputs_tuple(inputs, "grad")
    if not ins:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to "
                      "True). To accumulate gradient for other parts of the graph, please use "
                      "torch.autograd.backward.", FutureWarning, stacklevel=2)
    grads = _make_grads(outs, grad_outputs, is_grads_batched)
    if is_grads_batched:  # torch's vmap looks at the batch before the engine reads a flag
        _check_batch(grads)
    given_create_graph = create_graph  # zeros_like reads it for materialize_grads, unparsed
    retain_graph, create_graph = _flags(retain_graph, create_graph)
    # torch hands allow_unused (materialize_grads when not given) to C++, which reads an int,
    # after retain_graph and create_graph
    allow_unused = py_flag(materialize_grads if allow_unused is None else allow_unused,
                           none=False)
    edges, _ = _roots(outs, grads)  # outputs checked first, then the inputs (torch's engine)
    _check_inputs(ins)
    if any(isinstance(t, T.Tensor) and not t.requires_grad for t in ins):
        raise RuntimeError("One of the differentiated Tensors does not require grad")
    capture = [_edge_of(t) for t in ins]
    grads = _on_devices(outs, grads)
    if is_grads_batched:
        _check_rows(outs, grads)
        captured = _batched_grads(edges, grads, capture, retain_graph, create_graph)
    else:
        captured = engine.execute(edges, grads, keep_graph=retain_graph,
                                  create_graph=create_graph, capture=capture, accumulate=False)
    result = []
    for i, (t, g) in enumerate(zip(ins, captured)):
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads and isinstance(t, graph.GradientEdge):
                raise RuntimeError("materialize_grads cannot be used when the given input is "
                                   "a GradientEdge")
            if materialize_grads:
                # torch's zeros_like(input, requires_grad=create_graph): a leaf under create_graph
                from .._creation import zeros_like  # _creation imports the Tensor this file serves
                g = zeros_like(t, requires_grad=given_create_graph)
        result.append(g)
    if type(inputs) is dict:  # torch answers a dict of inputs with the same keys
        return dict(zip(inputs.keys(), result))
    return tuple(result)


def _vmapped_over(grad_outputs: Any) -> bool:
    """Whether every gradient given is one example of a vmap batch (a BatchedTensor)."""
    from .._batched import BatchedTensor

    given = grad_outputs if isinstance(grad_outputs, (tuple, list)) else (grad_outputs,)
    return bool(given) and all(isinstance(g, BatchedTensor) for g in given)


def _batched_grads(edges: list, grads: list, capture: list, retain_graph: bool,
                   create_graph: bool) -> list:
    """``is_grads_batched``: one backward per row of the gradients (torch maps its backward
    over them with vmap), each input's gradients stacked; None where an input is unused."""
    size = grads[0].shape[0]
    rows = [engine.execute(edges, [g[i] for g in grads], create_graph=create_graph,
                           keep_graph=retain_graph or i < size - 1, capture=capture,
                           accumulate=False) for i in range(size)]
    from ..ops.shape import stack

    return [None if row is None else stack(list(column))
            for row, column in zip(rows[0], zip(*rows))]


def _check_rows(outputs: Sequence[Tensor], grads: list) -> None:
    """The engine's check of each row of a batched gradient against its output: a row of
    the implicit gradient (ones in the output's shape) has a dim fewer, which it refuses."""
    for i, (t, g) in enumerate(zip(outputs, grads)):
        if g is not None and not T.expandable_to(tuple(t.shape), tuple(g.shape[1:])):
            raise RuntimeError(f"invalid gradient at index {i} - got {list(g.shape[1:])} but "
                               f"expected shape compatible with {list(t.shape)}")


def _check_batch(grads: list) -> None:
    """vmap's checks of the batched gradients: each has a dim 0, all of one size."""
    if not grads:  # vmap reads the first argument's batch size
        raise IndexError("list index out of range")
    for g in grads:
        if g is None:
            raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for an input but "
                             "the input is of type <class 'NoneType'>. We cannot vmap over "
                             "non-Tensor arguments, please use None as the respective in_dim")
        if g.dim() == 0:
            raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, "
                             "but that input is a Tensor of dimensionality 0 so expected in_dim "
                             "to satisfy 0 <= in_dim < 0.")
    sizes = [g.shape[0] for g in grads]
    if any(n != sizes[0] for n in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")


class _VariableMeta(type):
    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, T.Tensor)


def _unsigned_byte(value: Any) -> int:
    """A flag of ``Variable`` as torch's C parser reads it (format ``b``): an integer that
    fits an unsigned byte.

    >>> _unsigned_byte(None)
    Traceback (most recent call last):
    TypeError: 'NoneType' object cannot be interpreted as an integer
    """
    n = operator.index(value)
    if not 0 <= n <= 255:
        bound = "less than minimum" if n < 0 else "greater than maximum"
        raise OverflowError(f"unsigned byte integer is {bound}")
    return n


class Variable(metaclass=_VariableMeta):
    """The pre-0.4 spelling: ``Variable(t, requires_grad=True)`` gives a tensor.

    >>> Variable(minitorch.ones(1, 2), requires_grad=True)
    tensor([[1., 1.]], requires_grad=True)
    """

    _PARAMS = ("data", "requires_grad", "volatile", "_grad_fn", "name")

    def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:  # type: ignore[misc]
        if len(args) > len(cls._PARAMS):
            raise TypeError(f"function takes at most {len(cls._PARAMS)} arguments "
                            f"({len(args)} given)")
        for key in kwargs:
            if key not in cls._PARAMS:
                raise TypeError(f"'{key}' is an invalid keyword argument for this function")
        bound = dict(zip(cls._PARAMS, args), **kwargs)
        data = bound.get("data")
        requires_grad, volatile = (bool(_unsigned_byte(bound.get(key, False)))
                                   for key in ("requires_grad", "volatile"))
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with "
                          "torch.no_grad():` instead.", UserWarning, stacklevel=2)
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if data is None:
            data = _empty()
        elif not isinstance(data, T.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type_name(data)}")
        t = data.detach()
        t._set_requires_grad(requires_grad)
        return t


def _empty() -> Tensor:
    from .._creation import empty

    return empty(0)
