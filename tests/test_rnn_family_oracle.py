"""``nn.RNN``, ``nn.LSTM``, ``nn.GRU`` and the cells (``RNNCell``, ``LSTMCell``,
``GRUCell``) against torch: the seeded init stream, outputs, states and every gradient bit for
bit in float32, printed forms, node names and torch's errors for bad arguments.

float32 ``nn.LSTM`` (without ``proj_size``) is the one exception: torch runs oneDNN's fused
LSTM kernel there (``MkldnnRnnLayerBackward0``), whose gemm order, bias sum and polynomial
sigmoid/tanh minitorch does not emulate; it matches that to float32 rounding and torch's own
composition (oneDNN off) to the bit, with any number of layers, directions and dropout."""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, raised_by


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(np.int32 if a.dtype == np.float32 else np.int64)


def _data(L: Any, shape: tuple, seed: int, dtype: str) -> Any:
    values = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return L.tensor(values, requires_grad=True)


def _states(L: Any, kind: str, cfg: dict, batched: bool, dtype: str) -> Any:
    directions = 2 if cfg.get("bidirectional") else 1
    layers = cfg.get("num_layers", 1) * directions
    h = _data(L, (layers, *((2,) if batched else ()), cfg.get("proj_size") or 3), 2, dtype)
    if kind != "LSTM":
        return h
    return (h, _data(L, (layers, *((2,) if batched else ()), 3), 3, dtype))


def _layer_run(L: Any, kind: str, cfg: dict, batched: bool, with_h: bool, dtype: str) -> tuple:
    """Build after seed 0, run on fixed data, backpropagate: every number and name."""
    L.manual_seed(0)
    net = getattr(L.nn, kind)(4, 3, **cfg)
    if dtype == "float64":
        net = net.double()
    shape = ((2, 5, 4) if cfg.get("batch_first") else (5, 2, 4)) if batched else (7, 4)
    x = _data(L, shape, 1, dtype)
    args = [x, _states(L, kind, cfg, batched, dtype)] if with_h else [x]
    output, state = net(*args)
    finals = state if kind == "LSTM" else (state,)
    (output.pow(2).sum() + sum(f.sum() for f in finals)).backward()
    leaves = [x]
    if with_h:
        leaves += list(args[1]) if kind == "LSTM" else [args[1]]
    numbers = [output, *finals, *(p.grad for p in net.parameters()), *(a.grad for a in leaves)]
    names = (repr(net), [n for n, _ in net.named_parameters()], output.grad_fn.name(),
             [f.grad_fn.name() for f in finals])
    return [t.detach().numpy() for t in numbers], names


CONFIGS = [{}, {"num_layers": 2}, {"batch_first": True}, {"bias": False},
           {"bidirectional": True},
           {"num_layers": 3, "bidirectional": True, "batch_first": True}]


def assert_same_numbers(got: list, want: list, dtype: str) -> None:
    """float32 arrays equal to the bit; float64 ones to their last bits (minitorch's tanh
    is numpy's, not torch's vectorised one)."""
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape and g.dtype == w.dtype
        if dtype == "float32":
            np.testing.assert_array_equal(_bits(g), _bits(w))
        else:
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
@pytest.mark.parametrize("cfg", CONFIGS)
@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("with_h", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_layers_bit_for_bit(kind: str, cfg: dict, batched: bool, with_h: bool,
                            dtype: str) -> None:
    """float32 LSTM: torch runs oneDNN's fused kernel, whose node names minitorch gives and
    whose values it matches to float32 rounding; to the bit it matches torch's own
    composition, which torch runs with oneDNN off."""
    got, got_names = _layer_run(mt, kind, cfg, batched, with_h, dtype)
    want, want_names = _layer_run(torch, kind, cfg, batched, with_h, dtype)
    assert got_names == want_names
    if kind == "LSTM" and dtype == "float32":
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=2e-6)
        with torch.backends.mkldnn.flags(enabled=False):
            want, _ = _layer_run(torch, kind, cfg, batched, with_h, dtype)
    assert_same_numbers(got, want, dtype)


