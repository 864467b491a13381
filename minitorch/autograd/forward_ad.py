"""Forward-mode AD: a tensor can carry a *tangent*, and every op computes its output's tangent
(the Jacobian-vector product) as it runs, so one forward pass gives ``J @ v``.

Inside ``dual_level()``, ``make_dual(x, v)`` gives ``x`` with tangent ``v``;
``unpack_dual(y)`` reads ``y``'s tangent. A built-in op's tangent comes from its backward
(which is written in differentiable Tensor operations): with ``u`` a dummy output gradient,
``J v = d/du <J^T u, v>``, so every op that has a backward has a tangent. A custom Function
gives its own with a ``jvp`` static method.

>>> import minitorch
>>> import minitorch.autograd.forward_ad as fwAD
>>> x = minitorch.tensor([1., 2.])
>>> with fwAD.dual_level():
...     y = (fwAD.make_dual(x, minitorch.tensor([1., 0.])) ** 2).sum()
...     fwAD.unpack_dual(y).tangent
tensor(2.)
"""

from __future__ import annotations

import contextlib
import functools
from collections import namedtuple
from collections.abc import Iterator
from typing import Any

from .. import _args, _batched_function
from .. import _tensor as T
from .._dtype import float64, promote_types
from . import grad_mode

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level",
           "make_dual", "unpack_dual"]

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])

# The active levels, innermost last; Function.apply looks at this list before every op.
# ``dual_level()`` opens at most one (torch refuses to nest it); ``torch.func.jvp`` nests its
# own (``nested_level``), as torch's functorch levels do: ``jacfwd(jacfwd(f))``.
levels: list[int] = []
_public: list[int] = []
_counter = [0]


def enter_dual_level() -> int:
    """Start a level of forward AD (``dual_level`` does this for a ``with`` block).

    >>> exit_dual_level(level=enter_dual_level())
    """
    if _public:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _public.append(_push_level())
    return current_level()


def _push_level() -> int:
    _counter[0] += 1
    levels.append(_counter[0])
    return _counter[0]


@contextlib.contextmanager
def nested_level() -> Iterator[int]:
    """A level inside any others (``torch.func.jvp``'s): each level's tangents are apart,
    and the ops that compute an inner level's tangents carry the outer levels' own.

    >>> with nested_level(), nested_level():
    ...     current_level()
    1
    """
    level = _push_level()
    try:
        yield current_level()
    finally:
        levels.remove(level)


def current_level() -> int:
    """The level as torch numbers it: 0 inside ``dual_level()``, -1 outside. Internally each
    level has its own id, so tangents of a closed one are gone."""
    return len(levels) - 1


def exit_dual_level(*, level: int | None = None) -> None:
    """End the innermost level: the tangents made in it are gone."""
    if level is not None and level != current_level():
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                           "was created. This is not supported.")
    if not levels:
        raise RuntimeError("Dual level must be a positive number.")
    if levels[-1] in _public:
        _public.remove(levels[-1])
    levels.pop()


class dual_level(contextlib.ContextDecorator):
    """The block in which dual tensors exist. Each exit ends the innermost level, as torch's
    does (a second exit finds none: torch's error).

    >>> with dual_level():
    ...     pass
    """

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc: object) -> None:
        exit_dual_level()


def tangent_of(t: Any) -> T.Tensor | None:
    """The tangent ``t`` carries at the current (innermost) level, or None (always None in
    inference mode, which turns forward AD off as it turns off recording)."""
    held = t.__dict__.get("_fw_tangents") if isinstance(t, T.Tensor) else None
    if held is None or not levels or grad_mode._state.inference:
        return None
    return held.get(levels[-1])


def _set_tangent(t: T.Tensor, tangent: T.Tensor | None) -> None:
    if tangent is None:
        t.__dict__.get("_fw_tangents", {}).pop(levels[-1], None)
    else:
        give(t, levels[-1], tangent)


