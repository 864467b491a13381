"""Keyword names as torch's parser takes them: each call passes arguments by torch's keyword
names (or by names torch refuses) and must give torch's result or torch's error. The names
come from torch's schemas (``torch._C._jit_get_all_schemas()``): the functions' ``self`` is
``input``, most ``torch.linalg`` functions take ``input`` (``inv``, ``det``, ``solve`` take
``A``), the in-place products take ``mat``/``vec``, ``vec1``/``vec2``, ``batch1``/``batch2``,
``copy_`` takes ``other``, ``uniform_``/``random_`` take ``from``/``to`` (a Python keyword:
``**{"from": 0}``), and ``tensor_split``/``hsplit``/... take the name of the overload used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by


def _x(L: Any) -> Any:
    return L.eye(3, dtype=L.float64) * 2


def _v(L: Any) -> Any:
    return L.ones(3, dtype=L.float64)


def _b3(L: Any) -> Any:
    return L.ones(2, 3, 3, dtype=L.float64)


CALLS: dict[str, Callable[[Any], Any]] = {
    # torch.linalg: input (the schema's self)
    "cholesky input": lambda L: L.linalg.cholesky(input=_x(L)),
    "cholesky A": lambda L: L.linalg.cholesky(A=_x(L)),
    "cholesky_ex input": lambda L: L.linalg.cholesky_ex(input=_x(L), upper=True).L,
    "cond input": lambda L: L.linalg.cond(input=_x(L)),
    "eigh input": lambda L: L.linalg.eigh(input=_x(L)).eigenvalues,
    "eigvalsh input": lambda L: L.linalg.eigvalsh(input=_x(L), UPLO="U"),
    "householder_product input": lambda L: L.linalg.householder_product(input=_x(L),
                                                                        tau=_v(L)[:2]),
    "lstsq input b": lambda L: L.linalg.lstsq(input=_x(L), b=_x(L)).solution,
    "lstsq B": lambda L: L.linalg.lstsq(_x(L), B=_x(L)),
    "matrix_exp input": lambda L: L.linalg.matrix_exp(input=_x(L)),
    "torch.matrix_exp input": lambda L: L.matrix_exp(input=_x(L)),
    "torch.matrix_exp A": lambda L: L.matrix_exp(A=_x(L)),
    "matrix_norm input": lambda L: L.linalg.matrix_norm(input=_x(L), ord=1),
    "matrix_rank input": lambda L: L.linalg.matrix_rank(input=_x(L)),
    "solve_triangular input": lambda L: L.linalg.solve_triangular(input=_x(L), B=_x(L),
                                                                  upper=True),
    "tensorinv input": lambda L: L.linalg.tensorinv(input=_x(L), ind=1),
    "vector_norm input": lambda L: L.linalg.vector_norm(input=_x(L)),
    "vector_norm x": lambda L: L.linalg.vector_norm(x=_x(L), ord=1),
    "inv A": lambda L: L.linalg.inv(A=_x(L)),
    "inv input": lambda L: L.linalg.inv(input=_x(L)),
    # the in-place products
    "Tensor.addmv_ mat vec": lambda L: _v(L).addmv_(mat=_x(L), vec=_v(L), beta=2),
    "torch.addmv_ mat vec": lambda L: L.addmv_(_v(L), mat=_x(L), vec=_v(L)),
    "Tensor.addr_ vec1 vec2": lambda L: _x(L).addr_(vec1=_v(L), vec2=_v(L), alpha=3),
    "Tensor.addbmm_ batch1 batch2": lambda L: _x(L).addbmm_(batch1=_b3(L), batch2=_b3(L)),
    "Tensor.baddbmm_ batch1 batch2": lambda L: _b3(L).baddbmm_(batch1=_b3(L), batch2=_b3(L)),
    "Tensor.baddbmm batch1 batch2": lambda L: _b3(L).baddbmm(batch1=_b3(L), batch2=_b3(L)),
    "torch.addr vec1 vec2": lambda L: L.addr(_x(L), vec1=_v(L), vec2=_v(L)),
    "Tensor.addmv_ missing vec": lambda L: _v(L).addmv_(_x(L)),
    # copy_, uniform_, random_
    "copy_ other": lambda L: _v(L).copy_(other=_v(L) * 3),
    "copy_ non_blocking": lambda L: _v(L).copy_(_v(L) * 3, non_blocking=True),
    "copy_ nothing": lambda L: _v(L).copy_(),
    "uniform_ from to": lambda L: _v(L).uniform_(**{"from": 2.0, "to": 2.0}),
    "uniform_ to": lambda L: _v(L).uniform_(to=0.0).shape,
    "uniform_ a": lambda L: _v(L).uniform_(a=0.0),
    "uniform_ twice from": lambda L: _v(L).uniform_(1.0, **{"from": 1.0}),
    "uniform_ three": lambda L: _v(L).uniform_(1.0, 2.0, 3.0),
    "random_ from to": lambda L: _v(L).random_(**{"from": 2, "to": 3}),
    "random_ to": lambda L: _v(L).random_(to=1),
    "random_ position and to": lambda L: _v(L).random_(1, to=2),
    "random_ from alone": lambda L: _v(L).random_(**{"from": 2}),
    "random_ low": lambda L: _v(L).random_(low=1),
    "random_ three": lambda L: _v(L).random_(1, 2, 3),
    "random_ to generator": lambda L: _v(L).random_(to=1, generator=None),
    # the overloads' names
    "tensor_split sections": lambda L: L.tensor_split(_x(L), sections=3)[1],
    "tensor_split indices": lambda L: L.tensor_split(_x(L), indices=[1], dim=1)[0],
    "tensor_split tensor": lambda L: L.tensor_split(_x(L),
                                                    tensor_indices_or_sections=L.tensor(3))[2],
    "Tensor.tensor_split sections": lambda L: _x(L).tensor_split(sections=3)[0],
    "tensor_split both": lambda L: L.tensor_split(_x(L), 3, sections=3),
    "hsplit sections": lambda L: L.hsplit(_x(L), sections=3)[1],
    "Tensor.hsplit indices": lambda L: _x(L).hsplit(indices=[1])[1],
    "vsplit sections": lambda L: L.vsplit(_x(L), sections=3)[0],
    "Tensor.dsplit indices": lambda L: _b3(L).dsplit(indices=[1])[1],
}


@pytest.mark.parametrize("name", list(CALLS))
def test_keyword_call_as_torch(name: str) -> None:
    call = CALLS[name]
    want_error = raised_by(call, torch)
    if want_error is not None:
        assert_same_error(raised_by(call, mt), want_error)
        return
    torch.manual_seed(0)
    want = call(torch)
    mt.manual_seed(0)
    got = call(mt)
    if isinstance(want, torch.Tensor):
        assert_same(got, want, name)
    else:
        assert got == want
