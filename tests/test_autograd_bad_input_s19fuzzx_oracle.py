"""Issue #21, session 19's autograd fuzzer (fuzzx): bad and edge input to the autograd API —
grad()/backward() arguments, hooks' results, custom Functions, forward AD, gradcheck, anomaly
mode, saved-tensor hooks — run on live torch and on minitorch (each case takes the library as
``L``): the same result, or the same exception type and message."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from importlib import import_module
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from oracle import SETTINGS, assert_as_torch, assert_same, assert_same_error, shapes

import minitorch as mt


def _leaf(L: Any, shape: tuple = (3,), dtype: str = "float64") -> Any:
    return L.ones(shape, dtype=getattr(L, dtype), requires_grad=True)


def _quiet(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def run(L: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(L)
    return run


def _same(fn: Callable[[Any], Any]) -> None:
    """``fn`` raises on minitorch what it raises on torch, or returns the same tensors."""
    assert_as_torch(_quiet(fn), assert_same)


# ------------------------------------------------------------------ grad() and backward()


def _grad_flags_after_grads(L: Any) -> Any:  # a bad gradient is seen before a bad flag
    x = _leaf(L)
    return L.autograd.grad([x.sum()], [x], grad_outputs=[[1.0]], allow_unused="y")


def _grad_output_checked_before_gradient(L: Any) -> Any:
    x = _leaf(L)
    return L.autograd.grad([[x.sum()]], [x], grad_outputs=[2.5])


def _grad_batched_empty(L: Any) -> Any:
    return L.autograd.grad([], [_leaf(L)], is_grads_batched=True, retain_graph="y")


def _grad_batched_0d_before_flag(L: Any) -> Any:
    x = _leaf(L)
    return L.autograd.grad(x.sum(), x, L.ones((), dtype=L.float64), is_grads_batched=True,
                           materialize_grads="y")


def _grad_create_graph_before_allow_unused(L: Any) -> Any:
    x = _leaf(L)
    return L.autograd.grad(x.sin().sum(), x, allow_unused="y", retain_graph=False,
                           create_graph=None)


def _grad_materialize_create_graph_int(L: Any) -> Any:
    x = _leaf(L)
    return L.autograd.grad(x.sum(), [x, _leaf(L, (2,))], materialize_grads=True,
                           create_graph=1)


GRAD_CASES = {
    "flags after grads": _grad_flags_after_grads,
    "output checked before its gradient": _grad_output_checked_before_gradient,
    "batched, no outputs": _grad_batched_empty,
    "batched 0-d gradient before a bad flag": _grad_batched_0d_before_flag,
    "create_graph before allow_unused": _grad_create_graph_before_allow_unused,
    "materialize_grads with create_graph=1": _grad_materialize_create_graph_int,
    "backward(None)": lambda L: L.autograd.backward(None),
    "backward(3)": lambda L: L.autograd.backward(3),
    "backward(inputs=3)": lambda L: _leaf(L).sum().backward(inputs=3),
    "grad(None, x)": lambda L: L.autograd.grad(None, _leaf(L)),
    "grad(y, 2)": lambda L: L.autograd.grad(_leaf(L).sum(), 2),
}


@pytest.mark.parametrize("case", GRAD_CASES)
def test_grad_and_backward_arguments(case: str) -> None:
    _same(GRAD_CASES[case])


# ------------------------------------------------------------------ hooks


def _hook_result(where: str, result: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    def run(L: Any) -> Any:
        t = _leaf(L, (4,), "float32")
        y = t * 1
        if where == "tensor":
            y.register_hook(lambda g: result(L, g))
            y.sum().backward()
        elif where == "node":
            z = y.sum()
            z.grad_fn.register_hook(lambda gi, go: (result(L, gi[0]),))
            z.backward()
        elif where == "prehook":
            z = y.sum()
            z.grad_fn.register_prehook(lambda go: (result(L, go[0]),))
            z.backward()
        else:
            t.register_post_accumulate_grad_hook(lambda p: result(L, p))
            y.sum().backward()
        return t.grad
    return run


RESULTS = {
    "float64 of another size": lambda L, g: L.ones(7, dtype=L.float64),
    "int64 of another size": lambda L, g: L.ones(7, dtype=L.int64),
    "float32 of another size": lambda L, g: L.ones(7, dtype=L.float32),
    "same tensor": lambda L, g: g.clone(),
    "a list": lambda L, g: [g],
}


@pytest.mark.parametrize("where", ["tensor", "node", "prehook", "post_accumulate"])
@pytest.mark.parametrize("result", RESULTS)
def test_hook_result_checked_type_then_size(where: str, result: str) -> None:
    """torch checks a hook's tensor for its type (dtype, device) before its size; a
    post-accumulate-grad hook's tensor gets that check before 'should return None'."""
    _same(_hook_result(where, RESULTS[result]))


