"""Modules and functions torch programs use that minitorch lacked (corpus20e, fuzz21d),
against torch: channel and alpha dropout, the padding modules, GLU, the deprecated upsample
functions and modules."""

from __future__ import annotations

import warnings
from collections import OrderedDict
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, assert_same_grads, raised_by

LIBS = (mt, torch)


def _run_graph(L: Any, data: np.ndarray, call: Any, dtype: str = "float64") -> tuple:
    """``call(L, x)`` on a leaf made of ``data``; the output, its node's name and x's grad
    for a weighted sum (so every output element's gradient is distinct)."""
    x = L.tensor(data, dtype=getattr(L, dtype), requires_grad=True)
    out = call(L, x)
    weights = L.arange(out.numel(), dtype=out.dtype).reshape(out.shape)
    (out * weights).sum().backward()
    return out, type(out.grad_fn).__name__ if out.grad_fn else None, x.grad


def _same_graph(data: np.ndarray, call: Any, seed: int = 0, dtype: str = "float64") -> None:
    mt.manual_seed(seed)
    got = _run_graph(mt, data, call, dtype)
    torch.manual_seed(seed)
    want = _run_graph(torch, data, call, dtype)
    assert_same(got[0], want[0])
    assert got[1] == want[1]
    assert_same_grads([got[2]], [want[2]], "x.grad")


# ---- channel and alpha dropout -------------------------------------------------------------
DROPOUTS = [("dropout1d", (2, 3, 4)), ("dropout1d", (3, 4)), ("dropout2d", (2, 3, 2, 2)),
            ("dropout3d", (2, 3, 1, 2, 2)), ("dropout3d", (3, 1, 2, 2)),
            ("alpha_dropout", (4, 5)), ("feature_alpha_dropout", (2, 5, 3)),
            ("dropout", (3, 4))]


@pytest.mark.parametrize("name, shape", DROPOUTS)
@pytest.mark.parametrize("p", [0.0, 0.2, 0.5, 1.0])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_dropout_draws_values_and_gradients_are_torchs(name: str, shape: tuple, p: float,
                                                       dtype: str) -> None:
    data = np.random.default_rng(len(shape)).normal(size=shape)
    for seed in range(3):
        _same_graph(data, lambda L, x: getattr(L.nn.functional, name)(x, p, training=True),
                    seed, dtype)


@pytest.mark.parametrize("name, shape", DROPOUTS)
def test_dropout_in_place_and_eval(name: str, shape: tuple) -> None:
    data = np.random.default_rng(1).normal(size=shape)

    def run(L: Any) -> tuple:
        L.manual_seed(5)
        fn = getattr(L.nn.functional, name)
        x = L.tensor(data)
        same = fn(x, 0.4, training=False) is x
        y = L.tensor(data)
        out = fn(y, 0.4, True, True)
        return same, out, y, out is y
    got, want = run(mt), run(torch)
    assert got[0] == want[0] and got[3] == want[3]
    assert_same(got[1], want[1])
    assert_same(got[2], want[2])


@pytest.mark.parametrize("cls, shape", [("Dropout1d", (2, 3, 4)), ("Dropout2d", (2, 3, 2, 2)),
                                        ("Dropout3d", (3, 1, 2, 2)), ("AlphaDropout", (4, 5)),
                                        ("FeatureAlphaDropout", (2, 5, 3))])
def test_dropout_modules(cls: str, shape: tuple) -> None:
    data = np.random.default_rng(2).normal(size=shape)

    def run(L: Any) -> tuple:
        module = getattr(L.nn, cls)(0.3)
        _ = [repr(module), repr(getattr(L.nn, cls)(0.7, True)), repr(getattr(L.nn, cls)())]
        L.manual_seed(9)
        train = module(L.tensor(data))
        return _, train, module.eval()(L.tensor(data))
    got, want = run(mt), run(torch)
    assert got[0] == want[0]
    assert_same(got[1], want[1])
    assert_same(got[2], want[2])