def give(out: T.Tensor, level: int, tangent: T.Tensor) -> None:
    """``out`` carries ``tangent`` at ``level``; so does the copy of ``out`` its node saved,
    if it did. A saved output is unpacked as a new tensor (graph.SavedTensor), and backward
    formulas that use it (tanh's ``1 - y*y``) need its tangent when they run under forward AD
    (forward-over-reverse, ``hessian``), as torch's SavedVariable keeps an output's
    forward grad."""
    out.__dict__.setdefault("_fw_tangents", {})[level] = tangent
    for saved in getattr(out._grad_fn, "_saved", ()):
        if saved is not None and saved._is_output and saved._output_nr == out._output_nr \
                and isinstance(saved._tensor, T.Tensor):
            saved._tensor.__dict__.setdefault("_fw_tangents", {})[level] = tangent


def copy_tangents(source: T.Tensor, target: T.Tensor) -> T.Tensor:
    """``target`` carries the tangents ``source`` carries, at every level; gives ``target``."""
    for level, tangent in source.__dict__.get("_fw_tangents", {}).items():
        give(target, level, tangent)
    return target


def _check_floating(value: Any, what: str) -> None:
    """torch's own Python check of make_dual's ``what``: a non-tensor fails on the method
    ``is_floating_point``, as there."""
    if not hasattr(value, "is_floating_point"):
        raise AttributeError(f"'{type(value).__name__}' object has no attribute "
                             "'is_floating_point'")
    if not value.is_floating_point():
        raise ValueError(f"Expected {what} to be floating point or complex, but got: "
                         f"{value.dtype}")


def make_dual(tensor: T.Tensor, tangent: T.Tensor, *, level: int | None = None) -> T.Tensor:
    """``tensor`` (as a view) carrying ``tangent``, the direction of the derivative.

    >>> with dual_level():
    ...     make_dual(minitorch.ones(2), minitorch.zeros(2))
    tensor([1., 1.], tangent=tensor([0., 0.]))
    """
    level = current_level() if level is None else level
    if level < 0:  # torch's comparison: a level that is no number fails on it
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                           "make sure to enter_dual_level() first.")
    _check_floating(tensor, "primal")
    _check_floating(tangent, "tangent")
    from ..ops.shape import View

    if grad_mode._state.inference:  # torch's C++ checks and tangent are autograd's: skipped
        return View.apply(tensor, shape=tuple(tensor.shape))
    level = _args.integer("_make_dual", level, "level", None)
    if level == current_level() and tangent_of(tensor) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward "
                           f"gradient at the same level {level} is not supported.")
    if level != current_level():
        raise RuntimeError("Invalid level given to _make_dual")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            "original Tensor, this is not supported. Tensor is of size "
            f"{list(tensor.shape)} while the given forward gradient is of size "
            f"{list(tangent.shape)}.")
    with _outer():  # the view carries the outer levels' tangents (jacfwd(jacfwd(f)))
        dual = View.apply(tensor, shape=tuple(tensor.shape))
    _set_tangent(dual, _laid_out_as(tangent, tensor))
    return dual


def _laid_out_as(tangent: T.Tensor, primal: T.Tensor) -> T.Tensor:
    """The tangent as torch keeps it: this very tensor (dtype and all) where its layout is
    the primal's, else a copy in the primal's layout and dtype, so that a view op gives the view's
    tangent as the same view of it."""
    if _same_layout(tangent, primal):
        return tangent
    from .._factories import empty_like

    with _outer():
        return empty_like(primal).copy_(tangent)


def _same_layout(tangent: T.Tensor, primal: T.Tensor) -> bool:
    """torch's test of a tangent's layout against its primal's (``has_same_meta``): the
    same storage offset and storage size, and the same strides for dims of size over 1."""
    from ..backend import element_strides

    strides, others = element_strides(tangent._data), element_strides(primal._data)
    if strides is None or others is None:  # an array namespace without strides: one layout
        return strides == others
    return tangent.storage_offset() == primal.storage_offset() and all(
        a == b for a, b, n in zip(strides, others, primal.shape) if n > 1) \
        and _storage_size(tangent) == _storage_size(primal)


def _storage_size(t: T.Tensor) -> int:
    return t.untyped_storage().nbytes() // t.element_size()


