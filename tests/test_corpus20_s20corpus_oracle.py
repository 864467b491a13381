"""Oracle tests for what the corpus20 programs (d2l-zh, karpathy's makemore, mrdbourke's
"PyTorch for Deep Learning", UvA DL tutorials, pytorch/examples) needed.

Tutorials call torch's functions with torch's keyword names: ``torch.zeros_like(input=x)``
(mrdbourke 00), ``x.mv(vec=v)``, ``torch.matmul(input=a, other=b)``, ``torch.split(tensor=x,
...)``, ``F.one_hot(input=...)`` (torch's docs write ``tensor``), ``torch.linalg.norm(input=...)``
(docs: ``A``); torch's parser takes every parameter by its schema name, and a Python function
of torch (``torch.split``, ``Tensor.split``) by its own. UvA's transformer tutorial subclasses
``optim.lr_scheduler._LRScheduler``, torch's old name of ``LRScheduler``.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_same, assert_same_error, raised_by

A = np.arange(6.0).reshape(2, 3)
B = np.arange(12.0).reshape(3, 4) / 7
V = np.arange(3.0) - 1


def _t(lib, x):
    return lib.tensor(x)


# each call uses torch's keyword names; torch takes them all
KEYWORD_CALLS = {
    "zeros_like": lambda L: L.zeros_like(input=_t(L, A)),
    "ones_like": lambda L: L.ones_like(input=_t(L, A), dtype=L.float64),
    "matmul": lambda L: L.matmul(input=_t(L, A), other=_t(L, B)),
    "Tensor.matmul": lambda L: _t(L, A).matmul(other=_t(L, B)),
    "mv": lambda L: L.mv(input=_t(L, A), vec=_t(L, V)),
    "Tensor.mv": lambda L: _t(L, A).mv(vec=_t(L, V)),
    "dot": lambda L: L.dot(input=_t(L, V), tensor=_t(L, V)),
    "Tensor.dot": lambda L: _t(L, V).dot(tensor=_t(L, V)),
    "bmm": lambda L: L.bmm(input=_t(L, A[None]), mat2=_t(L, B[None])),
    "Tensor.bmm": lambda L: _t(L, A[None]).bmm(mat2=_t(L, B[None])),
    "Tensor.where": lambda L: _t(L, A).where(condition=_t(L, A) > 2, other=_t(L, -A)),
    "F.one_hot": lambda L: L.nn.functional.one_hot(input=L.tensor([0, 2]), num_classes=4),
    "linalg.norm": lambda L: L.linalg.norm(input=_t(L, A), ord="fro"),
    "linalg.pinv": lambda L: L.linalg.pinv(input=_t(L, A)),
}


@pytest.mark.parametrize("name", sorted(KEYWORD_CALLS))
def test_torch_keyword_names_are_taken(name):
    call = KEYWORD_CALLS[name]
    assert_same(call(mt), call(torch), name)


@given(n=st.integers(1, 7), size=st.integers(1, 4), keyword=st.booleans())
@SETTINGS
def test_split_takes_torchs_keywords(n, size, keyword):
    """``torch.split(tensor, split_size_or_sections, dim)`` is Python code of torch's, and so is
    ``Tensor.split(self, split_size, dim)``: each takes its own parameter names."""
    def pieces(L):
        x = L.arange(float(n))
        if keyword:
            return (L.split(tensor=x, split_size_or_sections=size, dim=0),
                    x.split(split_size=size, dim=0))
        return L.split(x, size), x.split(size)
    for got, want in zip(pieces(mt), pieces(torch)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w, "piece")


@pytest.mark.parametrize("call", [
    lambda L: L.zeros_like(t=L.ones(2)),
    lambda L: L.matmul(a=L.ones(2), b=L.ones(2)),
    lambda L: L.ones(2).split(split_size_or_sections=1),
    lambda L: L.ones(2).where(L.ones(2) > 0, y=0.0),
    lambda L: L.nn.functional.one_hot(tensor=L.tensor([0])),
    lambda L: L.linalg.norm(A=L.ones(2)),
], ids=["zeros_like-t", "matmul-a-b", "Tensor.split-function-name", "Tensor.where-y",
        "one_hot-tensor", "linalg.norm-A"])
def test_names_torch_does_not_take_are_refused(call):
    want = raised_by(call, torch)
    assert want is not None
    assert type(raised_by(call, mt)) is type(want)


@pytest.mark.parametrize("call", [
    lambda L: L.zeros_like(), lambda L: L.nn.functional.one_hot(),
    lambda L: L.linalg.norm(ord=2),
], ids=["zeros_like", "one_hot", "linalg.norm"])
def test_missing_argument_names_torchs_parameter(call):
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


class _Warmup:
    """UvA DL tutorial 6's CosineWarmupScheduler, as its authors wrote it."""

    @staticmethod
    def build(L):
        class CosineWarmupScheduler(L.optim.lr_scheduler._LRScheduler):
            def __init__(self, optimizer, warmup, max_iters):
                self.warmup = warmup
                self.max_num_iters = max_iters
                super().__init__(optimizer)

            def get_lr(self):
                lr_factor = self.get_lr_factor(epoch=self.last_epoch)
                return [base_lr * lr_factor for base_lr in self.base_lrs]

            def get_lr_factor(self, epoch):
                lr_factor = 0.5 * (1 + np.cos(np.pi * epoch / self.max_num_iters))
                if epoch <= self.warmup:
                    lr_factor *= epoch * 1.0 / self.warmup
                return lr_factor
        return CosineWarmupScheduler


def test_old_lr_scheduler_base_runs_a_subclass():
    lrs = {}
    for L in (mt, torch):
        p = L.nn.Parameter(L.empty(4, 4))
        opt = L.optim.Adam([p], lr=1e-3)
        sched = _Warmup.build(L)(opt, warmup=10, max_iters=100)
        seen = []
        for _ in range(30):
            opt.step()
            sched.step()
            seen.append(opt.param_groups[0]["lr"])
        lrs[L.__name__] = seen
        assert L.optim.lr_scheduler._LRScheduler.__name__ == "_LRScheduler"
        assert isinstance(sched, L.optim.lr_scheduler.LRScheduler)
    assert lrs["minitorch"] == lrs["torch"]


_SCATTER_WARNINGS = """
import warnings, {lib} as L
a, i = L.ones(2, 3), L.tensor([[0, 1, 0]])
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    a.scatter(0, i, 2.0, reduce="add")
    print(len(seen))
    a.scatter(0, i, a[:1], reduce="add")
    L.scatter(a, 0, i, a[:1], reduce="multiply")
    print([str(w.message).split(" (Triggered")[0] for w in seen], [w.category for w in seen])
"""


def test_scatter_reduce_with_a_tensor_warns_once_as_torch():
    """torch deprecates ``scatter(..., src_tensor, reduce=...)`` with a warning given once a
    process (its number form does not warn); the message ends, in torch, with where in its C++
    it was raised, which minitorch has no counterpart for."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(mt.__file__).parents[1]  # the tree under test, not an installed minitorch
    outs = [subprocess.run([sys.executable, "-c", _SCATTER_WARNINGS.format(lib=lib)],
                           capture_output=True, text=True, check=True, cwd=root).stdout
            for lib in ("minitorch", "torch")]
    assert outs[0] == outs[1]
    assert "deprecated" in outs[1]
