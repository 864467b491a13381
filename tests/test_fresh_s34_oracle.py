"""Fresh fuzz seeds of session 34 (the four fuzzers of session 33, written by helpers who did
not see minitorch's tests, on the new seed 3401): what they found. Each case runs under torch
and minitorch (``L``) and must raise torch's exception with torch's message, or give torch's
result."""

from __future__ import annotations

import itertools
import math
import warnings
from typing import Any

import numpy as np
import pytest

import minitorch as mt
from tests.oracle import assert_as_torch, assert_exact, assert_same
from tests.test_fresh_s33_oracle import vmap_then

NO_RULE = ["L.nn.functional.silu(e)", "L.nn.functional.softsign(e)", "e.flip(0)",
           "L.where(e > 0, e, 0.)", "e.min(0).values", "L.maximum(e, e.flip(0))", "e.roll(1)",
           "L.nn.functional.gelu(e)", "e.sort().values", "L.max(e, 0)[1]", "e.cummax(0)[0]",
           "L.nn.functional.hardtanh(e)", "e.diff()", "L.atan2(e, e.flip(0))"]


@pytest.mark.parametrize("op", NO_RULE)
@pytest.mark.parametrize("then", ["value", "item", "tolist", "if", "into unbatched", "numpy"])
def test_vmap_runs_an_op_without_a_rule_per_example_inside_the_batch_as_torch(
        op: str, then: str) -> None:
    """Autograd fuzz: ``vmap(lambda e: F.silu(e).sum().item())`` ran ``func`` once per
    example, so ``item()`` saw one example and returned (an op with no batching rule sent the
    whole call to the per-example path). torch's fallback runs the op per example and goes on
    with a batch, so what ``func`` reads of it next is refused."""
    assert_as_torch(lambda L: vmap_then(L, op, then, L.zeros(())), assert_same)


@pytest.mark.parametrize("view", ["h[0]", "h.diagonal()", "h[:, 1:]", "h.t()", "h.view(3, 2)",
                                  "h.unsqueeze(0)", "h[None, 1]"])
@pytest.mark.parametrize("change", ["unsqueeze_(0)", "squeeze_()", "t_()", "transpose_(0, -1)",
                                    "squeeze_(0)", "unsqueeze_(-1)"])
@pytest.mark.parametrize("then", ["v.sum().backward()", "v.mul_(2); h.sum().backward()",
                                  "h.add_(1); (v * 1).sum().backward()",
                                  "(v * 3).sum().backward(); out = h.grad_fn.name()"])
def test_an_inplace_view_change_of_a_view_is_recorded_as_torch(view: str, change: str,
                                                               then: str) -> None:
    """Autograd fuzz: ``v = h.diagonal(); v.squeeze_()`` with ``h`` requiring grad was refused
    ("does not support recording an in-place view change of a view"); torch records it: the
    view keeps its base, takes the in-place node (``SqueezeBackward3``...) and a later write
    through it or its base rebases it as any view."""
    def fn(L: Any) -> Any:
        x = L.tensor([[0.5, 1.5, 2.0], [0.25, 0.75, 1.0]], requires_grad=True)
        h = x * 2
        scope = {"h": h, "L": L, "out": None}
        exec(f"v = {view}; v.{change}", scope)
        v = scope["v"]
        names = (v.grad_fn.name(), v._version, h._version, v._base is h, v.shape, v.stride())
        exec(then, scope)
        return names, x.grad, scope["out"], v.grad_fn.name()
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("returned", ["g, 'a'", "g * 2, g", "L.ones(5), 3", "L.ones(5), 'a'",
                                      "L.ones(5), None", "g, None, None", "'a', g"])
@pytest.mark.parametrize("second", ["z", "3"])
def test_a_custom_backward_is_checked_kind_first_then_shape_as_torch(returned: str,
                                                                     second: str) -> None:
    """Autograd fuzz: a backward returning ``(wrong shape, 'a')`` was refused for the shape
    of gradient 0; torch checks what kind each returned value is first (a string, a gradient
    for a number), then the engine checks each tensor's shape."""
    def fn(L: Any) -> Any:
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any, k: Any) -> Any:
                return (x * 2).sum()

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return eval(returned, {"g": g, "L": L})
        x = L.ones(1, requires_grad=True)
        z = L.ones(2, requires_grad=True)
        return L.autograd.grad(F.apply(x, eval(second, {"z": z})).sum(), x)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("program", [
    "out = (x * 2).grad_fn.requires_grad",
    "out = (x * 2).sum().grad_fn.next_functions[0][0].next_functions[0][0].requires_grad",
    "(x * 2).grad_fn.requires_grad = False"])
def test_a_node_says_it_requires_grad_as_torch(program: str) -> None:
    """Autograd fuzz: ``y.grad_fn.requires_grad`` was no attribute; every torch node has it,
    True and read-only."""
    def fn(L: Any) -> Any:
        scope = {"x": L.ones(2, requires_grad=True), "out": None}
        exec(program, scope)
        return scope["out"]
    assert_as_torch(fn)


