"""int8, int16, int32, uint8 and float16 against live torch: promotion, arithmetic (integer
wraparound, float16 rounded per op as torch's CPU does), printing, conversions, refusals,
and Karpathy's makemore bigram model, whose count matrix is int32.

Each check builds the same thing in both libraries (a function of the library ``L``) and
requires minitorch's result to be torch's: dtype, shape, the exact values (bits for
floats), or the same error.
"""

from __future__ import annotations

import io
import itertools
import operator
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same_error, mt, raised_by

Build = Callable[[Any], Any]
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
NARROW = ["uint8", "int8", "int16", "int32", "float16"]
INTEGRAL = ["uint8", "int8", "int16", "int32", "int64"]


def same_bits(got: Any, want: Any, what: str = "result") -> None:
    """Two results are equal: tensors in dtype, shape and every bit (any NaN equals any
    NaN), anything else by ``==``."""
    if not isinstance(want, torch.Tensor):
        assert got == want, f"{what}: {got!r} vs {want!r}"
        return
    assert isinstance(got, mt.Tensor), f"{what}: expected a Tensor, got {type(got).__name__}"
    assert str(got.dtype) == str(want.dtype), f"{what}: dtype {got.dtype} vs {want.dtype}"
    assert tuple(got.shape) == tuple(want.shape), f"{what}: shape {got.shape} vs {want.shape}"
    a, b = got.detach().numpy(), want.detach().numpy()
    if want.dtype.is_floating_point:
        both_nan = np.isnan(a) & np.isnan(b)
        a, b = np.where(both_nan, 0, a).view(f"u{a.itemsize}"), \
            np.where(both_nan, 0, b).view(f"u{b.itemsize}")
    np.testing.assert_array_equal(a, b, err_msg=what)


def check(build: Build) -> None:
    """``build(minitorch)`` is ``build(torch)``: the same result, or the same error."""
    want_error = raised_by(build, torch)
    if want_error is not None:
        assert_same_error(raised_by(build, mt), want_error)
        return
    got, want = build(mt), build(torch)
    if isinstance(want, tuple):
        for g, w in zip(got, want, strict=True):
            same_bits(g, w)
    else:
        same_bits(got, want)


def values(dtype: str) -> st.SearchStrategy[list]:
    """Three values a tensor of ``dtype`` holds (floats of a float16's range)."""
    if dtype == "bool":
        element: st.SearchStrategy[Any] = st.booleans()
    elif dtype.startswith("float"):
        element = st.floats(-300, 300, width=16).filter(lambda v: v != 0)
    else:
        info = np.iinfo(dtype)
        element = st.integers(int(info.min), int(info.max)).filter(bool)  # no division by 0
    return st.lists(element, min_size=3, max_size=3)


def make(L: Any, data: Any, dtype: str) -> Any:
    return L.tensor(data, dtype=getattr(L, dtype))


# ---------------------------------------------------------------------- promotion

@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_promote_types_is_torchs_table(a: str, b: str) -> None:
    """uint8 with int8 is int16, an integer with float16 is float16, ..."""
    assert str(mt.promote_types(getattr(mt, a), getattr(mt, b))) == \
        str(torch.promote_types(getattr(torch, a), getattr(torch, b)))


@SETTINGS
@given(a=st.sampled_from(DTYPES), b=st.sampled_from(DTYPES),
       kinds=st.sampled_from([("dim", "dim"), ("dim", "0-d"), ("0-d", "dim"), ("dim", "int"),
                              ("dim", "float"), ("0-d", "float"), ("0-d", "0-d")]))
def test_result_type_follows_dims_then_zero_d_then_scalars(a: str, b: str, kinds: tuple) -> None:
    """A float16 tensor with a float32 0-d tensor stays float16; an int32 tensor with a Python
    float is the default float; an int8 tensor with a Python int stays int8."""
    def operand(L: Any, dtype: str, kind: str) -> Any:
        return {"dim": lambda: make(L, [1, 0], dtype), "0-d": lambda: make(L, 1, dtype),
                "int": lambda: 3, "float": lambda: 2.5}[kind]()

    check(lambda L: str(L.result_type(operand(L, a, kinds[0]), operand(L, b, kinds[1]))))


ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
              "//": operator.floordiv, "%": operator.mod, "<": operator.lt, "==": operator.eq}


