"""minitorch's random numbers against torch 2.13's CPU generator, sample for sample: every
number equal, bit for bit (float32 normals of 16 or more included, whichever of its DEFAULT
or AVX2/AVX512 kernels torch runs on this machine)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch

torch = pytest.importorskip("torch")

SIZES = [0, 1, 3, 15, 16, 17, 31, 33, 100]
SEEDS = [0, 1, 42, 2**32 + 7, 123456789]
DTYPES = ["float32", "float64"]


def same(t: object, m: minitorch.Tensor) -> None:
    expected, got = t.numpy(), m.numpy()
    assert expected.dtype == got.dtype and expected.shape == got.shape
    np.testing.assert_array_equal(got, expected)


def both(seed: int, fn: object) -> tuple:
    torch.manual_seed(seed)
    t = fn(torch)
    minitorch.manual_seed(seed)
    return t, fn(minitorch)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_rand_uniform_and_the_integer_samplers(seed: int, n: int, dtype: str) -> None:
    def draws(lib: object) -> list:
        dt = getattr(lib, dtype)
        return [lib.rand(n, dtype=dt), lib.empty(n, dtype=dt).uniform_(-0.3, 0.7),
                lib.randint(-3, 10, (n,)), lib.randint(0, 2**30, (n,)),
                lib.empty(n, dtype=lib.int64).random_(), lib.empty(n, dtype=dt).random_(),
                lib.empty(n, dtype=dt).random_(2, 9), lib.randperm(n),
                lib.empty(n, dtype=dt).bernoulli_(0.3),
                lib.bernoulli(lib.rand(n, dtype=dt)),
                lib.empty(n, dtype=dt).exponential_(2.0)]

    for t, m in zip(*both(seed, draws)):
        same(t, m)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_normals_small_and_large_with_the_cached_spare(seed: int, n: int, dtype: str) -> None:
    def draws(lib: object) -> list:
        dt = getattr(lib, dtype)
        return [lib.randn(n, dtype=dt), lib.randn(n, dtype=dt), lib.randn((), dtype=dt),
                lib.empty(n, dtype=dt).normal_(0.3, 1.7), lib.normal(1.0, 2.0, size=(n,)),
                lib.randn(1, dtype=dt)]

    for t, m in zip(*both(seed, draws)):
        same(t, m)


def test_a_million_float32_normals_and_shifted_ones() -> None:
    def draws(lib: object) -> list:
        return [lib.randn(1000, 1000), lib.empty(10007).normal_(0.5, 3.0),
                lib.randn(1003, dtype=lib.float64)]

    for t, m in zip(*both(2024, draws)):
        same(t, m)


@pytest.mark.parametrize("seed", SEEDS)
def test_default_layer_initialisation_and_dropout_masks(seed: int) -> None:
    def draws(lib: object) -> list:
        lin, conv = lib.nn.Linear(3, 2), lib.nn.Conv2d(2, 3, 3)
        drop = lib.nn.functional.dropout(lib.ones(40), 0.3)
        return [lin.weight.detach(), lin.bias.detach(), conv.weight.detach(),
                conv.bias.detach(), drop, lib.nn.init.kaiming_uniform_(lib.empty(4, 5))]

    for t, m in zip(*both(seed, draws)):
        same(t, m)


def test_generators_keep_their_own_stream_and_the_loader_its_order() -> None:
    def draws(lib: object) -> list:
        g = lib.Generator().manual_seed(5)
        ds = lib.utils.data.TensorDataset(lib.arange(10))
        loader = lib.utils.data.DataLoader(ds, batch_size=3, shuffle=True)
        order = lib.cat([b[0] for b in loader])
        return [lib.rand(4, generator=g), lib.rand(2), lib.randperm(7, generator=g), order,
                lib.rand(3), lib.tensor(lib.Generator().initial_seed())]

    for t, m in zip(*both(11, draws)):
        same(t, m)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(-(2**63), 2**63 - 1), n=st.integers(0, 70),
       low=st.integers(-50, 50), span=st.integers(1, 2**40))
def test_any_seed_and_range_match(seed: int, n: int, low: int, span: int) -> None:
    def draws(lib: object) -> list:
        return [lib.rand(n), lib.randint(low, low + span, (n,)), lib.randn(n, dtype=lib.float64),
                lib.initial_seed()]

    expected, got = both(seed, draws)
    assert got.pop() == expected.pop()
    for t, m in zip(expected, got):
        same(t, m)


@pytest.mark.parametrize("seed", [3, 2**40 + 1, -1])
def test_rng_state_is_torchs_bytes_and_restores_in_either_library(seed: int) -> None:
    def draws(lib: object) -> list:
        lib.randn(3, dtype=lib.float64)  # leaves a cached spare normal in the state
        return [lib.get_rng_state(), lib.rand(5)]

    (t_state, t_next), (m_state, _) = both(seed, draws)
    np.testing.assert_array_equal(m_state.numpy(), t_state.numpy())
    minitorch.set_rng_state(m_state)
    same(torch.randn(0), minitorch.randn(0))
    same(t_next, minitorch.rand(5))
    torch.set_rng_state(torch.tensor(m_state.tolist(), dtype=torch.uint8))
    minitorch.set_rng_state(m_state)
    same(torch.randn(2, dtype=torch.float64), minitorch.randn(2, dtype=minitorch.float64))
    assert m_state.dtype == minitorch.uint8
    with pytest.raises(RuntimeError, match="size 5056 but found the input RNG state size to be 3"):
        minitorch.set_rng_state(minitorch.zeros(3, dtype=minitorch.uint8))
    for dtype in ("int64", "int32", "float32"):  # torch takes bytes only
        with pytest.raises(TypeError, match=r"^RNG state must be a torch\.ByteTensor$"):
            minitorch.set_rng_state(m_state.to(getattr(minitorch, dtype)))


@pytest.mark.parametrize("rows", [4, 8])
def test_a_transposed_view_is_filled_in_memory_order(rows: int) -> None:
    def draws(lib: object) -> list:
        views = [lib.zeros(rows, 6).t() for _ in range(4)]
        views[0].normal_()
        views[1].uniform_(-1, 2)
        views[2].random_(0, 7)
        views[3].bernoulli_(0.4)
        return [v.contiguous() for v in views] + [lib.bernoulli(lib.zeros(3), 0.5)]

    for t, m in zip(*both(5, draws)):
        same(t, m)


def test_without_avx2_float32_normals_are_the_c_librarys() -> None:
    """Where torch runs its DEFAULT kernels (no AVX2, or ATEN_CPU_CAPABILITY=default), its
    float32 normals call the C library's logf/sinf/cosf; minitorch then calls them too."""
    import os
    import subprocess
    import sys

    program = ("import torch, minitorch\n"
               "torch.manual_seed(11); minitorch.manual_seed(11)\n"
               "a, b = torch.randn(4099).numpy(), minitorch.randn(4099).numpy()\n"
               "print((a == b).all())\n")
    env = {**os.environ, "ATEN_CPU_CAPABILITY": "default"}
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "True"


