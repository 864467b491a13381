"""Results are laid out as torch's (shape, ``stride()``, ``is_contiguous()``, so whether
``.view(-1)`` succeeds): advanced indexing in TensorIterator's order over the restrided source
and the index tensors; element-wise ops of an expanded input contiguous; the kernels that
allocate contiguous (cat, roll, scatter, index_add, ...) contiguous; sort keeping a permuted
input's layout; nonzero column-major; reductions over a dim contiguous."""

from __future__ import annotations

from typing import Any

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same

LAYOUTS = {
    "c": "L.arange(24.).reshape(2, 3, 4)",
    "p": "L.arange(24.).reshape(4, 2, 3).permute(1, 2, 0)",
    "t": "L.arange(24.).reshape(2, 4, 3).transpose(1, 2)",
    "s": "L.arange(48.).reshape(2, 3, 8)[:, :, ::2]",
    "e": "L.arange(4.).expand(2, 3, 4)",
    "u": "L.arange(12.).reshape(3, 4).unsqueeze(0).expand(2, 3, 4)",
    "1": "L.arange(12.).reshape(4, 3).t().unsqueeze(0)",  # a size-1 dim before a transpose
}

# each op with the layouts it was laid out differently from torch before (all: every layout)
CASES = {
    "x[:, [0, 1]]": "cpteu",
    "x[:, :, [0, 1]]": "cpteu",
    "x[:, [[0], [1]], 1:]": "cpteu",
    "x[..., L.tensor([True, False, True, True])]": "cpteu",
    "x[:, L.tensor([[True, False, True, True]] * 3)]": "cpteu",
    "x[1:, [0, 2]]": "cpteu",
    "x[:, 1, [0, 2]]": "cpteu",
    "x[None, :, [0, 1]]": "cpteu",
    "x[:, [0, 1], [1, 2]]": "cpteu",
    "x[[0, 1]]": "e",
    "x[:, None, [0, 0, 0]]": "pt1",
    "x[L.tensor([[0, 1], [1, 0]])]": "e",
    "x[:, [0, 0], None]": "1",
    "L.index_select(x, 1, L.tensor([1, 2]))": "pteu",
    "L.index_select(x, 2, L.tensor([1, 2]))": "pteu",
    "L.index_select(x, 2, L.tensor([1]))": "pt",
    "x.exp()": "eu",
    "x.to(L.float64)": "eu",
    "x.long()": "eu",
    "x.bool()": "eu",
    "x.half()": "eu",
    "L.nn.functional.relu(x)": "eu",
    "x.lerp(x, 0.5)": "eu",
    "x.addcmul(x, x)": "eu",
    "x.flip(1)": "eu",
    "x.roll(1, 2)": "pteu",
    "L.cat([x, x], 1)": "pteu",
    "L.stack([x, x], 1)": "pteu",
    "x.scatter(2, L.zeros(2, 3, 1, dtype=L.long), 0.)": "pteu",
    "x.masked_scatter(x > 3, L.zeros(24))": "pteu",
    "x.cummax(2).values": "pteu",
    "x.cummin(2).indices": "pteu",
    "x.renorm(2, 1, 1.)": "pt",
    "x.index_add(1, L.tensor([0]), x[:, :1])": "pteu",
    "x.index_copy(1, L.tensor([0]), x[:, :1])": "pteu",
    "x.index_fill(1, L.tensor([0]), 0.)": "eu",
    "x.sort(1).values": "pt",
    "x.sort(1).indices": "pt",
    "x.argsort(2)": "pt",
    "x.msort()": "pt",
    "x.put(L.tensor([0]), L.tensor([1.]))": "pt",
    "x.nonzero()": "cptseu",
    "L.argwhere(x)": "cptseu",
    "x.sum(1)": "u",
    "x.mean(1)": "u",
    "x.norm(dim=1)": "p",
    "x.prod(1)": "p",
    "x.amax(1)": "p",
    "x.all(1)": "peu",
    "L.count_nonzero(x, 1)": "p",
}


def _run(lib: Any, op: str, layout: str) -> Any:
    x = eval(LAYOUTS[layout], {"L": lib})
    return eval(op, {"L": lib, "x": x})


def _views(t: Any) -> bool:
    try:
        t.view(-1)
    except RuntimeError:
        return False
    return True


@pytest.mark.parametrize(("op", "layout"),
                         [(op, layout) for op, layouts in CASES.items() for layout in layouts])
def test_result_laid_out_as_torch(op: str, layout: str) -> None:
    got, want = _run(mt, op, layout), _run(torch, op, layout)
    assert (tuple(got.shape), got.stride()) == (tuple(want.shape), want.stride())
    assert got.is_contiguous() == want.is_contiguous()
    assert _views(got) == _views(want)
    if want.dtype == torch.float16:  # (the oracle's tolerances cover wider floats)
        got, want = got.float(), want.float()
    assert_same(got, want)


def test_index_result_views_as_torch() -> None:
    """The brief's case: torch's index kernel gives x[:, idx] contiguous, so it views."""
    x = mt.arange(24.).reshape(2, 3, 4)
    assert x[:, [0, 1]].view(-1).tolist() == torch.arange(24.).reshape(2, 3, 4)[:, [0, 1]]\
        .view(-1).tolist()


def test_nonzero_of_zero_laid_out_as_torch() -> None:
    got, want = mt.tensor(0.0).nonzero(), torch.tensor(0.0).nonzero()
    assert (tuple(got.shape), got.stride()) == (tuple(want.shape), want.stride())


def test_index_gradient_flows_through_the_relaid_result() -> None:
    """The relaid result stays on the graph: the gradient reaches the permuted leaf."""
    grads, strides = [], []
    for lib in (mt, torch):
        leaf = lib.arange(24.).reshape(4, 2, 3).permute(1, 2, 0).detach().requires_grad_()
        out = leaf[:, [0, 2]]
        strides.append(out.stride())
        out.reshape(-1).mul(lib.arange(16.)).sum().backward()
        grads.append(leaf.grad)
    assert strides[0] == strides[1]
    assert_same(grads[0], grads[1])
