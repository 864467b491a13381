"""Issue #21, session 23's autograd fuzzer (fuzzx): leaves made inside torch.func's
transforms, ``requires_grad_()`` there, ``linearize``'s trace reading a value, in-place ops on
grad's inputs, and gradcheck's ``eps`` where torch never reads it — each case run on live torch
and on minitorch (taking the library as ``L``): the same result (values, dtype, shape,
requires_grad, grad_fn name), or the same exception type and message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_as_torch, assert_same
from test_autograd_bad_input_s19fuzzx_oracle import _quiet


def _same_node(got: Any, want: Any) -> None:
    assert_same(got, want)
    assert type(got.grad_fn).__name__ == type(want.grad_fn).__name__


def _same(fn: Callable[[Any], Any]) -> None:
    assert_as_torch(_quiet(fn), _same_node)


def _transform(L: Any, name: str, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``name`` of ``f`` (grad of its sum), to call on one vector (vmap: one row of three)."""
    if name == "vmap":
        return lambda x: L.func.vmap(f)(x.reshape(1, 3))
    if name == "grad":
        return L.func.grad(lambda u: f(u).sum())
    if name == "vjp":
        return lambda x: L.func.vjp(f, x)[0]
    if name == "jvp":
        return lambda x: L.func.jvp(f, (x,), (L.ones_like(x),))[1]
    return getattr(L.func, name)(f)


TRANSFORMS = ["vmap", "grad", "vjp", "jvp", "jacrev", "jacfwd", "hessian"]


@pytest.mark.parametrize("name", TRANSFORMS)
@pytest.mark.parametrize("how", ["method", "method_false", "input", "functional", "factory",
                                 "setter", "parameter"])
def test_requires_grad_inside_a_transform(name: str, how: str) -> None:
    """``requires_grad_()`` (any flag, and autograd.functional, which calls it) is refused
    inside a transform; a factory's ``requires_grad=True``, the setter and a Parameter are
    not, and such a leaf is the transform's own: its results leave without a grad_fn
    (vmap's keep it, as torch's)."""
    def f_of(L: Any) -> Callable[[Any], Any]:
        def f(x: Any) -> Any:
            if how == "input":
                return x.requires_grad_() * 2
            if how == "functional":
                return x * L.autograd.functional.jacobian(lambda u: u * 2, x).sum()
            w = L.ones(3, dtype=L.float64)
            if how == "method":
                w.requires_grad_()
            elif how == "method_false":
                w.requires_grad_(False)
            elif how == "factory":
                w = L.ones(3, dtype=L.float64, requires_grad=True)
            elif how == "setter":
                w.requires_grad = True
            else:
                w = L.nn.Parameter(w)
            return x * x * w
        return f

    def program(L: Any) -> Any:
        x = L.tensor([1.0, 2.0, 3.0], dtype=L.float64)
        if name == "hessian":
            return L.func.hessian(lambda u: f_of(L)(u).sum())(x)
        return _transform(L, name, f_of(L))(x)
    if name == "vmap" and how in ("factory", "setter", "parameter"):
        assert_as_torch(_quiet(program), assert_same)  # (torch's batched mul; ours stacks)
    else:
        _same(program)


@SETTINGS
@given(st.sampled_from(["item", "bool", "float", "int", "index", "element", "detached",
                        "literal", "captured", "shape", "tolist"]),
       st.sampled_from(["good", "wrongshape"]))
def test_linearize_trace_reads_no_value(read: str, tangent: str) -> None:
    """linearize traces ``func`` before anything else is checked: reading the value of a
    tensor made in the trace (item, bool, float, int, an index) is refused there; a literal
    ``tensor(...)``, a tensor from outside, shapes and tolist are not."""
    def program(L: Any) -> Any:
        captured = L.tensor([5.0], dtype=L.float64)
        reads = {
            "item": lambda x: x * x.sum().item(),
            "bool": lambda x: x * 2 if x.sum() > 0 else x,
            "float": lambda x: x * float(x[0]),
            "int": lambda x: x * int(x[0]),
            "index": lambda x: x * x[int(x.argmax())],
            "element": lambda x: x * x[0].item(),
            "detached": lambda x: x * x.detach().sum().item(),
            "literal": lambda x: x * L.tensor(3.0).item(),
            "captured": lambda x: x * captured.item(),
            "shape": lambda x: x * x.shape[0],
            "tolist": lambda x: x * x.tolist()[0],
        }
        x = L.tensor([1.0, -2.0, 3.0], dtype=L.float64)
        out, jvp_fn = L.func.linearize(reads[read], x)
        t = L.ones_like(x) if tangent == "good" else L.ones(2, 3, dtype=L.float64)
        return out, jvp_fn(t)
    _same(program)


