"""Issue #21, session 22's autograd fuzzer (fuzzx): what fresh seeds found in the
transforms — forward AD's zero tangents at a nan point, vmap's out_dims=None after an op with
no batching rule, linearize's trace, and the Jacobians of empty inputs — each case run on
live torch and on minitorch (taking the library as ``L``): the same result (values, dtype,
shape, requires_grad, grad_fn name), or the same exception type and message."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_as_torch, assert_same
from test_autograd_bad_input_s19fuzzx_oracle import _quiet

import minitorch as mt


def _same_node(got: Any, want: torch.Tensor) -> None:
    assert_same(got, want)
    assert type(got.grad_fn).__name__ == type(want.grad_fn).__name__


def _same(fn: Callable[[Any], Any]) -> None:
    """``fn`` raises on minitorch what it raises on torch, or returns the same values; a
    tensor's grad_fn is compared by name too."""
    assert_as_torch(_quiet(fn), _same_node)


# ------------------------------------------------------------ forward AD at a nan point

@SETTINGS
@given(st.sampled_from([math.nan, math.inf, -math.inf, 1.5]), st.integers(0, 2))
def test_zero_tangents_add_no_nan(value: float, size: int) -> None:
    """torch's missing tangents are exact zeros: ``0 * nan`` adds nothing to a tangent."""
    shape = (size,) if size else ()

    def hessian(L: Any) -> Any:
        x = L.full(shape, value, dtype=L.float64)
        return L.autograd.functional.hessian(lambda u, w: (u * w).sum(), (x, x * 2),
                                             vectorize=True, outer_jacobian_strategy="forward-mode")

    def func_hessian(L: Any) -> Any:
        x = L.full(shape, value, dtype=L.float64)
        return L.func.hessian(lambda u: (u * u).sum())(x)

    def dual(L: Any) -> Any:
        fa = L.autograd.forward_ad
        x = L.full(shape, value, dtype=L.float64, requires_grad=True)
        with fa.dual_level():
            d = fa.make_dual(x, L.zeros(shape, dtype=L.float64))
            (g,) = L.autograd.grad((d * d).sum(), d, create_graph=True)
            return fa.unpack_dual(L.ones(shape, dtype=L.float64) * d).tangent, \
                fa.unpack_dual(g).tangent
    for case in (hessian, func_hessian, dual):
        _same(case)


# ------------------------------------------------------------ vmap's out_dims=None

BODIES: dict[str, Callable[[Any], Any]] = {
    "mul_": lambda u: u.mul_(2),
    "mul_ then sum": lambda u: u.mul_(2).sum(),
    "add_ of a view": lambda u: u[..., :1].add_(1),
    "long": lambda u: u.long().sum(),
    "int": lambda u: u.int(),
    "bool": lambda u: u.bool(),
    "half": lambda u: u.half().sum(),
    "new_ones": lambda u: u.new_ones(2),
    "new_zeros": lambda u: u.new_zeros((2, 1)),
    "constant": lambda u: u.detach().new_tensor(1.0) * 0 + 1,
    "clone": lambda u: u.clone(),
}


@pytest.mark.parametrize("body", sorted(BODIES))
@pytest.mark.parametrize(("shape", "in_dims"), [((3,), 0), ((2, 3), 1), ((0,), -1), ((2, 0), 0)])
def test_vmap_out_dims_none_refuses_batched_output(body: str, shape: tuple, in_dims: int
                                                   ) -> None:
    """An output that depends on the batch is refused where out_dims is None, whatever op
    made it (torch's BatchedTensor); one that does not is given once."""
    _same(lambda L: L.func.vmap(BODIES[body], in_dims=in_dims, out_dims=None)(
        L.ones(shape, dtype=L.float64)))


def test_vmap_out_dims_none_part_of_a_tuple() -> None:
    _same(lambda L: L.func.vmap(lambda u: (u.mul_(2), L.ones(2)), out_dims=(0, None))(
        L.ones(3, 2, dtype=L.float64)))
    _same(lambda L: L.func.vmap(lambda u: (L.ones(2), u.mul_(2)), out_dims=(0, None))(
        L.ones(3, 2, dtype=L.float64)))