@pytest.mark.parametrize("cfg", [{"proj_size": 2}, {"proj_size": 2, "num_layers": 2,
                                                     "bidirectional": True}])
@pytest.mark.parametrize("with_h", [False, True])
def test_lstm_projection(cfg: dict, with_h: bool) -> None:
    got, got_names = _layer_run(mt, "LSTM", cfg, True, with_h, "float32")
    want, want_names = _layer_run(torch, "LSTM", cfg, True, with_h, "float32")
    assert got_names == want_names
    assert_same_numbers(got, want, "float32")


@pytest.mark.parametrize(("kind", "extra"), [("LSTM", {}), ("GRU", {}), ("RNN", {}),
                                             ("RNN", {"nonlinearity": "relu"})])
@pytest.mark.parametrize("num_layers", [2, 3])
@pytest.mark.parametrize("bidirectional", [False, True])
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("steps", [1, 4])
def test_dropout_between_layers_draws_torchs_masks(kind: str, extra: dict, num_layers: int,
                                                  bidirectional: bool, batch_first: bool,
                                                  steps: int) -> None:
    """Dropout between layers in training (torch's masks, drawn in its order), then the same
    net in eval, batched and unbatched: outputs, states and every gradient bit for bit
    against torch's composition (float32 LSTM: oneDNN's kernel to its rounding, as in
    ``test_layers_bit_for_bit``)."""
    def run(L: Any) -> list:
        L.manual_seed(0)
        net = getattr(L.nn, kind)(4, 3, num_layers=num_layers, dropout=0.4,
                                  bidirectional=bidirectional, batch_first=batch_first, **extra)
        data = np.random.default_rng(1).standard_normal((steps, 2, 4)).astype("float32")
        flat = []
        for train, x in itertools.product((True, False), (data.swapaxes(0, 1) if batch_first
                                                          else data, data[:, 0])):
            net.train(train)
            x = L.tensor(x, requires_grad=True)
            L.manual_seed(1)
            out, state = net(x)
            states = state if kind == "LSTM" else (state,)
            (out.pow(2).sum() + sum(s.sum() for s in states)).backward()
            flat += [out, *states, x.grad, *(p.grad for p in net.parameters())]
            net.zero_grad()
        return [t.detach().numpy() for t in flat]

    if kind == "LSTM":
        for got, expected in zip(run(mt), run(torch), strict=True):
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=2e-6)
    with torch.backends.mkldnn.flags(enabled=kind != "LSTM"):  # torch's own composition
        want = run(torch)
    for got, expected in zip(run(mt), want, strict=True):
        np.testing.assert_array_equal(_bits(got), _bits(expected))


def _cell_run(L: Any, kind: str, cfg: dict, batched: bool, with_h: bool) -> tuple:
    L.manual_seed(0)
    cell = getattr(L.nn, kind)(4, 3, **cfg)
    x = _data(L, (2, 4) if batched else (4,), 1, "float32")
    hshape = (2, 3) if batched else (3,)
    states = None
    if with_h:
        h = _data(L, hshape, 2, "float32")
        states = (h, _data(L, hshape, 3, "float32")) if kind == "LSTMCell" else h
    outs = []
    state = states
    for _ in range(3):  # a hand-written loop over time, as d2l writes it
        state = cell(x, state) if state is not None else cell(x)
        outs.append(state)
    finals = state if kind == "LSTMCell" else (state,)
    sum(f.pow(2).sum() for f in finals).backward()
    leaves = [x] + ([] if states is None else list(states) if kind == "LSTMCell" else [states])
    numbers = [*finals, *(p.grad for p in cell.parameters()), *(a.grad for a in leaves)]
    names = (repr(cell), [n for n, _ in cell.named_parameters()],
             [f.grad_fn.name() for f in finals])
    return [t.detach().numpy() for t in numbers], names


