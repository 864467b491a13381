"""Custom ``autograd.Function``: ctx, saved tensors, flags, the checks on what backward
returns, once_differentiable and setup_context.

Every Function is defined once per library (``functions(L)``) and the same program runs on
minitorch and live torch 2.13; results, node names and error messages must agree.
"""

from __future__ import annotations

import functools
import types
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from oracle import assert_same, assert_same_error, mt, raised_by

LIBS = pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])


@functools.cache
def functions(L: Any) -> types.SimpleNamespace:
    """The custom Functions used below, written against library ``L``."""
    Function = L.autograd.Function
    once_differentiable = L.autograd.function.once_differentiable
    ns = types.SimpleNamespace(seen=[])

    class Cube(Function):
        """x**3 with its input and a non-tensor on ctx."""

        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            ctx.power = 3
            return x**3

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            return g * ctx.power * x ** (ctx.power - 1)

    class ScaleShift(Function):
        """a * k + b, k a Python number: a non-tensor argument gets None."""

        @staticmethod
        def forward(ctx: Any, a: Any, k: float, b: Any) -> Any:
            ctx.k = k
            return a * k + b

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * ctx.k, None, g

    class Needs(Function):
        """Records ``needs_input_grad`` and the grad mode seen inside forward and backward."""

        @staticmethod
        def forward(ctx: Any, a: Any, b: Any, k: float, c: Any) -> Any:
            ns.seen.append(("forward", ctx.needs_input_grad, L.is_grad_enabled()))
            return a * k + b * c

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            ns.seen.append(("backward", ctx.needs_input_grad, L.is_grad_enabled()))
            return (g if ctx.needs_input_grad[0] else None, None, None,
                    g if ctx.needs_input_grad[3] else None)

    class AddOneInPlace(Function):
        """An in-place forward declared with mark_dirty."""

        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g

    class ValuesAndIndex(Function):
        """Two outputs, the second (integer) marked non-differentiable."""

        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            index = L.tensor([1, 0])
            ctx.mark_non_differentiable(index)
            return x * 2, index

        @staticmethod
        def backward(ctx: Any, g_values: Any, g_index: Any) -> Any:
            ns.seen.append(("index grad", None if g_index is None else g_index.tolist()))
            return g_values * 2

    class TwoOutputs(Function):
        """(2x, 3x) with a switch for set_materialize_grads."""

        @staticmethod
        def forward(ctx: Any, x: Any, materialize: bool) -> Any:
            ctx.set_materialize_grads(materialize)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx: Any, g1: Any, g2: Any) -> Any:
            ns.seen.append(tuple(None if g is None else g.tolist() for g in (g1, g2)))
            total = 0
            if g1 is not None:
                total = total + g1 * 2
            if g2 is not None:
                total = total + g2 * 3
            return total, None

    class OnceSquare(Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @once_differentiable
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            return 2 * x * g

    class Identity(Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g

    class Broadcasting(Function):
        """Its backward returns a gradient of the output's (broadcast) shape."""

        @staticmethod
        def forward(ctx: Any, row: Any) -> Any:
            return row * L.ones(2, 3, dtype=row.dtype)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 2

    class ToDouble(Function):
        """Its backward returns float64 for a float32 input."""

        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g.double() * 2

    class NewStyle(Function):
        """forward without ctx, plus setup_context."""

        @staticmethod
        def forward(x: Any, k: float) -> Any:
            return x.sin() * k

        @staticmethod
        def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
            x, k = inputs
            ctx.k = k
            ctx.save_for_backward(x)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            return g * ctx.k * x.cos(), None

    class Saver(Function):
        """Saves its input and None; reads both back in backward."""

        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x, None)
            return x.exp()

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            x, nothing = ctx.saved_tensors
            assert nothing is None
            return g * x.exp()

    for cls in (Cube, ScaleShift, Needs, AddOneInPlace, ValuesAndIndex, TwoOutputs, OnceSquare,
                Identity, Broadcasting, ToDouble, NewStyle, Saver):
        setattr(ns, cls.__name__, cls)
    return ns


def returning(L: Any, name: str, grads: Callable[[Any], tuple], n_inputs: int = 1) -> type:
    """A Function ``name`` whose forward multiplies its inputs and whose backward returns
    ``grads(g)`` — for the checks on what backward returns."""

    def forward(ctx: Any, *args: Any) -> Any:
        out = args[0] * 1
        for a in args[1:n_inputs]:
            out = out * a
        return out

    def backward(ctx: Any, g: Any) -> Any:
        return grads(g)

    return type(name, (L.autograd.Function,), {"forward": staticmethod(forward),
                                               "backward": staticmethod(backward)})


def leaf(L: Any, values: list[float]) -> Any:
    return L.tensor(values, dtype=L.float64, requires_grad=True)


# ------------------------------------------------------------------ results against torch


def _cube(L: Any) -> tuple:
    x = leaf(L, [0.5, -2.0, 1.5])
    y = functions(L).Cube.apply(x)
    y.sum().backward()
    return y, x.grad


def _cube_double_backward(L: Any) -> tuple:
    x = leaf(L, [0.5, -2.0, 1.5])
    (g,) = L.autograd.grad(functions(L).Cube.apply(x).sum(), x, create_graph=True)
    (gg,) = L.autograd.grad(g.sum(), x)
    return g, gg


def _non_tensor_argument(L: Any) -> tuple:
    a, b = leaf(L, [1.0, 2.0]), leaf(L, [3.0, 4.0])
    y = functions(L).ScaleShift.apply(a, 2.5, b)
    y.sum().backward()
    return y, a.grad, b.grad


def _mark_dirty(L: Any) -> tuple:
    x = leaf(L, [1.0, 2.0])
    a = x * 2
    out = functions(L).AddOneInPlace.apply(a)
    assert out is a, "the dirty input itself is returned"
    assert type(a.grad_fn).__name__ == "AddOneInPlaceBackward"
    (out * out).sum().backward()
    return out, x.grad


def _non_differentiable_output(L: Any) -> tuple:
    x = leaf(L, [1.0, 2.0])
    values, index = functions(L).ValuesAndIndex.apply(x)
    assert index.grad_fn is None and not index.requires_grad
    values.sum().backward()
    return values, index, x.grad


def _identity_returns_new_tensor(L: Any) -> tuple:
    x = leaf(L, [1.0, 2.0])
    y = functions(L).Identity.apply(x)
    assert y is not x and not y.is_leaf
    (y * 3).sum().backward()
    return y, x.grad


def _broadcast_gradient_summed(L: Any) -> tuple:
    row = leaf(L, [1.0, 2.0, 3.0])
    functions(L).Broadcasting.apply(row).sum().backward()
    return (row.grad,)


def _gradient_cast_to_input_dtype(L: Any) -> tuple:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    functions(L).ToDouble.apply(x).sum().backward()
    return (x.grad,)


def _setup_context(L: Any) -> tuple:
    x = leaf(L, [0.3, 1.2])
    y = functions(L).NewStyle.apply(x, 2.0)
    assert type(y.grad_fn).__name__ == "NewStyleBackward"
    y.sum().backward()
    return y, x.grad


def _saved_none(L: Any) -> tuple:
    x = leaf(L, [0.3, 1.2])
    functions(L).Saver.apply(x).sum().backward()
    return (x.grad,)


def _trailing_nones(L: Any) -> tuple:
    x = leaf(L, [1.0, 2.0])
    extra = returning(L, "Extra", lambda g: (g * 2, None, None))
    extra.apply(x).sum().backward()
    return (x.grad,)


def _none_for_input_that_requires_grad(L: Any) -> tuple:
    x, w = leaf(L, [1.0, 2.0]), leaf(L, [3.0, 4.0])
    first_only = returning(L, "FirstOnly", lambda g: (g, None), n_inputs=2)
    first_only.apply(x, w).sum().backward()
    return x.grad, w.grad


def _grad_for_input_without_grad(L: Any) -> tuple:
    x = leaf(L, [1.0, 2.0])
    both = returning(L, "Both", lambda g: (g, g), n_inputs=2)
    both.apply(x, L.ones(2, dtype=L.float64)).sum().backward()
    return (x.grad,)


RESULTS = {f.__name__.strip("_"): f for f in [
    _cube, _cube_double_backward, _non_tensor_argument, _mark_dirty, _non_differentiable_output,
    _identity_returns_new_tensor, _broadcast_gradient_summed, _gradient_cast_to_input_dtype,
    _setup_context, _saved_none, _trailing_nones, _none_for_input_that_requires_grad,
    _grad_for_input_without_grad,
]}


@pytest.mark.parametrize("name", RESULTS)
def test_function_results_like_torch(name: str) -> None:
    want, got = RESULTS[name](torch), RESULTS[name](mt)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        if w is None:
            assert g is None, f"result {i}: expected None"
        else:
            assert_same(g, w, f"result {i}")


@LIBS
def test_node_class_and_next_functions(L: Any) -> None:
    x = leaf(L, [1.0, 2.0])
    b = L.ones(2, dtype=L.float64)
    y = functions(L).ScaleShift.apply(x, 2.0, b)
    node = y.grad_fn
    assert type(node).__name__ == "ScaleShiftBackward" and node.name() == "ScaleShiftBackward"
    assert str(y) == "tensor([3., 5.], dtype=torch.float64, grad_fn=<ScaleShiftBackward>)"
    # one entry per *tensor* argument: the float 2.0 has none
    (acc, nr), (nothing, nr2) = node.next_functions
    assert acc.variable is x and (nothing, nr, nr2) == (None, 0, 0)
    assert isinstance(node, L.autograd.function.BackwardCFunction)


@LIBS
def test_two_outputs_share_one_node(L: Any) -> None:
    x = leaf(L, [1.0, 2.0])
    p, q = functions(L).TwoOutputs.apply(x, True)
    assert p.grad_fn is q.grad_fn
    (p.sum() + (q * 2).sum()).backward()
    assert x.grad.tolist() == [8.0, 8.0]


@LIBS
def test_needs_input_grad(L: Any) -> None:
    seen = functions(L).seen
    seen.clear()
    x = leaf(L, [1.0, 2.0])
    c = leaf(L, [3.0, 4.0])
    functions(L).Needs.apply(x, L.ones(2, dtype=L.float64), 2.0, c).sum().backward()
    flags = (True, False, False, True)
    # forward runs with grad mode off; backward (no create_graph) too
    assert seen == [("forward", flags, False), ("backward", flags, False)]
    assert x.grad.tolist() == [1.0, 1.0] and c.grad.tolist() == [1.0, 1.0]


def test_needs_input_grad_under_no_grad() -> None:
    for L in (torch, mt):
        seen = functions(L).seen
        seen.clear()
        with L.no_grad():
            out = functions(L).Needs.apply(leaf(L, [1.0]), L.ones(1), 2.0, leaf(L, [3.0]))
        assert not out.requires_grad
        assert seen == [("forward", (True, False, False, True), False)], L.__name__


@LIBS
def test_mark_non_differentiable_output_gets_zero_grad(L: Any) -> None:
    seen = functions(L).seen
    seen.clear()
    values, _ = functions(L).ValuesAndIndex.apply(leaf(L, [1.0, 2.0]))
    values.sum().backward()
    assert seen == [("index grad", [0, 0])]


@LIBS
def test_set_materialize_grads(L: Any) -> None:
    seen = functions(L).seen
    x = leaf(L, [1.0, 2.0])
    for materialize in (True, False):
        seen.clear()
        p, _ = functions(L).TwoOutputs.apply(x, materialize)
        p.sum().backward()
        assert seen == [([1.0, 1.0], [0.0, 0.0] if materialize else None)]


@LIBS
def test_mark_dirty_bumps_the_version(L: Any) -> None:
    a = leaf(L, [1.0, 2.0]) * 1
    before = a._version
    functions(L).AddOneInPlace.apply(a)
    assert a._version > before


def test_mark_dirty_version_like_torch() -> None:
    bumps = []
    for L in (mt, torch):
        a = leaf(L, [1.0, 2.0]) * 1
        functions(L).AddOneInPlace.apply(a)
        bumps.append(a._version)
    assert bumps[0] == bumps[1]


@LIBS
def test_function_under_no_grad_records_nothing(L: Any) -> None:
    x = leaf(L, [1.0, 2.0])
    with L.no_grad():
        y = functions(L).Cube.apply(x)
    assert y.grad_fn is None and not y.requires_grad


@LIBS
def test_saved_tensors_after_backward_are_freed(L: Any) -> None:
    x = leaf(L, [1.0, 2.0])
    y = functions(L).Cube.apply(x)
    y.sum().backward(retain_graph=True)
    assert y.grad_fn.saved_tensors[0] is x
    y.sum().backward()
    with pytest.raises(RuntimeError, match=r"^Trying to backward through the graph a second time"):
        y.grad_fn.saved_tensors


# ------------------------------------------------------------------ once_differentiable


def once_differentiable_twice(L: Any) -> None:
    """The Function's backward gets a grad_output that requires grad (from ``* x``), so
    create_graph records a node that refuses to be differentiated."""
    x = leaf(L, [1.0, 2.0])
    (functions(L).OnceSquare.apply(x) * x).sum().backward(create_graph=True)
    x.grad.sum().backward()


def test_once_differentiable_twice_raises_like_torch() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch: create_graph=True in backward makes a cycle
        want = raised_by(once_differentiable_twice, torch)
        got = raised_by(once_differentiable_twice, mt)
    assert str(want) == ("trying to differentiate twice a function that was marked with "
                         "@once_differentiable")
    assert_same_error(got, want)


def test_once_differentiable_twice_with_grad_raises() -> None:
    """Through autograd.grad torch 2.13 silently drops the once-differentiable path (its
    DelayedError node hangs off fresh leaves, so x = [1, 2] gets [2, 4] instead of the true
    6x = [6, 12]); minitorch refuses instead of returning a wrong gradient."""
    x = leaf(mt, [1.0, 2.0])
    (g,) = mt.autograd.grad((functions(mt).OnceSquare.apply(x) * x).sum(), x, create_graph=True)
    assert g.tolist() == [3.0, 12.0]
    with pytest.raises(RuntimeError, match=r"^trying to differentiate twice a function that "
                       r"was marked with @once_differentiable$"):
        mt.autograd.grad(g.sum(), x)


@LIBS
def test_once_differentiable_single_backward(L: Any) -> None:
    x = leaf(L, [1.0, 2.0])
    (g,) = L.autograd.grad(functions(L).OnceSquare.apply(x).sum(), x, create_graph=True)
    assert g.tolist() == [2.0, 4.0]
    assert not g.requires_grad  # its grad_output needed no grad: nothing to refuse later


# ------------------------------------------------------------------ errors (reference §5)


def _save_non_tensor(L: Any) -> None:
    saver = type("SaveInt", (L.autograd.Function,), {
        "forward": staticmethod(lambda ctx, x: (ctx.save_for_backward(x, 1), x * 1)[1]),
        "backward": staticmethod(lambda ctx, g: g)})
    saver.apply(leaf(L, [1.0]))


def _too_few_gradients(L: Any) -> None:
    returning(L, "Bad", lambda g: g, n_inputs=2).apply(leaf(L, [1.0]), leaf(L, [2.0])).backward(
        L.ones(1, dtype=L.float64))


def _too_many_gradients(L: Any) -> None:
    returning(L, "ExtraT", lambda g: (g, g)).apply(leaf(L, [1.0])).sum().backward()


def _gradient_for_non_tensor(L: Any) -> None:
    bad4 = returning(L, "Bad4", lambda g: (g, g), n_inputs=2)
    bad4.apply(leaf(L, [1.0, 2.0, 3.0]), 2.0).sum().backward()


def _gradient_of_wrong_shape(L: Any) -> None:
    bad3 = returning(L, "Bad3", lambda g: L.ones(5, dtype=L.float64))
    bad3.apply(leaf(L, [1.0, 2.0, 3.0])).sum().backward()


def _gradient_not_broadcastable(L: Any) -> None:
    bad3 = returning(L, "Bad3", lambda g: L.ones(1, dtype=L.float64))
    bad3.apply(leaf(L, [1.0, 2.0, 3.0])).sum().backward()


def _dirty_leaf(L: Any) -> None:
    functions(L).AddOneInPlace.apply(leaf(L, [1.0]))


def _stale_saved_input(L: Any) -> None:
    x = leaf(L, [1.0, 2.0, 3.0])
    a = x * 2
    y = functions(L).Cube.apply(a)
    a.mul_(2)
    y.sum().backward()


def _missing_backward(L: Any) -> None:
    no_backward = type("NoBackward", (L.autograd.Function,), {
        "forward": staticmethod(lambda ctx, x: x * 2)})
    no_backward.apply(leaf(L, [1.0])).sum().backward()


ERRORS = {f.__name__.strip("_"): f for f in [
    _save_non_tensor, _too_few_gradients, _too_many_gradients, _gradient_for_non_tensor,
    _gradient_of_wrong_shape, _gradient_not_broadcastable, _stale_saved_input, _missing_backward,
]}


@pytest.mark.parametrize("name", ERRORS)
def test_function_errors_like_torch(name: str) -> None:
    want = raised_by(ERRORS[name], torch)
    assert want is not None, "the scenario is wrong: torch raised nothing"
    assert_same_error(raised_by(ERRORS[name], mt), want)


def test_reference_error_texts() -> None:
    """The §5 strings, spelled out (the torch comparison above covers the rest)."""
    texts = [str(raised_by(ERRORS[name], mt)) for name in
             ("save_non_tensor", "too_few_gradients", "gradient_for_non_tensor",
              "gradient_of_wrong_shape")]
    assert texts == [
        "save_for_backward can only save variables, but argument 1 is of type int",
        "function BadBackward returned an incorrect number of gradients (expected 2, got 1)",
        "function Bad4Backward returned a gradient different than None at position 2, but the "
        "corresponding forward input was not a Variable",
        "Function Bad3Backward returned an invalid gradient at index 0 - got [5] but expected "
        "shape compatible with [3]",
    ]


def test_mark_dirty_on_leaf_error_like_torch() -> None:
    assert_same_error(raised_by(_dirty_leaf, mt), raised_by(_dirty_leaf, torch))


@pytest.mark.parametrize("value", [lambda g: [g], lambda g: 3.0], ids=["list", "float"])
def test_non_tensor_gradient_error_like_torch(value: Callable[[Any], Any]) -> None:
    def scenario(L: Any) -> None:
        returning(L, "NonTensor", value).apply(leaf(L, [1.0])).sum().backward()

    assert_same_error(raised_by(scenario, mt), raised_by(scenario, torch))


def test_gradcheck_style_finite_differences() -> None:
    """The custom NewStyle Function against central differences (independent of torch)."""
    x0 = np.array([0.3, -1.1, 2.0])
    x = mt.tensor(x0, requires_grad=True)
    functions(mt).NewStyle.apply(x, 1.5).sum().backward()
    eps = 1e-6
    numeric = (np.sin(x0 + eps) - np.sin(x0 - eps)) / (2 * eps) * 1.5
    np.testing.assert_allclose(x.grad.numpy(), numeric, rtol=1e-8)
