"""Fuzz D's DIFFERENT and REFUSED causes against torch: calls torch accepts or refuses that
minitorch answered otherwise (another value or dtype, another exception type, or a refusal)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, raised_by


def _ab(L: Any) -> tuple:
    a = L.tensor(np.arange(6.0).reshape(2, 3) - 2.5, requires_grad=True)
    return a, L.tensor(np.arange(12.0).reshape(3, 4) / 7)


SUBLIST_CALLS = {
    "matmul": lambda L, a, b: L.einsum(a, [0, 1], b, [1, 2], [0, 2]),
    "implicit output": lambda L, a, b: L.einsum(a, [0, 1], b, [1, 2]),
    "lowercase labels": lambda L, a, b: L.einsum(a, [30, 40], b, [40, 51]),
    "one operand": lambda L, a, b: L.einsum(a, [0, 1]),
    "transpose": lambda L, a, b: L.einsum(a, (0, 1), [1, 0]),
    "ellipsis": lambda L, a, b: L.einsum(a, [..., 1], [1]),
    "ellipsis in both": lambda L, a, b: L.einsum(a, [0, ...], b, [..., 2], [0, ..., 2]),
    "summed out": lambda L, a, b: L.einsum(a, [0, 1], [0]),
    "bool and tensor labels": lambda L, a, b: L.einsum(a, [0, True], b, [L.tensor(1), 2]),
}
SUBLIST_ERRORS = {
    "label 60": lambda L, a, b: L.einsum(a, [0, 1], b, [1, 60], [0]),
    "negative label": lambda L, a, b: L.einsum(a, [0, -1]),
    "label out of range in output": lambda L, a, b: L.einsum(a, [0, 1], [52]),
    "string label": lambda L, a, b: L.einsum(a, [0, "a"]),
    "float label": lambda L, a, b: L.einsum(a, [0, 1.5]),
    "string sublist": lambda L, a, b: L.einsum(a, "ab"),
    "int sublist": lambda L, a, b: L.einsum(a, 5),
    "operand alone": lambda L, a, b: L.einsum(a),
    "equation alone": lambda L, a, b: L.einsum("ij"),
    "nothing": lambda L, a, b: L.einsum(),
    "output label not in inputs": lambda L, a, b: L.einsum(a, [0, 1], b, [1, 2], [0, 5]),
    "too many labels": lambda L, a, b: L.einsum(a, [0, 1, 2]),
    "non-tensor operand": lambda L, a, b: L.einsum(a, [0, 1], 3, [1, 2]),
    "tensor as output list": lambda L, a, b: L.einsum(a, [0, 1], b),
    "size mismatch": lambda L, a, b: L.einsum(a, [0, 1], b, [0, 2]),
    "None output list": lambda L, a, b: L.einsum(a, [0, 1], None),
}


@pytest.mark.parametrize("call", SUBLIST_CALLS.values(), ids=SUBLIST_CALLS.keys())
def test_einsum_sublist_form_is_torchs(call: Any) -> None:
    def run(L: Any) -> list:
        a, b = _ab(L)
        y = call(L, a, b)
        y.pow(2).sum().backward()
        return [y.grad_fn.name(), y.detach().numpy(), a.grad.numpy()]

    got, want = run(mt), run(torch)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:], strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("call", SUBLIST_ERRORS.values(), ids=SUBLIST_ERRORS.keys())
def test_einsum_sublist_errors_are_torchs(call: Any) -> None:
    def run(L: Any) -> Any:
        return call(L, *_ab(L))

    assert_same_error(raised_by(run, mt), raised_by(run, torch))


class _Log:
    """A context manager that writes its name and the grad mode to a shared log."""

    def __init__(self, L: Any, log: list, name: str, swallow: bool = False) -> None:
        self.L, self.log, self.name, self.swallow = L, log, name, swallow

    def __enter__(self) -> None:
        self.log.append((self.name, self.L.is_grad_enabled()))

    def __exit__(self, *exc: Any) -> bool:
        self.log.append("exit " + self.name)  # torch's rerun may stop early by raising
        return self.swallow


def _checkpointed(keywords: dict, fn: Any = None, requires_grad: bool = True,
                  backward: bool = True) -> Any:
    def run(L: Any) -> list:
        log: list = []
        kw = {k: (v(L, log) if callable(v) else v) for k, v in keywords.items()}
        x = L.tensor([1.0, -2.0, 3.0], requires_grad=requires_grad)
        out = L.utils.checkpoint.checkpoint(fn or (lambda t: (t.exp() * 2, t.sum())), x, **kw)
        o = out[0] if isinstance(out, tuple) else out
        grads = L.autograd.grad(o.sum(), x) if backward else ()
        return [log, o.detach().numpy(), *(g.numpy() for g in grads)]
    return run


def _contexts(swallow: bool = False) -> Any:
    return lambda L, log: lambda: (_Log(L, log, "forward", swallow), _Log(L, log, "recompute"))


CHECKPOINT_RUNS = {
    "debug": _checkpointed({"use_reentrant": False, "debug": True}),
    "determinism none": _checkpointed({"use_reentrant": False, "determinism_check": "none"}),
    "determinism default": _checkpointed({"use_reentrant": False,
                                          "determinism_check": "default"}),
    "early_stop": _checkpointed({"use_reentrant": False, "early_stop": False}),
    "context_fn": _checkpointed({"use_reentrant": False, "context_fn": _contexts()}),
    "preserve_rng_state off": _checkpointed({"use_reentrant": False,
                                             "preserve_rng_state": False}),
    "keyword input": _checkpointed({"use_reentrant": False, "k": 3.0},
                                   fn=lambda t, k=2: t * k),
}
CHECKPOINT_ERRORS = {
    "bad determinism_check": _checkpointed({"use_reentrant": False,
                                            "determinism_check": "bad"}),
    "debug with context_fn": _checkpointed({"use_reentrant": False, "debug": True,
                                            "context_fn": _contexts()}),
    "debug when reentrant": _checkpointed({"use_reentrant": True, "debug": True}),
    "context_fn when reentrant": _checkpointed({"use_reentrant": True,
                                                "context_fn": _contexts()}),
    "keyword when reentrant": _checkpointed({"use_reentrant": True, "k": 3.0, "debug": True},
                                            fn=lambda t, k=2: t * k),
    "no grad to take": _checkpointed({"use_reentrant": False, "determinism_check": "none"},
                                     requires_grad=False),
    "context swallows the error": _checkpointed(
        {"use_reentrant": False, "context_fn": _contexts(swallow=True)},
        fn=lambda t: t.no_such_method()),
}


@pytest.mark.parametrize("run", CHECKPOINT_RUNS.values(), ids=CHECKPOINT_RUNS.keys())
def test_checkpoint_keywords_are_torchs(run: Any) -> None:
    got, want = run(mt), run(torch)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:], strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-6)


@pytest.mark.parametrize("run", CHECKPOINT_ERRORS.values(), ids=CHECKPOINT_ERRORS.keys())
def test_checkpoint_keyword_errors_are_torchs(run: Any) -> None:
    assert_same_error(raised_by(run, mt), raised_by(run, torch))


class _NoVmapRule:
    """A Function with forward-mode support but no vmap rule: jacfwd (a vmap) refuses it."""

    @staticmethod
    def make(L: Any) -> Any:
        class Double(L.autograd.Function):
            @staticmethod
            def forward(x: Any) -> Any:
                return x * 2

            @staticmethod
            def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
                pass

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g * 2

            @staticmethod
            def jvp(ctx: Any, t: Any) -> Any:
                return t * 2
        return Double


def _x(L: Any) -> Any:
    return L.tensor([1.0, -2.0, 3.0])


JACOBIAN_CALLS = {
    "jacrev chunk_size 1": lambda L: L.func.jacrev(lambda t: t.sin() * 2, chunk_size=1)(_x(L)),
    "jacrev chunk_size 2, argnums": lambda L: L.func.jacrev(
        lambda t, u: (t * u, t.sum()), argnums=(0, 1), chunk_size=2)(_x(L), _x(L).exp()),
    "jacfwd randomness same": lambda L: L.func.jacfwd(lambda t: t.cos(), randomness="same")(
        _x(L)),
    "jacfwd randomness different": lambda L: L.func.jacfwd(
        lambda t, u: t * u, (0, 1), randomness="different")(_x(L), _x(L)),
}
JACOBIAN_ERRORS = {
    "jacrev chunk_size 0": lambda L: L.func.jacrev(lambda t: t, chunk_size=0),
    "jacrev chunk_size -1": lambda L: L.func.jacrev(lambda t: t, chunk_size=-1),
    "jacrev chunk_size str": lambda L: L.func.jacrev(lambda t: t, chunk_size="a"),
    "jacrev has_aux positional": lambda L: L.func.jacrev(lambda t: t, 0, False)(_x(L)),
    "jacrev integer input": lambda L: L.func.jacrev(lambda t: t * 2, chunk_size=2)(
        L.tensor([1, 2])),
    "jacfwd bad randomness": lambda L: L.func.jacfwd(lambda t: t, randomness="bad")(_x(L)),
    "jacfwd randomness positional": lambda L: L.func.jacfwd(lambda t: t, 0, False, "same"),
    "jacfwd random op": lambda L: L.func.jacfwd(lambda t: t * L.rand(3))(_x(L)),
    "jacfwd Function without vmap rule": lambda L: L.func.jacfwd(_NoVmapRule.make(L).apply)(
        _x(L)),
    "jacfwd float output": lambda L: L.func.jacfwd(lambda t, u: 3.0, argnums=(0, 1))(
        _x(L), _x(L)),
    "jvp float output": lambda L: L.func.jvp(lambda t: 3.0, (_x(L),), (_x(L),)),
    "jvp tuple with a float": lambda L: L.func.jvp(lambda t: (t, 3.0), (_x(L),), (_x(L),)),
    "jvp None output": lambda L: L.func.jvp(lambda t: None, (_x(L),), (_x(L),)),
    "jvp empty output": lambda L: L.func.jvp(lambda t: (), (_x(L),), (_x(L),)),
    "vjp empty output": lambda L: L.func.vjp(lambda t: (), _x(L)),
    "vjp None output": lambda L: L.func.vjp(lambda t: None, _x(L)),
}


@pytest.mark.parametrize("call", JACOBIAN_CALLS.values(), ids=JACOBIAN_CALLS.keys())
def test_jacobian_keywords_are_torchs(call: Any) -> None:
    got, want = call(mt), call(torch)
    for g, w in zip(_leaves(got), _leaves(want), strict=True):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-6)


def _leaves(tree: Any) -> list:
    return [leaf for item in tree for leaf in _leaves(item)] if isinstance(tree, tuple) else [
        tree]


@pytest.mark.parametrize("call", JACOBIAN_ERRORS.values(), ids=JACOBIAN_ERRORS.keys())
def test_jacobian_keyword_errors_are_torchs(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


_Pair = __import__("collections").namedtuple("_Pair", "a b")


def _collated(L: Any, kind: str, data: list) -> Any:
    if kind == "loader":
        return list(L.utils.data.DataLoader(data, batch_size=2))
    if kind == "unbatched loader":
        return list(L.utils.data.DataLoader(data, batch_size=None))
    return getattr(L.utils.data, kind)(data)


COLLATE_CASES = {
    "arrays": ("default_collate", [np.ones(2), np.zeros(2)]),
    "float32 arrays": ("default_collate", [np.ones(2, np.float32), np.zeros(2, np.float32)]),
    "float32 scalars": ("default_collate", [np.float32(1.0), np.float32(2.0)]),
    "bool scalars": ("default_collate", [np.bool_(True), np.bool_(False)]),
    "dict of arrays": ("default_collate", [{"a": np.ones(1)}, {"a": np.zeros(1)}]),
    "tuples of int and str": ("default_collate", [(1, "a"), (2, "b")]),
    "namedtuples": ("default_collate", [_Pair(1, 2.0), _Pair(3, 4.0)]),
    "bytes": ("default_collate", [b"x", b"y"]),
    "numpy strings": ("default_collate", [np.str_("a"), np.str_("b")]),
    "ragged lists": ("default_collate", [[1, 2], [3]]),
    "string arrays": ("default_collate", [np.array(["a"]), np.array(["b"])]),
    "objects": ("default_collate", [object(), object()]),
    "Nones": ("default_collate", [None, None]),
    "convert scalars": ("default_convert", [np.float32(1.0), np.int64(2)]),
    "convert tuple": ("default_convert", (np.ones(1), "a")),
    "convert string array": ("default_convert", np.array(["a"])),
    "loader of arrays": ("loader", [np.ones(2), np.ones(2)]),
    "unbatched loader of scalars": ("unbatched loader", [np.float32(1.0), np.float32(2.0)]),
}


@pytest.mark.parametrize("kind,data", COLLATE_CASES.values(), ids=COLLATE_CASES.keys())
def test_collate_of_numpy_values_is_torchs(kind: str, data: Any) -> None:
    got, want = raised_by(lambda L: _collated(L, kind, data), mt), raised_by(
        lambda L: _collated(L, kind, data), torch)
    if want is not None:
        assert_same_error(got, want)
        return
    got, want = _collated(mt, kind, data), _collated(torch, kind, data)
    assert _structure(got) == _structure(want)


def _structure(value: Any) -> Any:
    """Containers and their types, tensors as (dtype, values), anything else as itself."""
    if isinstance(value, (mt.Tensor, torch.Tensor)):
        return str(value.dtype), value.tolist()
    if isinstance(value, dict):
        return {key: _structure(v) for key, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [_structure(v) for v in value]
    if isinstance(value, np.ndarray):
        return "ndarray", value.tolist()
    return value


@pytest.mark.parametrize("reduction", ["sum", "none", "mean"])
@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32"),
                                    ("float32", "int64"), ("float16", "float32")])
def test_soft_margin_loss_reads_the_target_in_the_inputs_dtype(dtypes: tuple,
                                                               reduction: str) -> None:
    def run(L: Any) -> list:
        x = L.tensor([[0.85, -1.57, -1.16], [-1.45, -1.01, -0.66]], dtype=getattr(L, dtypes[0]),
                     requires_grad=True)
        y = L.tensor([[0.07, 0.0, 0.87]]).to(getattr(L, dtypes[1]))
        loss = L.nn.functional.soft_margin_loss(x, y, reduction=reduction)
        loss.sum().backward()
        return [loss.detach().numpy(), x.grad.numpy()]

    for g, w in zip(run(mt), run(torch), strict=True):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=2e-3 if dtypes[0] == "float16" else 1e-6)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("targets", [[0, 0], [0, 2], [1, 2]], ids=["all ignored", "one", "none"])
def test_cross_entropy_smoothing_with_ignored_targets_is_torchs(targets: list, reduction: str,
                                                                weighted: bool) -> None:
    def run(L: Any) -> list:
        x = L.tensor([[-1.12, 1.97, -0.88], [0.5, 0.1, -0.3]], requires_grad=True)
        weight = L.tensor([1.0, 2.0, 3.0]) if weighted else None
        loss = L.nn.functional.cross_entropy(x, L.tensor(targets), weight, ignore_index=0,
                                             reduction=reduction, label_smoothing=0.1)
        loss.sum().backward()
        return [loss.detach().numpy(), x.grad.numpy()]

    for g, w in zip(run(mt), run(torch), strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-6)


def _profiled(L: Any) -> Any:
    with L.autograd.profiler.profile() as prof:
        L.ones(2) * 2
    return prof


@pytest.mark.parametrize("path", [3, None, 3.5, ["trace.json"]])
def test_chrome_trace_needs_a_str_path(path: Any) -> None:
    """torch refuses a file descriptor (minitorch wrote to descriptor 3); its message names
    its own result object, so the message is compared up to "Invoked with"."""
    got = raised_by(lambda L: _profiled(L).export_chrome_trace(path), mt)
    want = raised_by(lambda L: _profiled(L).export_chrome_trace(path), torch)
    assert type(got) is type(want) is TypeError
    assert str(got).split("Invoked with")[0] == str(want).split("Invoked with")[0]
    assert str(got).endswith(f", {path!r}") and str(want).endswith(f", {path!r}")


@pytest.mark.parametrize("entered", [False, True])
def test_profile_exit_returns_torchs_value(entered: bool) -> None:
    def run(L: Any) -> Any:
        prof = L.autograd.profiler.profile()
        if entered:
            prof.__enter__()
        return prof.__exit__(None, None, None)

    assert run(mt) == run(torch)
    assert run(mt) is not None


@pytest.mark.parametrize("keyword", [{"_use_new_zipfile_serialization": False},
                                     {"_use_new_zipfile_serialization": True},
                                     {"_disable_byteorder_record": True}])
def test_save_takes_torchs_format_switches(keyword: dict, tmp_path: Any) -> None:
    path = str(tmp_path / "f.pt")
    for L in (mt, torch):
        L.save({"w": L.arange(3.0)}, path, **keyword)
        assert L.load(path)["w"].tolist() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("kind", ["leaf with grad", "integer leaf", "non-leaf"])
def test_del_grad_sets_it_to_none(kind: str) -> None:
    def run(L: Any) -> Any:
        x = L.ones(3, dtype=L.int64) if kind == "integer leaf" else L.ones(3, requires_grad=True)
        (x.float() * 2).sum().backward() if kind == "leaf with grad" else None
        t = x * 2 if kind == "non-leaf" else x
        del t.grad
        return t.grad

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reading a non-leaf's .grad warns in both
        assert run(mt) is None and run(torch) is None