@pytest.mark.parametrize("op", ["s * 1.5", "1.5 * s", "s + 1.5", "s - 1.5", "1.5 - s", "s / 1.5",
                                "1.5 / s", "s * 2", "s + True", "s.add(1.5, alpha=2)",
                                "L.sub(s, 1.5)", "s.mul(L.tensor(1.5))", "x * 1.5",
                                "(x * 1.5).sum()", "s * 1.5 + s", "s ** 2", "s.clamp(0.5)"])
@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
@pytest.mark.parametrize("transform", ["jvp", "jacfwd", "jacrev"])
def test_a_tangent_through_a_float_and_a_0d_tensor_is_double_as_torch(op: str, dtype: str,
                                                                      transform: str) -> None:
    """Autograd fuzz: ``jacfwd(lambda x: x.sum() * 1.5)`` of a float32 ``x`` was float32;
    torch's forward-mode formula meets the Python float as a double 0-d tensor beside the
    0-d sum, so its tangent (and jacfwd's result) is float64; a tensor with dims keeps its
    dtype, and reverse mode is unaffected."""
    if dtype == "float16" and op == "1.5 / s" and transform == "jvp":
        pytest.skip("torch's half reciprocal keeps its float32 opmath in its tangent")

    def fn(L: Any) -> Any:
        x = L.ones(2, 3, dtype=getattr(L, dtype))
        f = lambda x: eval(op, {"s": x.sum(), "x": x, "L": L})  # noqa: E731
        if transform == "jvp":
            return L.func.jvp(f, (x,), (L.ones_like(x),))
        return getattr(L.func, transform)(f)(x)
    assert_as_torch(fn, assert_exact if dtype == "float16" else assert_same)


@pytest.mark.parametrize("body", ["F.elu_(x).sum()", "x.mul_(2).sum()", "x[0].mul_(2) * x",
                                  "F.relu_(x) * 3", "x.add_(1).pow(2)", "x.sin_().sum()",
                                  "x.clamp_(0, 1) + 0"])
@pytest.mark.parametrize("transform", ["jacfwd", "hessian", "jacrev"])
def test_jacfwd_writes_into_its_input_once_as_torch(body: str, transform: str) -> None:
    """Autograd fuzz: ``jacfwd(lambda x: F.elu_(x).sum())(x)`` called the function once per
    column, so the in-place write ran once per element of ``x``: a wrong Jacobian, and ``x``
    written over and over. torch's vmap calls it once."""
    def fn(L: Any) -> Any:
        x = L.tensor([[0.3, -1.2, 2.5], [-0.7, 0.1, 4.0]], dtype=L.float64)
        f = lambda x: eval(body, {"x": x, "F": L.nn.functional})  # noqa: E731
        return getattr(L.func, transform)(f)(x), x, x._version
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("op", ["s * 1.5 + w", "(s * 1.5) * w", "w - s * 1.5",
                                "L.atan2(s * 1.5, w)", "(s * 1.5).sin() * w",
                                "L.stack([s * 1.5, s])",
                                "L.cat([(s * 1.5).reshape(1), w])", "L.where(w > 0, s * 1.5, w)",
                                "L.maximum(s * 1.5, w)", "(s * 1.5).expand(3)"])
def test_a_0d_double_tangent_yields_to_an_operand_with_dims_as_torch(op: str) -> None:
    """Forward mode: a float64 tangent of a 0-d float32 value meeting a float32 tensor with
    dims made the result's tangent float64; torch's formulas promote as result_type, where
    the tensor with dims wins."""
    def fn(L: Any) -> Any:
        w = L.ones(3)
        f = lambda x: eval(op, {"s": x.sum(), "w": w, "L": L})  # noqa: E731
        return L.func.jvp(f, (L.ones(2),), (L.ones(2),))
    assert_as_torch(fn, assert_same)


ACTIVATIONS = ["relu", "relu6", "elu", "selu", "celu", "gelu", "silu", "mish", "softplus",
               "softsign", "tanhshrink", "hardtanh", "hardswish", "hardsigmoid", "leaky_relu",
               "logsigmoid", "sigmoid", "tanh", "hardshrink", "softshrink", "elu_", "celu_",
               "selu_", "relu_", "leaky_relu_", "hardtanh_"]


@pytest.mark.parametrize("name", ACTIVATIONS)
@pytest.mark.parametrize("transform", ["jacfwd", "dual"])
def test_an_activation_has_torchs_forward_derivative(name: str, transform: str) -> None:
    """Autograd fuzz: ``jacfwd`` of ``F.hardsigmoid`` raised "derivative for
    aten::hardsigmoid_backward is not implemented": torch's forward formula is the backward
    kernel on the tangent, not a double backward (which torch has not)."""
    def fn(L: Any) -> Any:
        x = L.tensor([[0.3, -1.2, 2.5], [-0.7, 0.1, 4.0]], dtype=L.float64)
        f = getattr(L.nn.functional, name)
        if transform == "jacfwd":
            return L.func.jacfwd(lambda x: f(x * 1).sum())(x)
        fa = L.autograd.forward_ad
        with fa.dual_level():
            return tuple(fa.unpack_dual(f(fa.make_dual(x.clone(), L.ones_like(x) * 2))))
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize(("base", "exponent"), [
    ("L.tensor(2.0, dtype=L.float16)", "L.tensor(-2.75, requires_grad=True)"),
    ("L.tensor([2.0, 3.], dtype=L.float16, requires_grad=True)",
     "L.tensor([-2.75, 1.3], requires_grad=True)"),
    ("L.tensor([2.0, 3.], dtype=L.float16)", "L.tensor(1.3, dtype=L.float64, requires_grad=True)"),
    ("L.tensor([0., 0., 2.], requires_grad=True)", "L.tensor([0., 1.3, -1.], requires_grad=True)"),
    ("L.tensor([2, 3])", "L.tensor([-2.75, 1.3], requires_grad=True)")])
