"""A user-defined ``autograd.Function`` under torch.func's transforms, as torch runs it.

Inside ``vmap``, torch runs a Function through a batching rule of its own: the Function's
``vmap`` staticmethod, called as ``vmap(info, in_dims, *args)`` with the whole batch and
returning ``(outputs, out_dims)``; or, with ``generate_vmap_rule = True``, a generated
Function ``Vmapped<Name>`` whose forward and backward are the Function's, vmapped. A
Function with neither is refused, and any transform (vmap, grad, jacrev, ...) needs a
Function with ``setup_context``.

>>> import minitorch
>>> class Exp(minitorch.autograd.Function):
...     @staticmethod
...     def forward(x): return x.exp()
...     @staticmethod
...     def setup_context(ctx, inputs, output): ctx.save_for_backward(output)
...     @staticmethod
...     def backward(ctx, g): return g * ctx.saved_tensors[0]
...     @staticmethod
...     def vmap(info, in_dims, x):
...         print("batch of", info.batch_size, "at dim", in_dims[0])
...         return Exp.apply(x), in_dims[0]
>>> minitorch.func.vmap(Exp.apply)(minitorch.zeros(2, 1))
batch of 2 at dim 0
tensor([[1.],
        [1.]])
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from ._args import wrap_dim

_DOCS = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


class _ThreadState(threading.local):
    level = 0  # the innermost running grad/jvp-kind transform's number (0: none)


_state = _ThreadState()
calls_with_examples = [0]  # vmap's calls of ``func`` on the whole batch now running
_looping = [0]  # ops now called once per example by vmap's fallback (see _batched)


@contextmanager
def looping() -> Iterator[None]:
    """While vmap's fallback calls an op once per example (see ``_batched.each_example``)."""
    _looping[0] += 1
    try:
        yield
    finally:
        _looping[0] -= 1
_numbers = itertools.count(1)  # (a later transform's number is larger: see is_captured)


class VmapInfo(NamedTuple):
    """What a Function's ``vmap`` staticmethod learns of the vmap that calls it.

    >>> VmapInfo(batch_size=3, randomness="error")
    VmapInfo(batch_size=3, randomness='error')
    """

    batch_size: int
    randomness: str


@contextmanager
def vmapping(randomness: str) -> Iterator[None]:
    """Inside one more vmap (its ``randomness``); a Function called meanwhile is batched."""
    levels = _levels()
    levels.append(randomness)
    try:
        with transforming("vmap"):
            yield
    finally:
        levels.pop()


def _kinds() -> list[str]:
    if not hasattr(_state, "kinds"):
        _state.kinds = []
    return _state.kinds


@contextmanager
def transforming(kind: str) -> Iterator[None]:
    """Inside one more transform of ``kind``: "reverse" (grad, vjp, jacrev), "forward" (jvp,
    jacfwd), "vmap" or "trace" (linearize's, no transform in torch)."""
    kinds = _kinds()
    kinds.append(kind)
    outer = _state.level
    if kind in ("reverse", "forward"):  # torch's grad and jvp levels (vmap's, trace's: none)
        _state.level = next(_numbers)
    try:
        yield
    finally:
        kinds.pop()
        _state.level = outer


def tangents_batched() -> bool:
    """Whether the innermost jvp-kind transform runs inside a vmap (jacfwd's columns, the
    forward half of hessian): torch's tangents are then batched tensors, which its vmap
    rules see.

    >>> with transforming("vmap"), transforming("forward"):
    ...     tangents_batched()
    True
    """
    kinds = _kinds()
    forward = max((i for i, k in enumerate(kinds) if k == "forward"), default=0)
    return "vmap" in kinds[:forward]


_cotangent_rows = [0]  # jacrev's backward passes now running, one per row of its batch


@contextmanager
def cotangents_batching() -> Iterator[None]:
    """While jacrev runs its backward once per row, where torch's vmap runs it once on the
    batch of rows: torch's backward formulas then see batched cotangents."""
    _cotangent_rows[0] += 1
    try:
        yield
    finally:
        _cotangent_rows[0] -= 1


def cotangents_batched() -> bool:
    """Whether a backward formula runs on what torch's jacrev batches (see
    :func:`cotangents_batching`)."""
    return bool(_cotangent_rows[0])


