"""Math calls a black-box fuzzer found unlike torch, checked against torch as the oracle.

Each case is a program of the library ``L`` (torch or minitorch); minitorch must give torch's
result, or raise torch's exception type with torch's message.
"""

from __future__ import annotations

import warnings

import pytest

from tests.oracle import assert_as_torch

# TensorIterator's memory checks of out=: an out partly sharing an input's memory (a
# transposed or shifted view) is refused before shapes and dtypes; an input given as out
# is never resized
ITERATOR_OPS = {
    "clamp": lambda L, x, o: L.clamp(x, 0, out=o),
    "clamp_min": lambda L, x, o: L.clamp_min(x, 0, out=o),
    "add": lambda L, x, o: L.add(x, 1, out=o),
    "mul": lambda L, x, o: L.mul(x, x, out=o),
    "exp": lambda L, x, o: L.exp(x, out=o),
    "logit": lambda L, x, o: L.logit(x, out=o),
    "nan_to_num": lambda L, x, o: L.nan_to_num(x, out=o),
    "addcmul": lambda L, x, o: L.addcmul(x, x, x, out=o),
    "addcdiv": lambda L, x, o: L.addcdiv(x, x, x, out=o),
    "logaddexp": lambda L, x, o: L.logaddexp(x, x, out=o),
    "where": lambda L, x, o: L.where(x > 1, x, x, out=o),
}
OUTS = {"transposed": lambda x: x.t(), "shifted": lambda x: x.reshape(-1)[1:],
        "itself": lambda x: x}


@pytest.mark.parametrize("dtype", ["float32", "int64"])
@pytest.mark.parametrize("out", sorted(OUTS))
@pytest.mark.parametrize("op", sorted(ITERATOR_OPS))
def test_out_overlapping_an_input(op: str, out: str, dtype: str) -> None:
    if (op, out, dtype) == ("nan_to_num", "shifted", "int64"):  # torch copies after resize_
        pytest.skip("torch grows the shared memory first, which minitorch refuses (README)")
    def program(L):
        x = L.tensor([[1, 2], [3, 4]], dtype=getattr(L, dtype))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ITERATOR_OPS[op](L, x, OUTS[out](x))
        return x

    assert_as_torch(program)


def test_where_does_not_resize_an_input_given_as_out() -> None:
    assert_as_torch(lambda L: (lambda x, y: L.where(x > 0, x, y, out=y))(
        L.zeros((3, 0, 2)), L.tensor(-float("inf"))))


@pytest.mark.parametrize("shape", [(2, 2), (2, 0), (0, 2), (1, 0)])
@pytest.mark.parametrize("dtype", ["bool", "int32", "uint8", "float32"])
@pytest.mark.parametrize("scale", [{"alpha": 2j}, {"alpha": 0j}, {"beta": 1j}, {"alpha": 1.5}])
def test_addr_scalar_not_integral(shape: tuple, dtype: str, scale: dict) -> None:
    def program(L):
        d = getattr(L, dtype)
        return L.addr(L.ones(shape, dtype=d), L.ones(shape[0], dtype=d),
                      L.ones(shape[1], dtype=d), **scale)

    assert_as_torch(program)


# a reduction given its own input as out: torch resizes out (so the input) to the result's
# shape, wraps dim against that, and fills it with the identity before reading it
REDUCTION_CALLS = [([3, 0, 2], 0, {}), ([[1, 2], [3, 4]], 1, {}),
                   ([[1, 2], [3, 4]], 1, {"keepdim": True}), ([[1, 2]], 0, {"keepdim": True}),
                   (5, 0, {}), ([], 0, {}), ([70000.0, -1.7, 1e-8], (0,), {})]


@pytest.mark.parametrize("call", range(len(REDUCTION_CALLS)))
@pytest.mark.parametrize("dtype", ["float16", "float64", "int64", "bool"])
@pytest.mark.parametrize("name", ["sum", "nansum", "prod", "mean"])
def test_reduction_into_its_own_input(name: str, dtype: str, call: int) -> None:
    if name == "mean" and dtype == "float16":
        pytest.skip("torch's half mean copies a float sum in: values of no rule")
    data, dim, keywords = REDUCTION_CALLS[call]

    def program(L):
        x = L.tensor(data, dtype=getattr(L, dtype))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(L, name)(x, dim, out=x, **keywords), x

    assert_as_torch(program)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "int64", "uint8", "bool"])
@pytest.mark.parametrize("name", ["amax", "amin"])
def test_min_max_into_its_own_input(name: str, dtype: str) -> None:
    """amax/amin given their input as out: torch fills it with the dtype's lowest (amax) or
    highest (amin) value before reading it (int64 amin's fills nothing)."""
    def program(L):
        x = L.tensor([1, 2, 3], dtype=getattr(L, dtype))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(L, name)(x, 0, out=x), x

    assert_as_torch(program)