@pytest.mark.parametrize("order", [1, 2])
def test_the_exponents_gradient_takes_the_log_in_the_result_type_as_torch(
        base: str, exponent: str, order: int) -> None:
    """Math fuzz: ``pow(half 2., float b)``'s gradient for ``b`` took the half base's log in
    half (0.1031 for torch's 0.1030); torch's ``pow_backward_exponent`` promotes the base
    first, and multiplies the gradient by the ``where`` (its double backward's node)."""
    def fn(L: Any) -> Any:
        a, b = eval(base, {"L": L}), eval(exponent, {"L": L})
        grads = L.autograd.grad(L.pow(a, b).sum(), b, create_graph=order == 2)
        if order == 2:
            grads[0].sum().backward()
        named = grads[0].grad_fn.name() if grads[0].grad_fn else None
        return grads, None if a.grad is None else a.grad.float(), named
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize(("a_shape", "b_shape"), [((5, 3), (5, 2)), ((2, 5, 3), (2, 5, 2)),
                                                  ((5, 3), (5,)), ((2, 5, 3), (5, 2)),
                                                  ((3, 5), (3, 2)), ((4, 3), (4, 1))])
@pytest.mark.parametrize("driver", ["gelsd", "gels", "gelss", "gelsy"])
def test_lstsq_residuals_are_differentiable_as_torch(a_shape: tuple, b_shape: tuple,
                                                     driver: str) -> None:
    """Math fuzz: ``lstsq(a, b).residuals`` did not require grad where ``a`` did; torch's
    residuals are differentiable (each column's squared error: ``2 (A X - B)`` at the
    optimum), its rank and singular values are not."""
    def fn(L: Any) -> Any:
        rng = np.random.RandomState(0)
        a = L.tensor(rng.randn(*a_shape), requires_grad=True)
        b = L.tensor(rng.randn(*b_shape), requires_grad=True)
        r = L.linalg.lstsq(a, b, driver=driver)
        (r.residuals.sum() * 2 + r.solution.sum()).backward()
        return r.residuals, r.singular_values.requires_grad, a.grad, b.grad
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("call", [
    "L.clamp(L.tensor([8, 1], dtype=L.uint8), L.tensor([5, -3]), out=L.zeros(2))",
    "L.clamp_min(L.tensor([4, -4], dtype=L.int8), L.tensor([-3.25, 2.75], dtype=L.float64), "
    "out=L.zeros(2, dtype=L.int32))",
    "L.clamp_max(L.tensor(-2.0), L.tensor(0.25), out=L.tensor(1, dtype=L.uint8))",
    "L.clamp_max(L.ones(2, dtype=L.float64), L.tensor(-math.inf), out=L.zeros(2))",
    "L.clamp_min(L.ones(2), L.tensor([3, -128], dtype=L.int8), out=L.zeros(2, dtype=L.float64))",
    "L.clamp(L.tensor([False, True]), L.tensor([1.5, -2.75]), "
    "L.tensor([-1.5], dtype=L.float64, requires_grad=True), out=L.zeros(2, dtype=L.float64))",
    "L.clamp(L.ones(2), L.zeros(2), out=L.zeros(2, dtype=L.int64))",
    "L.clamp(L.ones(2, dtype=L.int64), 0.5, out=L.zeros(2, dtype=L.int64))",
    "L.clip(L.ones(2, dtype=L.int64), max=L.tensor([0.5, 3]), out=L.zeros(2, dtype=L.int64))",
    "L.clamp(L.ones(2), L.ones(2), 3, out=L.zeros(2))",
    "L.clamp(L.ones(2, dtype=L.int32), L.ones(2, dtype=L.int64), out=L.zeros(2, dtype=L.int8))"])
def test_clamp_by_tensors_writes_out_as_a_tensor_iterator_as_torch(call: str) -> None:
    """Math fuzz: ``clamp(uint8, int64 tensor, out=float32)`` was refused by the parser
    ("min must be Number"), and clamp_min/clamp_max by tensors asked for out's exact dtype;
    torch's clamp by tensors promotes its operands and casts into out where it can."""
    assert_as_torch(lambda L: eval(call, {"L": L, "math": math}), assert_same)


