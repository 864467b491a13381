"""Issue #21, session 18's adversary: misuse of torch.autograd's entry points and hook handles,
run on live torch and on minitorch (each case takes the library as ``L``); values, keys,
warnings and errors (type and message) must be torch's."""

from __future__ import annotations

import collections
import subprocess
import sys
import types
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, arrays, assert_same, assert_same_error, shapes

import minitorch as mt
from minitorch import _warn_once


def _outcome(fn: Callable[[Any], Any], L: Any) -> tuple[Any, list[tuple[str, str]]]:
    """What ``fn(L)`` returns (or raises) and the warnings it gives, as (category, message)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            result: Any = fn(L)
        except Exception as error:  # the exception is the observation
            result = error
    # torch.func's first use compiles a helper and warns that torch.jit is deprecated
    return result, [(w.category.__name__, str(w.message).split(" (Triggered internally")[0])
                    for w in seen if "torch.jit" not in str(w.message)]


def _same_outcome(fn: Callable[[Any], Any]) -> Any:
    """``fn`` does on minitorch what it does on torch: the same warnings, and the same error
    or the same result (returned, for the caller to compare)."""
    got, got_warnings = _outcome(fn, mt)
    want, want_warnings = _outcome(fn, torch)
    assert got_warnings == want_warnings
    if isinstance(want, Exception):
        assert_same_error(got if isinstance(got, Exception) else None, want)
        return None
    assert not isinstance(got, Exception), f"minitorch raised {got!r}; torch returned {want!r}"
    return got, want


# ------------------------------------------------------------ a hook's handle as a context


def _tensor_hook_in_block(L: Any) -> Any:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    with x.register_hook(lambda g: g * 10) as handle:
        (x * 2).sum().backward()
    (x * 2).sum().backward()  # the hook is gone: + 2, not + 20
    return x.grad, type(handle).__name__, isinstance(handle.id, int)


def _node_hook_in_block(L: Any) -> Any:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    with y.grad_fn.register_prehook(lambda go: (go[0] * 7,)):
        pass
    y.sum().backward()
    return x.grad


def _post_accumulate_hook_in_block(L: Any) -> Any:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    calls: list[int] = []
    with x.register_post_accumulate_grad_hook(lambda t: calls.append(1)):
        (x * 2).sum().backward()
    (x * 2).sum().backward()
    return x.grad, calls


def _module_hook_in_block(L: Any) -> Any:
    layer = L.nn.Linear(1, 1)
    calls: list[int] = []
    with layer.register_forward_hook(lambda *args: calls.append(1)):
        layer(L.ones(1, 1))
    layer(L.ones(1, 1))
    return calls


@pytest.mark.parametrize("case", [_tensor_hook_in_block, _node_hook_in_block,
                                  _post_accumulate_hook_in_block, _module_hook_in_block])
def test_a_hooks_handle_removes_it_at_the_end_of_a_with_block(case: Callable) -> None:
    """torch's RemovableHandle is a context manager (``__exit__`` removes the hook); without
    it minitorch raised TypeError on ``with``."""
    got, want = _same_outcome(case)
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        if isinstance(w, torch.Tensor):
            assert_same(g, w)
        else:
            assert g == w


# ------------------------------------------------------------ dict inputs (torch 2.13)


@SETTINGS
@given(st.data())
def test_grad_of_a_dict_of_inputs_is_a_dict_with_their_keys(data: st.DataObject) -> None:
    """torch 2.13: ``grad(out, dict(model.named_parameters()))`` answers a dict with the same
    keys, in order; minitorch took the dict's keys for inputs and refused them."""
    shape = data.draw(shapes(max_dims=2))
    a, b = data.draw(arrays(shape)), data.draw(arrays(shape))
    keys = data.draw(st.permutations(["w", "b", "z"]))
    create_graph = data.draw(st.booleans())

    def run(L: Any) -> Any:
        w, c = L.tensor(a, requires_grad=True), L.tensor(b, requires_grad=True)
        unused = L.tensor(b, requires_grad=True)
        inputs = dict(zip(keys, [w, c, unused]))
        return L.autograd.grad((w * c * c).sum(), inputs, materialize_grads=True,
                               create_graph=create_graph)

    got, want = _same_outcome(run)
    assert type(got) is dict and list(got) == list(want) == keys
    for key in keys:
        assert_same(got[key], want[key], key)


