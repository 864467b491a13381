"""Results are laid out as torch's: element-wise results of one tensor keep a transposed (dense,
permuted) input's layout; of two, TensorIterator's order (the first operand decides where the
strides disagree; numpy would pick C order); softmax, scans, masked_fill, layer_norm and a
number to a tensor power are contiguous. So the strides, ``is_contiguous``, whether ``view``
may reshape the result, and the order in which a full reduction then sums it (its last bits)
are torch's."""

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


# float64 sinh and cosh are SLEEF's double kernels in torch, not yet minitorch's bits (nor
# is every float32 log1p)
OPS_WITH_TORCHS_BITS = [(name, dtype) for name in ["exp", "sinh", "cosh", "tanh", "sigmoid"]
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


LAID_OUT = {
    "add": "a + b", "mul": "a * b", "sub_number": "a - 1", "div": "a / b", "sub_alpha":
    "L.sub(a, b, alpha=2)", "maximum": "L.maximum(a, b)", "atan2": "L.atan2(a, b)",
    "hypot": "L.hypot(a, b)", "pow": "a ** b", "pow_base": "2 ** a", "logical_and":
    "L.logical_and(a, b)", "bitwise": "(a > 0) & (b < 1)", "eq": "a == b", "where":
    "L.where(a > 0, a, 0.)", "masked_fill": "a.masked_fill(a > 0, 1.)", "softmax": "a.softmax(0)",
    "log_softmax": "a.log_softmax(-1)", "cumsum": "a.cumsum(0)", "cumprod": "a.cumprod(-1)",
    "logsigmoid": "L.nn.functional.logsigmoid(a)", "layer_norm":
    "L.nn.functional.layer_norm(a, a.shape[-1:])", "mse": "L.nn.functional.mse_loss(a, b, "
    "reduction='none')", "broadcast_row": "a * b[0]", "broadcast_column": "b[:, :1] * a",
}
PERMUTED = {"c": (0, 1, 2), "p201": (2, 0, 1), "p102": (1, 0, 2), "p210": (2, 1, 0)}


def _laid_out(lib, program: str, first: tuple, second: tuple) -> tuple:
    base = lib.tensor(np.linspace(0.05, 0.95, 24, dtype=np.float32).reshape(2, 3, 4))
    a, b = base.permute(*first), (base * 0.5).permute(*second)
    if a.shape != b.shape:
        b = b.reshape(a.shape)
    result = eval(program, {"L": lib, "a": a, "b": b})
    return result.stride(), result.is_contiguous()


@pytest.mark.parametrize("program", LAID_OUT.values(), ids=LAID_OUT)
@pytest.mark.parametrize("first", PERMUTED.values(), ids=PERMUTED)
@pytest.mark.parametrize("second", PERMUTED.values(), ids=PERMUTED)
def test_results_of_mixed_layouts_as_torch(program: str, first: tuple, second: tuple) -> None:
    assert _laid_out(mt, program, first, second) == _laid_out(torch, program, first, second)


@given(st.integers(2, 60), st.integers(2, 60), st.integers(0, 2 ** 16))
def test_mean_of_a_difference_of_mixed_layouts_has_torchs_bits(rows: int, cols: int,
                                                               seed: int) -> None:
    """``(u - v).pow(2).mean()`` and ``mse_loss`` with ``u`` column-major (from a Fortran-ordered
    numpy array) and ``v`` not: torch sums in ``u``'s layout; so does minitorch."""
    rng = np.random.default_rng(seed)
    u = np.asfortranarray(rng.standard_normal((rows, cols)).astype(np.float32))
    v = rng.standard_normal((rows, cols)).astype(np.float32)
    results = [(lib.from_numpy(u) - lib.from_numpy(v)).pow(2).mean().item() for lib in (mt, torch)]
    losses = [lib.nn.functional.mse_loss(lib.from_numpy(u), lib.from_numpy(v)).item()
              for lib in (mt, torch)]
    assert results[0] == results[1] and losses[0] == losses[1]
