"""torch's kernels that take SLEEF's vector maths, bit for bit, compared live with torch.

torch's float32 CPU ``log_softmax`` takes its log from SLEEF (``logf_u10``) and its exps from
SLEEF where a whole vector is loaded, the C library's ``expf`` elsewhere; ``softmax`` along
other dims and both backwards follow the same vector/tail split and the compiler's fused
multiply-adds; ``x ** p`` is SLEEF's ``powf_u10``; cross-entropy losses add their rows in
nll_loss's cascade. A last bit that differs shows in a printed loss, so every comparison
here is of bits.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minitorch as mt
from minitorch import _sleef


def _share_same(got: np.ndarray, want: np.ndarray) -> float:
    assert got.shape == want.shape and got.dtype == want.dtype
    return float(np.mean(got.view(np.uint32) == want.view(np.uint32)))


def _rows(seed: int, count: int) -> list[np.ndarray]:
    """Rows of 1 to 70 values, each row at its own scale (1e-2 to 1e2)."""
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(int(rng.integers(1, 71))) * 10 ** rng.uniform(-2, 2))
            .astype(np.float32) for _ in range(count)]


def test_logf_is_sleefs_on_the_sums_log_softmax_takes() -> None:
    """log_softmax of n zeros is -log(n): SLEEF's log of n, one float off numpy's for some n."""
    n = np.arange(1, 400, dtype=np.float32)
    want = np.float32([0 - torch.log_softmax(torch.zeros(int(k)), 0)[0].item() for k in n])
    assert _sleef.logf(n).tobytes() == want.tobytes()
    special = np.float32([0.0, -0.0, -1.0, np.nan, np.inf, 1e-45, 3.4e38])
    got = _sleef.logf(special)
    assert np.isneginf(got[:2]).all() and np.isnan(got[2:4]).all() and got[4] == np.inf
    assert got[5] == np.float32(-103.27893) and got[6] == np.float32(88.72201)


def test_log_softmax_rows_are_torchs() -> None:
    """2000 rows of 1 to 70 values: every bit of every row as torch's (was 96%)."""
    same = [mt.log_softmax(mt.tensor(x), 0).numpy().tobytes()
            == torch.log_softmax(torch.tensor(x), 0).numpy().tobytes() for x in _rows(0, 2000)]
    assert all(same), f"{same.count(False)} of {len(same)} rows differ"


@pytest.mark.parametrize("shape", [(7, 5), (33, 17), (70, 40), (2, 3000, 40), (3, 9, 4, 5),
                                   (1200, 33)])
@pytest.mark.parametrize("dim", [0, 1])
def test_log_softmax_along_other_dims_is_torchs(shape: tuple, dim: int) -> None:
    """Along a dim that is not the last, torch's exps past the last whole vector of each
    chunk of 128 KiB are the C library's (was 48% of such tensors)."""
    rng = np.random.default_rng(sum(shape) + dim)
    x = (rng.standard_normal(shape) * 10 ** rng.uniform(-1, 1.5)).astype(np.float32)
    got = mt.log_softmax(mt.tensor(x), dim).numpy()
    want = torch.log_softmax(torch.tensor(x), dim).numpy()
    assert _share_same(got, want) == 1.0


def test_log_softmax_of_nan_and_inf_is_torchs() -> None:
    x = np.float32([[0, 1, np.nan, 2], [0, np.inf, 1, 2], [-np.inf, 0, 1, 2],
                    [-np.inf] * 4, [np.inf] * 4, [1e30, -1e30, 3e38, 0]])
    for dim in (0, 1):
        got = mt.log_softmax(mt.tensor(x), dim).numpy()
        want = torch.log_softmax(torch.tensor(x), dim).numpy()
        np.testing.assert_array_equal(got, want)


def test_cross_entropy_losses_are_torchs() -> None:
    """cross_entropy is log_softmax and nll_loss: 300 random batches, every loss's bits."""
    rng = np.random.default_rng(3)
    for _ in range(300):
        rows, classes = int(rng.integers(1, 33)), int(rng.integers(2, 70))
        logits = (rng.standard_normal((rows, classes)) * 10 ** rng.uniform(-1, 1)).astype(
            np.float32)
        target = rng.integers(0, classes, rows)
        got = mt.nn.functional.cross_entropy(mt.tensor(logits), mt.tensor(target))
        want = torch.nn.functional.cross_entropy(torch.tensor(logits), torch.tensor(target))
        assert got.item() == want.item()


def _log_softmax_grad(lib: object, x: np.ndarray, g: np.ndarray, dim: int) -> np.ndarray:
    t = lib.tensor(x, requires_grad=True)
    lib.log_softmax(t, dim).backward(lib.tensor(g))
    return t.grad.numpy()