# ------------------------------------------------------------ linearize

OUTPUTS: dict[str, Callable[[Any], Any]] = {
    "vector": lambda u: u.sin() * 2,
    "tuple": lambda u: (u.sum(), u * 2),
    "number": lambda u: 3.0,
    "None": lambda u: None,
    "tensor and number": lambda u: (u * 2, 1.5),
    "list": lambda u: [u.sum()],
}


@pytest.mark.parametrize("output", sorted(OUTPUTS))
@pytest.mark.parametrize("shape", [(3,), ()])
def test_linearize_passes_non_tensor_outputs(output: str, shape: tuple) -> None:
    """torch's jvp_fn maps the tangent over the output's tensors; anything else is given
    back as it is."""
    def run(L: Any) -> Any:
        x = L.ones(shape, dtype=L.float64)
        out, jvp_fn = L.func.linearize(OUTPUTS[output], x)
        return out, jvp_fn(L.full(shape, 2.0, dtype=L.float64))
    _same(run)


@pytest.mark.parametrize("tangent", ["None", "int", "tuple", "wrong shape"])
def test_linearize_bad_tangent(tangent: str) -> None:
    def run(L: Any) -> Any:
        _, jvp_fn = L.func.linearize(lambda u: u.sin(), L.ones(2, 2, dtype=L.float64))
        bad = {"None": None, "int": 3, "tuple": (L.ones(2, 2, dtype=L.float64),),
               "wrong shape": L.ones(2, dtype=L.float64)}[tangent]
        return jvp_fn(bad)
    _same(run)


# ------------------------------------------------------------ Jacobians of empty inputs

FUNCS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "sin": lambda u, c: u.sin(),
    "sum": lambda u, c: u.sum(),
    "square sum": lambda u, c: (u * u).sum(),
    "closure": lambda u, c: (u * c).sum(),  # c: the caller's, requires grad
}


@pytest.mark.parametrize("transform", ["jacfwd", "jacrev", "hessian"])
@pytest.mark.parametrize("func", sorted(FUNCS))
@pytest.mark.parametrize("shape", [(0,), (2, 0), ()])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_func_jacobians_of_empty_and_0d_inputs(transform: str, func: str, shape: tuple,
                                               requires_grad: bool) -> None:
    """torch's result of an empty input keeps its graph (ViewBackward0); a 0-d input's
    jacfwd column is squeezed away (SqueezeBackward1)."""
    def run(L: Any) -> Any:
        c = L.ones(shape, dtype=L.float64, requires_grad=True)
        return getattr(L.func, transform)(lambda u: FUNCS[func](u, c))(
            L.ones(shape, dtype=L.float64, requires_grad=requires_grad))
    _same(run)


@pytest.mark.parametrize("which", ["jacobian", "hessian"])
@pytest.mark.parametrize("vectorize", [False, True])
@pytest.mark.parametrize("shape", [(0,), (2, 0), (3,)])
def test_functional_empty_rows(which: str, vectorize: bool, shape: tuple) -> None:
    """torch's vectorized batch of no rows fails reading row 0; its loop fails stacking
    none."""
    def run(L: Any) -> Any:
        x = L.ones(shape, dtype=L.float64)
        F = L.autograd.functional
        if which == "jacobian":
            return F.jacobian(lambda u: u * 2, x, vectorize=vectorize)
        return F.hessian(lambda u: (u * u).sum(), x, vectorize=vectorize)
    _same(run)


@pytest.mark.parametrize("vectorize", [False, True])
@pytest.mark.parametrize("empty", [0, 1, (0, 1)])
def test_functional_one_empty_output_among_others(vectorize: bool, empty: Any) -> None:
    def run(L: Any) -> Any:
        def f(u: Any) -> Any:
            outs = [u * 2, u.sin()]
            for k in (empty if isinstance(empty, tuple) else (empty,)):
                outs[k] = outs[k][:0]
            return tuple(outs)
        return L.autograd.functional.jacobian(f, L.ones(3, dtype=L.float64),
                                              vectorize=vectorize)
    _same(run)