def test_batched_grad_of_a_dict_of_inputs() -> None:
    def run(L: Any) -> Any:
        x = L.tensor([1.0, 2.0], requires_grad=True)
        return L.autograd.grad(x * x, {"x": x}, L.eye(2), is_grads_batched=True)

    got, want = _same_outcome(run)
    assert list(got) == ["x"]
    assert_same(got["x"], want["x"])


@pytest.mark.parametrize("inputs", [
    "{'a': x, 'b': y}",  # y unused: torch's index 1
    "{'a': x, 'b': 3}",  # a value that is no tensor: named by its type
    "{}",
    "collections.OrderedDict(a=x)",  # only a dict itself is accepted
    "types.MappingProxyType({'a': x})",
])
@pytest.mark.parametrize("call", ["grad", "backward"])
def test_inputs_given_as_a_mapping_are_refused_as_torch_refuses(inputs: str, call: str) -> None:
    def run(L: Any) -> Any:
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = L.tensor([3.0, 4.0], requires_grad=True)
        given_inputs = eval(inputs, {"collections": collections, "types": types, "x": x, "y": y})
        if call == "grad":
            return L.autograd.grad((x * 2).sum(), given_inputs)
        (x * 2).sum().backward(inputs=given_inputs)
        return x.grad, y.grad

    outcome = _same_outcome(run)
    if outcome is not None:  # backward with {'a': x, 'b': y}: y is simply not reached
        (gx, gy), (wx, wy) = outcome
        assert_same(gx, wx)
        assert gy is None and wy is None


def test_backward_with_a_dict_of_inputs_accumulates_into_them_only() -> None:
    def run(L: Any) -> Any:
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = L.tensor([3.0, 4.0], requires_grad=True)
        (x * y).sum().backward(inputs={"x": x})
        return x.grad, y.grad

    (gx, gy), (wx, wy) = _same_outcome(run)
    assert_same(gx, wx)
    assert gy is None and wy is None


# ------------------------------------------------------------ deprecated arguments


def test_grad_with_only_inputs_false_warns_and_answers() -> None:
    def run(L: Any) -> Any:
        x = L.tensor([1.0, 2.0], requires_grad=True)
        return L.autograd.grad((x * 3).sum(), x, only_inputs=False)

    (got,), (want,) = _same_outcome(run)
    assert_same(got, want)


@pytest.mark.parametrize("both", [False, True])
def test_backward_warns_that_grad_variables_is_deprecated(both: bool) -> None:
    """torch warns for ``grad_variables`` and refuses it next to ``grad_tensors``; minitorch
    used ``grad_tensors`` silently."""
    def run(L: Any) -> Any:
        x = L.tensor([1.0, 2.0], requires_grad=True)
        gradient = L.tensor([1.0, 3.0])
        L.autograd.backward(x * 2, gradient if both else None, grad_variables=gradient * 2)
        return x.grad

    outcome = _same_outcome(run)
    if not both:
        assert_same(*outcome)


# ------------------------------------------------------------ backward(create_graph=True)

_TORCH_WARNING = """
import warnings, torch
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    x = torch.ones({shape}, requires_grad=True)
    {call}
print(repr([(w.category.__name__, str(w.message).split(" (Triggered internally")[0])
            for w in seen]))
"""


def _assert_warns_once_as_torch(call: str, shape: tuple[int, ...]) -> None:
    """``call`` (on ``x``, ones of ``shape`` that require grad) gives torch's warnings, each
    given once per process: torch runs in a fresh process, minitorch forgets what it said."""
    script = _TORCH_WARNING.format(call=call, shape=shape)
    want = eval(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                               check=True).stdout)
    _warn_once._given.clear()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        exec(call, {"torch": mt, "x": mt.ones(shape, requires_grad=True)})
    assert [(w.category.__name__, str(w.message)) for w in seen] == want