def zero_dim_flip_error() -> IndexError:
    """torch's vmap rule for flip of a 0-d example: its dim (0 or -1) is read as the batch's
    dim 1, out of range."""
    return IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")


def vmap_level() -> int:
    """torch's number of the innermost vmap running: its depth among the transforms (grad,
    jvp, vmap; linearize's trace is none), as vmap's messages name it.

    >>> with transforming("reverse"), transforming("vmap"):
    ...     vmap_level()
    2
    """
    kinds = [k for k in _kinds() if k != "trace"]
    return max((i + 1 for i, k in enumerate(kinds) if k == "vmap"), default=1)


def level() -> int:
    """The number of the innermost grad/vjp/jvp-kind transform running (0: none), which a
    tensor made meanwhile keeps as its ``_level``.

    >>> level()
    0
    """
    return _state.level


def own(t: Any) -> Any:
    """``t`` (a transform's input or dual) as made by the innermost transform: in torch a
    wrapper of that level, so that the function may write into it."""
    t._level = _state.level
    return t


_TENSOR_ONLY = frozenset({"add_", "sub_", "mul_", "div_", "divide_", "multiply_", "subtract_",
                          "true_divide_", "floor_divide_"})  # (torch wraps a number)
_SCALAR_OR_TENSOR = frozenset({
    "fill_", "bitwise_and_", "bitwise_or_", "bitwise_xor_", "copysign_", "eq_", "ne_",
    "not_equal_", "lt_", "le_", "gt_", "ge_", "greater_", "greater_equal_", "less_",
    "less_equal_", "float_power_", "fmod_", "remainder_", "pow_"})
_BY_OPERAND = {  # op: (the operand deciding, overload for a number, for a tensor)
    "bitwise_left_shift_": (0, ".Tensor_Scalar", ".Tensor"),
    "bitwise_right_shift_": (0, ".Tensor_Scalar", ".Tensor"),
    "xlogy_": (0, ".Scalar_Other", ".Tensor"), "bernoulli_": (0, ".float", ".Tensor"),
    "masked_fill_": (1, ".Scalar", ".Tensor"), "lerp_": (1, ".Scalar", ".Tensor"),
    "scatter_": (2, ".value", ".src"), "index_fill_": (2, ".int_Scalar", ".int_Tensor"),
    "set_": (0, "", ".source_Tensor")}
_BY_COUNT = {"random_": ("", ".to", ".from"), "squeeze_": ("", ".dim", ".dim")}


def inplace_aten_name(name: str, args: tuple, kwargs: dict) -> str:
    """The aten overload torch dispatches the in-place method ``name`` to for these operands
    (``args`` after self), as its messages name it.

    >>> inplace_aten_name("pow_", (2,), {}), inplace_aten_name("add_", (2,), {})
    ('aten::pow_.Scalar', 'aten::add_.Tensor')
    """
    operands = [*args, *kwargs.values()]
    tensor = [hasattr(a, "_data") or hasattr(a, "value") for a in operands]
    if name in _TENSOR_ONLY:
        return f"aten::{name}.Tensor{'_mode' * ('rounding_mode' in kwargs)}"
    if name in _SCALAR_OR_TENSOR or name in _BY_OPERAND:
        at, scalar, whole = _BY_OPERAND.get(name, (0, ".Scalar", ".Tensor"))
        if name == "scatter_" and "reduce" in kwargs:
            scalar, whole = ".value_reduce", ".reduce"
        return f"aten::{name}{whole if at < len(tensor) and tensor[at] else scalar}"
    if name.startswith(("clamp", "clip")) and any(tensor):
        return f"aten::{name}.Tensor"
    if name in _BY_COUNT:
        overload = _BY_COUNT[name][min(len(operands), 2)]
        if name == "squeeze_" and operands and isinstance(operands[0], (tuple, list)):
            overload = ".dims"
        return f"aten::{name}{overload}"
    return f"aten::{name}"


