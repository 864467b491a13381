"""In-place operations on views, against torch: the base's grad_fn becomes CopySlices, the
view's AsStridedBackward0, and gradients (first and second order) are torch's.

Each program takes the library ``L``, changes a view in place and returns the grad_fn names
it wants compared and the gradients. torch names the base's node
``torch::autograd::CopySlices``
minitorch prints ``CopySlices`` (its name for setitem's node).

>>> names, grads = run(PROGRAMS["view(-1).add_"], mt)
>>> names
['CopySlices', 'AsStridedBackward0']
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt


def _x(L: Any, shape: tuple = (2, 3)) -> Any:
    n = int(np.prod(shape))
    return L.tensor(np.linspace(-1.3, 1.1, n).reshape(shape), requires_grad=True)


def _names(*ts: Any) -> list:
    return [t.grad_fn.name().replace("torch::autograd::", "") if t.grad_fn else None
            for t in ts]


def view_add(L: Any) -> tuple:
    a = _x(L)
    x = a * 1
    v = x.view(-1)
    v.add_(1)
    names = _names(x, v)
    ((x * x).sum() + (v * 3).sum()).backward()
    return names, [a.grad]


def column_mul(L: Any) -> tuple:  # y[:, 0] *= 2
    a = _x(L)
    y = a * 3
    col = y[:, 0]
    col *= 2
    names = _names(y, col)
    (y.sin().sum()).backward()
    return names, [a.grad]


def select_mul_tensor(L: Any) -> tuple:
    a = _x(L)
    s = L.tensor(0.7, dtype=L.float64, requires_grad=True)
    y = a * 2
    r = y[1]
    r.mul_(s)
    names = _names(y, r)
    ((y ** 2).sum() + r.sum()).backward()
    return names, [a.grad, s.grad]


def masked_softmax(L: Any) -> tuple:  # d2l: X = X.reshape(-1, n); X[~mask] = -1e6
    a = _x(L, (2, 2, 3))
    X = a * 1.5
    shape = X.shape
    X = X.reshape(-1, shape[-1])
    mask = L.tensor([[True, True, False], [True, False, False],
                     [True, True, True], [False, True, True]])
    X[~mask] = -1e6
    names = _names(X)
    out = L.softmax(X.reshape(shape), dim=-1)
    (out * L.arange(12.0, dtype=L.float64).reshape(2, 2, 3)).sum().backward()
    return names, [a.grad]


def transpose_setitem_int(L: Any) -> tuple:
    a = _x(L)
    x = a.sin()
    t = x.t()
    t[0] = 5.0
    names = _names(x, t)
    ((x * x).sum() + (t * t).sum()).backward()
    return names, [a.grad]


def transpose_setitem_tensor(L: Any) -> tuple:
    a = _x(L)
    w = L.tensor([0.5, -2.0], dtype=L.float64, requires_grad=True)
    x = a * 1
    t = x.t()
    t[1] = w * w
    names = _names(x, t)
    (x.cos().sum() + t[1].sum() * 4).backward()
    return names, [a.grad, w.grad]


def slice_clamp(L: Any) -> tuple:
    a = _x(L)
    x = a * 3
    v = x[:, 1:]
    v.clamp_(-0.5, 0.5)
    names = _names(x, v)
    ((x * L.arange(6.0, dtype=L.float64).reshape(2, 3)).sum()).backward()
    return names, [a.grad]


def slice_copy(L: Any) -> tuple:
    a = _x(L)
    src = L.tensor([[1.0], [2.0]], dtype=L.float64, requires_grad=True)
    x = a * 1
    v = x[:, :2]
    v.copy_(src)  # src broadcasts
    names = _names(x, v)
    ((x ** 3).sum()).backward()
    return names, [a.grad, src.grad]


def view_zero(L: Any) -> tuple:
    a = _x(L)
    x = a.sin()
    v = x.view(3, 2)[1]
    v.zero_()
    names = _names(x, v)
    (x * x).sum().backward()
    return names, [a.grad]


def chain_of_views(L: Any) -> tuple:
    a = _x(L, (2, 3, 4))
    x = a * 1
    v = x.view(4, 6).t()[1:5].view(2, 2, 4)[:, 1, ::2]
    v.mul_(v.detach() + 2)
    names = _names(x, v)
    ((x ** 2).sum() + v.sum()).backward()
    return names, [a.grad]


def setitem_mask_on_slice(L: Any) -> tuple:
    a = _x(L, (3, 4))
    x = a * 2
    v = x[1:]
    v[v > 0] = 0.0
    names = _names(x, v)
    (x.exp().sum()).backward()
    return names, [a.grad]


def setitem_slices_on_reshape(L: Any) -> tuple:
    a = _x(L, (3, 4))
    b = L.tensor([9.0, 8.0], dtype=L.float64, requires_grad=True)
    x = a * 1
    v = x.reshape(2, 6)
    v[:, 2:4] = b
    names = _names(x, v)
    ((x * x).sum() + (v * 2).sum()).backward()
    return names, [a.grad, b.grad]


def two_ops_on_one_view(L: Any) -> tuple:
    a = _x(L)
    x = a * 1
    v = x[0]
    v.add_(1)
    v.mul_(2.5)
    v.clamp_(max=1.0)
    names = _names(x, v)
    ((x * 2).sum() + v.sum()).backward()
    return names, [a.grad]


def base_saved_before(L: Any) -> tuple:  # the base's old value feeds an earlier result
    a = _x(L)
    x = a * 1
    early = (x * 3).sum()
    v = x.diagonal()
    v.sub_(1)
    names = _names(x, v)
    (early + (x * x).sum()).backward()
    return names, [a.grad]


def unsqueeze_div(L: Any) -> tuple:
    a = _x(L)
    s = L.tensor(1.5, dtype=L.float64, requires_grad=True)
    x = a.sin()
    v = x.unsqueeze(0)
    v.div_(s)
    names = _names(x, v)
    (v.sum() + (x ** 2).sum()).backward()
    return names, [a.grad, s.grad]


def permute_addcmul(L: Any) -> tuple:
    a = _x(L, (2, 3, 2))
    t1 = _x(L, (3, 2, 2))
    x = a * 1
    v = x.permute(1, 2, 0)
    v.addcmul_(t1, t1, value=0.5)
    names = _names(x, v)
    (x.sin().sum()).backward()
    return names, [a.grad, t1.grad]


def leaf_without_grad_copy(L: Any) -> tuple:  # the base becomes a non-leaf
    w = L.tensor([1.0, -2.0, 3.0], dtype=L.float64, requires_grad=True)
    b = L.zeros(2, 3, dtype=L.float64)
    v = b[0]
    v.copy_(w * w)
    names = [*_names(b, v), b.is_leaf, b.requires_grad]
    ((b * L.arange(6.0, dtype=L.float64).reshape(2, 3)).sum() + v.sum()).backward()
    return names, [w.grad]


def leaf_without_grad_setitem(L: Any) -> tuple:
    w = L.tensor([1.0, -2.0], dtype=L.float64, requires_grad=True)
    b = L.ones(2, 3, dtype=L.float64) * 1
    b.view(6)[1:5:3] = w.exp()
    names = [*_names(b), b.is_leaf]
    (b.log1p().sum()).backward()
    return names, [w.grad]


def scalar_element(L: Any) -> tuple:
    a = _x(L)
    x = a * 1
    e = x[1, 2]
    e.mul_(e.detach() * 4)
    names = _names(x, e)
    ((x * x).sum() + e * 10).backward()
    return names, [a.grad]


def backward_through_view_only(L: Any) -> tuple:
    a = _x(L)
    x = a.sin()
    v = x[:, 0:2].t()
    v.sigmoid_()
    names = _names(x, v)
    (v * L.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=L.float64)).sum().backward()
    return names, [a.grad]


def double_backward(L: Any) -> tuple:
    a = _x(L)
    x = a * a
    v = x[1]
    v.mul_(x[0].detach() + a[0])
    loss = (x ** 2).sum()
    (g,) = L.autograd.grad(loss, a, create_graph=True)
    names = _names(x, v, g)
    (g * g).sum().backward()
    return names[:2], [g.detach(), a.grad]


def double_backward_setitem(L: Any) -> tuple:
    a = _x(L)
    s = L.tensor(0.3, dtype=L.float64, requires_grad=True)
    x = a.sin()
    v = x.view(3, 2)
    v[:, 1] = s * a[1, :3] ** 2 + a[0, :3]
    loss = (x ** 3).sum()
    ga, gs = L.autograd.grad(loss, (a, s), create_graph=True)
    ((ga ** 2).sum() + gs * gs).backward()
    return _names(x, v), [ga.detach(), gs.detach(), a.grad, s.grad]


def setitem_on_a_reshape_copy(L: Any) -> tuple:  # reshape of a transpose copies
    a = _x(L)
    x = a * 1
    v = x.t().reshape(-1)
    v[0] = 5.0
    names = [*_names(x), v._version, x._version]
    (v.sum() * 3 + (x * x).sum()).backward()
    return names, [a.grad]


PROGRAMS = {
    "view(-1).add_": view_add, "y[:, 0] *= 2": column_mul, "x[1].mul_(s)": select_mul_tensor,
    "masked softmax": masked_softmax, "t()[0] = 5": transpose_setitem_int,
    "t()[1] = w*w": transpose_setitem_tensor, "x[:, 1:].clamp_": slice_clamp,
    "x[:, :2].copy_": slice_copy, "view(3, 2)[1].zero_": view_zero,
    "chain of views": chain_of_views, "v[v > 0] = 0 on a slice": setitem_mask_on_slice,
    "reshape[:, 2:4] = b": setitem_slices_on_reshape, "add_, mul_, pow_": two_ops_on_one_view,
    "base saved before": base_saved_before, "unsqueeze.div_": unsqueeze_div,
    "permute.addcmul_": permute_addcmul, "leaf without grad, copy_": leaf_without_grad_copy,
    "leaf without grad, setitem": leaf_without_grad_setitem, "0-d element": scalar_element,
    "backward through the view only": backward_through_view_only,
    "double backward": double_backward, "double backward, setitem": double_backward_setitem,
    "setitem on a reshape that copies": setitem_on_a_reshape_copy,
}


def run(program: Any, L: Any) -> tuple:
    names, grads = program(L)
    return names, [None if g is None else np.asarray(g.detach().numpy()) for g in grads]


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_gradients_and_nodes_match_torch(name: str) -> None:
    want_names, want = run(PROGRAMS[name], torch)
    got_names, got = run(PROGRAMS[name], mt)
    print(name, got_names, got)
    assert got_names == want_names
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


# ------------------------------------------------------------------------------ torch's errors


def view_of_leaf(L: Any) -> None:
    a = _x(L)
    a[0].add_(1)


def no_grad_view(L: Any) -> None:
    x = _x(L) * 1
    with L.no_grad():
        v = x[0]
    v.add_(1)


def no_grad_view_of_view(L: Any) -> None:
    x = _x(L) * 1
    with L.no_grad():
        v = x.t()
    v[1:].mul_(2)


def unbind_output(L: Any) -> None:
    x = _x(L) * 1
    x.unbind(1)[2].add_(1)


def split_output(L: Any) -> None:
    x = _x(L) * 1
    x.split(1)[1].add_(1)


def split_with_sizes_output(L: Any) -> None:
    x = _x(L) * 1
    x.split([2, 1], dim=1)[0].mul_(2)


def chunk_output(L: Any) -> None:
    x = _x(L) * 1
    x.chunk(2)[0].zero_()


def expanded_view(L: Any) -> None:
    x = _x(L) * 1
    x.expand(2, 2, 3).add_(1)


ERRORS = [view_of_leaf, no_grad_view, no_grad_view_of_view, unbind_output, split_output,
          split_with_sizes_output, chunk_output, expanded_view]


def _message(program: Any, L: Any) -> str:
    with pytest.raises(RuntimeError) as info:
        program(L)
    return str(info.value)


@pytest.mark.parametrize("program", ERRORS, ids=lambda f: f.__name__)
def test_torch_errors(program: Any) -> None:
    assert _message(program, mt) == _message(program, torch)


def test_views_taken_in_no_grad_may_change_in_no_grad() -> None:
    for L in (mt, torch):
        x = _x(L) * 1
        with L.no_grad():
            x[0].add_(1)
        assert x.grad_fn.name() == "MulBackward0"


def test_a_view_taken_before_the_write_is_regenerated_as_torch() -> None:
    """torch regenerates every view of the base, not only the one written through: a view
    taken before the write takes its elements from the base as it is now."""
    grads = []
    for L in (mt, torch):
        x = _x(L)
        y = x * 1
        other = y[1:]
        y[0].add_(1)
        y.mul_(2)
        (other * other).sum().backward()
        grads.append(x.grad.tolist())
    assert grads[0] == grads[1]


@pytest.mark.parametrize("dims", [(0, 1), (0, 2), (-1, 1), (2, 2)])
def test_transpose_in_place_matches_torch(dims: tuple) -> None:
    """``transpose_``: the shape, values, version, node (TransposeBackward1) and gradient."""
    def run(L: Any) -> list:
        leaf = L.tensor(np.arange(24.0).reshape(2, 3, 4), requires_grad=True)
        x = leaf * 1
        out = x.transpose_(*dims)
        (out * L.arange(24.0).view(out.shape)).sum().backward()
        return [out is x, tuple(x.shape), x._version, x.grad_fn.name(),
                x.detach().numpy().tolist(), leaf.grad.numpy().tolist()]
    assert run(mt) == run(torch)