@pytest.mark.parametrize("call", [
    "L.nansum(L.tensor([1., math.nan]), out=L.zeros(()))",
    "L.nansum(L.tensor(-1.25), out=L.tensor(False))",
    "L.nansum(L.tensor([[2, 6], [4, 1]]), out=L.tensor(-0.5, dtype=L.float64))",
    "L.nansum(L.ones(2, 3, requires_grad=True), out=L.zeros(()))",
    "L.nansum(L.ones(2, 3), out=L.zeros(3))",
    "L.nansum(L.ones(2, 3), out=L.zeros((), dtype=L.int64))",
    "L.nansum(L.ones(2, 3), dtype=L.float64, out=L.zeros(()))",
    "L.nansum(L.ones(2, 3), 1, dtype=L.float64, out=L.zeros(2))",
    "L.nansum(L.ones(2, 3), dtype=L.int64, out=L.zeros((), dtype=L.int64))",
    "L.nansum(L.ones(2, 3, dtype=L.int64), 1, dtype=L.float64, out=L.zeros(2, dtype=L.int64))",
    "L.nansum(L.ones(2, 3), out=3)", "L.ones(2, 3).nansum(out=L.zeros(()))",
    "L.sum(L.ones(2, 3), out=L.zeros(()))"])
@pytest.mark.filterwarnings("ignore:An output with one or more elements was resized")
def test_nansum_of_every_element_takes_out_as_torch(call: str) -> None:
    """Math fuzz: ``nansum(x, out=o)`` without a dim said nansum takes no ``out``: torch's
    one nansum overload has an optional dim and takes it (sum's dim-less one does not); a
    floating input's kernel names its own dtype mismatch."""
    assert_as_torch(lambda L: eval(call, {"L": L, "math": math}), assert_same)


@pytest.mark.parametrize("call", [
    "L.where(L.ones(3, 2, requires_grad=True), L.ones(3, 2), L.ones(1, 2), out=L.ones(3, 2))",
    "L.where(L.ones(3, 2, requires_grad=True) > 0, L.ones(3, 2), L.ones(1, 2), out=L.ones(3, 2))",
    "L.where(L.ones(3, 2) > 0, L.ones(3, 2, requires_grad=True), 1., out=L.ones(3, 2))",
    "L.where(L.ones(3, 2, dtype=L.uint8), L.ones(3, 2), L.ones(1, 2), "
    "out=L.ones(3, 2, requires_grad=True))",
    "L.any(L.tensor([[2147483648], [-2]]).mT, 2, out=L.tensor(-0.25, dtype=L.float64))",
    "L.all(L.ones(2, 3), 5, out=L.zeros(2, dtype=L.uint8))",
    "L.any(L.ones(2, 3), out=L.zeros((), dtype=L.int64))",
    "L.any(L.ones(2, 3), (0, 1), out=L.zeros(()))", "L.all(L.ones(2, 3), 'a', out=L.zeros(()))",
    "L.all(L.ones(2, 3), 1, 'a', out=L.zeros(()))",
    "L.all(L.ones(2, 3), dim=1, keepdim=True, out=L.zeros(()))"])
@pytest.mark.filterwarnings("ignore:where received a uint8 condition")
def test_out_is_checked_where_torchs_kernel_checks_it(call: str) -> None:
    """Math fuzz: ``where(float condition, ..., out=o)`` with the condition requiring grad
    was refused for out= and autograd (torch does not differentiate the condition, so its
    kernel refuses the condition's dtype); ``any(x, 2, out=double)`` checked the dim before
    out's dtype, which torch's meta function checks first."""
    assert_as_torch(lambda L: eval(call, {"L": L}), assert_same)


@pytest.mark.parametrize("program", [
    "t = L.ones(2, requires_grad=True) * 3; t.floor_divide_(-2); t.sum().backward()",
    "t = L.ones(2, requires_grad=True) * 3; t //= 2; out = (t, t.grad_fn.name())",
    "t = L.ones(2, requires_grad=True) * 3; v = t[0]; v.floor_divide_(-2); t.sum().backward()",
    "t = L.tensor([5, 7]); t.floor_divide_(2); out = t"])
def test_an_inplace_floor_division_names_its_missing_derivative_as_torch(program: str) -> None:
    """Math fuzz: backward through ``t.floor_divide_(-2)`` said "derivative for
    aten::floor_divide is not implemented"; torch names the in-place op."""
    def fn(L: Any) -> Any:
        scope = {"L": L, "out": None}
        exec(program, scope)
        return scope["out"]
    assert_as_torch(fn)


EMPTY = ["L.zeros(0, 2)", "L.zeros(0, 2).t()", "L.tensor(np.zeros((0, 2)))",
         "L.tensor(np.zeros((2, 0, 3)), dtype=L.int8)", "L.zeros(4, 5)[:, 5:]",
         "L.zeros(4, 6)[:, ::2][:0]", "L.zeros(2, 3, 4).permute(2, 0, 1)[:, :0]",
         "L.zeros(5)[::2][:0]", "L.empty_strided((0, 3), (7, 9))"]


@pytest.mark.parametrize("made", EMPTY)
@pytest.mark.parametrize("like", ["empty_like(t)", "zeros_like(t)", "ones_like(t)",
                                  "full_like(t, 1.5)", "rand_like(t, dtype=L.float32)",
                                  "empty_like(t, dtype=L.int8)"])
def test_a_like_factory_keeps_an_empty_tensors_strides_as_torch(made: str, like: str) -> None:
    """Creation fuzz: ``empty_like(tensor(np.zeros((0, 2))))`` had strides (2, 1) where the
    input's are (0, 0): torch counts any tensor without elements as dense, so
    ``preserve_format`` keeps its strides, whatever they are."""
    def fn(L: Any) -> Any:
        t = eval(made, {"L": L, "np": np})
        out = eval(f"L.{like}", {"L": L, "t": t})
        return tuple(out.shape), out.stride(), out.dtype
    assert_as_torch(fn)