@pytest.mark.parametrize("call", [
    "(x ** 2).sum().backward(create_graph=True); (x ** 2).sum().backward(create_graph=True)",
    "torch.autograd.backward((x * 2).sum(), create_graph=True, inputs=[x])",
    "torch.autograd.grad((x ** 2).sum(), x, create_graph=True)",
    "(x ** 2).sum().backward(retain_graph=True)",
])
def test_backward_with_create_graph_warns_once_about_the_reference_cycle(call: str) -> None:
    """torch's engine warns (once per process) when backward records the graph of ``.grad``;
    autograd.grad does not. torch runs in its own process, so its once is not spent."""
    _assert_warns_once_as_torch(call, (2,))


def test_the_values_of_a_backward_with_create_graph_are_torchs() -> None:
    def run(L: Any) -> Any:
        x = L.tensor(np.array([1.0, 2.0]), requires_grad=True)
        (x ** 3).sum().backward(create_graph=True)
        first = x.grad.clone()
        x.grad.sum().backward()
        return first, x.grad

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for lib_got, lib_want in zip(run(mt), run(torch)):
            assert_same(lib_got, lib_want)


def test_a_removed_handle_can_be_removed_again_even_after_its_block() -> None:
    for L in (mt, torch):
        x = L.ones(1, requires_grad=True)
        with x.register_hook(lambda g: g * 0) as handle:
            handle.remove()
        handle.remove()
        (x * 2).sum().backward()
        assert x.grad.tolist() == [2.0]


# ------------------------------------------------------------ backward inside torch.func

_TRANSFORMS = {
    "grad": lambda L, f: L.func.grad(f)(L.tensor([1.0, 2.0])),
    "vjp": lambda L, f: L.func.vjp(f, L.tensor([1.0, 2.0]))[0],
    "jvp": lambda L, f: L.func.jvp(f, (L.tensor([1.0, 2.0]),), (L.ones(2),)),
    "jacrev": lambda L, f: L.func.jacrev(f)(L.tensor([1.0, 2.0])),
    "vmap": lambda L, f: L.func.vmap(f)(L.ones(3, 2)),
}


@pytest.mark.parametrize("transform", sorted(_TRANSFORMS))
def test_backward_inside_a_func_transform_is_refused(transform: str) -> None:
    """torch refuses ``.backward()`` under any torch.func transform; minitorch ran it,
    accumulating into the outer leaf's ``.grad`` (or failing later on a freed graph)."""
    def run(L: Any) -> Any:
        outer = L.tensor([1.0, 2.0], requires_grad=True)

        def f(a: Any) -> Any:
            (outer * 2).sum().backward()
            return (a * a).sum()

        try:
            return _TRANSFORMS[transform](L, f)
        finally:
            assert outer.grad is None

    assert _same_outcome(run) is None  # both raise


# ------------------------------------------------------------ forward AD in inference mode


def _forward_ad_in_inference_mode(L: Any) -> Any:
    fwad = L.autograd.forward_ad
    outside = L.tensor([1.0, 2.0])
    with fwad.dual_level():
        dual = fwad.make_dual(outside, L.tensor([1.0, 3.0]))
        with L.inference_mode():
            made_inside = fwad.make_dual(L.tensor([3.0]), L.ones(1))
            unchecked = fwad.make_dual(L.ones(2), L.ones(3))  # the size check is autograd's
            seen = [fwad.unpack_dual(dual.exp()), fwad.unpack_dual(dual),
                    fwad.unpack_dual(made_inside * 2)]
        seen += [fwad.unpack_dual(made_inside), fwad.unpack_dual(dual.exp())]
    return seen, unchecked


def test_inference_mode_turns_forward_ad_off() -> None:
    """torch's inference mode skips the autograd kernels, forward AD's with them: no tangent
    is made, carried or read inside it (the dual keeps its tangent outside); minitorch carried
    tangents and then refused to save the inference tensors its ops made."""
    (got, got_plain), (want, want_plain) = _same_outcome(_forward_ad_in_inference_mode)
    assert_same(got_plain, want_plain)
    for (gp, gt), (wp, wt) in zip(got, want):
        assert_same(gp, wp)
        assert (gt is None) == (wt is None)
        if wt is not None:
            assert_same(gt, wt)


# ------------------------------------------------------------ quiet and noisy reads


