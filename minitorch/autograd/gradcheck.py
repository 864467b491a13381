"""Check a backward against finite differences: ``gradcheck`` and ``gradgradcheck``.

Two Jacobians of ``func`` are compared, laid out as torch prints them: one row per input
element, one column per output element.

- The *numerical* one moves one input element at a time by ±eps (in place, on a private
  copy of the input) and takes central differences of the outputs:
  ``(f(x + eps) - f(x - eps)) / (2 eps)``.
- The *analytical* one asks autograd for one vector-Jacobian product per output element,
  with a one-hot ``grad_outputs``: ``e_kᵀ J`` is column k.

They must agree elementwise: ``|a - n| <= atol + rtol * |n|``. ``fast_mode=True`` compares one
random projection ``vᵀ J u`` of both instead: two evaluations of ``func`` per input and a
couple of backward passes per output, however large the Jacobian.

The numerical Jacobian (:func:`numerical_jacobian`) and the pass rule (:func:`allclose`) are
course seams: :func:`use` plugs a student's numerical Jacobian in, and grading can switch
either reference off.

>>> import minitorch
>>> x = minitorch.randn(3, dtype=minitorch.float64, requires_grad=True)
>>> minitorch.autograd.gradcheck(lambda t: (t * t).sin(), (x,))
True
"""

from __future__ import annotations

import itertools
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

import minitorch

from .. import _args, course
from ..backend import namespace as _xp
from .function import Function
from .functional import standard_basis

__all__ = ["GradcheckError", "allclose", "gradcheck", "gradgradcheck", "numerical_jacobian",
           "use"]

_UNSUPPORTED = {
    "check_batched_forward_grad": "minitorch's gradcheck has no batched forward-mode test",
    "check_fwd_over_rev": "minitorch has no forward-over-reverse check",
}


class GradcheckError(RuntimeError):
    """Raised by :func:`gradcheck` when a gradient disagrees with finite differences.

    >>> issubclass(GradcheckError, RuntimeError)
    True
    """


@dataclass(frozen=True)
class _Settings:
    """gradcheck's options as given: torch reads eps where it first moves an input and
    checks atol and rtol only where it first compares two Jacobians."""

    eps: Any
    atol: Any
    rtol: Any
    nondet_tol: float
    check_grad_dtypes: bool
    masked: bool