@SETTINGS
@given(a=st.sampled_from(DTYPES), b=st.sampled_from(DTYPES),
       symbol=st.sampled_from(list(ARITHMETIC)), data=st.data())
def test_arithmetic_of_dtype_pairs_is_torchs_to_the_bit(a: str, b: str, symbol: str,
                                                        data: Any) -> None:
    """The result's dtype and every bit: integers wrap around, float16 is computed in float32
    and rounded once, as torch's CPU kernels do."""
    x, y = data.draw(values(a)), data.draw(values(b))
    check(lambda L: ARITHMETIC[symbol](make(L, x, a), make(L, y, b)))


@SETTINGS
@given(dtype=st.sampled_from(INTEGRAL), number=st.integers(-1000, 1000),
       symbol=st.sampled_from(["+", "-", "*", "//", "%", "<", "=="]), data=st.data())
def test_python_ints_meet_narrow_tensors_in_their_bits(dtype: str, number: int, symbol: str,
                                                      data: Any) -> None:
    """``uint8_tensor * 300`` multiplies by 300's low byte (44) and stays uint8, as torch."""
    x = data.draw(values(dtype))
    check(lambda L: ARITHMETIC[symbol](make(L, x, dtype), number))


@pytest.mark.parametrize("build", [
    lambda L: L.tensor([200], dtype=L.uint8) + 100,
    lambda L: L.tensor([2 ** 31 - 1], dtype=L.int32) + 1,
    lambda L: L.tensor([-128], dtype=L.int8).abs(),
    lambda L: -L.tensor([5], dtype=L.uint8),
    lambda L: L.tensor([100, 7], dtype=L.uint8) / 300,
    lambda L: L.tensor([5], dtype=L.uint8) - L.tensor([6], dtype=L.int8),
    lambda L: L.tensor([65504.], dtype=L.half) + L.tensor([16.], dtype=L.half),
    lambda L: L.tensor([1.5], dtype=L.half) + 1e5,
    lambda L: L.tensor([1.5], dtype=L.half) * L.ones(2),
    lambda L: L.tensor([1.5, 2.], dtype=L.half) + L.tensor(1 / 3),
    lambda L: L.tensor([3], dtype=L.int32) + L.tensor(0.5, dtype=L.float64),
])
def test_overflow_and_mixed_operands_as_torch(build: Build) -> None:
    check(build)


# ---------------------------------------------------------------------- reductions, float16

@pytest.mark.parametrize("dtype", [*INTEGRAL, "bool"])
@pytest.mark.parametrize("reduce", [
    lambda t: t.sum(), lambda t: t.sum(0), lambda t: t.prod(), lambda t: t.cumsum(0),
    lambda t: t.cumprod(0), lambda t: t.sum(dtype=t.dtype), lambda t: t.max(),
    lambda t: t.any(), lambda t: t.all()])
def test_integral_reductions_promote_as_torch(dtype: str, reduce: Callable) -> None:
    """sum, prod and cumsum of an integer tensor are int64 (no wraparound at 8 bits)."""
    check(lambda L: reduce(make(L, [100, 120, 3] if dtype != "bool" else [1, 0, 1], dtype)))


FLOAT16_OPS = {
    "exp": lambda t: t.exp(), "log": lambda t: t.abs().log(), "sqrt": lambda t: t.abs().sqrt(),
    "tanh": lambda t: t.tanh(), "sigmoid": lambda t: t.sigmoid(), "relu": lambda t: t.relu(),
    "softmax": lambda t: t.softmax(1), "cumsum": lambda t: t.cumsum(1),
    "cumprod": lambda t: t.cumprod(1), "sum": lambda t: t.sum(1), "mean": lambda t: t.mean(1),
    "mean all": lambda t: t.mean(), "var": lambda t: t.var(1), "matmul": lambda t: t @ t.T,
    "pow": lambda t: t.abs() ** 1.7, "div": lambda t: t / 3, "silu": lambda t: t * t.sigmoid(),
    "mse": lambda t: (t - t.flip(0)).pow(2).mean(),
}