@pytest.mark.parametrize("call", [
    "float(x * 2)",
    "float(x); float(x)",  # once per process
    "complex(x)",
    "float(x.detach()); int(x); x.item(); bool(x)",
    "torch.set_grad_enabled(False); float(x); torch.set_grad_enabled(True)",
])
def test_a_python_float_of_a_tensor_that_requires_grad_warns_once(call: str) -> None:
    """torch warns (once per process) that the float of a tensor which requires grad leaves
    the graph; int(), item() and bool() do not, nor float() with grad mode off."""
    _assert_warns_once_as_torch(call, (1,))


def _grad_of_a_non_leaf(L: Any) -> Any:
    y = L.tensor([1.0, 2.0], requires_grad=True) * 2
    y.grad = L.ones(2)
    first = y.grad  # set by hand: torch reads it quietly
    y.grad = None
    return first, y.grad  # None again: torch warns


def test_a_non_leafs_grad_set_by_hand_is_read_without_a_warning() -> None:
    (got, got_none), (want, want_none) = _same_outcome(_grad_of_a_non_leaf)
    assert_same(got, want)
    assert got_none is None and want_none is None


# ------------------------------------------------------------ AccumulateGrad's corners


def _saved_grad_changed_by_a_later_backward(L: Any) -> Any:
    x = L.ones(2, requires_grad=True)
    (x * 2).sum().backward()
    w = L.ones(2, requires_grad=True)
    z = (x.grad * w).sum()  # saves x.grad for w's gradient
    (x * 3).sum().backward()  # accumulates into x.grad in place
    z.backward()
    return w.grad


@SETTINGS
@given(st.integers(1, 4), st.booleans())
def test_accumulating_into_grad_counts_as_an_in_place_write(n: int, saved: bool) -> None:
    """torch's AccumulateGrad adds in place (``grad += new``), which moves the version
    counter: a graph that saved the old ``.grad`` refuses it. minitorch added without
    counting, and the graph silently used the changed value (a wrong gradient)."""
    def run(L: Any) -> Any:
        x = L.ones(n, requires_grad=True)
        (x * 2).sum().backward()
        versions = [x.grad._version]
        (x * 2).sum().backward()
        versions.append(x.grad._version)
        return versions, _saved_grad_changed_by_a_later_backward(L) if saved else None

    outcome = _same_outcome(run)
    if outcome is not None:
        assert outcome[0] == outcome[1]


def _expanded_grad(L: Any) -> Any:
    x = L.ones(2, 3, requires_grad=True)
    x.grad = L.ones(2, 1).expand(2, 3)
    (x * 2).sum().backward()


def test_accumulating_into_an_expanded_grad_is_refused_as_torch_does() -> None:
    assert _same_outcome(_expanded_grad) is None


def _dropped_after_requires_grad_false(L: Any) -> Any:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    z = L.tensor([3.0, 4.0], requires_grad=True)
    calls: list[Any] = []
    x.register_hook(lambda g: calls.append(g.tolist()))
    x.register_post_accumulate_grad_hook(lambda t: calls.append("post"))
    y = x * z
    x.requires_grad_(False)  # after the graph was built
    y.sum().backward()
    return x.grad, z.grad, calls


def test_a_leaf_that_stopped_requiring_grad_gets_no_gradient() -> None:
    """torch's AccumulateGrad drops the gradient of a leaf whose requires_grad was turned off
    after the graph was built (its hooks still run); minitorch accumulated it."""
    (gx, gz, calls), (wx, wz, want_calls) = _same_outcome(_dropped_after_requires_grad_false)
    assert gx is None and wx is None
    assert_same(gz, wz)
    assert calls == want_calls


@pytest.mark.parametrize("call", [
    "x.grad = torch.ones(3, 2).t().clone(); (x * 2).sum().backward()",
    "x.grad = torch.ones(3, 2).t(); (x * 2).sum().backward(create_graph=True)",
    "x.grad = torch.ones(2, 3); (x * 2).sum().backward()",
    "y = torch.ones(3, 2).t().requires_grad_(); y.grad = torch.ones(2, 3); y.sum().backward()",
    # once in all: the second, with other sizes and strides, is not told
    "x.grad = torch.ones(3, 2).t().clone(); x.sum().backward(); "
    "y = torch.ones(2, requires_grad=True); y.grad = torch.ones(4)[::2]; y.sum().backward()",
])
def test_a_grad_that_breaks_the_layout_contract_warns_once(call: str) -> None:
    """A sum of gradients in another layout than the parameter's: torch's once-only
    warning."""
    _assert_warns_once_as_torch(call, (2, 3))


