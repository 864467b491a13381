"""Bad input found by the differential fuzzer of indexing and assignment (session 23): each
program runs on torch and on minitorch, which must raise torch's error or give torch's result
bit for bit."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.oracle import SETTINGS, assert_as_torch


def _quiet(program: Any) -> None:
    with warnings.catch_warnings():  # (torch warns of truncated slices and uint8 masks)
        warnings.simplefilter("ignore")
        assert_as_torch(program)


# ---------------------------------------------------------------------------- index_put's order

# every index dtype before the masks' shapes, except that a one-element value (not accumulated)
# first meets masked_fill_'s check of a leading mask; masks that index more dims than the input
# has: a dim out of range
INDICES = {
    "short mask, int16": lambda L: (L.tensor([True]), L.tensor([[2, 2], [-3, -1]], dtype=L.int16)),
    "int16, short mask": lambda L: (L.tensor([0], dtype=L.int16), L.tensor([True])),
    "uint8 mask, int8": lambda L: (L.tensor([1], dtype=L.uint8), L.tensor([0], dtype=L.int8)),
    "mask, short mask, int16": lambda L: (L.tensor([True, True]), L.tensor([True]),
                                          L.tensor([0], dtype=L.int16)),
    "int32, short mask": lambda L: (L.tensor([0], dtype=L.int32), L.tensor([True])),
    "2-d mask, index": lambda L: (L.tensor([[True, False, True], [False, True, True]]),
                                  L.tensor([0])),
    "two 0-d masks": lambda L: (L.tensor(True), L.tensor(False)),
    "0-d float": lambda L: (L.tensor(0.0),),
}


@pytest.mark.parametrize("indices", list(INDICES))
@pytest.mark.parametrize("values", [(), (2,), (3,)])
@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("shape", [(2, 3), (2, 0)])
def test_index_put_check_order(indices: str, values: tuple, accumulate: bool,
                               shape: tuple) -> None:
    _quiet(lambda L: L.index_put(L.zeros(shape), INDICES[indices](L), L.ones(values),
                                 accumulate=accumulate))


@pytest.mark.parametrize("code", [
    "x = L.zeros(2, 3, 4, dtype=L.bool)\nx[[True], L.tensor([4, -2], dtype=L.int16)] = "
    "L.tensor([8])",  # a list of bools leads as a mask does
    "x = L.zeros(2, 3, 4)\nx[[True], L.tensor([4, -2], dtype=L.int16)] = L.ones(2)",
    "x = L.zeros(2, 0)\nx[L.tensor([1, 0], dtype=L.uint8), L.tensor(1, dtype=L.uint8)] = "
    "L.tensor([1.])",  # a 0-d uint8 tensor is a second mask: no masked_fill_
    "x = L.zeros(2, 0)\nx.index_put_((L.tensor(-3, dtype=L.int32),), L.tensor(-1.), "
    "accumulate=True)",  # an empty result reads no index (was numpy's IndexError)
])
def test_write_check_order(code: str) -> None:
    def program(L: Any) -> Any:
        ns = {"L": L}
        exec(code, ns)
        return ns["x"]
    _quiet(program)


# ---------------------------------------------------------------------------- huge slices

BOUNDS = [None, 0, 1, -1, 5, 2 ** 31, 2 ** 62, 2 ** 63 - 1, 2 ** 63, -2 ** 63 - 1, 2 ** 70]
STEPS = [None, 1, 2, 2 ** 31, 2 ** 61, 2 ** 62, 2 ** 62 + 1, 2 ** 63 - 5, 2 ** 63 - 3,
         2 ** 63 - 2, 2 ** 63 - 1, 2 ** 63, 2 ** 70]
SLICES = st.builds(slice, st.sampled_from(BOUNDS), st.sampled_from(BOUNDS),
                   st.sampled_from(STEPS))


@given(st.lists(st.one_of(SLICES, st.sampled_from([0, None, Ellipsis])), min_size=1,
                max_size=3),
       st.sampled_from([(6,), (2, 3), (3, 2), (2, 3, 2)]),
       st.sampled_from(["read", "write", "t", "expand"]))
@SETTINGS
def test_huge_slice_steps(key: list, shape: tuple, how: str) -> None:
    # torch cuts a slice in int64: the size (len + step - 1) / step and the stride
    # stride * step wrap (x[::2**63-1] is empty), then its view's checks refuse what wrapped
    def program(L: Any) -> Any:
        x = L.arange(6.0).reshape(shape)
        if how == "write":
            x[tuple(key)] = 7.0
            return x
        if how == "t":
            x = x.t()
        elif how == "expand":
            x = x.expand(2, *shape)
        return x[tuple(key)].contiguous()  # (an empty view's stride is torch's own)
    try:
        _quiet(program)
    except ValueError as e:  # torch keeps a view of size -1 that numpy cannot read back
        assert "negative dimensions" in str(e)


@pytest.mark.parametrize("code", [
    "x[2**31:2**31:2**63-1]", "x.view(2, 3)[:, 2**31:2**31:2**63-1]", "x[::2**63-1]",
    "x[::2**63]", "x[::2**63-3]", "x.view(3, 2)[::2**62]", "x.view(2, 3)[::2**62]",
    "x.unfold(0, 2, 2**62)", "x.unfold(0, 2, 2**63-1)", "x.as_strided((1,), (2**63-1,))",
    "x.as_strided((2, 0), (2**62, 1))", "x.as_strided((2,), (2**62,))",
    "x.as_strided((1,), (2**62,), 2**61)", "x.as_strided((2,), (-2**62-1,))",
])
def test_huge_strides(code: str) -> None:
    _quiet(lambda L: eval(code, {"x": L.arange(6.0)}).contiguous())


# ---------------------------------------------------------------------------- masked_scatter_

@pytest.mark.parametrize("mask", [(5,), (3,), (1,)])
@pytest.mark.parametrize("mask_dtype", ["bool", "uint8"])
@pytest.mark.parametrize("source_dtype", ["float32", "int64"])
@pytest.mark.parametrize("form", ["masked_scatter", "masked_scatter_", "expanded"])
def test_masked_scatter_order(mask: tuple, mask_dtype: str, source_dtype: str,
                              form: str) -> None:
    # in place: the input's overlap, the dtypes, then the mask expanded to the input
    def program(L: Any) -> Any:
        x = L.zeros(2, 3) if form != "expanded" else L.zeros(3).expand(2, 3)
        m = L.ones(mask, dtype=getattr(L, mask_dtype))
        src = L.ones(6, dtype=getattr(L, source_dtype))
        return x.masked_scatter(m, src) if form == "masked_scatter" else \
            x.masked_scatter_(m, src)
    _quiet(program)


# ---------------------------------------------------------------------------- histc's -nan

@pytest.mark.parametrize("values", [[float("nan")], [float("nan"), 1.0], [1.0, -float("nan")],
                                    [float("nan")] * 17])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_histc_nan_range(values: list, dtype: str) -> None:
    # a nan found in the data is torch's kernel's -nan where it compares two or more
    _quiet(lambda L: L.histc(L.tensor(values, dtype=getattr(L, dtype)), bins=3))