@pytest.mark.parametrize("call", ["L.asarray(t)", "L.asarray(t, copy=True)",
                                  "L.asarray(t, dtype=L.float16)", "L.asarray(t * 1)",
                                  "L.asarray(t, dtype=L.int64)", "L.asarray(t, copy=False)",
                                  "L.asarray(t, requires_grad=False)", "L.asarray(t.detach())",
                                  "L.asarray(t, dtype=L.float64, requires_grad=True)"])
def test_asarray_warns_of_requires_grad_read_from_obj_as_torch(call: str) -> None:
    """Creation fuzz: ``asarray(t_requiring_grad, dtype=float16)`` made its copy without
    torch's warning that requires_grad now defaults to obj's; torch warns for every obj that
    requires grad when requires_grad is not given, a copy too, and before it refuses an
    integer copy."""
    def fn(L: Any) -> Any:
        t = L.tensor([1.0, 2.0], requires_grad=True)
        before = L.is_warn_always_enabled()
        L.set_warn_always(True)  # (the warning is torch's once per process)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    result: Any = eval(call, {"L": L, "t": t}).requires_grad
                except RuntimeError as error:
                    result = str(error)
        finally:
            L.set_warn_always(before)
        return result, [str(w.message)[:40] for w in caught if "asarray" in str(w.message)]
    assert_as_torch(fn)


@pytest.mark.parametrize("write", [
    "b.masked_fill_(L.tensor(True), 3)", "b.masked_fill_(L.tensor([True, False, True]), 3.)",
    "b.index_fill_(0, L.tensor([0]), 8)", "b.index_fill_(1, L.tensor([0]), L.tensor(8.))",
    "b[L.tensor([True, False])] = 3.", "b[L.tensor([0])] = 3.", "b[:, 0] = 3.",
    "b[:, L.tensor([0])] = L.tensor(3.)", "b[:, L.tensor([True, False, True])] = 3.",
    "b[L.tensor(True)] = 3.", "b.index_put_((L.tensor([0]),), L.tensor(1.))",
    "b.index_put_((L.tensor([0]),), L.tensor(1.), accumulate=True)",
    "b.index_put_((L.tensor([True, False]),), L.tensor(1.))",
    "b.index_put_((L.tensor([True, False]), L.tensor([0])), L.tensor(1.))", "b.fill_(2)",
    "b.fill_diagonal_(1)", "c.masked_fill_(L.tensor(True), 3)", "c[L.tensor([0])] = 1."])
def test_a_fill_into_an_expanded_tensor_warns_as_torch(write: str) -> None:
    """Creation fuzz: ``zeros(3).expand(2, 3).masked_fill_(mask, 3)`` wrote without torch's
    deprecation warning ("Use of masked_fill_ on expanded tensors is deprecated"), given by
    masked_fill_, index_fill_ and index_put_ (and so by ``b[mask] = v``: both of them)."""
    def fn(L: Any) -> Any:
        scope = {"L": L, "b": L.zeros(3).expand(2, 3), "c": L.zeros(2, 3)}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            exec(write, scope)
        return scope["b"], [str(w.message).split(" (Triggered")[0] for w in caught
                             if "expanded" in str(w.message)]
    assert_as_torch(fn)


@pytest.mark.parametrize("dtypes", list(itertools.product(["float16", "float32", "float64"],
                                                          repeat=3)), ids=str)
@pytest.mark.parametrize("needs", [(False, True, False), (False, False, True), (True, False, False),
                                   (False, True, True)], ids=str)
def test_addr_backward_multiplies_by_each_vector_as_given_as_torch(dtypes: tuple,
                                                                   needs: tuple) -> None:
    """Math fuzz: ``addr(float32, half vec1, double vec2 requiring grad)`` had a gradient;
    torch's formula multiplies the gradient (of the promoted result's dtype) by the other
    vector as it was given (``mv``), which addmv refuses where their dtypes differ."""
    def fn(L: Any) -> Any:
        t0, t1, t2 = (L.ones(*shape, dtype=getattr(L, dt), requires_grad=need)
                      for shape, dt, need in zip(((3, 2), (3,), (2,)), dtypes, needs))
        t0.addr(t1, t2, alpha=2).sum().backward()
        return t0.grad, t1.grad, t2.grad
    assert_as_torch(fn)


@pytest.mark.parametrize("key", [
    "np.array(1), 0", "np.array(1), 0, 0", "np.array(1, dtype=np.uint8), 0, 0",
    "np.array(1, dtype=np.uint8), 0", "np.array(True), 0, 0", "np.array(True), 0",
    "np.ones((2, 3), dtype=bool)", "np.array([True, False])",
    "slice(None), np.array([True, False, True])",
    "np.array([True, False]), np.array([0])", "np.array([[True, False, True]])",
    "np.array(1, dtype=np.uint8), slice(2, -2, 3), L.tensor([2])",
    "0, slice(-5, -4, -1), np.array(1, dtype=np.uint8)", "Ellipsis, np.array(0)"])