def gradcheck(
    func: Callable[..., Any],
    inputs: Any,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_batched_forward_grad: bool = False,
    check_forward_ad: bool = False,
    check_backward_ad: bool = True,
    fast_mode: bool = False,
    masked: bool | None = None,
) -> bool:
    """Compare the gradients of ``func`` at ``inputs`` with finite differences.

    Only inputs that are tensors with ``requires_grad=True`` are checked; other arguments
    are passed through. Use float64 inputs: in float32 the rounding error of ``f(x ± eps)``,
    divided by a small eps, swamps the derivative (a warning says so). Returns True, or
    raises :class:`GradcheckError` (returns False with ``raise_exception=False``).
    Besides the Jacobians it checks, as torch does, that the backward is deterministic
    (within ``nondet_tol``), scales with ``grad_output``, and accepts undefined (None)
    output gradients. ``check_forward_ad`` compares the Jacobian that forward-mode AD
    gives (one jvp per input element) with the same finite differences. ``masked`` only
    loosens the grad_output check to torch's allclose (minitorch's tensors are all dense);
    batched forward-mode checks are refused.

    >>> class Cube(minitorch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x); return x ** 3
    ...     @staticmethod
    ...     def backward(ctx, g):
    ...         x, = ctx.saved_tensors; return 2 * x ** 2 * g     # should be 3 * x ** 2
    >>> x = minitorch.tensor([1., 2.], dtype=minitorch.float64, requires_grad=True)
    >>> gradcheck(Cube.apply, (x,), raise_exception=False)
    False
    """
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError(
            "Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError(
            "Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    _refuse(check_batched_forward_grad=check_batched_forward_grad)
    settings = _Settings(eps, atol, rtol, nondet_tol, check_grad_dtypes, bool(masked))
    try:
        _check(func, _as_tuple(inputs), settings, fast_mode, check_undefined_grad,
               backward=check_backward_ad, forward=check_forward_ad,
               batched=check_batched_grad)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def gradgradcheck(
    func: Callable[..., Any],
    inputs: Any,
    grad_outputs: Any = None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_fwd_over_rev: bool = False,
    check_rev_over_rev: bool = True,
    fast_mode: bool = False,
    masked: bool = False,
) -> bool:
    """Check second derivatives: :func:`gradcheck` applied to the function that maps
    ``(inputs, grad_outputs)`` to the gradients of ``func`` (computed with create_graph=True).

    Without ``grad_outputs``, random ones in [-1, 1) that require grad are drawn from the
    global generator as torch's ``torch.testing.make_tensor`` draws them (the same values for
    the same seed, ``gen_non_contig_grad_outputs`` included), and ``func`` is called as often
    as torch calls it.

    >>> x = minitorch.tensor([0.5, 1.5], dtype=minitorch.float64, requires_grad=True)
    >>> gradgradcheck(lambda t: t.exp() * t, (x,))
    True
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    for option, value in (("check_undefined_grad", check_undefined_grad),
                          ("check_batched_grad", check_batched_grad)):
        if value and not check_rev_over_rev:
            raise AssertionError(
                f"Setting {option}=True requires check_rev_over_rev to be True")
    _refuse(check_fwd_over_rev=check_fwd_over_rev)
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        grad_outputs = tuple(_random_cotangent(o, gen_non_contig_grad_outputs)
                             for o in _differentiable(func(*inputs)))
    else:
        grad_outputs = _as_tuple(grad_outputs)
    return gradcheck(
        _gradients_of(func, inputs, len(grad_outputs)), inputs + grad_outputs, eps=eps,
        atol=atol, rtol=rtol, raise_exception=raise_exception, nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
        check_batched_grad=check_batched_grad, fast_mode=fast_mode, masked=masked,
    )


@contextmanager
def use(jacobian: Callable[[Callable[[Any], Any], Any, float], Any]) -> Iterator[None]:
    """Inside the block, gradcheck's slow mode takes its numerical Jacobians from ``jacobian``.

    ``jacobian(f, x, eps)`` gets a function ``f`` of one tensor returning one floating tensor
    (the input being checked moves, the other inputs stay fixed), the input ``x`` (a private
    copy) and ``eps``. It returns an array of shape ``(x.numel(), f(x).numel())``: row r is the
    derivative of the flattened output with respect to input element r. gradcheck calls it
    once per (input, output) pair; a result of another shape is refused. Fast mode builds no
    Jacobian, so it does not call ``jacobian``. The reference is back on exit (also after an
    error) and after ``minitorch.course.reset()``.

    >>> import numpy as np
    >>> x = minitorch.tensor([0.5, 1.5], dtype=minitorch.float64, requires_grad=True)
    >>> with use(lambda f, x, eps: 2 * np.eye(x.numel())):   # exact for t -> 2 t
    ...     minitorch.autograd.gradcheck(lambda t: 2 * t, (x,))
    True
    >>> with use(lambda f, x, eps: np.zeros((1, 2))):  # doctest: +ELLIPSIS
    ...     minitorch.autograd.gradcheck(lambda t: 2 * t, (x,))
    Traceback (most recent call last):
    ...
    ValueError: the numerical Jacobian has shape (1, 2), but gradcheck needs (2, 2): one row ...
    """
    with course.plug(sys.modules[__name__], "numerical_jacobian", _adapted(jacobian)):
        yield


def _adapted(jacobian: Callable[..., Any]) -> Callable[..., list]:
    """``jacobian(f, x, eps)`` -> an array, wrapped to the reference's signature and result."""

    def numerical_jacobian(func: Callable[..., Any], inputs: tuple, index: int,
                           eps: float) -> list:
        x = inputs[index]
        outputs = [o for o in _as_tuple(func(*inputs)) if _is_float(o)]
        return [_checked(jacobian(_one_output(func, inputs, index, k), x._detached_copy(), eps),
                         x, out)
                for k, out in enumerate(outputs)]

    return numerical_jacobian


def _one_output(func: Callable[..., Any], inputs: tuple, index: int, k: int) -> Callable:
    """``t -> floating output k of func``, with ``t`` in place of ``inputs[index]``. ``t``
    requires grad, as the input it stands for does (gradgradcheck's func differentiates it)."""

    def f(t: Any) -> Any:
        args = list(inputs)
        args[index] = t.detach().requires_grad_()
        return [o for o in _as_tuple(func(*args)) if _is_float(o)][k]

    return f


def _checked(result: Any, x: Any, out: Any) -> Any:
    """A plugged-in Jacobian as an array of the output's dtype, if its shape is right."""
    array = out._xp.asarray(result)
    want = (x.numel(), out.numel())
    if tuple(array.shape) != want:
        transposed = " (is it transposed?)" if tuple(array.shape) == want[::-1] else ""
        raise ValueError(
            f"the numerical Jacobian has shape {tuple(array.shape)}{transposed}, but gradcheck "
            f"needs {want}: one row per input element, one column per output element")
    return out._xp.astype(array, out._data.dtype)


def _gradients_of(func: Callable[..., Any], inputs: tuple, count: int) -> Callable[..., tuple]:
    """``(*inputs, *grad_outputs) -> gradients of func's outputs``, differentiable again
    (``count`` grad_outputs, split off the end as torch does: with none, func gets no
    inputs)."""
    wanted = [i for i, x in enumerate(inputs) if _needs_grad(x)]

    def first_derivatives(*args: Any) -> tuple:
        xs, cotangents = args[:-count], args[-count:]
        grads = minitorch.autograd.grad(
            _differentiable(func(*xs)), [xs[i] for i in wanted], cotangents,
            create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return first_derivatives


def _random_cotangent(output: Any, non_contiguous: bool = False) -> Any:
    """torch's ``make_tensor(shape, low=-1, high=1, noncontiguous=...)``: ``uniform_(-1, 1)``
    from the global generator; a non-contiguous one (of more than one element) draws twice as
    many along the last dim and keeps every second, from the second on (same values here, in
    a contiguous tensor)."""
    dtype = output.dtype if output.is_floating_point() else minitorch.float64
    shape = tuple(output.shape)
    if not (non_contiguous and output.numel() > 1):
        return minitorch.empty(shape, dtype=dtype).uniform_(-1, 1).requires_grad_()
    doubled = minitorch.empty((*shape[:-1], 2 * shape[-1]), dtype=dtype).uniform_(-1, 1)
    return doubled[..., 1::2].contiguous().requires_grad_()


def _refuse(**options: bool) -> None:
    """Options minitorch cannot honour are accepted only at their (off) defaults."""
    for name, value in options.items():
        if value:
            raise NotImplementedError(
                f"gradcheck option {name}=True is not supported: {_UNSUPPORTED[name]}.")


# ---------------------------------------------------------------------------- the checks


@dataclass(frozen=True)
class _Call:
    """``func`` evaluated at ``inputs``, with the positions gradcheck looks at."""

    func: Callable[..., Any]
    inputs: tuple
    floats: list  # the floating outputs (those with a numerical Jacobian)
    inputs_checked: list  # indices of the inputs that require grad
    outputs_checked: list  # indices into ``floats`` of the outputs that require grad

    @classmethod
    def of(cls, func: Callable[..., Any], inputs: tuple) -> _Call:
        out = func(*inputs)
        _differentiable(out)  # torch reads every output's requires_grad first
        floats = [o for o in _as_tuple(out) if _is_float(o)]
        return cls(func, inputs, floats,
                   [i for i, x in enumerate(inputs) if _needs_grad(x)],
                   [k for k, o in enumerate(floats) if o.requires_grad])

    @property
    def diff_inputs(self) -> list:
        return [self.inputs[i] for i in self.inputs_checked]

    @property
    def diff_outputs(self) -> list:
        return [self.floats[k] for k in self.outputs_checked]


def _check(func: Callable[..., Any], inputs: tuple, settings: _Settings, fast_mode: bool,
           check_undefined_grad: bool, backward: bool = True, forward: bool = False,
           batched: bool = False) -> None:
    """torch's checks in torch's order, calling ``func`` as often as torch does: once, then
    twice per central difference, once per forward-mode Jacobian column, twice per input for
    undefined tangents, and once (plus once per output where there are several) for undefined
    output gradients."""
    _check_inputs(inputs)
    call = _Call.of(func, inputs)
    if backward:
        _fast_check(call, settings) if fast_mode else _slow_check(call, settings)
    if forward:
        _fast_forward_check(call, settings) if fast_mode else _slow_forward_check(call, settings)
        if check_undefined_grad:
            _check_undefined_tangents(call)
    if backward:
        if batched:
            for i, output in enumerate(call.diff_outputs):
                _check_batched_grad(output, call.diff_inputs, i)
        _check_zero_grad_outputs(call.diff_outputs, call.diff_inputs, settings.masked)
        if check_undefined_grad:
            _check_undefined_grad(func, inputs, call.diff_inputs)


_FAILED_NONDET = """

NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""

_FAILED_BATCHED_GRAD = """
gradcheck or gradgradcheck failed while testing batched gradient computation.
This could have been invoked in a number of ways (via a test that calls
gradcheck/gradgradcheck directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_grad=False` and/or `check_batched_gradgrad=False`.

If you're modifying an existing operator that supports batched grad computation,
or wish to make a new operator work with batched grad computation, please read
the following.

To compute batched grads (e.g., jacobians, hessians), we vmap over the backward
computation. The most common failure case is if there is a 'vmap-incompatible
operation' in the backward pass. Please see
NOTE: [How to write vmap-compatible backward formulas]
in the codebase for an explanation of how to fix this.
""".strip()


def _check_batched_grad(output: Any, inputs: list, output_idx: int) -> None:
    """torch's ``_test_batched_grad``: the vector-Jacobian products of two random
    ``grad_outputs`` (drawn from the global generator), one by one and stacked, against the
    same products computed in one call under ``vmap``."""
    def vjp(v: Any) -> tuple:
        grads = minitorch.autograd.grad(output, inputs, v, retain_graph=True, allow_unused=True)
        return tuple(minitorch.zeros([], dtype=x.dtype).expand(x.shape) if g is None else g
                     for g, x in zip(grads, inputs))

    grad_outputs = [minitorch.randn_like(output) for _ in range(2)]
    expected = [minitorch.stack(shards) for shards in zip(*(vjp(g) for g in grad_outputs))]
    try:
        result = minitorch.func.vmap(vjp)(minitorch.stack(grad_outputs))
    except RuntimeError as ex:
        raise GradcheckError(f"While computing batched gradients, got: {ex}\n\n"
                             f"{_FAILED_BATCHED_GRAD}") from ex
    for input_idx, (res, exp) in enumerate(zip(result, expected)):
        if not minitorch.allclose(res, exp):
            raise GradcheckError(f"For output {output_idx} and input {input_idx}:\n\n"
                                 f"{_FAILED_BATCHED_GRAD}\n\nGot:\n{res}\n\nExpected:\n{exp}")


def _check_inputs(inputs: tuple) -> None:
    checked = [i for i, x in enumerate(inputs) if _needs_grad(x)]
    for i in checked:
        x = inputs[i]
        if x.dtype is not minitorch.float64:
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point "
                "or complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. ", stacklevel=4)
        if not all(step > 0 or size <= 1 for step, size in zip(x.stride(), x.shape)):
            raise RuntimeError(
                f"The {i}th input has a dimension with stride 0. gradcheck only supports inputs "
                "that are non-overlapping to be able to compute the numerical gradients "
                "correctly. You should call .contiguous on the input before passing it to "
                "gradcheck.")
    if not checked:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")


def _slow_check(call: _Call, settings: _Settings) -> None:
    """Full Jacobians, one per (differentiable input, differentiable output) pair."""
    eps = _moved_step(call, settings.eps)
    numerical = [numerical_jacobian(call.func, call.inputs, i, eps) for i in call.inputs_checked]
    if not call.outputs_checked:
        _expect_zero(numerical)
        return
    for out_i, k in enumerate(call.outputs_checked):
        output = call.floats[k]
        analytical = _analytical(output, call.diff_inputs, standard_basis(output), settings)
        for in_j, a in enumerate(analytical):
            n = numerical[in_j][k]
            if not _agree(a, n, settings.rtol, settings.atol):
                raise GradcheckError(_mismatch(out_i, in_j, _tensor(n), _tensor(a)))


def _expect_zero(numerical: list) -> None:
    """With no differentiable output, every numerical Jacobian (per input, per output) must be
    zero."""
    if any(_xp(n).any(n != 0) for per_input in numerical for n in per_input):
        raise GradcheckError("Numerical gradient for function expected to be zero")


def _fast_check(call: _Call, settings: _Settings) -> None:
    """Compare ``vᵀ(J u)`` (J u by one central difference along u) with ``(vᵀJ) u``."""
    generator = minitorch.Generator()
    us = [_unit_vector(generator, x) for x in call.diff_inputs]
    vs = [_unit_vector(generator, o) for o in call.diff_outputs]
    if not call.outputs_checked:  # torch moves every output here, integer ones too
        for i, u in zip(call.inputs_checked, us):
            for ju in _numerical_jvp(call, i, u, settings.eps, _tensor_outputs):
                if ju.shape[0] and _tensor(_xp(ju).max(_xp(ju).abs(ju))) > settings.nondet_tol:
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    jus = [_numerical_jvp(call, i, u, settings.eps) for i, u in zip(call.inputs_checked, us)]
    vjs = [_analytical(o, call.diff_inputs, [_shaped(v, o)], settings)
           for o, v in zip(call.diff_outputs, vs)]
    for in_i, (u, ju) in enumerate(zip(us, jus)):
        for out_j, (k, v, vj) in enumerate(zip(call.outputs_checked, vs, vjs)):
            n = _dot(v, ju[k])
            a = _dot(vj[in_i][:, 0], u)
            atol = settings.atol * _total(u) * _total(v)
            if not _agree(np.asarray(a), np.asarray(n), settings.rtol, atol):
                raise GradcheckError(_mismatch(out_j, in_i, n, a)
                                     + _slow_mode_report(call, in_i, out_j, settings))


def _slow_forward_check(call: _Call, settings: _Settings) -> None:
    """Forward mode: the Jacobian column by column, one unit tangent per input element (a
    jvp each), against the numerical Jacobian."""
    eps = _moved_step(call, settings.eps)
    if not call.outputs_checked:
        _expect_zero([numerical_jacobian(call.func, call.inputs, i, eps)
                      for i in call.inputs_checked])
    for in_i, i in enumerate(call.inputs_checked):
        numerical = numerical_jacobian(call.func, call.inputs, i, eps)
        analytical = _jvp_rows(call, i, _identity(call.inputs[i]))
        for out_j, k in enumerate(call.outputs_checked):
            if not _agree(analytical[k], numerical[k], settings.rtol, settings.atol):
                raise GradcheckError(_mismatch(out_j, in_i, _tensor(numerical[k]),
                                               _tensor(analytical[k]), forward=True))


def _fast_forward_check(call: _Call, settings: _Settings) -> None:
    """Forward mode, fast: ``J u`` by forward AD against ``J u`` by one central difference,
    for every floating output (torch compares those that do not require grad too)."""
    generator = minitorch.Generator()
    us = [_unit_vector(generator, x) for x in call.diff_inputs]
    for in_i, (i, u) in enumerate(zip(call.inputs_checked, us)):
        numerical = _numerical_jvp(call, i, u, settings.eps)
        analytical = _jvp_rows(call, i, [u])
        for k, (a, n) in enumerate(zip(analytical, numerical)):
            if not _agree(a[0, ...], n, settings.rtol, settings.atol * _total(u)):
                raise GradcheckError(
                    _mismatch(k, in_i, _tensor(n), _tensor(a[0, ...]), forward=True)
                    + _slow_mode_report(call, in_i, k, settings, forward=True))


def _jvp_rows(call: _Call, index: int, tangents: Any) -> list:
    """Per floating output, an array whose row r is ``J t_r``: the output's tangent when
    ``inputs[index]`` carries tangent ``t_r`` (forward-mode AD, one pass per tangent)."""
    fw = minitorch.autograd.forward_ad
    x = call.inputs[index]
    rows: list[list] = [[] for _ in call.floats]
    count = len(tangents) if isinstance(tangents, list) else tangents.shape[0]
    for r in range(count):  # by index: array-api-strict arrays refuse iteration
        t = tangents[r] if isinstance(tangents, list) else tangents[r, ...]
        args = list(call.inputs)
        with fw.dual_level():
            args[index] = fw.make_dual(x.detach(), _tensor(x._xp.reshape(t, tuple(x.shape))))
            outputs = [o for o in _as_tuple(call.func(*args)) if _is_float(o)]
            for k, out in enumerate(outputs):
                tangent = fw.unpack_dual(out).tangent
                flat = out._xp.reshape(out._data, (-1,))
                rows[k].append(flat * 0 if tangent is None else
                               out._xp.reshape(tangent.detach()._data, (-1,)))
    return [o._xp.stack(r) if r else o._xp.zeros((0, o.numel()), dtype=o._data.dtype)
            for o, r in zip(call.floats, rows)]


def _identity(x: Any) -> Any:
    return x._xp.eye(x.numel(), dtype=x._data.dtype)


def _moved_step(call: _Call, eps: Any) -> float:
    """:func:`_step`, read only where some checked input has an element to move (torch's slow
    mode never reads ``eps`` for empty inputs)."""
    moved = any(call.inputs[i].numel() for i in call.inputs_checked)
    return _step(eps) if moved else 0.0


def _step(eps: Any) -> float:
    """``eps`` as torch's numerical Jacobian uses it, subtracted in place from an element of
    an input: a real number (or 0-d tensor); anything else fails as that subtraction does.

    >>> _step(None)
    Traceback (most recent call last):
    TypeError: unsupported operand type(s) for -: 'Tensor' and 'NoneType'
    """
    if isinstance(eps, bool):  # a bool is subtracted as a bool tensor, which torch refuses
        minitorch.ops.pointwise.no_bool(None, eps)
    if _args.is_real(eps):
        return float(eps)
    if isinstance(eps, complex):
        raise AssertionError("Expected ds_dx to be real-valued, not complex.")
    if _args.is_tensor(eps):
        raise RuntimeError(f"output with shape [] doesn't match the broadcast shape "
                           f"{list(eps.shape)}")
    raise TypeError(f"unsupported operand type(s) for -: 'Tensor' and '{type(eps).__name__}'")


def _agree(analytical: Any, numerical: Any, rtol: Any, atol: Any) -> bool:
    """:func:`allclose` after torch's ``allclose`` reads ``rtol`` and ``atol``: floats (numpy
    and one-element tensors too), not negative nor nan (checked here, where torch first
    compares, not when gradcheck is called).

    >>> _agree(np.ones(1), np.ones(1), -1.0, 1e-5)
    Traceback (most recent call last):
    RuntimeError: rtol must be greater than or equal to zero, but got -1
    """
    rtol, atol = _args.reals("allclose", (rtol, "rtol", 3), (atol, "atol", 4))
    _args.tolerances(rtol, atol)
    return allclose(analytical, numerical, rtol, atol)


@course.seam
def allclose(analytical: Any, numerical: Any, rtol: float, atol: float) -> bool:
    """gradcheck's pass rule on arrays, torch's: ``|a - n| <= atol + rtol * |n|`` everywhere
    (relative to the numerical value; NaN never passes).

    >>> allclose(np.array([1.0015]), np.array([1.0]), rtol=1e-3, atol=1e-5)
    False
    """
    xp = _xp(analytical)
    return bool(xp.all(xp.abs(analytical - numerical) <= atol + rtol * xp.abs(numerical)))


def _check_zero_grad_outputs(outputs: list, diff_inputs: list, masked: bool) -> None:
    """A backward must scale with grad_output: zero grad_outputs give zero gradients (with
    ``masked``, torch's ``allclose`` to zero: within 1e-8)."""
    zeros = [minitorch.zeros_like(o) for o in outputs]
    grads = minitorch.autograd.grad(outputs, diff_inputs, zeros, allow_unused=True)
    for g, x in zip(grads, diff_inputs):
        if g is None:
            continue
        if not (minitorch.allclose(g, minitorch.zeros_like(g)) if masked
                else bool(_xp(g._data).all(g._data == 0))):
            raise GradcheckError("backward not multiplied by grad_output")
        if g.dtype is not x.dtype:
            raise GradcheckError("grad is incorrect type")
        if g.shape != x.shape:
            raise GradcheckError("grad is incorrect size")


class _UndefinedGrad(Function):
    """Identity whose backward sends an undefined (None) gradient on."""

    @staticmethod
    def forward(ctx: Any, x: Any) -> Any:
        return x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> None:
        return None


def _check_undefined_grad(func: Callable[..., Any], inputs: tuple, diff_inputs: list) -> None:
    """Backward must treat undefined output gradients as zeros: first all of them undefined,
    then (with several outputs) one at a time."""
    first = _differentiable(func(*inputs))
    for undefined in [None, *range(len(first))] if len(first) > 1 else [None]:
        fresh = first if undefined is None else _differentiable(func(*inputs))
        outputs = [_UndefinedGrad.apply(o) if undefined in (None, k) else o
                   for k, o in enumerate(fresh)]
        zeros = [minitorch.zeros_like(o) for o in outputs]
        try:
            grads = minitorch.autograd.grad(outputs, diff_inputs, zeros, allow_unused=True)
        except RuntimeError as error:
            _warn_undefined_grad_check()
            raise GradcheckError(
                "Expected backward function to handle undefined output grads. Please look at "
                '"Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'
            ) from error
        if any(g is not None and not bool(_xp(g._data).all(g._data == 0)) for g in grads):
            _warn_undefined_grad_check()
            raise GradcheckError(
                "Expected all input grads to be undefined or zero when all output grads are "
                'undefined or zero. Please look at "Notes about undefined output gradients" in '
                '"tools/autograd/derivatives.yaml"')


def _check_undefined_tangents(call: _Call) -> None:
    """Forward mode must treat a missing tangent as zero: per input that requires grad (the
    others carrying random tangents), the outputs' tangents with a zero tangent for it and
    with none must agree, as torch's ``_test_undefined_forward_mode`` checks."""
    fw = minitorch.autograd.forward_ad
    generator = minitorch.Generator()
    with fw.dual_level():
        duals = list(call.inputs)
        for i in call.inputs_checked:
            x = call.inputs[i]
            duals[i] = fw.make_dual(x.detach(), _shaped(_unit_vector(generator, x), x))
        for i in call.inputs_checked:
            dual, plain = duals[i], call.inputs[i].detach()
            duals[i] = fw.make_dual(plain, minitorch.zeros_like(plain))
            zero = [o for o in _as_tuple(call.func(*duals)) if _is_float(o)]
            duals[i] = plain
            absent = [o for o in _as_tuple(call.func(*duals)) if _is_float(o)]
            duals[i] = dual
            for k, (a, b) in enumerate(zip(zero, absent)):
                ta, tb = fw.unpack_dual(a).tangent, fw.unpack_dual(b).tangent
                if ta is not None and tb is not None and not minitorch.allclose(ta, tb):
                    raise GradcheckError(
                        "Mismatch in tangent values for output with index: ", k, " when input: ",
                        plain, " has an undefined tangent value. ", " Got: ", ta,
                        " but expected: ", tb)


def _warn_undefined_grad_check() -> None:
    warnings.warn(
        "Backwards compatibility: New undefined gradient support checking feature is enabled by "
        "default, but it may break existing callers of this function. If this is true for you, "
        'you can call this function with "check_undefined_grad=False" to disable the feature',
        stacklevel=5)


# ---------------------------------------------------------------------------- Jacobians


@course.seam
def numerical_jacobian(func: Callable[..., Any], inputs: tuple, index: int,
                       eps: float) -> list:
    """d(floating outputs of ``func``)/d(``inputs[index]``) by central differences: one array
    of shape (input numel, output numel) per floating output; row r moves input element r.

    gradcheck's slow mode calls it once per input that requires grad (a course seam:
    :func:`use` plugs in another one).

    >>> x = minitorch.tensor([1., 2.], dtype=minitorch.float64)
    >>> numerical_jacobian(lambda t: t * t, (x,), 0, 1e-6)[0].round(6)
    array([[2., 0.],
           [0., 4.]])
    """
    args, data = _perturbable(inputs, index)
    xp = _xp(data)
    elements = itertools.product(*(range(n) for n in data.shape))
    columns = [_central_difference(func, args, data, element, eps, eps) for element in elements]
    if not columns:  # an empty input: only the outputs' sizes are wanted
        return [xp.zeros((0, o.size), dtype=o.dtype) for o in _float_outputs(func(*args))]
    return [xp.stack(per_output) for per_output in zip(*columns)]


def _numerical_jvp(call: _Call, index: int, u: Any, eps: Any,
                   outputs: Callable[[Any], list] | None = None) -> list:
    """``J u`` for every floating output (or every one ``outputs`` picks), by one central
    difference along ``u`` (scaled by ``eps`` first, as torch scales it: a tensor product,
    with its errors)."""
    args, data = _perturbable(call.inputs, index)
    step = (eps * _shaped(u, args[index]))._data
    # (torch's fast mode multiplies by eps, never subtracts it: a bool is a number there)
    return _central_difference(call.func, args, data, ..., step,
                               float(eps) if isinstance(eps, bool) else _step(eps),
                               outputs or _float_outputs)


def _perturbable(inputs: tuple, index: int) -> tuple[list, Any]:
    """The inputs with ``inputs[index]`` replaced by a private copy, and that copy's array
    (moving its values in place leaves the caller's tensor alone)."""
    probe = inputs[index]._detached_copy().requires_grad_()
    args = list(inputs)
    args[index] = probe
    return args, probe._data


def _central_difference(func: Callable[..., Any], args: list, data: Any, where: Any,
                        step: Any, eps: float,
                        outputs: Callable[[Any], list] | None = None) -> list:
    """``(f(x + step) - f(x - step)) / (2 eps)`` for each floating output (or each one
    ``outputs`` picks), flattened, where only ``data[where]`` moves (and is restored
    afterwards)."""
    outputs = outputs or _float_outputs
    xp = _xp(data)
    original = xp.asarray(data[where], copy=True)
    data[where] = original - step
    before = outputs(func(*args))
    data[where] = original + step
    after = outputs(func(*args))
    data[where] = original
    for a, b in zip(before, after):
        if a.shape != b.shape:
            raise AssertionError(
                "Expected `func` to return outputs with the same shape when inputs are "
                f"perturbed on index {where} by {eps}, but got: shapes {a.shape} and {b.shape}.")
    differences = (b - a for a, b in zip(before, after))  # arrays, or tensors' differences
    return [xp.reshape(getattr(d, "_data", d), (-1,)) / (2 * eps) for d in differences]


def _float_outputs(out: Any) -> list:
    """Copies of the arrays of the floating outputs (an output may share the input's array)."""
    return [o._xp.asarray(o._data, copy=True) for o in _as_tuple(out) if _is_float(o)]


def _tensor_outputs(out: Any) -> list:
    """Copies of every tensor output, differenced as tensors (as torch does: two bool
    outputs are refused, an integer one's difference is in its dtype)."""
    return [o.detach().clone() for o in _as_tuple(out) if isinstance(o, minitorch.Tensor)]


def _analytical(output: Any, inputs: list, cotangents: Any, settings: _Settings) -> list:
    """Per input, an array of shape (input numel, len(cotangents)) whose column k is
    ``cotangents[k]ᵀ J``. Computed twice: a backward must give the same answer again."""
    cotangents = list(cotangents)
    first = _vjp_columns(output, inputs, cotangents, settings.check_grad_dtypes)
    second = _vjp_columns(output, inputs, cotangents, settings.check_grad_dtypes)
    for a, b in zip(first, second):
        # torch compares a tensor with nondet_tol: a bad one fails as there
        xp = _xp(a)
        if 0 not in a.shape and _tensor(xp.asarray(xp.max(xp.abs(a - b)))) > settings.nondet_tol:
            raise GradcheckError(
                "Backward is not reentrant, i.e., running backward with same input and "
                "grad_output multiple times gives different values, although analytical "
                "gradient matches numerical gradient.The tolerance for nondeterminism was "
                f"{settings.nondet_tol}." + _FAILED_NONDET)
    return first


def _vjp_columns(output: Any, inputs: list, cotangents: list, check_dtypes: bool) -> list:
    xp = output._xp
    columns = [xp.zeros((x.numel(), len(cotangents)), dtype=x._data.dtype) for x in inputs]
    for k, v in enumerate(cotangents):
        grads = minitorch.autograd.grad(output, inputs, v, retain_graph=True, allow_unused=True)
        for column, g, x in zip(columns, grads, inputs):
            if g is None:
                continue
            if check_dtypes and g.dtype is not x.dtype:
                raise GradcheckError("Gradient has dtype mismatch")
            if g.shape != x.shape:
                raise GradcheckError("Analytical gradient has incorrect size")
            column[:, k] = xp.reshape(g._data, (-1,))
    return columns


def _slow_mode_report(call: _Call, in_i: int, out_j: int, settings: _Settings,
                      forward: bool = False) -> str:
    """After a fast-mode failure: the full Jacobians of the failing pair, as torch shows
    (``out_j`` counts the differentiable outputs, or in forward mode all floating ones)."""
    if forward and out_j >= len(call.outputs_checked):
        raise IndexError("tuple index out of range")  # torch looks it up among the former
    k = out_j if forward else call.outputs_checked[out_j]
    i = call.inputs_checked[in_i]
    numerical = numerical_jacobian(call.func, call.inputs, i, _step(settings.eps))[k]
    output = call.floats[k]
    analytical = (_jvp_rows(call, i, _identity(call.inputs[i]))[k] if forward else
                  _vjp_columns(output, call.diff_inputs, list(standard_basis(output)),
                               check_dtypes=False)[in_i])
    xp = _xp(numerical)
    worst = float(xp.max(xp.abs(numerical - analytical)))
    report = (
        "\nThe above quantities relating the numerical and analytical jacobians are computed \n"
        "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more "
        "background \nabout fast mode. Below, we recompute numerical and analytical jacobians "
        "in slow mode:\n\n"
        f"Numerical:\n {_tensor(numerical)}\nAnalytical:\n{_tensor(analytical)}\n\n"
        f"The max per-element difference (slow mode) is: {worst}.\n"
    )
    if _agree(analytical, numerical, settings.rtol, settings.atol):
        report += ("Fast gradcheck failed but element-wise differences are small. This means "
                   "that the\ntest might've passed in slow_mode! To run the slow mode, call "
                   "gradcheck/gradgradcheck\nwith `fast_mode=False` as a keyword argument.")
    return report


def _mismatch(out_i: int, in_j: int, numerical: Any, analytical: Any,
              forward: bool = False) -> str:
    mode = "computed with forward mode " if forward else ""
    return (f"Jacobian {mode}mismatch for output {out_i:d} with respect to input {in_j:d},\n"
            f"numerical:{numerical}\nanalytical:{analytical}\n")


# ---------------------------------------------------------------------------- small helpers


def _as_tuple(value: Any) -> tuple:
    if isinstance(value, tuple):
        return value
    if isinstance(value, list):
        return tuple(value)
    return (value,)


def _needs_grad(value: Any) -> bool:
    return isinstance(value, minitorch.Tensor) and value.requires_grad


def _is_float(value: Any) -> bool:
    return isinstance(value, minitorch.Tensor) and value.is_floating_point()


def _differentiable(out: Any) -> list:
    outs = _as_tuple(out)
    for o in outs:
        if not hasattr(o, "requires_grad"):  # torch's bare ``o.requires_grad`` on any output
            raise AttributeError(f"'{type(o).__name__}' object has no attribute 'requires_grad'")
    return [o for o in outs if o.requires_grad]


def _tensor(array: Any) -> Any:
    return minitorch.Tensor._make(array)


def _unit_vector(generator: Any, t: Any) -> Any:
    """A random non-negative vector of unit length with t.numel() entries, in t's dtype, drawn
    as torch draws it (float32 uniforms from a fresh generator, then cast)."""
    v = minitorch.rand(t.numel(), generator=generator).to(t.dtype)
    return (v / v.norm())._data


def _shaped(v: Any, like: Any) -> Any:
    return _tensor(like._xp.reshape(v, tuple(like.shape)))


def _dot(a: Any, b: Any) -> float:
    return float(_xp(a).sum(a * b))


def _total(v: Any) -> float:
    return float(_xp(v).sum(v))