def refuse_captured(t: Any, name: str, args: tuple = (), kwargs: dict | None = None) -> None:
    """torch's refusal, inside grad/vjp/jvp/jacrev/jacfwd/hessian, of the in-place method
    ``name`` (with ``args`` and ``kwargs`` after self, or an aten name) on a tensor the
    transformed function did not make: one made outside, or by an earlier transform, or a
    view or detach of such (captured, in torch's words).

    >>> import minitorch
    >>> c = minitorch.zeros(1)
    >>> with transforming("reverse"):
    ...     refuse_captured(c, "zero_")
    Traceback (most recent call last):
    RuntimeError: During a grad (vjp, jvp, grad, etc) transform, the function provided ...
    """
    if captured(t):
        raise captured_refusal(name if name.startswith("aten::") else
                               inplace_aten_name(name, args, kwargs or {}))


def captured(t: Any) -> bool:
    """Whether ``t`` is captured by the innermost grad/jvp-kind transform running (made
    before it began, outside it), so that torch refuses an in-place write into it."""
    current = _state.level
    t = getattr(t, "value", t) if not hasattr(t, "_level") else t  # (a vmap's batch)
    return bool(current) and getattr(t, "_level", current) < current


def captured_refusal(op: str) -> RuntimeError:
    """torch's refusal of the in-place ``op`` (its aten name) on a captured tensor."""
    return RuntimeError(
        "During a grad (vjp, jvp, grad, etc) transform, the function provided attempted to "
        f"call in-place operation ({op}) that would mutate a captured Tensor. This is not "
        "supported; please rewrite the function being transformed to explicitly accept the "
        "mutated Tensor(s) as inputs.")


@contextmanager
def own_write() -> Iterator[None]:
    """A write minitorch makes itself, which torch's transforms do not check as the user's
    in-place op: into an ``out=`` tensor (an out= op may write into a captured tensor), into
    a dual tensor's tangent."""
    outer = _state.level
    _state.level = 0
    try:
        yield
    finally:
        _state.level = outer


def innermost() -> str | None:
    """The kind of the innermost transform running (see :func:`transforming`), else None.

    >>> with transforming("reverse"):
    ...     innermost()
    'reverse'
    """
    kinds = _kinds()
    return kinds[-1] if kinds else None


def check_saved_tensors_hooks() -> None:
    """torch's reverse-mode transforms refuse saved tensor hooks (checkpoint's too)."""
    if "reverse" in _kinds():
        raise RuntimeError("torch.func.{grad, vjp, jacrev, hessian} don't yet support saved "
                           "tensor hooks. Please open an issue with your use case.")


def vmapped() -> bool:
    """Whether a vmap is running (cheap: checked on every in-place method call).

    >>> vmapped()
    False
    """
    return bool(getattr(_state, "levels", None))


def _levels() -> list[str]:
    if not hasattr(_state, "levels"):
        _state.levels = []
    return _state.levels


class Unbatched(Exception):
    """An op without a batching rule here: vmap falls back to one call per example."""


def has_batched(args: tuple, kwargs: dict) -> bool:
    """Whether an op's arguments hold one of vmap's batched tensors (see ``_batched``), while
    vmap calls ``func`` on the whole batch (cheap otherwise).

    >>> has_batched((1, 2), {})
    False
    """
    if not calls_with_examples[0]:
        return False
    from . import _batched

    return _batched.has_batched(args, kwargs)


