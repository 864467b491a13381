"""Bad and edge input found by issue #21's black-box fuzzers (seeds 24500-24599): ``save``
into a text stream, float16 cholesky of an empty batch, float16 sums, and what ``apply_`` and
``map_`` write. Each case is a small program run on torch and on minitorch (``L``); its
outcome, the value of ``R`` or the exception's type and message, must be the same.
"""

from __future__ import annotations

import io  # noqa: F401  (the programs' streams)

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import assert_exact, raised_by
from test_bad_input_fuzz21b_oracle import assert_as_torch

import minitorch as mt


@pytest.mark.parametrize("obj", ["1", "(i for i in ())", "lib.zeros(2)", "{'a': print}"])
@pytest.mark.parametrize("stream", ["io.StringIO()", "io.BytesIO()"])
def test_save_fails_as_torch_when_pickling_or_writing_fails(obj: str, stream: str) -> None:
    """torch closes its archive (writing to the stream) even when pickling failed: into a
    text stream, the stream's TypeError is what it raises, over the pickling error."""
    def program(lib: object) -> None:
        lib.save(eval(obj), eval(stream))

    want, got = raised_by(program, torch), raised_by(program, mt)
    assert (type(got), str(got)) == (type(want), str(want))
    if obj == "(i for i in ())" and want is not None:
        assert type(got.__context__) is type(want.__context__)


@pytest.mark.parametrize("call", ["L.linalg.cholesky(x)", "L.linalg.cholesky_ex(x)",
                                  "L.linalg.cholesky(x, upper=True)", "L.cholesky(x)",
                                  "L.linalg.qr(x)", "L.linalg.inv(x)"])
@pytest.mark.parametrize("shape", ["(2, 0, 0)", "(0, 2, 2)", "(0, 0)", "(2, 2)"])
def test_float16_cholesky_of_an_empty_batch_as_torch(call: str, shape: str) -> None:
    """torch calls no LAPACK kernel for an empty batch, so its float16 refusal never comes
    (cholesky); the others refuse float16 in their own checks either way."""
    assert_as_torch(f"x = L.zeros({shape}, dtype=L.float16); R = {call}")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(50, 7), (3, 3), (7, 50), (4, 5, 6), (300,), (2, 600), (33, 17, 5)]),
       st.sampled_from([1.0, 100.0, 1e-3]), st.integers(0, 2 ** 32 - 1), st.integers(-1, 2),
       st.sampled_from(["sum", "logsumexp"]))
def test_float16_sums_over_any_dim_as_torch(shape: tuple, scale: float, seed: int, dim: int,
                                           fn: str) -> None:
    """torch adds float16 values in float32 accumulators (in its cascade order) and rounds
    once: over an outer dim too, where numpy adds in float16."""
    values = (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float16)
    dim = min(dim, len(shape) - 1)
    want = getattr(torch, fn)(torch.from_numpy(values), dim)
    got = getattr(mt, fn)(mt.from_numpy(values), dim)
    assert_exact(got, want)


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "int8", "bool", "float16",
                                   "float64"])
@pytest.mark.parametrize("value", ["2**63", "2**40", "300", "-1", "-256", "1.5", "2.5e30",
                                   "'a'", "None", "True", "1e300", "-2**63 - 1"])
def test_apply_writes_each_result_as_torch(dtype: str, value: str) -> None:
    """apply_ and map_ read each result as torch's C++ does: a float as a double, an int
    as a C long long (ValueError past it), then a checked conversion into the dtype."""
    assert_as_torch(f"R = L.zeros(2, dtype=L.{dtype}).apply_(lambda a: {value})")
    assert_as_torch(f"R = L.zeros(2, dtype=L.{dtype}).map_(L.ones(2, dtype=L.{dtype}), "
                    f"lambda a, b: {value})")