def unpack_dual(tensor: T.Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)`` of a dual tensor; the tangent is None for a plain tensor.

    >>> unpack_dual(minitorch.ones(1))
    UnpackedDualTensor(primal=tensor([1.]), tangent=None)
    """
    level = current_level() if level is None else level
    if level < 0:  # torch's Python returns before its C++ checks the tensor
        return UnpackedDualTensor(tensor, None)
    _args.tensor_args("_unpack_dual", (tensor, "dual", 1))
    tangent = tangent_of(tensor)
    if tangent is not None and level != current_level():
        raise RuntimeError("Invalid level given to _fw_primal")
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    from ..ops.shape import FwPrimal

    return _unpacked(tensor, tangent, FwPrimal)


def unwrapped_for_grad(tensor: T.Tensor) -> UnpackedDualTensor:
    """``func.jvp``'s unpacking of an output at the current level: torch's functorch
    unwraps it by an alias (``AliasBackward0``), not ``unpack_dual``'s ``Identity``.

    >>> unwrapped_for_grad(minitorch.ones(1)).tangent is None
    True
    """
    tangent = tangent_of(tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    from ..ops.shape import Alias

    return _unpacked(tensor, tangent, Alias)


def _unpacked(tensor: T.Tensor, tangent: T.Tensor, view: Any) -> UnpackedDualTensor:
    with _outer():
        primal = view.apply(tensor)
    return UnpackedDualTensor(primal, tangent)


@contextlib.contextmanager
def _suspended() -> Iterator[None]:
    """No forward AD inside: an in-place op's own run computes no tangent."""
    saved = levels[:]
    levels.clear()
    try:
        yield
    finally:
        levels[:] = saved


@contextlib.contextmanager
def _outer() -> Iterator[None]:
    """Only the outer levels inside: the ops that compute the innermost level's tangent
    compute no tangent of it, but do carry the outer levels' (tangents of tangents)."""
    level = levels.pop()
    try:
        yield
    finally:
        levels.append(level)


def has_tangents(args: tuple) -> bool:
    """Whether an op's arguments carry tangents at an active level (the cheap check)."""
    if grad_mode._state.inference:  # torch skips its autograd kernels, forward AD's too
        return False
    for a in args:
        held = a.__dict__.get("_fw_tangents") if isinstance(a, T.Tensor) else None
        if held and any(level in held for level in levels):
            return True
    return False


def apply_op(cls: Any, args: tuple, kwargs: dict) -> Any:
    """Run a built-in op and give each output its tangent: ``J v`` from the op's backward.

    The innermost level is peeled off: the op and its ``J v`` run at the outer levels, so
    each carries their tangents too (nested ``jacfwd``)."""
    level = levels[-1]
    dual = level in _public  # no torch.func transform's level: torch's plain dual tensors
    tangents = [tangent_of(a) for a in args]
    if any(t is not None for t in tangents):
        _check_formula(cls)
        _check_formula_op(cls, args, tangents)
        _check_batched_rule(cls, args, kwargs)
    with _outer():
        outputs = cls.apply(*args, **kwargs)
        if all(t is None for t in tangents):
            return outputs
        out_tangents = _view_tangent(cls, args, kwargs, tangents, outputs) \
            or _linear_tangent(cls, args, kwargs, tangents) \
            or _wrapped_float_tangent(cls, args, kwargs, tangents) \
            or _formula_tangent(cls, args, kwargs, tangents, outputs, dual) \
            or _promoted(cls, args, kwargs, _op_tangents(cls, args, kwargs, tangents), tangents)
    results = outputs if isinstance(outputs, tuple) else (outputs,)
    for out, tangent in zip(results, out_tangents):
        if tangent is not None:
            give(out, level, tangent)
    return outputs


def _check_batched_rule(cls: Any, args: tuple, kwargs: dict) -> None:
    """torch's vmap rule of an op on jacfwd's batched tangents where it refuses what the op
    takes alone: flip of a 0-d tensor along its dim (read as the batch's dim 1)."""
    from ..ops.scan import Flip

    if cls is Flip and not args[0].dim() and kwargs["dims"] and \
            _batched_function.tangents_batched():
        raise _batched_function.zero_dim_flip_error()


def _check_formula(cls: Any) -> None:
    """Refuse, as torch does, an op whose derivatives torch gives no forward formula (its
    class names it in ``no_forward_ad``), rather than derive a tangent torch would not; its
    in-place form (:func:`inplace`) is refused under its own name, in torch's shorter words."""
    name = getattr(cls, "no_forward_ad", None)
    if name is not None:
        raise _no_formula(name)


