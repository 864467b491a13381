"""Bad and edge input found by issue #21's black-box fuzzer over the public surface (seeds
26601-26603): ``out=`` refused in torch's order (the parser's refusals first, then an expanded
out, then autograd, which ops without a derivative skip), torch's parser taking ``input`` by
keyword, classes torch makes no instances of, max/min/argmax of what is no tensor, and the
messages of linspace, msort and unsafe_chunk. Each case is an expression run on torch and on
minitorch (``L``); its outcome, the value's repr or the exception's type and message, must be
the same.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch
from oracle import raised_by

import minitorch as mt


def outcome(expression: str, lib: Any) -> tuple[str, str]:
    """What ``expression`` gives with ``L`` as ``lib``: its repr (a tensor's values, dtype,
    shape and requires_grad), or its error's type and message."""
    scope: dict = {"L": lib, "x": lib.ones(2), "r": lib.ones(2, requires_grad=True),
                   "e": lib.ones(1).expand(3)}
    error = raised_by(lambda L: scope.__setitem__("R", eval(expression, scope)), lib)
    if error is not None:
        return type(error).__name__, str(error)
    result = scope["R"]
    tensors = result if isinstance(result, tuple) else (result,)
    return "ok", repr([(t.tolist(), str(t.dtype), tuple(t.shape), t.requires_grad)
                       if isinstance(t, lib.Tensor) else repr(t) for t in tensors])


def assert_outcome_as_torch(expression: str) -> None:
    assert outcome(expression, mt) == outcome(expression, torch)


@pytest.mark.parametrize("expression", [
    "L.arctan2(r, out=x)", "L.fix(out=r)", "L.rad2deg(out=x)", "L.ldexp(x)", "L.ldexp(x, out=x)",
    "L.minimum(None, r, out=x)", "L.polygamma(None, x, out=r)", "L.special.erfcx(out=x)",
    "L.bitwise_or(r, x, None, out=x)", "L.gt(r, 'a', out=x)"])
def test_the_parser_refuses_before_out_is_looked_at(expression: str) -> None:
    """A call that does not bind, or has an argument of the wrong type, is the parser's
    refusal, before out's autograd check (minitorch refused autograd, or named its inner
    function)."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.square(L.ones(2, 1), out=L.ones(1, 2).expand(3, 2))", "L.add(x, 1, out=e)",
    "L.exp(x, out=e)", "L.log2(L.ones(3, 3, dtype=L.int16), out=L.ones(1).double().expand(4))",
    "L.rad2deg(L.ones(0, 3), out=L.ones(1, dtype=L.int64).expand(3))",
    "L.special.erfcx(L.ones(1, 1, 5), out=e)", "L.special.bessel_j0(x, out=e)",
    "L.special.zeta(x, 2, out=e)", "L.special.xlog1py(x, 2, out=e)",
    "L.special.chebyshev_polynomial_t(x, 2, out=e)", "L.sin(r, out=e)",
    "L.special.erfcx(r, out=e)"])
def test_an_expanded_out_is_refused_first(expression: str) -> None:
    """TensorIterator refuses an out whose elements share memory before its shape and dtype
    (minitorch wrote into it, or refused its dtype), after autograd's refusal."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.lt(r, 1, out=L.ones(2, dtype=L.bool))", "L.ne(r, L.ones(3), out=L.ones(2, dtype=L.bool))",
    "L.logical_xor(x, x, out=r)", "L.eq(x, 1, out=r)", "L.bitwise_and(L.ones(2, dtype=L.int64), "
    "1, out=r)", "L.bitwise_or(r, 1.0, out=r)", "L.bitwise_xor(r, L.ones(2, dtype=L.int64), "
    "out=L.ones(2, dtype=L.int64))", "L.bitwise_left_shift(L.ones(2, dtype=L.int64), 1, "
    "out=L.ones(2, dtype=L.int64))", "L.heaviside(x, x, out=r)",
    "L.heaviside(x, x.double(), out=r)", "L.special.bessel_y1(x, out=r)",
    "L.cross(L.ones(3), L.ones(3), out=r)",
    "L.hstack([x], out=r)", "L.vstack([x], out=r)", "L.column_stack([x], out=r)",
    "L.concat([x], out=r)", "L.concatenate([x], out=r)", "L.dstack([x], out=r)"])
