"""Version counters and in-place operations.

``_version`` bumps, who shares a counter (views, detach) and who does not (.data, clone),
the stale saved-tensor check, the leaf checks, in-place ops recorded on non-leaves, and a
property test: an in-place op on a view gives torch's gradient exactly where torch gives
one, and raises exactly where torch does. The same programs run on minitorch and live torch 2.13.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same, assert_same_error, mt, numpy_of, raised_by

from minitorch import backend

LIBS = pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])

INPLACE = {
    "add_": lambda t: t.add_(1),
    "add_ alpha": lambda t: t.add_(t.detach(), alpha=2),
    "sub_": lambda t: t.sub_(1),
    "mul_": lambda t: t.mul_(2),
    "div_": lambda t: t.div_(2),
    "zero_": lambda t: t.zero_(),
    "fill_": lambda t: t.fill_(3),
    "copy_": lambda t: t.copy_(t.detach() * 0 + 5),
    "clamp_": lambda t: t.clamp_(0, 1),
    "clamp_ min": lambda t: t.clamp_(min=0.5),
    "t[0] = v": lambda t: t.__setitem__(0, 7.0),
    "t[0:2] = v": lambda t: t.__setitem__(slice(0, 2), 7.0),
}


def augmented(name: str) -> Callable[[Any], Any]:
    """``t += 1`` and friends, as real augmented assignments."""

    def run(t: Any) -> Any:
        if name == "+=":
            t += 1
        elif name == "-=":
            t -= 1
        elif name == "*=":
            t *= 2
        else:
            t /= 2
        return t

    return run


INPLACE.update({name: augmented(name) for name in ("+=", "-=", "*=", "/=")})


# ------------------------------------------------------------------ what bumps the version


@LIBS
@pytest.mark.parametrize("op", INPLACE)
@pytest.mark.parametrize("grad", ["plain", "no_grad", "non-leaf"])
def test_inplace_bumps_version_once(L: Any, op: str, grad: str) -> None:
    if grad == "non-leaf":
        t = L.tensor([1.0, 2.0, 3.0], requires_grad=True) * 1
    else:
        t = L.tensor([1.0, 2.0, 3.0], requires_grad=grad == "no_grad")
    before = t._version
    if grad == "no_grad":
        with L.no_grad():
            out = INPLACE[op](t)
    else:
        out = INPLACE[op](t)
    assert t._version == before + 1
    if out is not None:
        assert out is t


@LIBS
def test_what_does_not_bump_the_version(L: Any) -> None:
    x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    _ = (x + 1, x * 2, x.exp(), x.sum(), x[0], x.reshape(3, 1), x.clone(), x.detach())
    x.requires_grad_(False)
    x.requires_grad_(True)
    x.data = L.zeros(3)
    x.grad = L.ones(3)
    x.grad = None
    y = L.ones(3) * 1
    y.detach_()
    assert (x._version, y._version) == (0, 0)


@LIBS
def test_views_and_detach_share_the_counter(L: Any) -> None:
    base = L.ones(4)
    views = [base[1:3], base[0], base.reshape(2, 2), base.view(2, 2).t(), base.unsqueeze(0),
             base.detach()]
    for i, v in enumerate(views):
        v.mul_(2)
        assert base._version == i + 1
        assert all(w._version == i + 1 for w in views)
    base.add_(1)
    assert views[0]._version == len(views) + 1


WRITES = {
    "b[1:3].mul_(2)": lambda b: b[1:3].mul_(2),
    "b[0].mul_(2)": lambda b: b[0].mul_(2),
    "b.view(2, 2)[0, 1].fill_(3)": lambda b: b.view(2, 2)[0, 1].fill_(3),
    "v = b[-1]; v += 5": lambda b: augmented("+=")(b[-1]),
    "b.view(2, 2).t()[0] = 7": lambda b: b.view(2, 2).t().__setitem__(0, 7.0),
    "b.unsqueeze(0)[0, 2:].zero_()": lambda b: b.unsqueeze(0)[0, 2:].zero_(),
    "b[...].copy_(...)": lambda b: b[...].copy_(b.detach() * 0 + 9),
}


@pytest.mark.parametrize("write", list(WRITES))
def test_inplace_through_a_view_writes_the_base(write: str) -> None:
    base = mt.arange(1.0, 5.0)
    WRITES[write](base)
    want = torch.arange(1.0, 5.0)
    WRITES[write](want)
    assert base.tolist() == want.tolist()
    assert base._version == 1


@LIBS
def test_data_and_clone_have_their_own_counter(L: Any) -> None:
    base = L.ones(4, requires_grad=True)
    data = base.data
    data.add_(1)
    assert (base._version, data._version) == (0, 1)
    assert base.tolist() == [2.0] * 4, ".data shares the values"
    copy = base.clone()
    assert copy._version == 0
    copy.add_(1)
    assert (base._version, copy._version) == (0, 1)
    assert base.tolist() == [2.0] * 4


# ------------------------------------------------------------------ the .data pitfall


def sigmoid_data_zeroed(L: Any) -> Any:
    """The pitfall: changing a saved output through .data is not detected."""
    x = L.tensor([1.0, 2.0], dtype=L.float64, requires_grad=True)
    y = x.sigmoid()
    y.data.zero_()
    y.sum().backward()
    return x.grad


def leaf_data_replaced(L: Any) -> Any:
    x = L.tensor([1.0, 2.0], dtype=L.float64, requires_grad=True)
    y = (x * x).sum()
    x.data = L.tensor([10.0, 20.0], dtype=L.float64)
    y.backward()
    return x.grad


@pytest.mark.parametrize("scenario", [sigmoid_data_zeroed, leaf_data_replaced])
def test_data_changes_go_undetected_like_torch(scenario: Callable[[Any], Any]) -> None:
    """A wrong gradient, silently, in both libraries: why .data is a pitfall to teach."""
    got, want = scenario(mt), scenario(torch)
    assert_same(got, want)
    if scenario is sigmoid_data_zeroed:
        true = 1 / (1 + np.exp(-np.array([1.0, 2.0])))
        assert not np.allclose(numpy_of(got), true * (1 - true)), "it is indeed wrong"


@LIBS
def test_same_change_through_detach_is_caught(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    y.detach().zero_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


# ------------------------------------------------------------------ stale saved tensors


def _through_a_view(L: Any, dtype: str) -> None:
    x = L.tensor([1.0, 2.0, 3.0], dtype=getattr(L, dtype), requires_grad=True)
    a = x * 2
    y = a * a
    with L.no_grad():
        a[1:].mul_(2)
    y.sum().backward()


def _through_detach(L: Any, dtype: str) -> None:
    x = L.ones(2, 3, dtype=getattr(L, dtype), requires_grad=True)
    y = x.tanh()
    y.detach().add_(1)
    y.sum().backward()


def _leaf_through_setitem(L: Any, dtype: str) -> None:
    w = L.ones(3, dtype=getattr(L, dtype))
    y = L.ones(3, dtype=getattr(L, dtype), requires_grad=True) * w
    w[0] = 2.0
    y.sum().backward()


def _leaf_twice(L: Any, dtype: str) -> None:
    x = L.ones(2, 2, dtype=getattr(L, dtype), requires_grad=True)
    y = x.sin()
    with L.no_grad():
        x.add_(1)
        x.mul_(2)
    y.sum().backward()


def _recorded_inplace_on_saved(L: Any, dtype: str) -> None:
    """The saved tensor's grad_fn changed (Exp -> Mul): torch names the current one."""
    x = L.ones(3, dtype=getattr(L, dtype), requires_grad=True)
    a = x.exp()
    y = a.log()
    a.mul_(2)
    y.sum().backward()