@pytest.mark.parametrize("primal", [3.0, None, "x"])
def test_linearize_reads_a_primal_as_torch(primal: Any) -> None:
    """torch makes the trace's tangents (``new_empty``) before it reads a primal's shape."""
    _same(lambda L: L.func.linearize(lambda u: u, primal))


def test_linearize_allows_requires_grad_in_its_trace() -> None:
    """linearize is no functorch transform: ``requires_grad_()`` in ``func`` is allowed."""
    def program(L: Any) -> Any:
        x = L.tensor([1.0, 2.0], dtype=L.float64)
        out, _ = L.func.linearize(lambda u: u.requires_grad_() * 2, x)
        return out  # (jvp_fn's tangent: torch runs its graph, ours runs func again)
    _same(program)


@pytest.mark.parametrize("name", ["vjp", "grad", "jacrev", "jacfwd", "jvp", "vmap", "hessian"])
@pytest.mark.parametrize("requires_grad", [True, False])
def test_inplace_on_a_transform_input(name: str, requires_grad: bool) -> None:
    """An in-place op on grad/vjp/jacrev's input is on a leaf of their level ("a leaf
    Variable"), even where the caller's tensor requires grad; forward mode and vmap see a
    view of it."""
    def program(L: Any) -> Any:
        x = L.tensor([1.0, 2.0, 3.0], dtype=L.float64, requires_grad=requires_grad)
        return _transform(L, name, lambda u: u.mul_(2))(x)
    _same(program)


@pytest.mark.parametrize("which", ["gradcheck", "gradgradcheck"])
@pytest.mark.parametrize("eps", ["x", None, True, 1e-6])
@pytest.mark.parametrize("fast_mode", [False, True])
@pytest.mark.parametrize("size", [0, 2])
def test_gradcheck_reads_eps_where_torch_does(which: str, eps: Any, fast_mode: bool,
                                              size: int) -> None:
    """Slow mode reads ``eps`` when it first moves an element (never, for empty inputs); fast
    mode multiplies by it (a bool is a number there)."""
    def program(L: Any) -> Any:
        x = L.ones(size, dtype=L.float64, requires_grad=True)
        return getattr(L.autograd, which)(lambda u: u * u, x, eps=eps, fast_mode=fast_mode)
    assert_as_torch(_quiet(program))


@pytest.mark.parametrize("flag", [1, None, "x", 1.0, False])
def test_parameter_requires_grad_is_a_bool(flag: Any) -> None:
    """``Parameter(data, requires_grad)`` refuses a non-bool as torch's ``_make_subclass``."""
    assert_as_torch(lambda L: L.nn.Parameter(L.ones(1), requires_grad=flag).requires_grad)


@pytest.mark.parametrize("product", ["linear", "linear_bias", "matmul", "matmul_t", "rmatmul",
                                     "both", "both_linear"])
@pytest.mark.parametrize("batch", [1, 2])
def test_vmap_product_inner_sizes(product: str, batch: int) -> None:
    """A batched matrix product whose inner sizes differ is refused in the words of torch's
    batch rule: bmm's where the right operand is batched, one mm of all rows where the left
    one alone is (an ensemble of differently shaped Linears, through functional_call)."""
    def program(L: Any) -> Any:
        x, w = L.ones(4, 2), L.ones(3, 3)
        xs, ws = L.ones(batch, 4, 2), L.ones(batch, 3, 3)
        F, vmap = L.nn.functional, L.func.vmap
        return {
            "linear": lambda: vmap(lambda v: F.linear(x, v))(ws),
            "linear_bias": lambda: vmap(lambda v: F.linear(x, v, L.ones(3)))(ws),
            "matmul": lambda: vmap(lambda v: x @ v)(ws),
            "matmul_t": lambda: vmap(lambda v: x @ v.t())(ws),
            "rmatmul": lambda: vmap(lambda u: u @ w)(xs),
            "both": lambda: vmap(lambda u, v: u @ v)(xs, ws),
            "both_linear": lambda: vmap(lambda u, v: F.linear(u, v))(xs, ws),
        }[product]()
    assert_as_torch(_quiet(program))