@given(shape=shapes(min_dims=0, max_dims=3))
@SETTINGS
def test_hook_changing_dtype_and_size_is_refused_for_its_dtype(shape: tuple) -> None:
    def run(L: Any) -> Any:
        t = L.ones(shape, dtype=L.float32, requires_grad=True)
        t.register_hook(lambda g: L.ones((*shape, 2), dtype=L.float64))
        (t * 2).sum().backward()
    _same(run)


# ------------------------------------------------------------------ custom Functions


def _custom(save: Callable[[Any, Any], tuple], mark: str) -> Callable[[Any], Any]:
    def run(L: Any) -> Any:
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                ctx.save_for_backward(*save(L, a))
                if mark == "nondiff":
                    ctx.mark_non_differentiable(3)
                elif mark == "dirty":
                    ctx.mark_dirty(3)
                elif mark == "dirty_unreturned":
                    ctx.mark_dirty(a)
                return a * 2

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g
        return F.apply(_leaf(L))
    return run


@pytest.mark.parametrize("mark", ["nondiff", "dirty", "dirty_unreturned", "none"])
@pytest.mark.parametrize("saved", ["int", "list", "str"])
def test_save_for_backward_refused_before_the_marks(saved: str, mark: str) -> None:
    value = {"int": 3, "list": [1], "str": "s"}[saved]
    _same(_custom(lambda L, a: (value,), mark))