@pytest.mark.parametrize("call", [
    "L.randperm(-1)", "L.randperm(2.5)", "L.randint(2.5, (2,))", "L.randint(3, 1, (2,))",
    "L.zeros(3).uniform_(float('nan'), 1)", "L.zeros(3).uniform_(0, float('inf'))",
    "L.zeros(3).uniform_(0.5, 1e-9)", "L.zeros(3).uniform_('a')",
    "L.zeros(2).uniform_(1e300, 1e301)", "L.zeros(3, dtype=L.int64).uniform_(2, 1)",
    "L.zeros(3).normal_(None)", "L.zeros(3).normal_(0, -1)",
    "L.zeros(3).exponential_(0)", "L.zeros(3).exponential_(None)",
    "L.zeros(3, dtype=L.int64).exponential_(-1)",
    "L.zeros(3).bernoulli_(float('nan'))", "L.zeros(3).bernoulli_(3)",
    "L.bernoulli(L.tensor([0.5, 2.0]))", "L.bernoulli(L.tensor([1, 0]))",
    "L.zeros(3).random_(5, 2)", "L.zeros(3).random_(-1)", "L.zeros(3).random_(None, 3)",
])
def test_bad_arguments_of_the_samplers_get_torchs_refusal(call: str) -> None:
    """The samplers check their arguments as torch does: the same exception and message."""
    raised = []
    for L in (torch, minitorch):
        with pytest.raises(Exception) as info:  # the class is compared below
            eval(call, {"L": L})
        raised.append((type(info.value), str(info.value)))
    if "None" in call:  # torch lists its overloads; minitorch names the argument
        assert raised[0][0] is raised[1][0]
    else:
        assert raised[1] == raised[0]
