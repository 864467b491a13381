"""Element-wise results of one tensor keep a transposed (dense, permuted) input's layout, as
torch's TensorIterator does: the strides, ``is_contiguous``, whether ``view`` may reshape the
result, and the order in which a full reduction then sums it (its last bits) are torch's."""

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt

UNARY = ["exp", "log", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg", "sqrt", "rsqrt",
         "exp2", "expm1", "log1p", "log2", "log10", "erf", "erfc", "erfinv", "floor", "sign",
         "reciprocal", "square", "asin", "atan", "sinh", "cosh", "asinh", "atanh", "lgamma",
         "digamma", "logit", "i0", "sinc", "deg2rad", "nan_to_num", "isnan", "logical_not"]


def _layouts(lib, name: str, permutation: tuple) -> tuple:
    base = lib.tensor(np.linspace(0.05, 0.95, 24, dtype=np.float32).reshape(2, 3, 4))
    x = base.permute(*permutation)
    y = getattr(x, name)()
    return y.stride(), y.is_contiguous()


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("permutation", [(0, 1, 2), (2, 1, 0), (2, 0, 1), (1, 0, 2)])
def test_unary_results_keep_a_permuted_layout_as_torch(name: str, permutation: tuple) -> None:
    assert _layouts(mt, name, permutation) == _layouts(torch, name, permutation)


@pytest.mark.parametrize("name", ["exp", "tanh", "sinh", "sqrt"])
def test_view_of_a_transposed_result_is_refused_as_torch(name: str) -> None:
    """``x.t().exp()`` is laid out as ``x.t()``: flattening it by ``view`` is refused."""
    messages = []
    for lib in (mt, torch):
        with pytest.raises(RuntimeError) as error:
            getattr(lib.ones(3, 4).t(), name)().view(-1)
        messages.append(str(error.value))
    assert messages[0] == messages[1]


# float64 sinh and cosh are SLEEF's double kernels in torch, not yet minitorch's bits
OPS_WITH_TORCHS_BITS = [(name, dtype) for name in ["exp", "sinh", "cosh", "tanh", "sigmoid",
                                                   "log1p"]
                        for dtype in ["float32", "float64"]
                        if (name, dtype) not in {("sinh", "float64"), ("cosh", "float64")}]


@given(st.integers(2, 40), st.integers(2, 40), st.sampled_from(OPS_WITH_TORCHS_BITS),
       st.integers(0, 2 ** 16))
def test_sum_of_a_transposed_result_has_torchs_bits(rows: int, cols: int, op: tuple,
                                                   seed: int) -> None:
    """The full sum of an element-wise result of a transposed tensor walks its memory as
    torch's does: the same bits."""
    name, dtype = op
    data = np.random.default_rng(seed).uniform(-0.9, 2, (rows, cols)).astype(dtype)
    sums = [getattr(lib.tensor(data).t(), name)().sum().item() for lib in (mt, torch)]
    assert sums[0] == sums[1]