STALE = [_through_a_view, _through_detach, _leaf_through_setitem, _leaf_twice,
         _recorded_inplace_on_saved]


def stale_id(scenario: Any) -> str:
    return scenario.__name__.strip("_")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("scenario", STALE, ids=stale_id)
def test_stale_saved_tensor_error_like_torch(scenario: Callable[..., None], dtype: str) -> None:
    want = raised_by(lambda L: scenario(L, dtype), torch)
    assert want is not None and "modified by an inplace operation" in str(want)
    assert_same_error(raised_by(lambda L: scenario(L, dtype), mt), want)


def test_stale_message_text() -> None:
    """The reference's §4 shapes: a non-leaf names its node, a leaf does not."""
    non_leaf = str(raised_by(lambda L: _through_a_view(L, "float64"), mt))
    leaf = str(raised_by(lambda L: _leaf_twice(L, "float32"), mt))
    hint = ("Hint: enable anomaly detection to find the operation that failed to compute its "
            "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
    assert non_leaf == (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.DoubleTensor [3]], which is output 0 of Mul, is at version 1; "
        f"expected version 0 instead. {hint}")
    assert leaf == (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [2, 2]] is at version 2; expected version 0 instead. "
        f"{hint}")


# ------------------------------------------------------------------ leaves


def _leaf_inplace(L: Any) -> None:
    L.ones(3, requires_grad=True).clamp_(0, 1)