def _no_formula(name: str) -> NotImplementedError:
    ask = "." if _in_place[0] else " or submit a PR adding the implementation to derivatives.yaml"
    return NotImplementedError(
        f"Trying to use forward AD with {name}{'_' * _in_place[0]} that does not support "
        "it because it has not been implemented yet.\nPlease file an issue to PyTorch at "
        "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so "
        f"that we can prioritize its implementation{ask}")


def _check_formula_op(cls: Any, args: tuple, tangents: list) -> None:
    """Refuse, as torch does, an op whose forward formula calls an op of no forward AD of its
    own (the class names it in ``formula_op``: soft_margin_loss's formula is its backward):
    the formula runs where the first input has a tangent, and fails where an operand it is
    given is itself dual: another input with a tangent of this level, or any operand (the
    first tangent too) with a tangent of an outer level."""
    name = getattr(cls, "formula_op", None)
    if name is None or tangents[0] is None:
        return
    outer = levels[:-1]
    if any(t is not None for t in tangents[1:]) or any(
            level in getattr(a, "__dict__", {}).get("_fw_tangents", ())
            for a in (*args, tangents[0]) for level in outer):
        raise _no_formula(name)


_in_place = [False]  # whether the op :func:`_check_formula` checks runs for an in-place form


def _view_tangent(cls: Any, args: tuple, kwargs: dict, tangents: list, out: Any
                  ) -> list | None:
    """A view's tangent, as torch's: the same view of its input's tangent (which make_dual
    laid out as the primal), of the tangent's own dtype and sharing its memory, so an in-place
    op on the view or on its base changes both. None for an op that makes no view."""
    from ..backend import element_strides

    if not isinstance(out, T.Tensor) or out._view_of is None or tangents[0] is None \
            or any(t is not None for t in tangents[1:]) \
            or element_strides(tangents[0]._data) != element_strides(args[0]._data):
        return None
    return [cls.apply(tangents[0], *args[1:], **kwargs)]


def _linear_tangent(cls: Any, args: tuple, kwargs: dict, tangents: list) -> list | None:
    """A linear op's tangent, as torch's ``auto_linear`` formula: the op itself on its input's
    tangent (``sum``'s tangent is ``self_t.sum(dtype=dtype)``: its dtype, its ``SumBackward0``
    where it records a graph). None for another op, or tangents beyond the first input's."""
    if not getattr(cls, "auto_linear", False) or tangents[0] is None \
            or any(t is not None for t in tangents[1:]):
        return None
    return [cls.apply(tangents[0], *args[1:], **kwargs)]


def _formula_tangent(cls: Any, args: tuple, kwargs: dict, tangents: list, out: Any,
                     dual: bool) -> list | None:
    """The tangent from the op's own ``tangent_formula(input, tangent, result, dual,
    **kwargs)``, where torch's formula gives values (exact zeros, dtypes) that the backward's
    would not (softmax's ``logsumexp_jvp``); ``dual``: the level is ``dual_level()``'s, not a
    ``torch.func`` transform's. None for an op without one, or tangents beyond the first
    input's."""
    formula = getattr(cls, "tangent_formula", None)
    if formula is None or tangents[0] is None or any(t is not None for t in tangents[1:]):
        return None
    tangent = formula(args[0], tangents[0], out, dual, **kwargs)
    return list(tangent) if isinstance(tangent, tuple) else [tangent]  # (one per output)


def _promoted(cls: Any, args: tuple, kwargs: dict, jvps: list, tangents: list) -> list:
    """The op's tangents in the dtype torch's formulas give them: computed from the input
    tangents with the primals, they take the tangents' dtypes promoted with the output's (a
    float64 tangent of a float32 primal stays float64 through ``sin``, ``*``, ``sum``); a
    dtype conversion converts its tangent too, and so does a reduction's ``dtype=``
    (torch's formula is the op itself on the tangent: ``self_t.sum(dtype=dtype)``), except
    where torch's formula ignores it (``prod``'s: an op with ``tangent_promoted``); ``copy_``
    gives the destination ``src``'s tangent in its own dtype."""
    from ..ops.inplace import Copy
    from ..ops.shape import ToCopy

    given = [t.dtype for t in tangents if t is not None]
    if cls is ToCopy:
        return jvps
    if cls is Copy and tangents[1] is not None:  # torch's copy_ takes src's tangent as it is
        return [tangents[1].broadcast_to(jvps[0].shape).clone()]
    if kwargs.get("dtype") is not None and not getattr(cls, "tangent_promoted", False):
        return [None if jvp is None else jvp.to(kwargs["dtype"]) for jvp in jvps]
    if _has_dims(args):  # torch's formulas promote as result_type: beside an operand with
        given = [t.dtype for t in tangents if t is not None and t.dim()]  # dims, a 0-d
        # tangent yields (its dtype as float as theirs)
    promoted = []
    for jvp in jvps:
        dtype = None if jvp is None else functools.reduce(promote_types, given, jvp.dtype)
        promoted.append(jvp if dtype is None or dtype is jvp.dtype else jvp.to(dtype))
    return promoted