# ------------------------------------------------------------ retain_grad's own sums


def _retained_grads(L: Any, transpose: bool, set_first: bool, create_graph: bool) -> Any:
    x = L.ones(3, 2, requires_grad=True)
    y = x.t() if transpose else x * 2
    y.retain_grad()
    if set_first:
        y.grad = L.zeros(tuple(y.shape))
    s = (y ** 2).sum()
    s.backward(retain_graph=True, create_graph=create_graph)
    first = y.grad
    s.backward(create_graph=create_graph)
    return first, y.grad, first is y.grad, first._version, y.grad.stride(), y.grad.grad_fn


@SETTINGS
@given(st.booleans(), st.booleans(), st.booleans())
def test_a_retained_grad_is_summed_into_a_new_tensor(transpose: bool, set_first: bool,
                                                     create_graph: bool) -> None:
    """torch's retain_grad hook keeps a contiguous clone, then ``grad + new`` (a new tensor):
    a .grad read or set before a later backward keeps its value. minitorch accumulated into
    it in place as into a leaf's, so the tensor the user held changed under them."""
    def run(L: Any) -> Any:
        first, last, same, version, stride, node = _retained_grads(L, transpose, set_first,
                                                                   create_graph)
        return first, last, same, version, stride, type(node).__name__

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # backward(create_graph=True)'s reference cycle
        got, want = run(mt), run(torch)
    assert_same(got[0], want[0], "first")
    assert_same(got[1], want[1], "last")
    assert got[2:] == want[2:]


# ------------------------------------------------------------ checkpoint's saved inputs

_CHANGES = {
    "a non-leaf argument": "a = x * 1; y = cp(lambda t: t.exp(), a, use_reentrant=False); "
                           "a.add_(1)",
    "a leaf in no_grad": "a = x; y = cp(lambda t: t.exp(), a, use_reentrant=False)\n"
                         "with L.no_grad(): a.add_(1)",
    "a view's base": "a = (x * 1)[1:]; y = cp(lambda t: t.exp(), a, use_reentrant=False); "
                     "a._base.mul_(2)",
    "nothing saved": "a = x * 1; y = cp(lambda t: t * 2, a, use_reentrant=False); a.add_(1)",
    "reentrant": "a = x * 1; y = cp(lambda t: t.exp(), a, use_reentrant=True); a.add_(1)",
}


@pytest.mark.parametrize("change", sorted(_CHANGES))
def test_checkpoint_refuses_an_argument_changed_before_backward(change: str) -> None:
    """torch's non-reentrant checkpoint saves its tensor arguments for backward, so one
    changed in place before backward is refused; minitorch reran the function on the new
    values and returned their gradient (a silently wrong one)."""
    def run(L: Any) -> Any:
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        scope = {"L": L, "x": x, "cp": L.utils.checkpoint.checkpoint}
        exec(_CHANGES[change], scope)
        scope["y"].sum().backward()
        return x.grad

    outcome = _same_outcome(run)
    if outcome is not None:
        assert_same(*outcome)


@pytest.mark.parametrize("requires_grad", [False, True])
def test_reentrant_checkpoint_warns_when_no_argument_requires_grad(requires_grad: bool) -> None:
    def run(L: Any) -> Any:
        w = L.tensor([2.0], requires_grad=True)
        x = L.tensor([1.0, 2.0], requires_grad=requires_grad)
        return L.utils.checkpoint.checkpoint(lambda a: a * w, x, use_reentrant=True)

    assert_same(*_same_outcome(run))


def _views_made_in_each_mode(L: Any) -> list[bool]:
    x = L.ones(3)
    seen = [x._is_view(), x[1:]._is_view(), x.view(3)._is_view(), x.clone()._is_view()]
    with L.inference_mode():
        seen += [x[:2]._is_view(), L.ones(2)[1:]._is_view()]
    with L.no_grad():
        seen.append(x[:2]._is_view())
    return seen


def test_is_view_tells_views_as_torch_does() -> None:
    got, want = _same_outcome(_views_made_in_each_mode)
    assert got == want