def each_example(call: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """vmap's fallback for an op with no batching rule (see ``_batched.each_example``)."""
    from . import _batched

    return _batched.each_example(call, args, kwargs)


def check_random() -> None:
    """torch's refusal of a random operation inside a vmap whose ``randomness`` is "error"
    (the default), at any level. Under "different", a call on the whole batch at once would
    draw one value for every example: vmap then draws per example (one call each)."""
    from . import _batched

    if "error" in _levels():
        raise RuntimeError("vmap: called random operation while in randomness error mode. "
                           "Please either use the 'same' or 'different' randomness flags on "
                           "vmap or perform the randomness operation out of vmap")
    if _looping[0] or ("different" in _levels() and _batched.batch_at_once()):
        raise _batched.Unbatched("random")  # (per example: a draw each, whatever the mode)


def transformed() -> bool:
    """Whether a torch.func transform (vmap, grad, vjp, jacrev, ...) is running."""
    from . import func

    return bool(_levels()) or getattr(func._depth, "value", 0) > 0


def functorch() -> bool:
    """Whether a torch.func transform runs, whose levels refuse ``requires_grad_()`` and
    ``backward()`` (``linearize``'s trace is no transform in torch).

    >>> functorch()
    False
    """
    return transformed() and not getattr(_state, "tracing", False)


def differentiating() -> bool:
    """Whether a reverse- or forward-mode transform (grad, vjp, jacrev, jacfwd, jvp) is running:
    a leaf made inside belongs to it, its graph ending at the transform, as torch's."""
    from . import func

    return getattr(func._depth, "value", 0) > 0 and not getattr(_state, "tracing", False)


@contextmanager
def tracing() -> Iterator[None]:
    """Inside ``linearize``'s trace of its function (torch's ``make_fx``)."""
    before = getattr(_state, "tracing", False)
    _state.tracing = True
    try:
        yield
    finally:
        _state.tracing = before


def apply(cls: Any, args: tuple, kwargs: dict, run: Callable[..., Any]) -> Any:
    """``cls.apply(*args, **kwargs)`` inside a transform: torch's checks, then the Function's
    vmap rule where an argument is batched, else ``run`` (the ordinary call)."""
    from ._batched import BatchedTensor, Raised  # (they need Tensor, which needs us)

    if cls.setup_context is None:
        raise RuntimeError(
            "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, "
            "jacrev, ...), it must override the setup_context staticmethod. " + _DOCS)
    levels = _levels()
    if not levels:
        return run(cls, args, kwargs)
    _check_vmap_support(cls)
    batched = [a for a in args if isinstance(a, BatchedTensor)]
    if not batched:
        return run(cls, args, kwargs)
    info = VmapInfo(batch_size=batched[0].value.shape[0], randomness=levels[-1])
    physical = tuple(a.source[0] if isinstance(a, BatchedTensor) else a for a in args)
    in_dims = tuple(a.source[1] if isinstance(a, BatchedTensor) else None for a in args)
    if cls.generate_vmap_rule:
        outputs = _generated(cls, in_dims, info).apply(*physical, **kwargs)
        if isinstance(outputs, tuple):
            return tuple(BatchedTensor(o) for o in outputs)
        return BatchedTensor(outputs)
    try:  # what the rule raises, or torch's checks on it, end vmap: no per-example retry
        return _wrapped(cls.vmap(info, in_dims, *physical, **kwargs), physical, args,
                        info.batch_size)
    except Exception as error:
        raise Raised(error) from None


def _generated(cls: Any, in_dims: tuple, info: VmapInfo) -> Any:
    """torch's generated batching rule of a Function with ``generate_vmap_rule``: a Function
    ``Vmapped<Name>`` whose forward is ``cls``'s vmapped over the batch (its output batched at
    dim 0), whose ``setup_context`` is ``cls``'s on the batched inputs and output, and whose
    backward is ``cls``'s vmapped over the output gradients and the saved tensors; a gradient
    of an unbatched input is summed over the batch."""
    from ._batched import BatchedTensor
    from .autograd.function import Function
    from .func import vmap

    def batched(args: tuple) -> list:
        return [a if d is None else BatchedTensor.at(a, d) for a, d in zip(args, in_dims)]

    def forward(*args: Any) -> Any:
        return vmap(cls.forward, in_dims=in_dims, randomness=info.randomness)(*args)

    def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
        ctx.example = _ExampleContext()
        output = tuple(map(BatchedTensor, output)) if isinstance(output, tuple) else \
            BatchedTensor(output)
        cls.setup_context(ctx.example, tuple(batched(inputs)), output)

    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        example = ctx.example
        saved = [s.value if isinstance(s, BatchedTensor) else s for s in example.saved]
        dims = tuple(0 if isinstance(s, BatchedTensor) else None for s in example.saved)

        absent: list = []  # the inputs the backward gives no gradient (None)

        count = len(grad_outputs)

        def one(*values: Any) -> tuple:
            grads = cls.backward(example.with_saved(values[count:]), *values[:count])
            grads = grads if isinstance(grads, tuple) else (grads,)
            absent[:] = [x is None for x in grads]
            return tuple(x for x in grads if x is not None)

        found = iter(vmap(one, in_dims=(0,) * count + dims,
                          randomness=info.randomness)(*grad_outputs, *saved))
        grads = [None if none else next(found) for none in absent]
        return tuple(None if g is None else g.sum(0) if d is None else _moved_back(g, d)
                     for g, d in zip(grads, in_dims))

    name = f"Vmapped{cls.__name__}"
    methods = {"forward": staticmethod(forward), "setup_context": staticmethod(setup_context),
               "backward": staticmethod(backward),
               "generate_vmap_rule": True}  # (called on the batch itself: no rule runs)
    return type(name, (Function,), methods)


def _moved_back(g: Any, dim: int) -> Any:
    """A gradient batched at dim 0, its batch moved to the input's ``dim``."""
    return g if dim == 0 else g.movedim(0, dim)


class _ExampleContext:
    """The ``ctx`` a Function's ``setup_context`` and ``backward`` see under a generated
    vmap rule: its own attributes, and the tensors it saves (batched, then per example)."""

    def __init__(self) -> None:
        self.saved: tuple = ()

    def save_for_backward(self, *tensors: Any) -> None:
        self.saved = tensors

    @property
    def saved_tensors(self) -> tuple:
        return self.saved

    def with_saved(self, tensors: tuple) -> _ExampleContext:
        """A copy of this context whose saved tensors are ``tensors``."""
        example = _ExampleContext()
        example.__dict__.update(self.__dict__)
        example.saved = tensors
        return example


def _check_vmap_support(cls: Any) -> None:
    own_rule = _overrides_vmap(cls)
    if cls.generate_vmap_rule and own_rule:
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it has both generate_vmap_rule=True "
            "and an overridden vmap staticmethod. Please set generate_vmap_rule=False or "
            "delete the overridden vmap staticmethod to avoid ambiguity. " + _DOCS)
    if not cls.generate_vmap_rule and not own_rule:
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it does not have vmap support. "
            "Please override and implement the vmap staticmethod or set "
            "generate_vmap_rule=True. " + _DOCS)