def _has_dims(args: tuple) -> bool:
    """Whether an op's operands (alone or in a list) hold a tensor with dims."""
    return any(isinstance(a, T.Tensor) and a.dim() for arg in args
               for a in (arg if isinstance(arg, (list, tuple)) else (arg,)))


def _wrapped_float_tangent(cls: Any, args: tuple, kwargs: dict, tangents: list
                           ) -> list | None:
    """``+ - * /`` of a 0-d tensor and a Python float: torch's formula meets the float as a
    double "wrapped number" tensor, which no longer yields beside the 0-d tangent, so the
    tangent is computed in float64 (a quirk of torch's: a float32 primal, a float64 tangent;
    a tensor with dims keeps its dtype). None for any other call."""
    from ..ops.pointwise import Add, Div, Mul, Sub

    if cls not in (Add, Sub, Mul, Div) or tangents[0] is None or len(args) != 2 \
            or type(args[1]) is not float or args[0].dim() or kwargs.get("rounding_mode"):
        return None
    tangent = tangents[0].to(float64)
    return [tangent if cls in (Add, Sub) else cls.apply(tangent, args[1])]


def _op_tangents(cls: Any, args: tuple, kwargs: dict, tangents: list) -> list:
    """``J v`` for each output of ``cls(*args)``: the gradient, with respect to a dummy output
    gradient ``u``, of ``<J^T u, v>``.

    In grad mode, where a primal or a tangent requires grad, the tangent is differentiable
    (it has a grad_fn, as torch's): it is computed from the primals themselves, with
    create_graph. Otherwise from detached copies, and it is a plain tensor. Inputs without a
    tangent add nothing: a zero term would turn torch's ``-0.`` entries into ``+0.``. Only where
    a tangent would then have no grad_fn that torch's gives it (torch's formulas multiply a
    zero tangent by a primal that requires grad) are zero tangents added, for that grad_fn."""
    record = grad_mode._state.grad_enabled and any(
        isinstance(v, T.Tensor) and v.requires_grad for v in (*args, *tangents))
    result = _jvps(cls, args, kwargs, tangents, record)
    if record and any(t is not None and not t.requires_grad for t in result):
        wrapped = _numbers_wrapped(cls, args)
        zeros = [_zeros(a) if t is None and isinstance(a, T.Tensor)
                 and a.is_floating_point() else t for a, t in zip(wrapped, tangents)]
        if zeros != tangents:
            result = [_with_values_of(plain, linked) for plain, linked
                      in zip(result, _jvps(cls, wrapped, kwargs, zeros, record))]
    return result


def _numbers_wrapped(cls: Any, args: tuple) -> tuple:
    """``args`` with each number a 0-d tensor of the tensor operand's dtype, for an op whose
    torch formula reads a number's (zero) tangent (``tangent_of_number``); else as they are."""
    if not getattr(cls, "tangent_of_number", False):
        return args
    like = next(a for a in args if isinstance(a, T.Tensor))
    return tuple(a if isinstance(a, T.Tensor) or not isinstance(a, (int, float))
                 else like.new_tensor(a) for a in args)


def _with_values_of(plain: T.Tensor | None, linked: T.Tensor | None) -> T.Tensor | None:
    """``linked`` (the tangent with the zero terms, for its grad_fn) holding ``plain``'s
    values: torch's zero tangents are exact zeros, so ``0 * nan`` adds no nan to its terms."""
    if plain is None or linked is None or plain.requires_grad:
        return plain if linked is None else linked if plain is None else plain
    linked._data = plain._data
    return linked