@SETTINGS
@given(op=st.sampled_from(list(FLOAT16_OPS)), seed=st.integers(0, 2 ** 16))
def test_float16_ops_are_torchs_to_the_bit(op: str, seed: int) -> None:
    """float16 is computed in float32 and rounded to float16 once per op (numpy's own
    float16 loops round every step of a cumsum, a mean, a softmax)."""
    x = (np.random.default_rng(seed).standard_normal((4, 40)) * 3).astype(np.float16)
    check(lambda L: FLOAT16_OPS[op](L.tensor(x.tolist(), dtype=L.float16)))


def test_float16_gradients_and_half_modules_as_torch() -> None:
    def run(L: Any) -> tuple:
        L.manual_seed(0)
        model = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.Tanh(), L.nn.Linear(4, 2)).half()
        x = L.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=L.half)
        out = model(x)
        out.sigmoid().sum().backward()
        return out, model[0].weight.grad, model[2].bias.grad

    check(run)


# ---------------------------------------------------------------------- printing

@SETTINGS
@given(dtype=st.sampled_from(DTYPES), data=st.data(), shape=st.sampled_from([(3,), (1, 3)]))
def test_printing_is_torchs(dtype: str, data: Any, shape: tuple) -> None:
    """``tensor([1, 2], dtype=torch.int32)``; float16 prints its float16 value."""
    x = data.draw(values(dtype))
    check(lambda L: repr(make(L, x, dtype).reshape(shape)))


@pytest.mark.parametrize("build", [
    lambda L: repr(L.tensor([1e-5, 7e4]).half()),
    lambda L: repr(L.tensor([0.1, 1 / 3], dtype=L.half, requires_grad=True) * 2),
    lambda L: repr(L.zeros(0, dtype=L.int32)), lambda L: repr(L.tensor(3, dtype=L.int16)),
    lambda L: repr(L.iinfo(L.int32)), lambda L: repr(L.iinfo(L.uint8)),
    lambda L: repr(L.finfo(L.half)), lambda L: L.finfo(L.float16).eps,
    lambda L: L.iinfo(L.int8).min,
])
def test_printed_forms_and_limits_as_torch(build: Build) -> None:
    check(build)


# ---------------------------------------------------------------------- conversions

@pytest.mark.parametrize("source", DTYPES)
@pytest.mark.parametrize("target", DTYPES)
def test_to_converts_as_torch(source: str, target: str) -> None:
    """Floats to integers truncate (in range); integers to narrower ones keep their bits."""
    data = [True, False, True] if source == "bool" else \
        [1.75, -2.5, 100.25] if source.startswith("float") else [100, -3, 7]
    if source == "uint8":
        data = [200, 3, 7]
    check(lambda L: make(L, data, source).to(getattr(L, target)))


