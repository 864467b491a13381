"""``nn.utils.rnn`` packing (``pack_padded_sequence``, ``pad_packed_sequence``,
``pack_sequence``, ``PackedSequence``) and ``RNN``/``LSTM``/``GRU`` over packed batches against
torch: printed forms, node names, errors, and outputs, states and gradients bit for bit."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, raised_by

LIBS = (mt, torch)


def _rnn(L: Any) -> Any:
    return L.nn.utils.rnn


def test_printed_forms_match_torch() -> None:
    def show(L: Any) -> str:
        R = _rnn(L)
        seq = L.tensor([[1, 2, 0], [3, 0, 0], [4, 5, 6]])
        packed = R.pack_padded_sequence(seq, [2, 1, 3], batch_first=True, enforce_sorted=False)
        sequences = [L.tensor([1., 2, 3]), L.tensor([4., 5]), L.tensor([6.])]
        return "\n".join(map(repr, (
            packed, R.pad_packed_sequence(packed, batch_first=True),
            R.pad_packed_sequence(packed, padding_value=-1, total_length=4),
            R.pack_sequence(sequences), R.pack_sequence(sequences[::-1], enforce_sorted=False),
            packed.to(L.float64).data,
            R.PackedSequence(L.ones(3), L.tensor([2, 1]), L.tensor([1, 0])),
            R.PackedSequence((L.ones(2), L.tensor([1, 1]))),
            isinstance(packed, tuple), packed._fields)))
    assert show(mt) == show(torch)


def test_unpad_and_unpack_match_torch() -> None:
    def run(L: Any) -> list:
        R = _rnn(L)
        x = L.tensor(np.arange(24.0).reshape(4, 3, 2), requires_grad=True)
        padded = x * 1
        parts = R.unpad_sequence(padded, L.tensor([4, 1, 2]))
        sequences = [L.tensor([1., 2]), L.tensor([3., 4, 5]), L.tensor([6.])]
        unpacked = R.unpack_sequence(R.pack_sequence(sequences, enforce_sorted=False))
        sum(p.sum() for p in parts).backward()
        return [repr(parts), tuple(padded.shape), repr(unpacked), repr(x.grad)]
    assert run(mt) == run(torch)


@pytest.mark.parametrize("batch_first", [False, True])
def test_pack_then_pad_gradients_match_torch(batch_first: bool) -> None:
    values = np.random.default_rng(0).standard_normal((4, 3, 2))

    def run(L: Any) -> list:
        x = L.tensor(values, requires_grad=True)
        packed = _rnn(L).pack_padded_sequence(x, L.tensor([1, 3, 2, 3]) if batch_first
                                              else [3, 1, 2], batch_first=batch_first,
                                              enforce_sorted=False)
        out, lengths = _rnn(L).pad_packed_sequence(packed, batch_first=batch_first)
        (out * L.arange(out.numel()).view(out.shape)).sum().backward()
        return [packed.data.grad_fn.name(), out.grad_fn.name(), lengths.tolist(),
                out.detach().numpy().tolist(), x.grad.numpy().tolist()]
    values = values if batch_first else values.transpose(1, 0, 2)[:, :3]
    assert run(mt) == run(torch)


@pytest.mark.parametrize("call", [
    lambda L: _rnn(L).pack_padded_sequence(L.ones(3, 2), [1, 2]),
    lambda L: _rnn(L).pack_padded_sequence(L.ones(3, 2), [2, 2, 2]),
    lambda L: _rnn(L).pack_padded_sequence(L.ones(3, 2), [2, 0]),
    lambda L: _rnn(L).pack_padded_sequence(L.ones(0, 2), [2, 0]),
    lambda L: _rnn(L).pad_packed_sequence(_rnn(L).pack_sequence([L.ones(3)]), total_length=2),
    lambda L: L.nn.GRU(2, 3)(_rnn(L).pack_sequence([L.ones(3, 2)]), L.ones(1, 2, 3)),
    lambda L: L.nn.RNN(2, 3)(_rnn(L).pack_sequence([L.ones(3)])),
])
def test_errors_match_torch(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


CONFIGS = [("LSTM", {}), ("LSTM", {"num_layers": 2, "bidirectional": True}),
           ("LSTM", {"proj_size": 2}), ("GRU", {"bidirectional": True}),
           ("RNN", {"num_layers": 2}), ("RNN", {"nonlinearity": "relu", "bidirectional": True})]


def _packed_run(L: Any, kind: str, cfg: dict, dtype: str, with_h: bool) -> tuple:
    L.manual_seed(0)
    net = getattr(L.nn, kind)(4, 3, **cfg).to(getattr(L, dtype))
    rng = np.random.default_rng(1)
    x = L.tensor(rng.standard_normal((4, 5, 4)).astype(dtype), requires_grad=True)
    packed = _rnn(L).pack_padded_sequence(x, [3, 5, 1, 3], batch_first=True,
                                          enforce_sorted=False)
    layers = cfg.get("num_layers", 1) * (2 if cfg.get("bidirectional") else 1)
    hx = None
    if with_h:
        h = L.tensor(rng.standard_normal((layers, 4, cfg.get("proj_size") or 3)).astype(dtype))
        c = L.tensor(rng.standard_normal((layers, 4, 3)).astype(dtype))
        hx = (h, c) if kind == "LSTM" else h
    out, state = net(packed, hx)
    finals = state if kind == "LSTM" else (state,)
    padded, _ = _rnn(L).pad_packed_sequence(out, batch_first=True)
    (padded.pow(2).sum() + sum((f * f).sum() for f in finals)).backward()
    numbers = [out.data, padded, *finals, x.grad, *(p.grad for p in net.parameters())]
    names = [type(out).__name__, out.data.grad_fn.name(), out.batch_sizes.tolist(),
             out.unsorted_indices.tolist(), [f.grad_fn.name() for f in finals]]
    return [t.detach().numpy() for t in numbers], names


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("kind", "cfg"), CONFIGS)
def test_recurrent_layers_on_packed_batches_match_torch_bits(kind: str, cfg: dict,
                                                             dtype: str) -> None:
    for with_h in (False, True):
        got, got_names = _packed_run(mt, kind, cfg, dtype, with_h)
        want, want_names = _packed_run(torch, kind, cfg, dtype, with_h)
        assert got_names == want_names
        for g, w in zip(got, want):
            assert g.shape == w.shape
            np.testing.assert_array_equal(g, w)