def _jvps(cls: Any, args: tuple, kwargs: dict, tangents: list, record: bool) -> list:
    from .. import autograd
    from ..ops.shape import Alias

    with grad_mode._recording(True):
        # each input its own node (x * x has two), joined to the primal if it is recorded
        inputs = [(Alias.apply(a) if record and a.requires_grad else
                   internal_leaf(copy_tangents(a, a.detach())._set_requires_grad(True)))
                  if t is not None else a
                  for a, t in zip(args, tangents)]
        outs = cls.apply(*inputs, **kwargs)
        outs = outs if isinstance(outs, tuple) else (outs,)
        live = [o for o in outs if o.requires_grad]
        us = [internal_leaf(o.detach().mul(0)._set_requires_grad(True)) for o in live]
        wrt = [i for i, t in zip(inputs, tangents) if t is not None]
        _deriving[0] += 1
        try:
            grads = autograd.grad(live, wrt, grad_outputs=us, create_graph=True,
                                  allow_unused=True)
        finally:
            _deriving[0] -= 1
        total = None
        for g, t in zip(grads, [t for t in tangents if t is not None]):
            if g is not None:
                total = (g * t).sum() if total is None else total + (g * t).sum()
        if total is None or not total.requires_grad:
            jvps = [None] * len(us)
        else:
            jvps = autograd.grad(total, us, allow_unused=True, create_graph=record or
                                 bool(levels))  # a graph for the outer levels' tangents
    by_output = dict(zip(map(id, live), jvps))
    return [_zero_if_none(by_output.get(id(o)), o, record) if o.requires_grad else None
            for o in outs]


_deriving = [0]  # backward passes now run to derive an op's tangent (see _jvps)


def deriving_tangent() -> bool:
    """Whether the backward now running derives a forward-mode tangent: an op whose backward
    formula refuses what its forward formula takes (addcdiv's of an integer tensor2) lets
    it through then.

    >>> deriving_tangent()
    False
    """
    return bool(_deriving[0])


def internal_leaf(t: T.Tensor) -> T.Tensor:
    """``t``, a leaf a transform made for its own graph: a result that reaches no other leaf
    leaves the transforms detached (``func``'s release), as torch's would not require grad.

    >>> is_internal_leaf(internal_leaf(minitorch.ones(1).requires_grad_()))
    True
    """
    t._transform_input = True
    return t


def is_internal_leaf(t: T.Tensor) -> bool:
    """Whether ``t`` is a leaf a transform made (:func:`internal_leaf`)."""
    return getattr(t, "_transform_input", False)


def _zeros(t: T.Tensor) -> T.Tensor:
    """A zero tangent like ``t``: +0. everywhere, as torch's (``t * 0`` is -0. where t < 0)."""
    from .._creation import zeros_like

    return zeros_like(t.detach())


def _zero_if_none(tangent: T.Tensor | None, out: T.Tensor, record: bool) -> T.Tensor:
    if tangent is None:
        return _zeros(out)
    return tangent if record else copy_tangents(tangent, tangent.detach())


def custom_jvp(cls: Any, ctx: Any, args: tuple, outputs: Any) -> Any:
    """Give the outputs of a custom Function the tangents its ``jvp`` computes."""
    tangents = [tangent_of(a) for a in args]
    if not any(t is not None for t in tangents):
        return outputs
    given = [t if t is not None else (_zeros(a) if isinstance(a, T.Tensor) else None)
             for a, t in zip(args, tangents)]
    level = levels[-1]
    with _outer():  # in the caller's grad mode: a tangent may record a graph, as torch's
        ctx._in_jvp = True
        try:
            result = cls.jvp(ctx, *given)
        finally:
            ctx._in_jvp = False
    results = outputs if isinstance(outputs, tuple) else (outputs,)
    for out, tangent in zip(results, _checked_jvps(result, results)):
        if tangent is not None:
            give(out, level, tangent)
    return outputs