@pytest.mark.parametrize("build", [
    lambda L: L.ones(2).int(), lambda L: L.ones(2).short(), lambda L: L.ones(2).char(),
    lambda L: L.ones(2).byte(), lambda L: L.ones(2).half(), lambda L: L.ones(2).long(),
    lambda L: L.tensor([1.5]).type(L.IntTensor), lambda L: L.tensor([1.5]).type("torch.HalfTensor"),
    lambda L: L.tensor([3], dtype=L.int8).type(), lambda L: L.tensor([3], dtype=L.uint8).type(),
    lambda L: L.IntTensor([1, 2]), lambda L: L.ByteTensor(3).shape, lambda L: L.CharTensor([1]),
    lambda L: L.ShortTensor([1]), lambda L: L.HalfTensor([1.5]),
    lambda L: isinstance(L.tensor([1], dtype=L.uint8), L.ByteTensor),
    lambda L: (L.int, L.short, L.half, L.long) == (L.int32, L.int16, L.float16, L.int64),
    lambda L: L.tensor([1, 2], dtype=L.int32).element_size(),
    lambda L: L.tensor([1.], dtype=L.half).element_size(),
    lambda L: L.tensor([1], dtype=L.int8).is_floating_point(),
    lambda L: (L.uint8.is_signed, L.int8.is_signed, L.half.is_floating_point, L.int32.itemsize),
    lambda L: L.tensor([1.5], dtype=L.half).item(), lambda L: L.tensor([7], dtype=L.int8).item(),
    lambda L: L.tensor([1.5, 2], dtype=L.half).tolist(),
    lambda L: L.tensor([-1, 255], dtype=L.uint8), lambda L: L.tensor([-256], dtype=L.uint8),
    lambda L: L.tensor([128], dtype=L.int8), lambda L: L.tensor([2 ** 31], dtype=L.int32),
    lambda L: L.tensor([-0.5], dtype=L.uint8), lambda L: L.tensor([1.9, -2.9], dtype=L.int16),
    lambda L: L.tensor([70000.], dtype=L.half), lambda L: L.arange(5, dtype=L.int32),
    lambda L: L.full((2,), 7, dtype=L.int8), lambda L: L.full((2,), 300, dtype=L.uint8),
    lambda L: L.zeros(2, dtype=L.uint8).fill_(-1), lambda L: L.zeros(2, dtype=L.half).fill_(1e5),
    lambda L: L.zeros(1, dtype=L.half).fill_(1e5),
])
def test_conversions_and_constructors_as_torch(build: Build) -> None:
    check(build)


@pytest.mark.parametrize("name", ["bool", "uint8", "int8", "int16", "int32", "int64",
                                  "float16", "float32", "float64"])
def test_numpy_arrays_keep_their_dtype(name: str) -> None:
    """from_numpy, tensor() and numpy() keep every dtype both libraries have."""
    array = np.array([1, 0, 1], dtype=name)
    check(lambda L: L.from_numpy(array.copy()))
    check(lambda L: L.tensor(array))
    assert mt.tensor(array).numpy().dtype == torch.tensor(array).numpy().dtype


def test_numpy_dtypes_minitorch_lacks_are_refused_not_widened() -> None:
    with pytest.raises(NotImplementedError, match="not uint16"):
        mt.from_numpy(np.zeros(2, dtype=np.uint16))
    with pytest.raises(AttributeError, match="bfloat16 is not supported"):
        getattr(mt, "bfloat16")  # noqa: B009 - the refusal is the check


@pytest.mark.parametrize("dtype", NARROW)
def test_save_and_load_keep_the_dtype(dtype: str) -> None:
    t = make(mt, [1, 2, 3], dtype)
    buffer = io.BytesIO()
    mt.save({"t": t}, buffer)
    buffer.seek(0)
    loaded = mt.load(buffer)["t"]
    same_bits(loaded, make(torch, [1, 2, 3], dtype))


# ---------------------------------------------------------------------- refusals

def _iadd_half(L: Any) -> Any:
    t = L.zeros(2, dtype=L.int32)
    t += 0.5
    return t


@pytest.mark.parametrize("build", [
    lambda L: L.zeros(2, dtype=L.int32, requires_grad=True),
    lambda L: L.zeros(2, dtype=L.uint8).requires_grad_(),
    lambda L: L.zeros(2, dtype=L.half, requires_grad=True),
    _iadd_half,
    lambda L: L.zeros(2, dtype=L.int8).add_(L.ones(2, dtype=L.half)),
    lambda L: L.zeros(2, dtype=L.int16).add_(L.ones(2, dtype=L.int32)),
    lambda L: L.tensor([100, 7], dtype=L.uint8).clamp(max=300),
    lambda L: L.tensor([100, 7], dtype=L.uint8) ** 300,
    lambda L: L.zeros(2, dtype=L.int8).add(1, alpha=300),
    lambda L: L.zeros(2, dtype=L.uint8).fill_(300.5),
    lambda L: L.iinfo(L.half), lambda L: L.finfo(L.int32),
    lambda L: L.tensor([1, 2], dtype=L.int32).softmax(0),
    lambda L: L.tensor([1, 2], dtype=L.int16).norm(),
    lambda L: L.nn.functional.cross_entropy(L.ones(2, 3), L.tensor([1, 0], dtype=L.int32)),
    lambda L: L.nn.functional.cross_entropy(L.ones(2, 3), L.tensor([1, 0], dtype=L.uint8)),
    lambda L: L.promote_types(L.int8, 1),
])
def test_refusals_are_torchs(build: Build) -> None:
    check(build)