def _leaf_div(L: Any) -> None:
    x = L.ones(3, requires_grad=True)
    x /= 2


def _view_of_leaf(L: Any) -> None:
    L.ones(2, 3, requires_grad=True)[:, 1:].zero_()


def _view_of_leaf_setitem(L: Any) -> None:
    L.ones(2, 3, requires_grad=True).reshape(3, 2)[0] = 1.0


@pytest.mark.parametrize("scenario", [_leaf_inplace, _leaf_div, _view_of_leaf,
                                      _view_of_leaf_setitem], ids=lambda f: f.__name__.strip("_"))
def test_leaf_inplace_errors_like_torch(scenario: Callable[[Any], None]) -> None:
    assert_same_error(raised_by(scenario, mt), raised_by(scenario, torch))


@LIBS
def test_leaf_inplace_allowed_under_no_grad(L: Any) -> None:
    x = L.ones(3, requires_grad=True)
    with L.no_grad():
        x.mul_(3)
        x[0] = 0.0
        x[1:].add_(1)
    assert x.tolist() == [0.0, 4.0, 4.0] and x.is_leaf and x.requires_grad
    assert x._version == 3
    (x * x).sum().backward()
    assert x.grad.tolist() == [0.0, 8.0, 8.0]


# ------------------------------------------------------------------ in-place on non-leaves


NON_LEAF_OPS = {
    "add_(w)": lambda L, t, w: t.add_(w),
    "sub_(w, alpha)": lambda L, t, w: t.sub_(w, alpha=2),
    "mul_(w)": lambda L, t, w: t.mul_(w),
    "div_(w)": lambda L, t, w: t.div_(w),
    "clamp_": lambda L, t, w: t.clamp_(-1, 1),
    "copy_(w)": lambda L, t, w: t.copy_(w),
    "copy_ broadcast": lambda L, t, w: t.copy_(w[:1]),
    "zero_": lambda L, t, w: t.zero_(),
    "fill_(2.0)": lambda L, t, w: t.fill_(2.0),
    "y[0] = 5": lambda L, t, w: t.__setitem__(0, 5.0),
    "y[1:] = w[:2] * 3": lambda L, t, w: t.__setitem__(slice(1, None), w[:2] * 3),
    "y[index] = w": lambda L, t, w: t.__setitem__(L.tensor([0, 2]), w[1:]),
    "+= w then *= w": lambda L, t, w: augmented("*=")(t.__iadd__(w)),
    "two in-place ops": lambda L, t, w: t.mul_(w).add_(t.detach()),
}