def test_a_numpy_array_in_a_key_counts_one_dim_as_torch(key: str) -> None:
    """Creation fuzz: ``x[np.array(1, dtype=np.uint8), 2:-2:3, tensor([2])]`` of a matrix
    returned an empty tensor: torch counts the dims a key indexes before it reads any numpy
    array, one for each (a 0-d mask too), and refuses too many; a bool array with dims is a
    mask, as its tensor is (it failed inside numpy beside another index)."""
    def fn(L: Any) -> Any:
        return eval(f"x[{key},]", {"L": L, "np": np, "x": L.arange(6.).reshape(2, 3)})
    assert_as_torch(fn)


@pytest.mark.parametrize("key", ["np.array(0)", "np.array(True)", "np.array(0), None",
                                 "np.array(0, dtype=np.uint8)", "0"])
def test_a_0d_tensor_indexed_by_a_numpy_array_as_torch(key: str) -> None:
    """Creation fuzz: ``tensor(0.)[np.array(0)]`` said an int cannot index a 0-d tensor;
    torch reads a 0-d array as no int there, so it counts one dim too many."""
    assert_as_torch(lambda L: eval(f"x[{key}]", {"L": L, "np": np, "x": L.tensor(0.)}))


@pytest.mark.parametrize("program", [
    "a = L.ones(3, 3, dtype=L.float64, requires_grad=True); "
    "L.linalg.lstsq(a, L.ones(3, 2, dtype=L.float64)).residuals.sum().backward(); out = a.grad",
    "a = L.ones(4, 3, dtype=L.float64, requires_grad=True); "
    "r = L.linalg.lstsq(a, L.ones(4, 2, dtype=L.float64)).residuals; r.sum().backward(); "
    "out = (r, a.grad)",
    "a = L.eye(3, dtype=L.float64, requires_grad=True); "
    "r = L.linalg.lstsq(a, L.ones(3, 2, dtype=L.float64)).residuals; "
    "out = L.autograd.grad(r.sum(), a)",
    "out = L.linalg.lstsq(L.ones(4, 4), L.ones(5, 2, dtype=L.float64))",
    "out = L.linalg.lstsq(L.ones(4, 4), L.ones(5, dtype=L.float64))",
    "out = L.linalg.lstsq(L.ones(4, 4, dtype=L.int64), L.ones(5, 2, dtype=L.float64))"])
def test_lstsq_gives_no_gradient_of_empty_residuals_alone_as_torch(program: str) -> None:
    """Math fuzz: backward from empty residuals alone gave A a zero gradient; torch's gives
    none (the solution's gradient is undefined, and the residuals' has no element); and
    lstsq compares the dtypes before the sizes."""
    def fn(L: Any) -> Any:
        scope = {"L": L, "out": None}
        exec(program, scope)
        return scope["out"]
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("backward", ["y.sum().backward()", "L.autograd.grad(y.sum(), x)"])
def test_gathers_sparse_gradient_is_refused_not_made_dense(backward: str) -> None:
    """Math fuzz: backward through ``gather(x, 0, i, sparse_grad=True)`` gave a dense
    gradient where torch's is a sparse COO tensor; minitorch has none, so it says so (the
    forward, and its node's ``_saved_sparse_grad``, are torch's)."""
    x = mt.ones(3, requires_grad=True)
    y = mt.gather(x, 0, mt.tensor([0, 0]), sparse_grad=True)
    assert y.grad_fn._saved_sparse_grad is True
    assert y.tolist() == [1.0, 1.0]
    with pytest.raises(NotImplementedError, match=r"no sparse tensors.*sparse_grad=False"):
        eval(backward, {"y": y, "x": x, "L": mt})


@pytest.mark.parametrize("call", [
    "F.lp_pool3d(x, float('inf'), 100, ceil_mode=True)",
    "F.max_pool3d(x, 100, ceil_mode=True, return_indices=True)",
    "F.max_pool2d(x[0], (100, 3), stride=(100, 1), padding=(0, 1), ceil_mode=True, "
    "return_indices=True)",
    "F.max_pool2d(x[0], 300, ceil_mode=True)", "F.max_pool3d(x, (2, 50, 2), ceil_mode=True)"])
def test_a_max_pool_wider_than_its_input_reads_only_what_it_reaches(call: str) -> None:
    """nn fuzz: ``lp_pool3d(x, inf, 100, ceil_mode=True)`` of a 2x1x2 input ran for minutes
    (its ceil-mode window read 100**3 places of -inf padding, and its backward as many);
    torch's answers at once, and so does minitorch now, with torch's values and indices."""
    def fn(L: Any) -> Any:
        x = L.tensor([[[[[0.3, 0.7]], [[0.1, 0.5]]]]], requires_grad=True)
        out = eval(call, {"F": L.nn.functional, "x": x})
        (out[0] if isinstance(out, tuple) else out).sum().backward()
        return out, x.grad
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("call", [
    "F.pdist(L.ones(1, 3, dtype=L.float16))", "F.pdist(L.ones(2, 0, dtype=L.float16))",
    "F.pdist(L.ones(0, 3, dtype=L.float16))", "F.pdist(L.ones(2, 3, dtype=L.float16))",
    "F.cosine_similarity(L.ones(2, 3, dtype=L.int64), L.ones(2, 1, dtype=L.int64), dim=-3, "
    "eps=-1.0)", "F.cosine_similarity(L.ones(2, 3), L.ones(2, 1), dim=-3, eps=-1.0)",
    "F.adaptive_avg_pool3d(L.ones(2, 0), 2)", "F.adaptive_avg_pool3d(L.ones(0, 2), 2)",
    "F.adaptive_avg_pool3d(L.ones(2, 3, 0), 2)", "F.adaptive_avg_pool3d(L.ones(1, 0, 1, 1), 2)",
    "F.adaptive_avg_pool3d(L.ones(0, 1, 1, 1), 2)"])