def _vjp_of(L: Any, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda x: L.func.vjp(f, x)[1](L.ones(3, dtype=L.float64))


@pytest.mark.parametrize("name", ["vmap", "grad", "vjp_fn", "jvp", "jacrev", "jacfwd",
                                  "hessian", "jacrev_jacfwd", "linearize"])
@pytest.mark.parametrize("use", ["retain_grad", "hook", "hook_input", "saved_hooks", "numpy",
                                 "checkpoint"])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_graph_tools_inside_a_transform(name: str, use: str, requires_grad: bool) -> None:
    """Inside a transform torch's tensors are wrappers of its innermost level: retain_grad is
    refused by reverse mode and needs grad elsewhere, hooks need a reverse level, saved tensor
    hooks (checkpoint's too) are refused where any reverse level runs, numpy has no storage."""
    if use == "checkpoint" and name in ("jvp", "jacfwd", "linearize"):
        pytest.skip("minitorch's non-reentrant checkpoint under forward AD: IndexError")
    if name == "linearize" and requires_grad and use in ("retain_grad", "numpy"):
        pytest.skip("torch's jvp_fn runs its traced graph, minitorch's runs func again")
    def f_of(L: Any) -> Callable[[Any], Any]:
        def f(u: Any) -> Any:
            if use == "retain_grad":
                m = u * 2
                m.retain_grad()
                return m
            if use == "hook":
                m = u * 3
                m.register_hook(lambda g: g)
                return m * u
            if use == "hook_input":
                u.register_hook(lambda g: g)
                return u * u
            if use == "saved_hooks":
                with L.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                    return u * u
            if use == "numpy":
                return u * float(u.detach().numpy().sum())
            cp = __import__(L.__name__ + ".utils.checkpoint", fromlist=["checkpoint"])
            return cp.checkpoint(lambda a: a.sin(), u, use_reentrant=False)
        return f

    def program(L: Any) -> Any:
        x = L.ones(3, dtype=L.float64, requires_grad=requires_grad)
        f = f_of(L)
        if name == "vjp_fn":
            return _vjp_of(L, f)(x)
        if name == "jacrev_jacfwd":
            return L.func.jacrev(L.func.jacfwd(f))(x)
        if name == "linearize":
            return L.func.linearize(f, x)[1](L.ones_like(x))
        return _transform(L, name, f)(x)
    assert_as_torch(_quiet(program), assert_same)


@pytest.mark.parametrize("where", ["batched", "captured", "made_inside", "setter"])
def test_data_under_vmap(where: str) -> None:
    """``.data`` of a batched tensor is refused under vmap; of any other tensor it is not."""
    def program(L: Any) -> Any:
        c, x = L.ones(3), L.ones(2, 3)

        def f(u: Any) -> Any:
            if where == "batched":
                return u.data * 2
            if where == "captured":
                return u * c.data
            w = L.ones(3)
            if where == "setter":
                w.data = L.zeros(3)
                return u * w
            return u * w.data
        return L.func.vmap(f)(x)
    assert_as_torch(_quiet(program), assert_same)


@pytest.mark.parametrize("read", ["item", "bool", "float", "tolist"])
@pytest.mark.parametrize("nesting", ["vmap", "vmap_grad", "grad_vmap", "vmap_vmap"])
def test_value_read_under_vmap(read: str, nesting: str) -> None:
    """Reading a batched value as a number: vmap's own words, or, inside a grad level under
    the vmap, torch's message naming all three possible causes."""
    def program(L: Any) -> Any:
        F = L.func

        def f(u: Any) -> Any:
            s = u.sum()
            if read == "item":
                return s * s.item()
            if read == "bool":
                return s * 2 if s > 0 else s
            if read == "float":
                return s * float(s)
            return s * len(u.tolist())
        x = L.ones(2, 3, dtype=L.float64)
        if nesting == "vmap":
            return F.vmap(f)(x)
        if nesting == "vmap_grad":
            return F.vmap(F.grad(f))(x)
        if nesting == "grad_vmap":
            return F.grad(lambda w: F.vmap(f)(w).sum())(x)
        return F.vmap(F.vmap(f))(x.reshape(2, 3, 1))
    assert_as_torch(_quiet(program), assert_same)


@pytest.mark.parametrize("name", ["linearize", "grad", "vmap"])
def test_backward_inside_func(name: str) -> None:
    """backward() inside func: refused by torch.func's transforms, allowed in linearize's
    trace (no transform in torch)."""
    def program(L: Any) -> Any:
        x = L.ones(3, dtype=L.float64)

        def f(u: Any) -> Any:
            v = L.ones(3, dtype=L.float64, requires_grad=True)
            (v * v).sum().backward()
            return u * v.grad.sum()
        if name == "linearize":
            out, jvp_fn = L.func.linearize(f, x)
            return out, jvp_fn(L.ones_like(x))
        return _transform(L, name, f)(x)
    assert_as_torch(_quiet(program), assert_same)


@pytest.mark.parametrize("case", ["vmap_grad_data", "jvp_rng_state"])
def test_inside_transforms_still_allowed(case: str) -> None:
    """What torch still allows inside transforms: ``.data`` inside a grad level under vmap,
    restoring the random state (its bytes are read directly, not through numpy())."""
    def program(L: Any) -> Any:
        x = L.ones(2, 3, dtype=L.float64)
        if case == "vmap_grad_data":
            return L.func.vmap(L.func.grad(lambda u: (u.data * u).sum()))(x)
        return L.func.jvp(lambda u: (L.set_rng_state(L.get_rng_state()), u * 2)[1],
                          (x,), (x,))
    assert_as_torch(_quiet(program), assert_same)