def non_leaf_inplace(L: Any, op: str) -> tuple[Any, ...]:
    x = L.tensor([1.0, -2.0, 3.0], dtype=L.float64, requires_grad=True)
    w = L.tensor([0.5, 0.25, 2.0], dtype=L.float64, requires_grad=True)
    y = x.exp() * 1
    NON_LEAF_OPS[op](L, y, w)
    (y * L.tensor([1.0, 2.0, 3.0], dtype=L.float64)).sum().backward()
    return y, x.grad, w.grad


@pytest.mark.parametrize("op", NON_LEAF_OPS)
def test_inplace_on_non_leaf_like_torch(op: str) -> None:
    got, want = non_leaf_inplace(mt, op), non_leaf_inplace(torch, op)
    for i, (g, w) in enumerate(zip(got, want)):
        if w is None:
            assert g is None, f"result {i}: expected None"
        else:
            assert_same(g, w, f"result {i}")


@pytest.mark.parametrize("op", ["add_(w)", "mul_(w)", "y[0] = 5", "copy_(w)", "clamp_"])
def test_inplace_changes_grad_fn_like_torch(op: str) -> None:
    names = []
    for L in (mt, torch):
        x = L.ones(3, requires_grad=True)
        y = x * 2
        before = y.grad_fn
        NON_LEAF_OPS[op](L, y, L.ones(3))
        assert y.grad_fn is not before and not y.is_leaf
        assert y.grad_fn.next_functions[0][0] is before
        names.append(type(y.grad_fn).__name__)
    assert names[0] == names[1]


@pytest.mark.parametrize("fill", [lambda t: t.zero_(), lambda t: t.fill_(2.0)],
                         ids=["zero_", "fill_"])
def test_fill_node_names_like_torch(fill: Callable[[Any], Any]) -> None:
    names = []
    for L in (mt, torch):
        y = L.ones(3, requires_grad=True) * 2
        fill(y)
        names.append(type(y.grad_fn).__name__)
    assert names[0] == names[1]


def test_fill_with_a_tensor_value_gives_its_gradient() -> None:
    grads = []
    for L in (mt, torch):
        v = L.tensor(2.0, requires_grad=True)
        y = L.ones(3, requires_grad=True) * 1
        y.fill_(v * 1)
        (y * L.tensor([1.0, 2.0, 3.0])).sum().backward()
        grads.append(None if v.grad is None else v.grad.item())
    assert grads == [6.0, 6.0]


# ------------------------------------------------------------------ in-place on views: property


BASES = {
    "non-leaf": lambda L, x: x * 1.5,
    "exp": lambda L, x: x.exp(),
    "leaf": lambda L, x: x,
    "no grad": lambda L, x: x.detach() * 1.5,
}
VIEWS = {
    "row": lambda b: b[1],
    "columns": lambda b: b[:, 1:],
    "reshape": lambda b: b.reshape(3, 2),
    "transpose": lambda b: b.t(),
    "unsqueeze": lambda b: b.unsqueeze(0),
    "detach": lambda b: b.detach(),
    "view of view": lambda b: b[1:][0, 1:],
}
OPS = {
    "add_ scalar": lambda v, s: v.add_(1.5),
    "mul_ s": lambda v, s: v.mul_(s),
    "add_ s*2": lambda v, s: v.add_(s * 2),
    "div_ s": lambda v, s: v.div_(s),
    "v[0] = s*3": lambda v, s: v.__setitem__(0, s * 3),
    "zero_": lambda v, s: v.zero_(),
    "copy_ s": lambda v, s: v.copy_(s),
    "clamp_": lambda v, s: v.clamp_(-0.5, 0.5),
}
BEFORE = {
    "nothing": lambda b, v: 0,
    "base saved (b*b)": lambda b, v: (b * b).sum(),
    "view saved (v*v)": lambda b, v: (v * v).sum(),
    "result saved (b.exp())": lambda b, v: b.exp().sum(),
    "base used, nothing saved": lambda b, v: (b + 1).sum(),
}
AFTER = {
    "base": lambda L, b, v: (b * L.arange(1.0, 7.0, dtype=L.float64).reshape(2, 3)).sum(),
    "view": lambda L, b, v: (v.sin() * 2).sum(),
    "both": lambda L, b, v: (b * b).sum() + v.sum(),
}