def test_log_softmax_backward_rows_are_torchs() -> None:
    """torch's backward is one fused multiply-add, fma(-exp(y), sum(g), g): every row's bits
    (was 33% with the product and the difference rounded apart)."""
    rng = np.random.default_rng(1)
    for x in _rows(1, 1000):
        g = rng.standard_normal(x.size).astype(np.float32)
        got, want = _log_softmax_grad(mt, x, g, 0), _log_softmax_grad(torch, x, g, 0)
        assert got.tobytes() == want.tobytes(), x.size


@pytest.mark.parametrize("shape", [(7, 5), (33, 17), (70, 40), (2, 3000, 40), (1200, 33)])
def test_log_softmax_backward_along_other_dims_is_torchs(shape: tuple) -> None:
    """Along another dim the fused step takes the C library's exp past the last whole
    vector of each chunk (was 4%)."""
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    for dim in range(len(shape) - 1):
        got, want = _log_softmax_grad(mt, x, g, dim), _log_softmax_grad(torch, x, g, dim)
        assert _share_same(got, want) == 1.0


def test_cross_entropy_grads_are_torchs() -> None:
    """300 random batches: the logits' gradients bit for bit (was 41%)."""
    rng = np.random.default_rng(4)
    for _ in range(300):
        rows, classes = int(rng.integers(1, 33)), int(rng.integers(2, 70))
        logits = (rng.standard_normal((rows, classes)) * 10 ** rng.uniform(-1, 1)).astype(
            np.float32)
        target = rng.integers(0, classes, rows)
        grads = []
        for lib in (mt, torch):
            t = lib.tensor(logits, requires_grad=True)
            lib.nn.functional.cross_entropy(t, lib.tensor(target)).backward()
            grads.append(t.grad.numpy())
        assert grads[0].tobytes() == grads[1].tobytes()


# ---- softmax along other dims, and its backward ----

SHAPES = [(7, 5), (33, 17), (70, 40), (3, 50, 33), (2, 3000, 40), (1200, 33), (1, 40), (9, 1)]


@pytest.mark.parametrize("shape", SHAPES)
def test_softmax_along_every_dim_is_torchs(shape: tuple) -> None:
    """Along another dim torch's threads split the (outer, inner) positions evenly and each
    runs vectors from the start of its range; the rest take the C library's exp (was 8%)."""
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 10 ** rng.uniform(-1, 1.5)).astype(np.float32)
    for dim in range(len(shape)):
        got = mt.softmax(mt.tensor(x), dim).numpy()
        want = torch.softmax(torch.tensor(x), dim).numpy()
        assert _share_same(got, want) == 1.0, dim


def _softmax_grad(lib: object, x: np.ndarray, g: np.ndarray, dim: int) -> np.ndarray:
    t = lib.tensor(x, requires_grad=True)
    lib.softmax(t, dim).backward(lib.tensor(g))
    return t.grad.numpy()


@pytest.mark.parametrize("shape", SHAPES)
def test_softmax_backward_is_torchs(shape: tuple) -> None:
    """sum(g * y): along the last dim in lanes, the products of the last partial block fused
    when the kernel runs on one thread (one row); along another dim one fma a value (was
    6%)."""
    rng = np.random.default_rng(sum(shape) + 1)
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    for dim in range(len(shape)):
        got, want = _softmax_grad(mt, x, g, dim), _softmax_grad(torch, x, g, dim)
        assert _share_same(got, want) == 1.0, dim


def test_softmax_backward_of_single_rows_is_torchs() -> None:
    rng = np.random.default_rng(5)
    for x in _rows(5, 400):
        g = rng.standard_normal(x.size).astype(np.float32)
        assert _softmax_grad(mt, x, g, 0).tobytes() == _softmax_grad(torch, x, g, 0).tobytes()


# ---- pow: SLEEF's powf_u10 in the vector loop, double pow after it ----

EXPONENTS = [1.5, 0.3, -1.7, 2.5, 4, 4.0, 0.25, 1 / 3, -3, 10.0, 7, -12.5, 1e-3, 0.75]


@pytest.mark.parametrize("p", EXPONENTS)
def test_pow_of_a_number_is_torchs(p: float) -> None:
    """Values of every size and sign, some results below float32's normal numbers: every
    bit as torch's (was 79% for positive bases)."""
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(5000) * 10 ** rng.uniform(-5, 5, 5000)).astype(np.float32)
    got, want = (mt.tensor(x) ** p).numpy(), (torch.tensor(x) ** p).numpy()
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    assert same.all(), (x[~same][:3], got[~same][:3], want[~same][:3])