def test_grad_of_another_dtype_names_its_c_type() -> None:
    def assign(L: Any) -> None:
        x = L.zeros(2, requires_grad=True)
        x.grad = L.zeros(2, dtype=L.int16)

    assert_same_error(raised_by(assign, mt), raised_by(assign, torch))


# ---------------------------------------------------------------------- indexing

@pytest.mark.parametrize("build", [
    lambda L: L.arange(4.)[L.tensor([1, 3], dtype=L.int32)],
    lambda L: L.arange(4.).index_select(0, L.tensor([2, 0], dtype=L.int32)),
    lambda L: L.gather(L.arange(4.), 0, L.tensor([3, 1], dtype=L.int32)),
    lambda L: L.nn.functional.embedding(L.tensor([1], dtype=L.int32), L.ones(3, 2)),
    lambda L: L.zeros(3).index_add_(0, L.tensor([1, 1], dtype=L.int32), L.ones(2)),
    lambda L: L.zeros(3).scatter_add_(0, L.tensor([0, 0], dtype=L.int32), L.ones(2)),
    lambda L: L.arange(4.)[L.tensor([1, 3], dtype=L.int16)],
    lambda L: L.arange(3.)[L.tensor([1, 0, 1], dtype=L.uint8)],
    lambda L: L.arange(3.)[L.tensor([1, 0], dtype=L.uint8)],
    lambda L: L.where(L.tensor([1, 0], dtype=L.uint8), 1., 0.),
])
def test_narrow_index_tensors_as_torch(build: Build) -> None:
    """int32 indices index as int64; a uint8 index is a mask (with torch's deprecation
    warning); int8 and int16 indices are refused."""
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        raised_by(build, torch)
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        raised_by(build, mt)
    assert [str(w.message).split(" (Triggered")[0] for w in theirs] == \
        [str(w.message) for w in ours]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(build)


# ---------------------------------------------------------------------- makemore

WORDS = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn"]


def makemore_bigram(L: Any) -> tuple:
    """Karpathy's makemore part 1: int32 bigram counts, smoothed probabilities, samples, and
    the average negative log likelihood."""
    chars = sorted(set("".join(WORDS)))
    stoi = {s: i + 1 for i, s in enumerate(chars)} | {".": 0}
    itos = {i: s for s, i in stoi.items()}
    n = len(stoi)
    N = L.zeros((n, n), dtype=L.int32)
    for w in WORDS:
        chs = [".", *w, "."]
        for ch1, ch2 in itertools.pairwise(chs):
            N[stoi[ch1], stoi[ch2]] += 1
    P = (N + 1).float()
    P /= P.sum(1, keepdims=True)
    g = L.Generator().manual_seed(2147483647)
    names = []
    for _ in range(3):
        ix, out = 0, []
        while True:
            ix = L.multinomial(P[ix], num_samples=1, replacement=True, generator=g).item()
            out.append(itos[ix])
            if ix == 0:
                break
        names.append("".join(out))
    log_likelihood, count = 0.0, 0
    for w in WORDS:
        chs = [".", *w, "."]
        for ch1, ch2 in itertools.pairwise(chs):
            log_likelihood += L.log(P[stoi[ch1], stoi[ch2]])
            count += 1
    return N, repr(N[:3, :6]), P, " ".join(names), -log_likelihood / count


def test_makemore_bigram_runs_as_torch() -> None:
    check(makemore_bigram)