def _unpack_raising_attribute_error(L: Any, custom: bool) -> Any:
    class F(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            ctx.save_for_backward(a)
            return a * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * ctx.saved_tensors[0]
    x = _leaf(L)
    with L.autograd.graph.saved_tensors_hooks(lambda t: None, lambda p: p.clone()):
        y = F.apply(x).sum() if custom else (x * x).sum()
    y.backward()


@pytest.mark.parametrize("custom", [False, True])
def test_unpack_hooks_attribute_error_is_not_masked(custom: bool) -> None:
    _same(lambda L: _unpack_raising_attribute_error(L, custom))


def test_save_for_forward_refuses_non_tensors() -> None:
    def run(L: Any) -> Any:
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                ctx.save_for_forward(None, 3)
                return a * 2
        return F.apply(_leaf(L))
    _same(run)


def test_saved_no_grad_view_of_a_dirty_input_is_refused() -> None:
    def run(L: Any) -> Any:
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                ctx.save_for_backward(a.view(-1))
                a.add_(1)
                ctx.mark_dirty(a)
                return a

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g * ctx.saved_tensors[0]
        F.apply(_leaf(L) * 1).sum().backward()
    _same(run)


def test_saved_no_grad_view_whose_base_changed_is_refused_first() -> None:
    def run(L: Any) -> Any:
        t = _leaf(L) * 1
        with L.no_grad():
            v = t.view(-1)
        y = t * v
        t.add_(1)
        y.sum().backward()
    _same(run)


# ------------------------------------------------------------------ forward AD


@pytest.mark.parametrize("tangent", [None, {}, 1.5, 3, [1.0], "s", (1,)])
def test_make_dual_non_tensor_tangent(tangent: Any) -> None:
    def run(L: Any) -> Any:
        with L.autograd.forward_ad.dual_level():
            return L.autograd.forward_ad.make_dual(L.ones(2), tangent)
    _same(run)


def test_make_dual_non_tensor_primal() -> None:
    def run(L: Any) -> Any:
        with L.autograd.forward_ad.dual_level():
            return L.autograd.forward_ad.make_dual(3, L.ones(2))
    _same(run)


def test_dual_level_exited_twice() -> None:
    def run(L: Any) -> Any:
        level = L.autograd.forward_ad.dual_level()
        level.__enter__()
        level.__exit__(None, None, None)
        level.__exit__(None, None, None)
    _same(run)


# ------------------------------------------------------------------ gradcheck, anomaly, graph


@pytest.mark.parametrize("out", [None, 1.0, [1], "s"])
def test_gradcheck_non_tensor_output_without_undefined_grad_check(out: Any) -> None:
    _same(lambda L: L.autograd.gradcheck(lambda u: out, (_leaf(L),),
                                         check_undefined_grad=False))


def test_gradcheck_none_nondet_tol() -> None:
    def run(L: Any) -> Any:
        class Bad(L.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                return a * 2

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g * 3
        return L.autograd.gradcheck(Bad.apply, (_leaf(L),), nondet_tol=None,
                                    raise_exception=False)
    _same(run)


@pytest.mark.parametrize("check_nan", ["x", None, 1])
def test_bad_check_nan_leaves_anomaly_mode_off(check_nan: Any) -> None:
    def run(L: Any) -> Any:
        try:
            with L.autograd.set_detect_anomaly(True, check_nan=check_nan):
                pass
        except TypeError:
            pass
        return L.is_anomaly_enabled()
    assert run(mt) == run(torch)
    _same(lambda L: L.autograd.set_detect_anomaly(True, check_nan=check_nan))
    assert not mt.is_anomaly_enabled()


INCREMENTED = {
    "tensor": lambda t: t, "list": lambda t: [t, t], "set": lambda t: {t}, "int": lambda t: 3,
    "int list": lambda t: [3], "None": lambda t: None, "str": lambda t: "ab",
    "empty": lambda t: [], "tensor then int": lambda t: [t, 3],
}


@pytest.mark.parametrize("arg", INCREMENTED)
def test_increment_version(arg: str) -> None:
    def run(L: Any) -> Any:
        t = L.ones(2)
        graph = import_module(f"{L.__name__}.autograd.graph")
        try:
            graph.increment_version(INCREMENTED[arg](t))
        finally:
            version = t._version
        return version
    _same(run)


def test_increment_version_leaves_inference_tensors() -> None:
    def run(L: Any) -> Any:
        with L.inference_mode():
            u = L.ones(2)
        import_module(f"{L.__name__}.autograd.graph").increment_version(u)
        return u.is_inference()
    _same(run)


# ------------------------------------------------------------------ in-place and saved arrays


def test_view_of_a_0d_base_changed_in_place() -> None:
    def run(L: Any) -> Any:
        t = L.tensor(2.0, dtype=L.float64, requires_grad=True)
        u = t * 1
        v = u.view(-1)
        y = (v * v).sum()
        u.mul_(2)
        y.backward()
    _same(run)


@pytest.mark.parametrize("form", [(-1,), (1, 1)])
def test_view_of_a_0d_base_written_in_place(form: tuple) -> None:
    def run(L: Any) -> Any:
        t = L.tensor(2.0, dtype=L.float64, requires_grad=True)
        u = t * 1
        v = u.view(*form)
        v.mul_(3)
        (u * 2).backward()
        return t.grad, v
    _same(run)


def test_unpack_hook_of_wrong_shape() -> None:
    def run(L: Any) -> Any:
        t = _leaf(L)
        with L.autograd.graph.saved_tensors_hooks(lambda u: u,
                                                  lambda p: L.ones(7, dtype=L.float64)):
            y = (t * t).sum()
        y.backward()
    _same(run)


@pytest.mark.parametrize("name", ["zeros_like", "ones_like", "empty_like"])
@pytest.mark.parametrize("flag", [1, None, True])
def test_like_factories_name_themselves_for_requires_grad(name: str, flag: Any) -> None:
    def run(L: Any) -> Any:
        return getattr(L, name)(L.ones(2), requires_grad=flag).requires_grad
    _same(run)


def test_oracle_helpers_see_a_difference() -> None:
    """The comparison above can fail: a different message is caught."""
    with pytest.raises(AssertionError):
        assert_same_error(RuntimeError("a"), RuntimeError("b"))
    assert np.isfinite(1.0)


@pytest.mark.parametrize("mode", ["all", "any"])
def test_multi_grad_hook_over_a_tensor_without_grad(mode: str) -> None:
    def run(L: Any) -> Any:
        graph = import_module(f"{L.__name__}.autograd.graph")
        t, seen = _leaf(L), []
        graph.register_multi_grad_hook((t, L.ones(2)), lambda g: seen.append(type(g).__name__),
                                       mode=mode)
        (t * 2).sum().backward()
        return seen
    _same(run)


def test_allow_mutation_on_saved_tensors_not_nested() -> None:
    def run(L: Any) -> Any:
        graph = import_module(f"{L.__name__}.autograd.graph")
        with graph.allow_mutation_on_saved_tensors(), graph.allow_mutation_on_saved_tensors():
            pass
    _same(run)


@pytest.mark.parametrize("eps", [True, False])
@pytest.mark.parametrize("fast_mode", [False, True])
def test_gradcheck_bool_eps(eps: bool, fast_mode: bool) -> None:
    _same(lambda L: L.autograd.gradcheck(lambda u: u.sin(), (_leaf(L),), eps=eps,
                                         fast_mode=fast_mode))


@pytest.mark.parametrize("fast_mode", [False, True])
def test_gradcheck_not_reentrant_message(fast_mode: bool) -> None:
    _same(lambda L: L.autograd.gradcheck(lambda u: u.sin(), (_leaf(L),), nondet_tol=-1.0,
                                         fast_mode=fast_mode))


@pytest.mark.parametrize("made", ["view of a leaf", "slice of a leaf", "view of a non-leaf",
                                  "input view of a leaf"])
def test_mark_dirty_on_a_view(made: str) -> None:
    """torch refuses a dirty output that is a leaf requiring grad, as a view made inside
    forward (no_grad) of a tensor that requires grad is."""
    def run(L: Any) -> Any:
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                out = a if made == "input view of a leaf" else \
                    a[:2] if made == "slice of a leaf" else a.view(-1)
                ctx.mark_dirty(out)
                return out

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g
        t = _leaf(L)
        return F.apply(t * 1 if made == "view of a non-leaf" else
                       t[:2] if made == "input view of a leaf" else t)
    _same(run)


@pytest.mark.parametrize("inputs", ["None", "list", "int", "tensor"])
def test_forward_mode_jacobian_reads_inputs_before_vectorize(inputs: str) -> None:
    def run(L: Any) -> Any:
        t = L.ones(2, dtype=L.float64)
        given = {"None": None, "list": [t], "int": 3, "tensor": t}[inputs]
        return L.autograd.functional.jacobian(lambda u: u * 2, given, strategy="forward-mode")
    _same(run)


@given(shape=shapes(min_dims=0, max_dims=2, max_side=3))
@SETTINGS
def test_forward_mode_jacobian_keeps_the_inputs_graph(shape: tuple) -> None:
    """torch's forward-mode jacobian does not detach its inputs: the Jacobian of an input
    that requires grad has a graph back to it."""
    data = np.linspace(0.5, 1.5, int(np.prod(shape))).reshape(shape)

    def run(L: Any) -> Any:
        t = L.tensor(data, requires_grad=True)
        j = L.autograd.functional.jacobian(lambda u: u.sin() * u, t, strategy="forward-mode",
                                           vectorize=True)
        j.sum().backward()
        return j, t.grad
    _same(run)


@pytest.mark.parametrize("name", ["is_grad_enabled", "is_inference_mode_enabled",
                                  "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
                                  "autograd.is_multithreading_enabled"])
@pytest.mark.parametrize("given", ["one", "two", "keyword"])
def test_mode_queries_take_no_arguments(name: str, given: str) -> None:
    args, kwargs = {"one": ((True,), {}), "two": ((1, 2), {}), "keyword": ((), {"a": 1})}[given]

    def run(L: Any) -> Any:
        f = L
        for part in name.split("."):
            f = getattr(f, part)
        return f(*args, **kwargs)
    _same(run)


def test_set_grad_enabled_sets_its_mode_again_on_enter() -> None:
    def run(L: Any) -> Any:
        t = _leaf(L)
        manager = L.set_grad_enabled(False)
        copy = manager.clone()
        L.set_grad_enabled(True)
        with copy:
            inside = (t * 2).requires_grad
        after = L.is_grad_enabled()
        L.set_grad_enabled(True)
        return inside, after
    _same(run)


@pytest.mark.parametrize("given", [None, [None, "batch"]])
def test_batched_grad_of_an_output_without_grad(given: Any) -> None:
    """torch leaves the gradient of an output that does not require grad None, which vmap
    refuses before the engine refuses the output."""
    def run(L: Any) -> Any:
        x = _leaf(L)
        grads = None if given is None else [None, L.ones(2, 3, dtype=L.float64)]
        return L.autograd.grad([x.detach().sum(), x * 2], [x], grad_outputs=grads,
                               is_grads_batched=True)
    _same(run)