def test_out_requiring_grad_as_torch(expression: str) -> None:
    """Ops without a derivative write into an out that requires grad (a leaf: no in-place
    refusal), but bitwise ones and heaviside, whose out autograd's fallback refuses (after its
    dtype check, as ``aten::heaviside``); others are refused in the name of the op they run
    (cat, linalg_cross)."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.tensor_split(input=L.ones(3), indices=[1])", "L.tensor_split(input=x, sections=2, dim=0)",
    "L.hsplit(input=L.ones(4), sections=2)", "L.ones(3).tensor_split(indices_or_sections=2)",
    "L.tensor_split(L.ones(3), 2, dim=0, indices_or_sections=1)",
    "L.tensor_split(1, input=L.ones(3), indices_or_sections='3')",
    "L.hsplit('a', indices_or_sections=4611686018427387904)",
    "L.vsplit(input=L.ones(2, 3), indices_or_sections='3')", "L.dsplit(indices_or_sections=4)",
    "L.tensor_split(x, indices_or_sections=2)", "L.tensor_split(x, input=x, sections=2)",
    "L.is_tensor(obj=-1)", "L.is_storage(obj=x)", "L.typename(obj=1)", "L.typename(x)"])
def test_input_by_keyword_as_torch(expression: str) -> None:
    """torch's parser takes ``input`` by keyword and has no ``indices_or_sections`` keyword
    (minitorch's positional-only parameters gave Python's refusal); torch's Python functions
    is_tensor, is_storage and typename take their object by position only."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.dtype()", "L.layout()", "L.memory_format()", "L.dtype('float32')",
    "type(L.float32)('x')", "type(L.contiguous_format)()"])
def test_no_instances_of_torch_s_own_classes(expression: str) -> None:
    """dtype, layout and memory_format are made by torch alone."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.max(3, 1)", "L.max(3, x)", "L.max(None, dim=1)", "L.max(input=2.0)", "L.max(2.0)",
    "L.min(2.0, 1, True)", "L.min(2.0, other=x)", "L.argmax(2.0, 1)", "L.argmax(None)",
    "L.argmin(input=None, dim=1)", "L.argmin(2.0, 1.5)"])
def test_extremum_of_no_tensor_as_torch(expression: str) -> None:
    """max/min/argmax/argmin refuse an input that is no tensor in the parser's words
    (minitorch raised AttributeError from inside)."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.linspace(L.ones(2, 2), L.ones(3), 3)", "L.logspace(L.ones(()), L.ones(3), 3)",
    "L.linspace(L.ones(2), 1.0, 3)", "L.linspace(1.0, L.ones(2, 2), 3)",
    "L.msort(input='a')", "L.msort('a')", "L.unsafe_chunk(L.ones(0), 2)",
    "L.ones(0).unsafe_chunk(3)",
    "[p.grad_fn.name() for p in L.unsafe_chunk(L.ones(0, requires_grad=True), 2)]"])