def test_nn_checks_in_torchs_order(call: str) -> None:
    """nn fuzz: pdist refused a half input with no pair of values (torch's kernel runs only
    for pairs), cosine_similarity checked eps before the common dtype, adaptive_avg_pool3d
    its rank before its empty dims: torch's order is the other."""
    assert_as_torch(lambda L: eval(call, {"L": L, "F": L.nn.functional}), assert_exact)


SAVING = ["x * 2", "x * y", "x + y", "x - 2", "x / y", "x.exp()", "x.sin()", "x.sigmoid()",
          "x.tanh()", "x.relu()", "x.sum()", "x.mean()", "x.sum(0)", "x.pow(2)", "x.pow(y)",
          "L.cat([x, y])", "L.stack([x, y])", "x.expand(2, 2, 3)", "x.view(3, 2)",
          "x.reshape(6)", "x.max(0)[0]", "x.clone()", "x.abs()", "x.log()", "x.sqrt()",
          "x.softmax(0)", "x.unsqueeze(0)", "x.squeeze()", "x.permute(1, 0)", "x.clamp(0, 1)",
          "x.where(x > 0, y)", "x.gather(0, L.tensor([[0, 1, 0]]))", "x.flip(0)",
          "x.cumsum(0)", "x.neg()", "x.square()", "x.reciprocal()", "x.to(L.float64)"]


@pytest.mark.parametrize("op", SAVING)
def test_a_nodes_listing_names_what_it_saved_as_torch(op: str) -> None:
    """Autograd fuzz: ``dir(y.grad_fn)`` listed minitorch's own slots (``_saved``,
    ``_saved_names``...) and none of torch's ``_saved_self``/``_raw_saved_self``; a student's
    tab completion in Jupyter shows this listing."""
    def fn(L: Any) -> Any:
        x = L.tensor([[0.5, -1., 2.], [1.5, 0.25, -0.5]], requires_grad=True)
        y = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        node = eval(op, {"L": L, "x": x, "y": y}).grad_fn
        return sorted(a for a in dir(node) if a.startswith(("_saved", "_raw_saved")))
    assert_as_torch(fn)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("weight", [False, True])
@pytest.mark.parametrize("needs", [(True, True), (False, True), (True, False)], ids=str)
def test_group_norms_backward_with_a_bias_alone_fails_as_torch(dtype: str, weight: bool,
                                                               needs: tuple) -> None:
    """nn fuzz: ``group_norm(x, 2, bias=b)`` with ``b`` requiring grad gave gradients;
    torch's backward reads the missing weight and fails ("tensor does not have a device")
    in every dtype, not only for a half input with float32 parameters."""
    def fn(L: Any) -> Any:
        dt = getattr(L, dtype)
        x = L.arange(8., dtype=dt).reshape(2, 4).requires_grad_(needs[0])
        b = L.ones(4, dtype=dt, requires_grad=needs[1])
        w = L.ones(4, dtype=dt, requires_grad=True) if weight else None
        L.nn.functional.group_norm(x, 2, weight=w, bias=b).sum().backward()
        return x.grad, b.grad
    assert_as_torch(fn, assert_exact)


@pytest.mark.parametrize("call", [
    "F.binary_cross_entropy(L.full((1, 2), 0.5), L.ones(1, 2, dtype=L.float64), "
    "weight=L.ones(1, 2, requires_grad=True))",
    "F.binary_cross_entropy(L.full((1, 2), 0.5), L.ones(1, 2, dtype=L.int64), "
    "weight=L.ones(1, 2, requires_grad=True))",
    "F.binary_cross_entropy(L.full((1, 2), 0.5), L.ones(1, 2, dtype=L.float64), "
    "weight=L.ones(1, 2))",
    "F.binary_cross_entropy(L.full((1, 2), 0.5, dtype=L.int64), L.ones(1, 2), "
    "weight=L.ones(1, 2, requires_grad=True))"])
def test_binary_cross_entropy_refuses_a_weight_requiring_grad_first_as_torch(call: str) -> None:
    """nn fuzz: a weight requiring grad beside a target of another dtype was refused for the
    dtype; torch's autograd refuses the weight before its kernel compares the dtypes."""
    assert_as_torch(lambda L: eval(call, {"L": L, "F": L.nn.functional}))


