"""torch's parser checks every parameter's type in signature order, positional and keyword
alike (a keyword-only ``dtype`` after ``dim`` and ``keepdim``, ``out`` last), and only once
they all match names an unknown keyword: against torch, each call's error or result.

* a factory's own positional arguments (``full``'s size and fill_value, a ``*_like``'s
  count of them) come before its ``dtype=``, ``layout=`` and ``device=``;
* a reduction's dim annotated ``Dims`` is a ``tuple of ints`` (a float or bool refused, a
  tuple named by its first item), a ``dtype``/``keepdim`` taking anything is torch's
  ``torch.dtype``/``bool``, roll's shifts and dims are tuples of ints, all before an
  unknown keyword;
* a reduction's ``out=`` is read after every other argument's type."""

from __future__ import annotations

import itertools

import pytest

from tests.oracle import assert_as_torch

FACTORY_CALLS = ["L.full({size}, {fill}, {kw})", "L.full_like(X, {fill}, {kw})",
                 "L.zeros_like(X, {fill}, {kw})", "L.ones_like(X, {fill}, {kw})",
                 "L.zeros({size}, {kw})", "L.ones({size}, {kw})"]
SIZES = ["(2, 3)", "(2.5,)", "None", "2.5", "('a', 2)"]
FILLS = ["None", "'a'", "1.", "2"]
BAD_KEYWORDS = ["dtype='float32'", "layout=1", "device=1.5", "dtype=L.float32, layout=1",
                "foo=1", "requires_grad=False"]


@pytest.mark.parametrize("call,size,fill,kw", list(itertools.product(
    FACTORY_CALLS, SIZES, FILLS, BAD_KEYWORDS)))
def test_a_factory_reads_its_positional_arguments_first(call, size, fill, kw):
    source = call.format(size=size, fill=fill, kw=kw)
    assert_as_torch(lambda L: eval(source, {"L": L, "X": L.ones(2, 3)}))


OPS = ["logsumexp", "cumsum", "cumprod", "nansum", "nanmean", "median", "roll", "sort",
       "argsort", "transpose", "flip", "amax", "amin", "sum", "mean", "softmax", "log_softmax"]
DIMS = ["True", "1.5", "'a'", "(1.5,)", "(0, 1.5)", "0"]
KEYWORDS = ["keepdim='yes', dtype='f'", "dtype='f'", "keepdim='yes', foo=1",
            "dtype='f', foo=1", "foo=1"]


@pytest.mark.parametrize("op,dim,kw,form", list(itertools.product(
    OPS, DIMS, KEYWORDS, ["L.{op}(X, {dim}, {kw})", "L.{op}(X, dim={dim}, {kw})",
                          "X.{op}({dim}, {kw})"])))
def test_types_are_read_before_an_unknown_keyword(op, dim, kw, form):
    source = form.format(op=op, dim=dim, kw=kw)
    assert_as_torch(lambda L: eval(source, {"L": L, "X": L.arange(6.).reshape(2, 3)}))


@pytest.mark.parametrize("source", [
    "L.cumsum(X, dim=0, keepdim='yes', dtype='float32')",
    "L.logsumexp(X, dim=True, keepdim='yes', dtype='f')",
    "L.logsumexp(X, None, foo=1)",
    "X.roll(True, 'yes', dtype='f')", "X.roll((0, 1.5), 'yes', dtype='f')",
    "L.roll(X, 1, 'a', foo=1)", "L.roll(X, (1.5,), foo=1)", "L.flip(X, 0, foo=1)",
    "L.flip(X, dims=[1.5], foo=1)", "X.flip(True, foo=1)", "X.flip(0, 1, foo=1)",
    "X.flip((0, 1.5), foo=1)", "X.permute((0, 1.5), foo=1)", "X.reshape(2, 3.5, foo=1)",
    "X.reshape((2.5, 3), foo=1)", "X.permute(0, True, foo=1)",
    "L.median(X, dim=0, keepdim='yes', dtype='f')",
    "X.sort(dim=True, keepdim='yes', dtype='f')", "L.argsort(X, dim=True, keepdim='yes')",
    "L.transpose(X, dim=True, keepdim='yes', dtype='f')",
    "X.count_nonzero(0, False)", "X.squeeze(0, False)",
    "L.full((2, 3), None, dtype='float32')", "L.full((2.5,), 1., dtype='float32')",
    "L.full((2,), 'a', dtype=L.float32, layout=1)", "L.zeros_like(X, 'a', device=1.5)",
    "L.sum(X, 1.5, out=1)", "L.cumsum(X, dim=True, out=1)", "L.amin(X, 'a', out=1)",
    "L.cumprod(X, 0, dtype='f', out=1)", "L.sum(X, 0, out=L.ones(3))", "L.prod(X, 1.5, out=1)",
    "L.prod(X, dim=True, keepdim='a', out=1)", "L.prod(X, 0, 'a', out=1)",
])
def test_the_briefs_calls(source):
    assert_as_torch(lambda L: eval(source, {"L": L, "X": L.arange(6.).reshape(2, 3)}))