def test_messages_and_pieces_as_torch(expression: str) -> None:
    """linspace names each tensor given; msort's own name; unsafe_chunk of an empty dim gives
    ``chunks`` empty pieces."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.nn.functional.max_pool2d(L.ones(1, 4, 4))", "L.nn.functional.max_pool2d()",
    "L.nn.functional.max_pool2d(-1)", "L.nn.functional.max_pool1d(L.ones(1, 4))",
    "L.nn.functional.adaptive_max_pool2d(L.ones(1, 4, 4))",
    "L.nn.functional.adaptive_max_pool1d(1)",
    "L.nn.functional.adaptive_max_pool2d(L.ones(1, 4, 4), 2, foo=1)",
    "L.nn.functional.max_pool2d(L.ones(1, 4, 4), return_indices=True)",
    "L.nn.functional.max_pool3d(L.ones(1, 4, 4, 4), 2, 1, 0, 1, False, False, 3)",
    "L.nn.functional.max_pool1d(L.ones(1, 4), kernel_size=2, keepdim=1)",
    "L.nn.functional.adaptive_max_pool3d(L.ones(1, 2, 2, 2), 1, True)",
    "L.nn.functional.max_pool2d(-1, 2)"])
def test_boolean_dispatch_refuses_the_call_as_torch(expression: str) -> None:
    """torch's F.max_pool2d and F.adaptive_max_pool2d (1-d, 3-d) are Python's choice of
    ``_max_pool2d`` or ``max_pool2d_with_indices``, whose binding refuses a call first (the
    parameter forgotten most: the kernel size), in that function's name."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.index_fill(L.ones(2))", "L.index_fill(L.ones(2), 0)", "L.ones(2).index_fill(0)",
    "L.index_fill(L.ones(2), 0, L.tensor([1]), 'a')", "L.index_fill(L.ones(2), 0, [1], 2)",
    "L.index_fill(L.ones(2), 0, L.tensor([1]), L.tensor(3.))"])
def test_index_fill_is_refused_with_its_two_signatures(expression: str) -> None:
    """index_fill has a Tensor and a Number value: a call that matches neither is torch's
    list of both (minitorch named the arguments missing)."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.clamp_max_(x)", "L.clamp_min_(input=x)", "L.fill_(x)", "L.xlogy_(x)", "L.clamp_max_(None)",
    "L.fill_()", "L.fill_(L.ones(2), 3)", "L.xlogy_(L.ones(2), 2)", "L.clamp_(x)",
    "L.fill_(x, 'a')", "L.xlogy_(x, 'a')"])
def test_in_place_functions_list_their_own_signatures(expression: str) -> None:
    """torch.fill_ and co. list their method's signatures after ``Tensor input`` (minitorch
    listed the method's, or xlogy's with out=)."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.nn.functional.channel_shuffle(L.ones(1, 4, 2), groups=(2, 3))",
    "L.nn.functional.native_channel_shuffle(input=L.ones(1, 4, 2), groups=(2, 3))",
    "L.nn.functional.native_channel_shuffle(None, input=L.ones(1, 4, 2), groups=2)",
    "L.nn.functional.threshold_(None, [1.0, 2.0])",
    "L.nn.functional.relu_(input=None, keepdims=1)",
    "L.nn.functional.hardshrink(x, 0.5, out=L.ones(1).expand(2))",
    "L.nn.functional.pdist(L.ones(3, 2), p='a')", "L.nn.functional.avg_pool1d(L.ones(1, 4))"])
def test_functional_builtins_are_torch_s_functions(expression: str) -> None:
    """torch's F.channel_shuffle, F.relu_, F.hardshrink, ... are torch.channel_shuffle, ...:
    the parser's refusals as the call was written, and out= (minitorch's F had its own)."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.conj_physical(x)", "L.conj_physical(3)", "L.conj_physical(x, 1)", "x.conj_physical()",
    "x.conj_physical_()", "L.conj_physical_(x)", "L.conj_physical_(None)", "x.conj_physical(1)",
    "L.conj_physical(input=r)", "L.conj_physical(r) is r",
    "L.conj_physical(L.ones(2, 3, dtype=L.int32), out=L.ones(3, dtype=L.int16))",
    "L.conj_physical(x, out=L.zeros(2))", "L.conj_physical(x, out=r)", "L.conj_physical(x, out=e)"])
def test_conj_physical_as_torch(expression: str) -> None:
    """conj_physical (a name minitorch lacked): a real tensor is its own conjugate; out= of
    its dtype, refused by autograd's fallback when it requires grad."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.utils.data.IterableDataset()", "type('C', (L.utils.data.IterableDataset,), {})()",
    "list(type('C', (L.utils.data.IterableDataset,), {'__iter__': lambda s: iter([1])})())"])
def test_iterable_dataset_is_abstract_as_torch(expression: str) -> None:
    """torch's IterableDataset is an Iterable with an abstract ``__iter__``: it makes no
    instances but through a subclass that defines it (minitorch made one)."""
    assert_outcome_as_torch(expression)
