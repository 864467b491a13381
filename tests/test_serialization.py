"""save/load: tensors, Parameters, state dicts and checkpoints round-trip; loading is safe by
default (weights_only, torch's default since 2.6) and prints as torch's does."""

from __future__ import annotations

import io
import pickle

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from oracle import FEW

import minitorch as mt


def _round_trip(L, obj, **load_args):
    buffer = io.BytesIO()
    L.save(obj, buffer)
    buffer.seek(0)
    return L.load(buffer, **load_args)


@given(hnp.arrays(st.sampled_from([np.float32, np.float64, np.int64, np.bool_]),
                  hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)))
@FEW
def test_tensors_round_trip_with_dtype_shape_and_values(values: np.ndarray) -> None:
    t = mt.tensor(values)
    back = _round_trip(mt, t)
    assert back.dtype is t.dtype and back.shape == t.shape
    np.testing.assert_array_equal(back.numpy(), t.numpy())  # NaN equals NaN here


def test_checkpoints_print_like_torch(tmp_path) -> None:
    def checkpoint(L):
        L.manual_seed(0)
        p = L.nn.Parameter(L.tensor([1.0, 2.0]))
        return {"epoch": 3, "weights": [p, L.tensor([1, 2]), L.ones(2, requires_grad=True)],
                "name": "run", "dtype": L.float64, "shape": L.Size([2, 3]), "none": None}

    got = _round_trip(mt, checkpoint(mt))
    want = _round_trip(torch, checkpoint(torch))
    assert repr(got) == repr(want)
    path = tmp_path / "ckpt.pt"
    mt.save(checkpoint(mt), path)
    assert repr(mt.load(path)) == repr(got)
    assert isinstance(got["weights"][0], mt.nn.Parameter)


def test_a_model_and_optimizer_resume_from_their_state_dicts(tmp_path) -> None:
    model = mt.nn.Sequential(mt.nn.Linear(3, 4), mt.nn.ReLU(), mt.nn.Linear(4, 1))
    opt = mt.optim.Adam(model.parameters(), lr=0.1)
    x = mt.randn(8, 3)
    model(x).pow(2).mean().backward()
    opt.step()
    mt.save({"model": model.state_dict(), "opt": opt.state_dict()}, tmp_path / "c.pt")
    loaded = mt.load(tmp_path / "c.pt")
    twin = mt.nn.Sequential(mt.nn.Linear(3, 4), mt.nn.ReLU(), mt.nn.Linear(4, 1))
    twin.load_state_dict(loaded["model"])
    twin_opt = mt.optim.Adam(twin.parameters(), lr=0.1)
    twin_opt.load_state_dict(loaded["opt"])
    for m, o in ((model, opt), (twin, twin_opt)):
        o.zero_grad()
        m(x).pow(2).mean().backward()
        o.step()
    for a, b in zip(model.parameters(), twin.parameters()):
        assert mt.equal(a, b)
    assert list(loaded["model"]) == list(model.state_dict())


class Box:
    def __init__(self, value):
        self.value = value


def test_unknown_classes_need_weights_only_false_or_an_allowlist() -> None:
    errors = []
    for L in (mt, torch):
        with pytest.raises(pickle.UnpicklingError) as info:
            _round_trip(L, {"a": Box(L.ones(1))})
        errors.append(str(info.value))
    assert "Unsupported global: GLOBAL test_serialization.Box" in errors[0]
    assert errors[0].split("WeightsUnpickler")[0] == errors[1].split("WeightsUnpickler")[0]
    assert _round_trip(mt, {"a": Box(2)}, weights_only=False)["a"].value == 2
    with mt.serialization.safe_globals([Box]):
        assert mt.equal(_round_trip(mt, Box(mt.ones(1))).value, mt.ones(1))
    assert mt.serialization.get_safe_globals() == []


def test_a_whole_module_loads_only_with_weights_only_false() -> None:
    model = mt.nn.Linear(2, 1)
    with pytest.raises(pickle.UnpicklingError, match=r"torch\.nn\.modules\.linear\.Linear"):
        _round_trip(mt, model)  # (torch's name of the class, which names the same one here)
    with mt.serialization.safe_globals([mt.nn.modules.linear.Linear]):
        assert mt.equal(_round_trip(mt, model).weight, model.weight)
    back = _round_trip(mt, model, weights_only=False)
    assert mt.equal(back.weight, model.weight) and isinstance(back.weight, mt.nn.Parameter)


def test_errors_like_torch(tmp_path) -> None:
    for L in (mt, torch):
        with pytest.raises(FileNotFoundError):
            L.load(tmp_path / "missing.pt")