def test_nan_point_gradient_is_what_numpy_says() -> None:
    """The fixed tangent is the plain one: d/du (u * w) at u = nan is w (not nan)."""
    fa = mt.autograd.forward_ad
    x = mt.tensor([math.nan, 1.0], dtype=mt.float64, requires_grad=True)
    with fa.dual_level():
        d = fa.make_dual(x, mt.tensor([0.0, 1.0], dtype=mt.float64))
        tangent = fa.unpack_dual(mt.ones(2, dtype=mt.float64) * d).tangent
    np.testing.assert_array_equal(tangent.detach().numpy(), [0.0, 1.0])
    assert tangent.requires_grad


# ------------------------------------------------------------ gradients on another device

@pytest.mark.parametrize("shape", [(), (3,), (2, 2)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("where", ["Function backward", "grad", "grad unused", "backward"])
def test_gradient_on_another_device(shape: tuple, dtype: str, where: str) -> None:
    """The engine's device check: a 0-d gradient is moved (a meta one cannot be), any other
    refused, after the shape check and before an unused input is reported."""
    def run(L: Any) -> Any:
        x = L.ones(shape, dtype=getattr(L, dtype), requires_grad=True)
        if where == "Function backward":
            class Meta(L.autograd.Function):
                @staticmethod
                def forward(ctx: Any, a: Any) -> Any:
                    return a * 2

                @staticmethod
                def backward(ctx: Any, g: Any) -> Any:
                    return g.to("meta")
            Meta.apply(x).sum().backward()
            return x.grad
        g = L.ones(shape, device="meta")
        if where == "backward":
            (x * 2).backward(g)
            return x.grad
        wrt = [L.ones(2, requires_grad=True)] if where == "grad unused" else x
        return L.autograd.grad(x * 2, wrt, g)
    _same(run)


# ------------------------------------------------------------ functional API, no outputs

@pytest.mark.parametrize("vectorize", [False, True])
@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("inputs", ["single", "pair"])
def test_jacobian_of_no_outputs(vectorize: bool, strict: bool, inputs: str) -> None:
    def run(L: Any) -> Any:
        x = L.ones(2, dtype=L.float64)
        given = x if inputs == "single" else (x, x * 2)
        return L.autograd.functional.jacobian(lambda *a: (), given, vectorize=vectorize,
                                              strict=strict)
    _same(run)


# ------------------------------------------------------------ forward AD, in place

@pytest.mark.parametrize("op", ["mul_", "add_", "div_"])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_inplace_tangent_keeps_the_graph(op: str, requires_grad: bool) -> None:
    """torch's tangent of an in-place op reads self's old values in their graph."""
    def run(L: Any) -> Any:
        fa = L.autograd.forward_ad
        t = L.tensor([1.0, 2.0], dtype=L.float64, requires_grad=requires_grad)
        with fa.dual_level():
            base = t.clone()
            d = fa.make_dual(L.full((2,), 2.0, dtype=L.float64), L.ones(2, dtype=L.float64))
            getattr(base, op)(d)
            tangent = fa.unpack_dual(base).tangent
        return tangent, tangent.requires_grad
    _same(lambda L: run(L)[1])
    assert_same(run(mt)[0], run(torch)[0])


# ------------------------------------------------------------ vmap: the example is a Tensor

@pytest.mark.parametrize("wrap", ["tensor", "list", "dict"])
@pytest.mark.parametrize("dtype", ["float64", "int64", "bool"])
def test_vmap_example_is_a_tensor_to_isinstance(wrap: str, dtype: str) -> None:
    """A user's ``isinstance(u, torch.Tensor)`` inside vmap is True (torch's batched tensor
    is one): the branch taken is the tensor's, on the batch as on each example."""
    def run(L: Any) -> Any:
        def f(a: Any) -> Any:
            u = a[0] if isinstance(a, list) else a["k"] if isinstance(a, dict) else a
            return {"k": (u * u).sum()} if isinstance(u, L.Tensor) else {"k": u}
        x = L.tensor([1, 2, 0]).to(getattr(L, dtype))
        given = [x] if wrap == "list" else {"k": x} if wrap == "dict" else x
        return L.func.vmap(f)(given)["k"]
    _same(run)
    assert not isinstance(mt._batched.BatchedTensor(mt.ones(2)), mt.Tensor)


@pytest.mark.parametrize("wrt", ["no grad", "int", "unused"])
@pytest.mark.parametrize("api", ["grad", "backward"])
def test_gradient_device_checked_after_the_inputs(wrt: str, api: str) -> None:
    def run(L: Any) -> Any:
        x = L.ones(3, dtype=L.float64, requires_grad=True)
        t = {"no grad": L.ones(2), "int": L.ones(2, dtype=L.int64),
             "unused": L.ones(2, requires_grad=True)}[wrt]
        g = L.ones(3, device="meta")
        if api == "grad":
            return L.autograd.grad(x * 2, [t], g)
        L.autograd.backward(x * 2, g, inputs=[t])
        return t.grad
    _same(run)


@pytest.mark.parametrize("func", ["slice", "sin", "square", "matmul"])
@pytest.mark.parametrize("size", [0, 2])
def test_jacrev_of_an_empty_output(func: str, size: int) -> None:
    """torch's batch of no rows runs the backward on none: its result needs grad where that
    backward reads the input (sin), not where it does not (a slice)."""
    def run(L: Any) -> Any:
        x = L.ones(size, dtype=L.float64, requires_grad=True) * 2
        f = {"slice": lambda u: u[:0], "sin": lambda u: u[:0].sin(), "square": lambda u: u[:0] ** 2,
             "matmul": lambda u: L.ones(0, size, dtype=L.float64) @ u}[func]
        return L.func.jacrev(f)(x)
    _same(run)


@pytest.mark.parametrize("value", ["numpy bool", "numpy float", "int", "list", "Size"])
def test_unpack_hook_result_named_as_torch(value: str) -> None:
    def run(L: Any) -> Any:
        x = L.ones(3, dtype=L.float64, requires_grad=True)
        bad = {"numpy bool": np.bool_(True), "numpy float": np.float64(1.0), "int": 1,
               "list": [1.0], "Size": L.Size([3])}[value]
        with L.autograd.graph.saved_tensors_hooks(lambda p: p, lambda p: bad):
            y = (x * x).sum()
        y.backward()
    _same(run)


@pytest.mark.parametrize("primal", ["transposed", "empty from numpy", "empty transposed",
                                    "size-1 dim transposed", "contiguous"])
def test_make_dual_keeps_a_tangent_of_the_same_layout(primal: str) -> None:
    """torch keeps the tangent itself (its dtype too) where its layout is the primal's up to
    dims of size 1 and empty tensors, else copies it into the primal's layout and dtype."""
    def run(L: Any) -> Any:
        fa = L.autograd.forward_ad
        p = {"transposed": lambda: L.ones(3, 2).t(),
             "empty from numpy": lambda: L.tensor(np.zeros((0,), dtype=np.float32)),
             "empty transposed": lambda: L.ones(0, 2).t(),
             "size-1 dim transposed": lambda: L.ones(1, 3).t(),
             "contiguous": lambda: L.ones(2, 3)}[primal]()
        with fa.dual_level():
            d = fa.make_dual(p, L.ones(tuple(p.shape), dtype=L.float64))
            tangent = fa.unpack_dual(d).tangent
            return tangent, tangent.stride(), fa.unpack_dual(d.sin() * 2).tangent
    _same(run)


@pytest.mark.parametrize("op", ["x * 2", "2 * x", "x / 2", "x + 2", "x - 2", "2 - x", "x ** 2",
                                "x * t", "-x", "x.sum()", "x * 2.5", "x / True"])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_tangent_of_an_op_with_a_number(op: str, requires_grad: bool) -> None:
    """torch wraps a number operand of * and / as a tensor whose zero tangent, times the
    primal, gives the tangent a graph where the primal has one."""
    def run(L: Any) -> Any:
        fa = L.autograd.forward_ad
        x0 = L.tensor([1.0, -2.0, 3.0], dtype=L.float64, requires_grad=requires_grad) * 1
        with fa.dual_level():
            x = fa.make_dual(x0, L.ones(3, dtype=L.float64))
            t = L.tensor(2.0, dtype=L.float64)
            tangent = fa.unpack_dual(eval(op, {"x": x, "t": t})).tangent
            return tangent, tangent.requires_grad
    _same(lambda L: run(L)[1])
    assert_same(run(mt)[0], run(torch)[0])


@pytest.mark.parametrize("tangent", ["expanded", "offset", "contiguous", "transposed"])
@pytest.mark.parametrize("shape", [(0,), (3,), (1,)])
def test_make_dual_tangent_storage(tangent: str, shape: tuple) -> None:
    """torch's layout test also asks for the same storage offset and size."""
    def run(L: Any) -> Any:
        fa = L.autograd.forward_ad
        p = L.ones(shape, dtype=L.float32)
        n = shape[0]
        tan = {"expanded": lambda: L.ones(1, dtype=L.float64).expand(shape),
               "offset": lambda: L.ones(n + 1, dtype=L.float64)[1:],
               "contiguous": lambda: L.ones(shape, dtype=L.float64),
               "transposed": lambda: L.ones(1, n, dtype=L.float64).t()[:, 0]}[tangent]()
        with fa.dual_level():
            t = fa.unpack_dual(fa.make_dual(p, tan)).tangent
            return t, t.stride(), t.storage_offset()
    _same(run)


@pytest.mark.parametrize("which", ["jvp", "vjp", "vhp", "hvp"])
@pytest.mark.parametrize("v", ["tuple", "single", "none"])
@pytest.mark.parametrize("create_graph", [False, True])
def test_functional_products_of_no_outputs(which: str, v: str, create_graph: bool) -> None:
    """torch's post-processing reads the first output: none is an IndexError."""
    def run(L: Any) -> Any:
        x = L.ones(2, dtype=L.float64, requires_grad=True) * 2
        vec = {"tuple": (L.ones(2, dtype=L.float64),), "single": L.ones(2, dtype=L.float64),
               "none": None}[v]
        return getattr(L.autograd.functional, which)(lambda *a: (), x, vec,
                                                     create_graph=create_graph)
    _same(run)


@pytest.mark.parametrize("device", ["cpu", "meta"])
@pytest.mark.parametrize("shape", [(), (1,), (2, 1), (2, 3), (1, 1)])
def test_batched_grad_outputs_checked_by_shape(device: str, shape: tuple) -> None:
    """is_grads_batched compares each row's shape without reading a row (a meta batch has
    none to read); a 0-d batch fails its indexing."""
    def run(L: Any) -> Any:
        x = L.ones(1, dtype=L.float64, requires_grad=True)
        g = L.ones(shape, device=device, dtype=L.float64)
        return L.autograd.grad(x * 1, x, g, is_grads_batched=True)
    _same(run)


@pytest.mark.parametrize("shape", [(3,), (0,), ()])
@pytest.mark.parametrize("rows", ["none", "short"])
def test_batched_grad_outputs_row_zero_read(shape: tuple, rows: str) -> None:
    """torch reads row 0 of each batched gradient: a batch of none fails there."""
    def run(L: Any) -> Any:
        x = L.ones(shape, dtype=L.float64, requires_grad=True)
        g = L.ones((0, *shape) if rows == "none" else shape, dtype=L.float64)
        return L.autograd.grad(x * x, x, g, is_grads_batched=True)
    _same(run)