@pytest.mark.parametrize("kind,cfg", [("RNNCell", {}), ("RNNCell", {"nonlinearity": "relu"}),
                                      ("RNNCell", {"bias": False}), ("LSTMCell", {}),
                                      ("LSTMCell", {"bias": False}), ("GRUCell", {}),
                                      ("GRUCell", {"bias": False})])
@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("with_h", [False, True])
def test_cells_bit_for_bit(kind: str, cfg: dict, batched: bool, with_h: bool) -> None:
    got, got_names = _cell_run(mt, kind, cfg, batched, with_h)
    want, want_names = _cell_run(torch, kind, cfg, batched, with_h)
    assert got_names == want_names
    assert_same_numbers(got, want, "float32")


@pytest.fixture
def one_thread() -> Any:
    """torch and minitorch on one thread: on two, a GRU's products differ from torch's in
    the last bit (not yet repeated), which three SGD steps carry into a printed digit."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    mt.set_num_threads(1)
    yield
    torch.set_num_threads(before)
    mt.set_num_threads(before)


@pytest.mark.usefixtures("one_thread")
@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
def test_d2l_training_step_prints_the_same(kind: str) -> None:
    """d2l's RNN, GRU and LSTM chapters: the layer on one-hot steps, a Linear head, SGD,
    the state carried (detached) from step to step, and what they print."""
    def run(L: Any) -> str:
        L.manual_seed(0)
        net, head = getattr(L.nn, kind)(28, 16), L.nn.Linear(16, 28)
        opt = L.optim.SGD([*net.parameters(), *head.parameters()], lr=1.0)
        tokens = L.tensor([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3]])
        x = L.nn.functional.one_hot(tokens.T, 28).float()
        state = L.zeros((1, 2, 16))
        state = (state, state) if kind == "LSTM" else state
        losses = []
        for _ in range(3):
            carried = tuple(s.detach() for s in state) if kind == "LSTM" else state.detach()
            y, state = net(x, carried)
            loss = L.nn.functional.cross_entropy(head(y.reshape(-1, 16)), tokens.T.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(f"{loss.item():.6f}")
        return f"{net} {losses} {y.shape} {state} {net.weight_hh_l0[0]}"

    assert run(mt) == run(torch)


BAD_CALLS = [
    lambda L: L.nn.LSTM(4, 0), lambda L: L.nn.GRU(0, 3), lambda L: L.nn.LSTM(4, 3, num_layers=0),
    lambda L: L.nn.LSTM(4.0, 3), lambda L: L.nn.GRU(4, "3"), lambda L: L.nn.LSTM(4, 3, bias=1),
    lambda L: L.nn.GRU(4, 3, batch_first=None), lambda L: L.nn.LSTM(4, 3, dropout=1.5),
    lambda L: L.nn.LSTM(4, 3, proj_size=3), lambda L: L.nn.LSTM(4, 3, proj_size=-1),
    lambda L: L.nn.GRU(4, 3, proj_size=1), lambda L: L.nn.RNN(4, 3, proj_size=1),
    lambda L: L.nn.RNN(4, -1), lambda L: L.nn.RNN(4, 3, nonlinearity="gelu"),
    lambda L: L.nn.LSTM(4, 3)(L.ones(1, 2, 3, 4)), lambda L: L.nn.GRU(4, 3)(L.ones(5, 2, 5)),
    lambda L: L.nn.LSTM(4, 3)(L.ones(5, 2, 4), (L.zeros(1, 2, 3), L.zeros(2, 3))),
    lambda L: L.nn.LSTM(4, 3)(L.ones(5, 4), (L.zeros(1, 1, 3), L.zeros(1, 3))),
    lambda L: L.nn.LSTM(4, 3)(L.ones(5, 2, 4), (L.zeros(1, 3, 3), L.zeros(1, 2, 3))),
    lambda L: L.nn.LSTM(4, 3)(L.ones(5, 2, 4), (L.zeros(1, 2, 3), L.zeros(2, 2, 3))),
    lambda L: L.nn.GRU(4, 3)(L.ones(5, 2, 4), L.zeros(2, 3)),
    lambda L: L.nn.GRU(4, 3)(L.ones(5, 2, 4), L.zeros(1, 4, 3)),
    lambda L: L.nn.GRU(4, 3)(L.ones(5, 2, 4, dtype=L.float64)),
    lambda L: L.nn.LSTM(4, 3)(L.ones(0, 2, 4)),
    lambda L: L.nn.LSTMCell(4, 3)(L.ones(2, 2, 4)),
    lambda L: L.nn.LSTMCell(4, 3)(L.ones(2, 4), (L.ones(2, 3), L.ones(1, 2, 3))),
    lambda L: L.nn.GRUCell(4, 3)(L.ones(2, 4), L.ones(1, 2, 3)),
    lambda L: L.nn.RNNCell(4, 3)(L.ones(1, 2, 4)),
    lambda L: L.nn.RNNCell(4, 3, nonlinearity="gelu")(L.ones(2, 4)),
]


@pytest.mark.parametrize("call", BAD_CALLS)
def test_bad_arguments_raise_torchs_errors(call: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = raised_by(call, torch)
        assert want is not None
        assert_same_error(raised_by(call, mt), want)


def test_dropout_on_one_layer_warns_as_torch() -> None:
    for L in (torch, mt):
        with pytest.warns(UserWarning, match="dropout option adds dropout"):
            L.nn.LSTM(4, 3, dropout=0.5)


def test_cell_reprs_and_all_weights() -> None:
    for make in (lambda L: L.nn.RNNCell(4, 3, bias=False, nonlinearity="relu"),
                 lambda L: L.nn.GRUCell(4, 3), lambda L: L.nn.LSTMCell(4, 3, bias=False),
                 lambda L: L.nn.LSTM(4, 3, proj_size=2, num_layers=2, dropout=0.5)):
        assert repr(make(mt)) == repr(make(torch))
    got = [[tuple(p.shape) for p in w] for w in mt.nn.LSTM(4, 3, 2, bidirectional=True,
                                                             proj_size=1).all_weights]
    want = [[tuple(p.shape) for p in w] for w in torch.nn.LSTM(4, 3, 2, bidirectional=True,
                                                                proj_size=1).all_weights]
    assert got == want


def test_flat_weights_names_as_torchs() -> None:
    """d2l's seq2seq initialises a GRU by walking ``_flat_weights_names``."""
    def run(L: Any) -> str:
        L.manual_seed(0)
        out = []
        for m in (L.nn.GRU(3, 4, num_layers=2, bidirectional=True),
                  L.nn.LSTM(2, 4, proj_size=2), L.nn.RNN(2, 3, bias=False)):
            out.append(f"{m._flat_weights_names} {m._all_weights} "
                       f"{[tuple(w.shape) for w in m._flat_weights]}")
            for name in m._flat_weights_names:
                if "weight" in name:
                    L.nn.init.xavier_uniform_(m._parameters[name])
            out.append(str(m.weight_hh_l0[0]))
        return "\n".join(out)
    assert run(mt) == run(torch)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", ["LSTMCell", "GRUCell"])
def test_wide_cells_take_torchs_sigmoid_along_each_gate_row(kind: str, dtype: str) -> None:
    """torch's cells take sigmoid of gate chunks in place: its vector loop runs along each
    row of a chunk (here 51 values: vectors, then a tail through the C library's exp), so
    the gates are torch's only if minitorch's sigmoid follows that layout; five steps and
    the gradients, bit for bit."""
    def run(L: Any) -> list:
        L.manual_seed(0)
        cell = getattr(L.nn, kind)(7, 51).to(getattr(L, dtype))
        x, state, outs = L.randn(20, 7, dtype=getattr(L, dtype)), None, []
        for _ in range(5):
            state = cell(x, state)
            outs.append(state[0] if isinstance(state, tuple) else state)
        sum(o.sum() for o in outs).backward()
        return [t.detach().numpy() for t in (*outs, *(p.grad for p in cell.parameters()))]
    for got, want in zip(run(mt), run(torch)):
        assert got.tobytes() == want.tobytes()