@pytest.mark.parametrize("n", [1, 15, 31, 32, 33, 100, 70001])
def test_pow_past_the_last_pair_of_vectors_is_torchs(n: int) -> None:
    """After each thread's last pair of vectors torch takes double pow of the exponent
    itself, not rounded to float32: -1.7 and 1/3 show it."""
    x = np.abs(np.random.default_rng(n).standard_normal(n) * 4).astype(np.float32)
    for p in (-1.7, 1 / 3):
        got, want = (mt.tensor(x) ** p).numpy(), (torch.tensor(x) ** p).numpy()
        assert got.tobytes() == want.tobytes()


def test_pow_special_values_are_torchs() -> None:
    values = np.tile(np.float32([0, -0.0, 1, -1, np.inf, -np.inf, np.nan, 2, -2, 0.5, 1e-30,
                                 1e30, -3, 7, 1e-45, -1e-45]), 4)
    for p in (1.5, -1.5, 3.0, -3.0, 7, 1e30, -1e30, 0.3, float("inf"), float("-inf"),
              float("nan")):
        got, want = (mt.tensor(values) ** p).numpy(), (torch.tensor(values) ** p).numpy()
        np.testing.assert_array_equal(got, want, err_msg=str(p))


@pytest.mark.parametrize("p", [1.5, -1.7, 2.5, 0.3, -2, -0.5, 4])
def test_pow_grads_are_torchs(p: float) -> None:
    """The gradient takes ``x ** (p - 1)`` through the same kernel."""
    rng = np.random.default_rng(8)
    x = (np.abs(rng.standard_normal(3000)) + 0.01).astype(np.float32)
    g = rng.standard_normal(3000).astype(np.float32)
    grads = []
    for lib in (mt, torch):
        t = lib.tensor(x, requires_grad=True)
        (t ** p).backward(lib.tensor(g))
        grads.append(t.grad.numpy())
    assert grads[0].tobytes() == grads[1].tobytes()


@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_over_positions_is_torchs(reduction: str, weighted: bool) -> None:
    """(batch, classes, length...) inputs go to nll_loss2d, which adds its positions in the
    same cascade of levels of 16 as nll_loss (was a plain sum: half the losses differed)."""
    rng = np.random.default_rng(11)
    for _ in range(40):
        n, c, h, w = (int(rng.integers(1, k)) for k in (9, 30, 20, 6))
        x = (rng.standard_normal((n, c, h, w)) * 3).astype(np.float32)
        y = rng.integers(-1, c, (n, h, w))  # -1: ignored
        weight = (rng.random(c) + 0.5).astype(np.float32) if weighted else None
        got = mt.nn.functional.cross_entropy(
            mt.tensor(x), mt.tensor(y), weight=None if weight is None else mt.tensor(weight),
            ignore_index=-1, reduction=reduction)
        want = torch.nn.functional.cross_entropy(
            torch.tensor(x), torch.tensor(y),
            weight=None if weight is None else torch.tensor(weight), ignore_index=-1,
            reduction=reduction)
        assert got.numpy().tobytes() == want.numpy().tobytes()


def test_expd_is_torchs_vectorised_float64_exp() -> None:
    """SLEEF's expd_u10 against torch's sigmoid of whole vectors (1/(1+exp(x)) there),
    over 1e-3 to 700 in size, with its cut-offs to 0 and inf."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal(8 * 4096) * 10 ** rng.uniform(-3, 2.8, 8 * 4096)
    x[:6] = [0.0, -0.0, 709.7, 709.8, -1000.5, -745.2]
    want = torch.sigmoid(torch.tensor(-x)).numpy()
    got = 1 / (1 + _sleef.expd(x))
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("view", [
    "t", "t.chunk(4, 1)[1]", "t[::2]", "t.t()", "t.view(17, 6, 34)[::2]",
    "t.view(17, 4, 51)[:, 2]", "t.view(-1)", "t.view(-1)[3:]"])
def test_sigmoid_bits_follow_torchs_loop_over_the_layout(dtype: str, view: str) -> None:
    """float32 and float64 sigmoid, bit for bit, on contiguous tensors and on views: torch's
    loop runs its vectors along each contiguous run (a whole contiguous tensor, each row of a
    chunk of LSTM gates) and nothing vectorised without a contiguous dim."""
    x = (np.random.default_rng(3).standard_normal((17, 204)) * 4).astype(dtype)
    got = eval(view, {"t": mt.tensor(x)}).sigmoid().numpy()
    want = eval(view, {"t": torch.tensor(x)}).sigmoid().numpy()
    assert got.tobytes() == want.tobytes()