@pytest.mark.parametrize("call", [
    "L.clamp_max(x, None, out=L.zeros(2))", "L.clamp(x, L.zeros(2), 2.5, out=L.zeros(2))",
    "L.clamp(x, -0.5, 2**64, out=L.zeros(2, dtype=L.int64))",
    "L.clamp(x, min=1, max=L.ones(2), out=L.zeros(2))",
    "L.clip(x, L.zeros(2), 2.5, out=L.zeros(2))", "L.clamp(x, 0, 1, out=L.zeros(2))",
    "L.clamp_min(x, 'a', out=L.zeros(2))", "L.clamp_min(x, 2**64, out=L.zeros(2))",
    "L.clamp(x.detach(), None, None, out=L.zeros(2))"])
def test_clamps_parser_refuses_before_out_is_checked_as_torch(call: str) -> None:
    """Math fuzz: ``clamp_max(x_requiring_grad, None, out=o)`` was refused for out= and
    autograd; torch's parser refuses the None bound (and a tensor beside a number, a number
    past what it reads) before anything out= is checked for."""
    assert_as_torch(lambda L: eval(call, {"L": L, "x": L.ones(2, requires_grad=True)}))


@pytest.mark.parametrize("call", [
    "1 / L.tensor([-0.]).logcumsumexp(0)", "1 / L.tensor([-0., -0.]).logcumsumexp(0)",
    "1 / L.tensor([[-0.]]).logcumsumexp(1)", "1 / L.tensor(-0.).logcumsumexp(0)",
    "1 / L.tensor([-0.], dtype=L.float16).logcumsumexp(0)",
    "L.func.jacfwd(lambda x: x.cumsum(-1).logcumsumexp(-1).log10())"
    "(L.tensor([-0.], dtype=L.float64))"])
def test_logcumsumexp_starts_from_minus_infinity_as_torch(call: str) -> None:
    """Autograd fuzz: the jacfwd of ``log10(logcumsumexp(x))`` at ``x = [-0.]`` was -inf
    for torch's inf: torch's running sum starts at -inf, so its first value is
    ``logaddexp(-inf, -0.) = +0.`` (a 0-d input is returned as it is)."""
    assert_as_torch(lambda L: eval(call, {"L": L}))


@pytest.mark.parametrize("t2", ["L.tensor([6, 1], dtype=L.int8)", "L.tensor([4, 3], dtype=L.uint8)",
                                "L.tensor([True, True])", "L.tensor([4, 3])",
                                "L.tensor([4., 3.])"])
@pytest.mark.parametrize("program", [
    "L.addcdiv(L.ones(2), t1, t2, value=2).sum().backward(); out = t1.grad",
    "out = L.func.jvp(lambda a: L.addcdiv(L.ones(2), a, t2), (t1.detach(),), (L.ones(2),))",
    "out = L.func.jacfwd(lambda a: L.addcdiv(L.ones(2), a, t2))(t1.detach())",
    "out = L.func.jacrev(lambda a: L.addcdiv(L.ones(2), a, t2))(t1.detach())"])
def test_addcdivs_backward_by_an_integer_tensor2_fails_as_torch(t2: str, program: str) -> None:
    """Math fuzz: ``addcdiv(x, t1, int8 t2)`` with ``t1`` requiring grad gave a gradient;
    torch's backward formula computes ``value / tensor2`` into a tensor like ``tensor2``,
    which refuses the float quotient; its forward formula (jvp, jacfwd) has no such step."""
    def fn(L: Any) -> Any:
        scope = {"L": L, "t1": L.ones(2, requires_grad=True), "t2": eval(t2, {"L": L}),
                 "out": None}
        exec(program, scope)
        return scope["out"]
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("call", ["L.clamp(x, 300, 1j, out=L.zeros(2))",
                                  "L.clamp_min(x, 1j, out=L.zeros(2))",
                                  "L.clamp(x.detach(), 300, 1j, out=L.zeros(2))"])
def test_a_complex_bound_is_a_number_to_clamps_parser_as_torch(call: str) -> None:
    """Math fuzz (seed 3405): ``clamp(x_requiring_grad, 300, 1j, out=o)`` was refused as an
    invalid combination; torch's parser takes a complex as a Number, so out= and autograd
    refuse it next."""
    assert_as_torch(lambda L: eval(call, {"L": L, "x": L.ones(2, requires_grad=True)}))


@pytest.mark.parametrize("call", [
    "L.func.vmap(lambda x: x.flip(-1))(L.ones(3))", "L.func.vmap(lambda x: x.flip(0))(L.ones(3))",
    "L.func.vmap(lambda x: x.flip(5))(L.ones(3))",
    "L.func.vmap(lambda x: x.flip(-1))(L.arange(6.).reshape(2, 3))",
    "L.func.vmap(lambda x: x.flip((0, 1)))(L.arange(12.).reshape(2, 2, 3))",
    "L.func.vmap(lambda x: x.flip(0, 0))(L.ones(2, 3))",
    "L.func.vmap(lambda x: x.flip(-1))(L.arange(6., requires_grad=True).reshape(2, 3))"
    ".grad_fn.name()"])
def test_vmap_flips_by_torchs_rule(call: str) -> None:
    """Autograd fuzz (seeds 3402-3405): under vmap, ``x.flip(-1)`` of 0-d examples returned;
    torch's flip rule reads the example's dim 0 (or -1) as the batch's dim 1 and finds it out
    of range; other examples flip once on the batch (FlipBackward0)."""
    assert_as_torch(lambda L: eval(call, {"L": L}))