def _checked_jvps(result: Any, outputs: tuple) -> tuple:
    """What a Function's ``jvp`` returned, one tangent per output, checked as torch does: as
    many as outputs, each a tensor of its output's size, None where (and only where) the
    output is not a differentiable tensor."""
    jvps = result if isinstance(result, tuple) else (result,)
    for i, tangent in enumerate(jvps):
        if tangent is not None and not isinstance(tangent, T.Tensor):
            raise RuntimeError(f"expected Variable or None (got {type(tangent).__name__}) for "
                               f"grad output {i}.")
    if len(jvps) != len(outputs):
        raise RuntimeError("Function's jvp returned an invalid number of forward gradients "
                           f"(expected {len(outputs)} but got {len(jvps)})")
    for i, (out, tangent) in enumerate(zip(outputs, jvps)):
        differentiable = isinstance(out, T.Tensor) and (out.is_floating_point()
                                                        or out.is_complex())
        if tangent is None and differentiable:  # torch's assert on an undefined tangent
            raise RuntimeError(
                "(new_grad_base.is_floating_point() || new_grad_base.is_complex()) && "
                "(self_base.is_floating_point() || self_base.is_complex()) INTERNAL ASSERT "
                'FAILED at "/__w/pytorch/pytorch/torch/csrc/autograd/autograd_meta.cpp":159, '
                "please report a bug to PyTorch. Expected both tensor and its forward grad to "
                "be floating point or complex")
        if tangent is not None and not differentiable:
            raise RuntimeError(
                f"Function's jvp returned a gradient at position {i}, but  the corresponding "
                "forward output is not a differentiable Tensor.You should return None at "
                "that position instead.")
        if tangent is not None and tangent.shape != out.shape:
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of the "
                "original Tensor, this is not supported. Tensor is of size "
                f"{list(out.shape)} while the given forward gradient is of size "
                f"{list(tangent.shape)}.")
    return jvps


def inplace(t: T.Tensor, op: Any, others: tuple, kwargs: dict, ufunc: Any) -> T.Tensor:
    """An in-place op on dual tensors: the op runs as usual, and ``t`` takes the tangent the
    same op computes out of place on a copy of its old values. That tangent is written in
    place, as torch does: refused, in torch's words, where it is a leaf that requires grad
    (or a view of one)."""
    for tangent in t.__dict__.get("_fw_tangents", {}).values():
        T.check_inplace_allowed(tangent)
    # torch's tangent formula reads self's old values: in its graph where that is recorded
    # (a primal or a tangent requires grad)
    record = grad_mode._state.grad_enabled and any(
        isinstance(v, T.Tensor) and v.requires_grad for v in
        (t, *others, *(tangent_of(v) for v in (t, *others))))
    with _suspended():
        old = copy_tangents(t, t.clone() if record else
                            T.Tensor._make(t._xp.asarray(t._data, copy=True)))
    _in_place[0] = True
    try:
        with grad_mode._recording(record):
            result = op(old, *others, **kwargs)
    finally:
        _in_place[0] = False
    with _suspended():
        t._inplace(op, *others, ufunc=ufunc, **kwargs)
    for level, tangent in result.__dict__.get("_fw_tangents", {}).items():
        _write_tangent(t, level, tangent)
    return t


def _write_tangent(t: T.Tensor, level: int, new: T.Tensor) -> None:
    """After an in-place op, ``t``'s tangent at ``level`` holds ``new``, written in place as
    torch's ``self_t.copy_(...)``: a view's tangent is a view of its base's, so the base's
    tangent changes too. A plain view of a tensor without a tangent gives its base a zero
    tangent first, as torch does; a tangent that requires grad is replaced instead."""
    own = t.__dict__.get("_fw_tangents", {}).get(level)
    if own is None and t._base is not None \
            and t._base.__dict__.get("_fw_tangents", {}).get(level) is None:
        base = t._base
        give(base, level, _zeros(base))
        from ..backend import namespace, setitem, view_key

        tangent = base._fw_tangents[level]._data
        setitem(namespace(tangent), tangent, view_key(base._data, t._data), new._data)
        new = new.to(base.dtype)
    if own is None or own.requires_grad:
        give(t, level, new)
        return
    with _suspended(), grad_mode._recording(False), _batched_function.own_write():
        own.copy_(new)


def tangent_suffix(t: T.Tensor) -> list[str]:
    """``tangent=...`` as torch prints it after a dual tensor's values."""
    tangent = tangent_of(t)
    if tangent is None:
        return []
    return [f"tangent={float(tangent.item())!r}" if tangent.dim() == 0
            else f"tangent={tangent!r}"]