def _overrides_vmap(cls: Any) -> bool:
    from .autograd.function import Function

    return cls.vmap is not Function.vmap


def _wrapped(result: Any, physical: tuple, args: tuple, size: int) -> Any:
    """The rule's ``(outputs, out_dims)`` checked as torch does, its outputs batched along
    their out_dim; an output whose out_dim is None is the same for each of the ``size``
    examples, and one that is an argument (``physical``) is that argument as the caller gave
    it (``args``)."""
    from .func import _broadcast, _flatten, _spec_repr, _unflatten

    base = ("Expected the vmap staticmethod to have two returns, an output and out_dims with "
            "pytree structure compatible with the output. ")
    if not isinstance(result, tuple):
        raise RuntimeError(base + f"Got a {type(result)} instead")
    if len(result) != 2:
        raise RuntimeError(base + f"Got {len(result)} returns instead")
    outputs, out_dims = result
    leaves, spec = _flatten(outputs)
    dims = _broadcast(out_dims, spec)
    if dims is None:
        raise RuntimeError(
            "The autograd.Function's vmap staticmethod returned an incompatible (output, "
            f"out_dims) tuple. Expected out_dims={out_dims} to be compatible with the structure "
            f"of `output`. out_dims has structure {_spec_repr(_flatten(out_dims)[1])} but "
            f"output has structure {_spec_repr(spec)}. " + _DOCS)
    given = {id(p): a for p, a in zip(physical, args)}
    return _unflatten([given[id(x)] if id(x) in given else _batched(x, d, size)
                       for x, d in zip(leaves, dims)], spec)


def _batched(x: Any, dim: int | None, size: int) -> Any:
    from ._batched import BatchedTensor
    from ._tensor import Tensor

    if not isinstance(x, Tensor):
        return x
    if dim is None:
        return BatchedTensor(x.expand(size, *x.shape))
    if not isinstance(dim, int):  # torch's binding refuses it (a str fails its dim < 0 first)
        raise TypeError("'<' not supported between instances of 'str' and 'int'"
                        if isinstance(dim, str) else
                        "_add_batch_dim(): incompatible function arguments. The following "
                        "argument types are supported:\n    1. (arg0: torch.Tensor, arg1: "
                        "typing.SupportsInt | typing.SupportsIndex, arg2: typing.SupportsInt | "
                        f"typing.SupportsIndex) -> torch.Tensor\n\nInvoked with: {x!r}, {dim!r}")
    # torch counts a negative out_dim from the output's end once, then checks it as a dim
    return BatchedTensor.at(x, wrap_dim(dim + x.dim() if dim < 0 else dim, x.dim()))