@pytest.mark.parametrize("call", [
    lambda L: L.nn.functional.dropout1d(L.ones(2, 2, 2, 2)),
    lambda L: L.nn.functional.dropout1d(L.ones(2)),
    lambda L: L.nn.functional.dropout2d(L.ones(2, 2), p=1.5),
    lambda L: L.nn.functional.feature_alpha_dropout(L.ones(3), 0.5, True),
    lambda L: L.nn.functional.alpha_dropout(L.ones(3), -0.1),
    lambda L: L.nn.functional.alpha_dropout([1.0], 0.5),
    lambda L: L.nn.functional.dropout3d(L.ones(2, 2, 2, 2), 0.5, "yes"),
    lambda L: L.nn.Dropout2d(2.0),
    lambda L: L.nn.AlphaDropout(-1),
])
def test_dropout_errors(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


@pytest.mark.parametrize("name, shape", [("dropout2d", (2, 3, 4)), ("dropout2d", (2, 3)),
                                         ("dropout2d", (1, 2, 2, 2, 2)), ("dropout3d", (2, 3)),
                                         ("dropout3d", (2, 2, 3))])
def test_channel_dropout_warnings_and_draws(name: str, shape: tuple) -> None:
    data = np.random.default_rng(3).normal(size=shape)

    def run(L: Any) -> tuple:
        L.manual_seed(4)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = getattr(L.nn.functional, name)(L.tensor(data), 0.5)
        return [(w.category, str(w.message), w.filename) for w in caught], out
    got, want = run(mt), run(torch)
    assert got[0] == want[0]  # the caller's file too: the warning names the user's line
    assert_same(got[1], want[1])


# ---- padding modules -----------------------------------------------------------------------
PADS = [(kind, n) for kind in ("Reflection", "Replication", "Circular", "Constant", "Zero")
        for n in (1, 2, 3)]


@pytest.mark.parametrize("kind, n", PADS)
@pytest.mark.parametrize("batched", [True, False])
def test_padding_modules(kind: str, n: int, batched: bool) -> None:
    shape = (2, 3, *(4,) * n)[0 if batched else 1:]
    data = np.random.default_rng(n).normal(size=shape)
    for padding in (1, tuple(i % 3 for i in range(2 * n))):
        args = (padding, 2.5) if kind == "Constant" else (padding,)

        def call(L: Any, x: Any, args: tuple = args) -> Any:
            return getattr(L.nn, f"{kind}Pad{n}d")(*args)(x)
        _same_graph(data, call)
        assert repr(getattr(mt.nn, f"{kind}Pad{n}d")(*args)) == \
            repr(getattr(torch.nn, f"{kind}Pad{n}d")(*args))


def test_padding_classes_are_torchs() -> None:
    for kind, n in PADS:
        name = f"{kind}Pad{n}d"
        assert [c.__name__ for c in getattr(mt.nn, name).__mro__ if c.__name__[0] != "_"] \
            == [c.__name__ for c in getattr(torch.nn, name).__mro__ if c.__name__[0] != "_"]


@pytest.mark.parametrize("call", [
    lambda L: L.nn.CircularPad2d(1)(L.ones(2, 2)),
    lambda L: L.nn.CircularPad1d(1)(L.ones(1, 1, 1, 2)),
    lambda L: L.nn.ReflectionPad1d(3)(L.ones(1, 2, 2)),
    lambda L: L.nn.ZeroPad2d((1, 2, 3))(L.ones(1, 2, 2)),
    lambda L: L.nn.ReplicationPad3d(1)(L.ones(2, 2)),
])
def test_padding_errors(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


# ---- GLU and the upsampling aliases --------------------------------------------------------
@pytest.mark.parametrize("dim", [-1, 0, 1])
def test_glu_module(dim: int) -> None:
    data = np.random.default_rng(0).normal(size=(4, 6))
    _same_graph(data, lambda L, x: L.nn.GLU(dim)(x))
    assert repr(mt.nn.GLU(dim)) == repr(torch.nn.GLU(dim))
    call = lambda L: L.nn.GLU(dim)(L.ones(3, 3))  # noqa: E731
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


UPSAMPLES = [("upsample", {"scale_factor": 2}), ("upsample", {"size": 5, "mode": "bilinear"}),
             ("upsample", {"scale_factor": 1.5, "mode": "bilinear", "align_corners": True}),
             ("upsample_nearest", {"size": (3, 5)}), ("upsample_nearest", {"scale_factor": 3}),
             ("upsample_bilinear", {"size": (4, 3)}), ("upsample_bilinear", {"scale_factor": 2})]


@pytest.mark.parametrize("name, kwargs", UPSAMPLES)
def test_upsample_functions_warn_and_interpolate(name: str, kwargs: dict) -> None:
    data = np.random.default_rng(1).normal(size=(1, 2, 3, 2))

    def call(L: Any, x: Any) -> Any:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = getattr(L.nn.functional, name)(x, **kwargs)
        messages[L.__name__] = [(w.category, str(w.message), w.filename) for w in caught]
        return out
    messages: dict = {}
    _same_graph(data, call)
    assert messages["minitorch"] == messages["torch"]


@pytest.mark.parametrize("cls, kwargs", [("UpsamplingNearest2d", {"scale_factor": 2}),
                                         ("UpsamplingNearest2d", {"size": (3, 4)}),
                                         ("UpsamplingBilinear2d", {"scale_factor": 2}),
                                         ("UpsamplingBilinear2d", {"size": 5})])
def test_upsampling_modules(cls: str, kwargs: dict) -> None:
    data = np.random.default_rng(2).normal(size=(2, 1, 2, 3))
    _same_graph(data, lambda L, x: getattr(L.nn, cls)(**kwargs)(x))
    assert repr(getattr(mt.nn, cls)(**kwargs)) == repr(getattr(torch.nn, cls)(**kwargs))


@pytest.mark.parametrize("args", [(), (0,), ((0, 2),), (1,), (-1,), ([2],)])
def test_squeeze_in_place(args: tuple) -> None:
    """``squeeze_`` (which unbatched ``dropout1d``/``dropout3d`` use in place)."""
    def run(L: Any) -> tuple:
        x = L.tensor(np.arange(2.0).reshape(1, 2, 1), requires_grad=True)
        y = x * 1
        z = y.squeeze_(*args)
        (z * L.arange(z.numel()).reshape(z.shape)).sum().backward()
        return z, type(z.grad_fn).__name__, z is y, y._version, x.grad
    got, want = run(mt), run(torch)
    assert_same(got[0], want[0])
    assert got[1:4] == want[1:4]
    assert_same(got[4], want[4])


@pytest.mark.parametrize("call", [lambda L: L.ones(1, 2).squeeze_(2),
                                  lambda L: L.ones(1, 2).squeeze_((0, -3))])
def test_squeeze_in_place_errors(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_dropout_of_a_transposed_input_draws_in_memory_order() -> None:
    data = np.random.default_rng(0).normal(size=(3, 4, 2))
    _same_graph(data, lambda L, x: L.nn.functional.dropout(x.permute(2, 0, 1), 0.5), seed=3)
    _same_graph(data, lambda L, x: L.nn.functional.alpha_dropout(x.transpose(0, 1), 0.3, True))


# ---- Transformer ---------------------------------------------------------------------------
def _transformer_run(L: Any, norm_first: bool, batch_first: bool, activation: Any) -> tuple:
    L.manual_seed(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = L.nn.Transformer(8, 2, 2, 2, 16, dropout=0.2, batch_first=batch_first,
                                 norm_first=norm_first, activation=activation).double()
    rng = np.random.default_rng(0)
    src, tgt = rng.normal(size=(3, 5, 8)), rng.normal(size=(3, 4, 8))
    src, tgt = (L.tensor(a if batch_first else a.transpose(1, 0, 2), requires_grad=True)
                for a in (src, tgt))
    padding = L.tensor([[False] * 4 + [True], [False] * 5, [False] * 3 + [True] * 2])
    L.manual_seed(1)
    out = model(src, tgt, tgt_mask=L.nn.Transformer.generate_square_subsequent_mask(4),
                src_key_padding_mask=padding, memory_key_padding_mask=padding)
    (out * L.arange(out.numel(), dtype=out.dtype).reshape(out.shape)).sum().backward()
    return (repr(model), [(w.category, str(w.message)) for w in caught], out,
            type(out.grad_fn).__name__, [src.grad, tgt.grad],
            [(n, p) for n, p in model.named_parameters()],
            [p.grad for _, p in model.named_parameters()])


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu", "callable"])
def test_transformer_seeded_weights_values_and_gradients(norm_first: bool, batch_first: bool,
                                                         activation: str) -> None:
    def act(L: Any) -> Any:
        return L.nn.functional.silu if activation == "callable" else activation
    got = _transformer_run(mt, norm_first, batch_first, act(mt))
    want = _transformer_run(torch, norm_first, batch_first, act(torch))
    assert got[0] == want[0] and got[1] == want[1] and got[3] == want[3]
    assert_same(got[2], want[2])
    assert_same_grads(got[4], want[4], "input grads")
    assert [n for n, _ in got[5]] == [n for n, _ in want[5]]
    for (name, g), (_, w) in zip(got[5], want[5]):
        assert_same(g, w, name)
    assert_same_grads(got[6], want[6], "parameter grads")


@pytest.mark.parametrize("kwargs", [{}, {"batch_first": True}, {"batch_first": True,
                                                                 "norm_first": True},
                                    {"batch_first": True, "bias": False},
                                    {"batch_first": True, "activation": torch.tanh},
                                    {"batch_first": True, "nhead": 1},
                                    {"batch_first": True, "activation": "gelu"}])
@pytest.mark.parametrize("enable_nested_tensor", [True, False])
def test_encoder_nested_tensor_warning_and_forward(kwargs: dict,
                                                   enable_nested_tensor: bool) -> None:
    def run(L: Any) -> tuple:
        options = {k: (L.tanh if v is torch.tanh else v) for k, v in kwargs.items()}
        L.manual_seed(2)
        nhead = options.pop("nhead", 2)
        layer = L.nn.TransformerEncoderLayer(4, nhead, 6, dropout=0.0, **options).double()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            encoder = L.nn.TransformerEncoder(layer, 2, L.nn.LayerNorm(4).double(),
                                              enable_nested_tensor=enable_nested_tensor)
        data = np.random.default_rng(1).normal(size=(2, 3, 4))  # batch 2, sequence 3
        first = options.get("batch_first", False)
        src = L.tensor(data if first else data.transpose(1, 0, 2))
        mask = L.nn.Transformer.generate_square_subsequent_mask(3, dtype=L.float64)
        causal = encoder(src, mask=mask)
        bool_mask = encoder(src, mask=mask.isinf(), is_causal=False)
        unbatched = encoder.eval()(src[0] if first else src[:, 0])
        return ([(w.category, str(w.message), w.filename) for w in caught],
                encoder.use_nested_tensor, repr(encoder), causal, bool_mask, unbatched)
    got, want = run(mt), run(torch)
    assert got[:3] == want[:3]
    for g, w in zip(got[3:], want[3:]):
        assert_same(g, w)


@pytest.mark.parametrize("call", [
    lambda L: L.nn.TransformerEncoderLayer(4, 2, activation="tanh"),
    lambda L: L.nn.TransformerDecoderLayer(4, 2, activation="swish"),
    lambda L: L.nn.Transformer(4, 2, 1, 1, 8)(L.ones(3, 2, 4), L.ones(3, 1, 4)),
    lambda L: L.nn.Transformer(4, 2, 1, 1, 8, batch_first=True)(L.ones(2, 3, 4),
                                                               L.ones(1, 3, 4)),
    lambda L: L.nn.Transformer(4, 2, 1, 1, 8)(L.ones(3, 2, 4), L.ones(3, 2, 5)),
    lambda L: L.nn.TransformerEncoderLayer(4, 2, 8)(L.ones(3, 2, 4),
                                                    src_key_padding_mask=L.ones(2, 3)
                                                    .long()),
    lambda L: L.nn.TransformerEncoderLayer(4, 3),
])
def test_transformer_errors(call: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got, want = raised_by(call, mt), raised_by(call, torch)
    assert_same_error(got, want)


@pytest.mark.parametrize("kwargs", [{}, {"dtype": "float64"}])
def test_generate_square_subsequent_mask(kwargs: dict) -> None:
    def run(L: Any) -> Any:
        options = {k: getattr(L, v) for k, v in kwargs.items()}
        return L.nn.Transformer.generate_square_subsequent_mask(4, **options)
    assert_same(run(mt), run(torch))


def test_decoder_stack_with_bool_masks() -> None:
    def run(L: Any) -> tuple:
        L.manual_seed(4)
        layer = L.nn.TransformerDecoderLayer(4, 2, 6, dropout=0.1, batch_first=True).double()
        decoder = L.nn.TransformerDecoder(layer, 2)
        rng = np.random.default_rng(5)
        tgt = L.tensor(rng.normal(size=(2, 3, 4)), requires_grad=True)
        memory = L.tensor(rng.normal(size=(2, 5, 4)), requires_grad=True)
        causal = L.nn.Transformer.generate_square_subsequent_mask(3).isinf()
        padding = L.tensor([[False] * 5, [False, False, True, True, True]])
        L.manual_seed(6)
        out = decoder(tgt, memory, tgt_mask=causal, memory_key_padding_mask=padding)
        out.pow(2).sum().backward()
        return repr(decoder), out, tgt.grad, memory.grad
    got, want = run(mt), run(torch)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:]):
        assert_same(g, w)


# ---- Module.type, share_memory; Tensor.new; accelerator, DataParallel, onnx -----------------
@pytest.mark.parametrize("dst", ["float64", "DoubleTensor", "torch.FloatTensor"])
def test_module_type_converts_every_parameter_and_buffer(dst: str) -> None:
    def run(L: Any) -> tuple:
        L.manual_seed(0)
        model = L.nn.Sequential(L.nn.Linear(2, 3), L.nn.BatchNorm1d(3))
        model(L.ones(4, 2)).sum().backward()
        target = getattr(L, dst) if hasattr(L, dst) else dst
        weight = model[0].weight
        same = model.type(target) is model
        return same, weight is model[0].weight, weight.grad, dict(model.state_dict())
    got, want = run(mt), run(torch)
    assert got[:2] == want[:2]
    assert_same(got[2], want[2])
    assert list(got[3]) == list(want[3])
    for key in want[3]:
        assert_same(got[3][key], want[3][key], key)


def test_module_type_to_integers_refuses_parameters_as_torch() -> None:
    call = lambda L: L.nn.Linear(2, 3).type(L.int64)  # noqa: E731
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_module_share_memory_keeps_the_module() -> None:
    def run(L: Any) -> tuple:
        L.manual_seed(0)
        model = L.nn.Linear(2, 2)
        weight = model.weight
        return model.share_memory() is model, model.weight is weight, model(L.ones(1, 2))
    got, want = run(mt), run(torch)
    assert got[:2] == want[:2]
    assert_same(got[2], want[2])


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("call", [lambda L, x: x.new(), lambda L, x: x.new(2, 3).shape,
                                  lambda L, x: x.new(L.Size([2, 1])).shape,
                                  lambda L, x: x.new((2, 3)), lambda L, x: x.new([[1, 2]]),
                                  lambda L, x: x.new(np.arange(3)),
                                  lambda L, x: x.new(0).zero_(),
                                  lambda L, x: x.new(2, device="cpu").zero_(),
                                  lambda L, x: x.new(2, 2).zero_().dtype])
def test_tensor_new_forms(dtype: str, call: Any) -> None:
    def run(L: Any) -> Any:
        return call(L, L.ones(2, dtype=getattr(L, dtype), requires_grad=dtype != "int64"))
    got, want = run(mt), run(torch)
    if isinstance(want, torch.Tensor):
        assert_same(got, want)
    else:
        assert str(got) == str(want)


def test_tensor_new_of_a_tensor_shares_its_memory() -> None:
    def run(L: Any) -> tuple:
        x = L.ones(3, requires_grad=True)
        y = x.new(x.detach())
        y[0] = 5.0
        return y.requires_grad, x.detach().clone()
    got, want = run(mt), run(torch)
    assert got[0] == want[0]
    assert_same(got[1], want[1])


@pytest.mark.parametrize("call", [
    lambda L: L.ones(2).new(2, dtype=L.int64),
    lambda L: L.ones(2).new(2, requires_grad=True),
    lambda L: L.ones(2).new(2.5),
    lambda L: L.ones(2).new("a"),
    lambda L: L.ones(2).new([1, 2], [3]),
    lambda L: L.ones(2).new(-1),
    lambda L: L.ones(2, dtype=L.float64).new(L.ones(2, dtype=L.int64)),
])
def test_tensor_new_errors(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_accelerator_without_one() -> None:
    if torch.accelerator.is_available() or mt.accelerator.is_available():
        pytest.skip("this machine has an accelerator")

    def run(L: Any) -> tuple:
        acc = L.accelerator
        return acc.is_available(), acc.current_accelerator(), \
            acc.current_accelerator(check_available=True), acc.device_count()
    assert run(mt) == run(torch)
    for fn in ("current_device_index", "synchronize"):
        assert_same_error(raised_by(lambda L, fn=fn: getattr(L.accelerator, fn)(), mt),
                          raised_by(lambda L, fn=fn: getattr(L.accelerator, fn)(), torch))


@pytest.mark.parametrize("device_ids", [[0, 1], ["cpu"], None])
def test_data_parallel_ignores_device_ids_without_cuda(device_ids: Any) -> None:
    if torch.cuda.is_available():
        pytest.skip("torch splits over GPUs here")

    def run(L: Any) -> tuple:
        L.manual_seed(0)
        ids = [L.device(d) if isinstance(d, str) else d for d in device_ids or []] or None
        net = L.nn.DataParallel(L.nn.Linear(2, 1), device_ids=ids, output_device=0)
        return repr(net), net.device_ids, net(L.ones(3, 2))
    got, want = run(mt), run(torch)
    assert got[:2] == want[:2]
    assert_same(got[2], want[2])


def test_onnx_imports_and_export_refuses() -> None:
    import minitorch.onnx

    with pytest.raises(NotImplementedError, match="minitorch cannot export ONNX"):
        minitorch.onnx.export(mt.nn.Linear(2, 1), (mt.ones(1, 2),), "model.onnx")


# ---- optimizer hooks -----------------------------------------------------------------------
def _optimizer_hooks_run(L: Any) -> tuple:
    import importlib

    module = importlib.import_module(f"{L.__name__}.optim.optimizer")
    log: list = []
    L.manual_seed(0)
    model = L.nn.Linear(3, 2)
    opt = L.optim.Adam(model.parameters(), lr=0.1)
    handles = [
        module.register_optimizer_step_pre_hook(
            lambda o, a, k: log.append(("global pre", len(a), a[0] is o, dict(k)))),
        module.register_optimizer_step_post_hook(
            lambda o, a, k: log.append(("global post", len(a), dict(k)))),
    ]
    opt.register_step_pre_hook(lambda o, a, k: log.append(("pre", len(a), dict(k))))
    post = opt.register_step_post_hook(lambda o, a, k: log.append(("post", dict(k))))
    closure = None

    def swap(o: Any, a: tuple, k: dict) -> tuple:
        return a, {"closure": closure}
    opt.register_step_pre_hook(swap)
    for step in range(3):
        model(L.ones(4, 3)).pow(2).sum().backward()
        opt.step() if step != 1 else opt.step(closure=None)
        opt.zero_grad()
        if step == 1:
            post.remove()
    for handle in handles:
        handle.remove()
    opt.register_state_dict_pre_hook(lambda o: log.append("sd pre"))
    opt.register_state_dict_pre_hook(lambda o: log.append("sd pre first"), prepend=True)
    opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": len(sd)})
    opt.register_load_state_dict_pre_hook(
        lambda o, sd: log.append(("load pre", sorted(sd))) or
        {k: v for k, v in sd.items() if k != "extra"})
    opt.register_load_state_dict_post_hook(lambda o: log.append("load post"))
    saved = opt.state_dict()
    log.append(sorted(saved))
    opt.load_state_dict(saved)
    opt.step()  # the global hooks are gone
    return log, model.weight


def test_optimizer_step_and_state_dict_hooks() -> None:
    got, want = _optimizer_hooks_run(mt), _optimizer_hooks_run(torch)
    assert got[0] == want[0]
    assert_same(got[1], want[1])


def test_optimizer_step_in_backward_with_post_accumulate_grad_hooks() -> None:
    """The tutorial's fused step: one optimizer per parameter, stepped from its hook."""
    def run(L: Any) -> list:
        L.manual_seed(0)
        model = L.nn.Sequential(L.nn.Linear(4, 3), L.nn.ReLU(), L.nn.Linear(3, 1))
        optimizers = {p: L.optim.Adam([p], foreach=False) for p in model.parameters()}

        def hook(p: Any) -> None:
            optimizers[p].step()
            optimizers[p].zero_grad()
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(hook)
        for _ in range(3):
            model(L.ones(2, 4)).sum().backward()
        return [*model.parameters(), *(p.grad is None for p in model.parameters())]
    got, want = run(mt), run(torch)
    for g, w in zip(got, want):
        if isinstance(w, bool):
            assert g == w
        else:
            assert_same(g.detach(), w.detach())


# ---- Module hooks: forward hooks' options, state-dict hooks, _metadata ---------------------
def _forward_hooks_run(L: Any) -> tuple:
    log: list = []
    L.manual_seed(0)
    lin = L.nn.Linear(2, 2)

    class Scaled(L.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lin = lin

        def forward(self, x: Any, scale: float = 1.0) -> Any:
            return self.lin(x) * scale
    model = Scaled()
    model.register_forward_pre_hook(lambda m, a: log.append(("pre", len(a))))
    model.register_forward_pre_hook(lambda m, a, k: log.append(("pre kw", dict(k))) or
                                    (a, {**k, "scale": 2.0}), with_kwargs=True)
    model.register_forward_pre_hook(lambda m, a: log.append("pre first"), prepend=True)
    model.register_forward_hook(lambda m, a, out: log.append(("post", out.shape[0])))
    handle = model.register_forward_hook(lambda m, a, k, out: log.append(("post kw", k))
                                         or out + 1, with_kwargs=True, prepend=True)
    model.register_forward_hook(lambda m, a, out: log.append("always"), always_call=True)
    x = L.ones(3, 2, requires_grad=True)
    out = model(x, scale=3.0)
    out.sum().backward()
    handle.remove()
    out2 = model(x)
    return log, out, out2, x.grad


def test_forward_hooks_with_kwargs_prepend_and_order() -> None:
    got, want = _forward_hooks_run(mt), _forward_hooks_run(torch)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:]):
        assert_same(g, w)


def _always_call_run(L: Any) -> tuple:
    log: list = []

    class Failing(L.nn.Module):
        def forward(self, x: Any) -> Any:
            raise ValueError("forward failed")
    model = Failing()
    model.register_forward_hook(lambda m, a, out: log.append(("plain", out)))
    model.register_forward_hook(lambda m, a, out: log.append(("always", out)), always_call=True)

    def broken(m: Any, a: tuple, k: dict, out: Any) -> None:
        raise KeyError("hook failed")
    model.register_forward_hook(broken, with_kwargs=True, always_call=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        error = raised_by(lambda L: model(L.ones(1)), L)
    bad_pre = L.nn.Linear(1, 1)
    bad_pre.register_forward_pre_hook(lambda m, a, k: 3, with_kwargs=True)
    return log, (type(error), str(error)), [(w.category, str(w.message)) for w in caught], \
        raised_by(lambda L: bad_pre(L.ones(1)), L)


def test_forward_hooks_always_call_when_forward_raises() -> None:
    got, want = _always_call_run(mt), _always_call_run(torch)
    assert got[:3] == want[:3]
    assert_same_error(got[3], want[3])


def _state_dict_run(L: Any) -> tuple:
    log: list = []
    L.manual_seed(0)
    model = L.nn.Sequential(L.nn.Linear(2, 3), L.nn.BatchNorm1d(3),
                            L.nn.Sequential(L.nn.ReLU(), L.nn.Linear(3, 1)))
    model.register_state_dict_pre_hook(lambda m, p, k: log.append(("pre", p, k)))
    model[2].register_state_dict_pre_hook(lambda m, p, k: log.append(("inner pre", p, k)))
    model[0].register_state_dict_post_hook(
        lambda m, sd, p, meta: log.append(("post", p, dict(meta), sorted(sd))))
    plain = model.state_dict()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        positional = model.state_dict(None, "net.", True)
        into = OrderedDict()
        same = model.state_dict(into) is into
    bad = L.nn.Linear(1, 1)
    bad.register_state_dict_post_hook(lambda m, sd, p, meta: sd)
    return (log, dict(plain._metadata), list(plain), list(positional),
            dict(positional._metadata), positional["net.0.weight"].requires_grad,
            same, hasattr(into, "_metadata"),
            [(w.category, str(w.message)) for w in caught],
            raised_by(lambda L: bad.state_dict(), L))


def test_state_dict_metadata_positional_form_and_hooks() -> None:
    got, want = _state_dict_run(mt), _state_dict_run(torch)
    assert got[:-1] == want[:-1]
    assert_same_error(got[-1], want[-1])


def _old_backward_hook_run(L: Any, make: Any, requires_grad: bool) -> tuple:
    log: list = []
    L.manual_seed(0)
    module = make(L)

    def hook(m: Any, grad_input: tuple, grad_output: tuple) -> Any:
        log.append(([None if g is None else tuple(g.shape) for g in grad_input],
                    [tuple(g.shape) for g in grad_output]))
        return tuple(None if g is None else g * 2 for g in grad_input)
    module.register_backward_hook(hook)
    x = L.tensor(np.random.default_rng(0).normal(size=(3, 4)), dtype=L.float32,
                 requires_grad=requires_grad)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = module(x)
    out.pow(2).sum().backward()
    grads = [p.grad for p in module.parameters()] + ([x.grad] if requires_grad else [])
    return log, [(w.category, str(w.message)) for w in caught], grads, \
        raised_by(lambda L: module.register_full_backward_hook(hook), L)


@pytest.mark.parametrize("make", [lambda L: L.nn.Linear(4, 2), lambda L: L.nn.LayerNorm(4),
                                  lambda L: L.nn.Sequential(L.nn.Linear(4, 2), L.nn.ReLU())])
@pytest.mark.parametrize("requires_grad", [True, False])
def test_old_backward_hook_runs_on_the_output_node(make: Any, requires_grad: bool) -> None:
    got = _old_backward_hook_run(mt, make, requires_grad)
    want = _old_backward_hook_run(torch, make, requires_grad)
    assert got[:2] == want[:2]
    assert_same_grads(got[2], want[2], "grads")
    assert_same_error(got[3], want[3])


def test_full_then_old_backward_hook_refused() -> None:
    def call(L: Any) -> Any:
        lin = L.nn.Linear(1, 1)
        lin.register_full_backward_hook(lambda m, gi, go: None).remove()
        return lin.register_backward_hook(lambda m, gi, go: None)
    assert_same_error(raised_by(call, mt), raised_by(call, torch))