def view_program(L: Any, base: str, view: str, op: str, before: str, after: str,
                 no_grad: bool) -> tuple[Any, Any]:
    """Make a base, a view of it, maybe use them, change the view in place (maybe under
    no_grad), use them again, backpropagate; return the gradients of x and s."""
    x = L.tensor(np.linspace(-1.0, 1.2, 6).reshape(2, 3), requires_grad=True)
    s = L.tensor(0.7, dtype=L.float64, requires_grad=True)
    b = BASES[base](L, x)
    v = VIEWS[view](b)
    loss = BEFORE[before](b, v)
    if no_grad:
        with L.no_grad():
            OPS[op](v, s)
    else:
        OPS[op](v, s)
    loss = loss + AFTER[after](L, b, v)
    if loss.requires_grad:
        loss.backward()
    return x.grad, s.grad


def assert_torch_gradient_or_error(base: str, data: st.DataObject) -> None:
    """minitorch raises RuntimeError exactly where torch does (a stale saved tensor, a
    leaf's view) and otherwise gives torch's gradients (a view's in-place op rewrites its
    base's history with CopySlices, as torch)."""
    args = (base, data.draw(st.sampled_from(list(VIEWS)), "view"),
            data.draw(st.sampled_from(list(OPS)), "op"),
            data.draw(st.sampled_from(list(BEFORE)), "before"),
            data.draw(st.sampled_from(list(AFTER)), "after"), data.draw(st.booleans(), "no_grad"))
    want = got = None
    want_error = raised_by(lambda L: None, torch)
    try:
        want = view_program(torch, *args)
    except RuntimeError as error:
        want_error = error
    try:
        got = view_program(mt, *args)
    except RuntimeError as error:
        if "exposes no strides" in str(error):  # array-api-strict: no view can be located
            return
        assert want_error is not None, f"minitorch refused ({error}) but torch gave {want}"
        return
    assert want_error is None, f"torch refused ({want_error}) but minitorch gave {got}"
    for g, w, what in zip(got, want, ("x.grad", "s.grad")):
        if w is None:
            assert g is None or not np.any(numpy_of(g)), f"{what}: torch has none"
        else:
            assert g is not None, f"{what}: missing, torch has {w}"
            np.testing.assert_allclose(numpy_of(g), numpy_of(w), rtol=1e-10, atol=1e-12,
                                       err_msg=what)


@pytest.mark.parametrize("base", ["non-leaf", "exp", "leaf"])
@settings(SETTINGS, max_examples=50)
@given(data=st.data())
def test_inplace_on_view_never_a_wrong_gradient(base: str, data: st.DataObject) -> None:
    assert_torch_gradient_or_error(base, data)


@SETTINGS
@given(data=st.data())
def test_inplace_on_view_of_base_without_grad(data: st.DataObject) -> None:
    assert_torch_gradient_or_error("no grad", data)


def test_minimal_view_of_base_without_grad() -> None:
    """The smallest case of the bug above: torch gives 6 (0+1+2 through b, 3 through v)."""
    s = mt.tensor(2.0, requires_grad=True)
    b = mt.ones(2, 3) * 1
    v = b[0]
    if backend.element_strides(v._data) is None:
        with pytest.raises(RuntimeError, match="exposes no strides"):
            v.mul_(s)
        return
    v.mul_(s)
    ((b * mt.arange(6.0).reshape(2, 3)).sum() + v.sum()).backward()
    assert s.grad.item() == 6.0
