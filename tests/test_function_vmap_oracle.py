"""A custom ``autograd.Function`` under ``torch.func.vmap`` against live torch: its ``vmap``
staticmethod is called as torch calls it (``info``, ``in_dims``, the batch) and what it
returns is checked and batched as torch does; ``generate_vmap_rule`` maps the forward; a
Function with neither, or without ``setup_context``, gets torch's error under a transform.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

import pytest
import torch

import minitorch as mt


def _function(L: Any, rule: Callable[..., Any] | None = None, *, generate: bool = False,
              setup: bool = True, outputs: int = 1) -> Any:
    """An exp Function (exp and sin with ``outputs=2``) with the given vmap rule."""
    def forward(x: Any) -> Any:
        return x.exp() if outputs == 1 else (x.exp(), x.sin())

    namespace: dict[str, Any] = {
        "generate_vmap_rule": generate,
        "backward": staticmethod(lambda ctx, *g: g[0]),
        "forward": staticmethod(forward if setup else lambda ctx, x: forward(x)),
    }
    if setup:
        namespace["setup_context"] = staticmethod(lambda ctx, inputs, output: None)
    if rule is not None:
        namespace["vmap"] = staticmethod(rule)
    return type("MyExp", (L.autograd.Function,), namespace)


def _logged(info: Any, in_dims: tuple, *args: Any) -> None:
    shapes = [tuple(a.shape) if hasattr(a, "shape") else a for a in args]
    print(type(info).__name__, info, info.batch_size, info.randomness, in_dims, shapes)


def _rule_again(L: Any, out_dims: Any = None) -> Callable[..., Any]:
    """A rule that logs its call and applies the Function to the batch (out_dims: in_dims')."""
    def rule(info: Any, in_dims: tuple, x: Any) -> Any:
        _logged(info, in_dims, x)
        return holder[0].apply(x), in_dims[0] if out_dims is None else out_dims
    holder: list = []
    fn = _function(L, rule)
    holder.append(fn)
    return fn


def _returning(value: Callable[[Any], Any], outputs: int = 1) -> Callable[[Any], Any]:
    return lambda L: _function(L, lambda info, in_dims, x: value(x), outputs=outputs)


def _two_args(L: Any) -> Any:
    def rule(info: Any, in_dims: tuple, x: Any, y: Any, k: Any) -> Any:
        _logged(info, in_dims, x, y, k)
        x = x if in_dims[0] is None else x.movedim(in_dims[0], 0)
        y = y if in_dims[1] is None else y.movedim(in_dims[1], 0)
        return fn.apply(x, y, k), 0

    fn = type("Scale", (L.autograd.Function,), {
        "forward": staticmethod(lambda x, y, k: x * y * k),
        "setup_context": staticmethod(lambda ctx, inputs, output: None),
        "backward": staticmethod(lambda ctx, g: (g, g, None)),
        "vmap": staticmethod(rule)})
    return fn


X = [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "rule called": lambda L: L.func.vmap(_rule_again(L).apply)(L.tensor(X)),
    "in_dims and randomness": lambda L: L.func.vmap(_rule_again(L).apply, in_dims=1,
                                                    randomness="same")(L.tensor(X)),
    "negative in_dim": lambda L: L.func.vmap(_rule_again(L).apply, in_dims=-1)(L.tensor(X)),
    "out_dim 1": lambda L: L.func.vmap(_rule_again(L, 1).apply)(L.tensor(X)),
    "out_dims None": lambda L: L.func.vmap(
        _returning(lambda x: (x.sum(0), None))(L).apply)(L.tensor(X)),
    "an input returned": lambda L: L.func.vmap(
        _returning(lambda x: (x, 1))(L).apply)(L.tensor(X)),
    "two outputs, one out_dim": lambda L: L.func.vmap(
        _returning(lambda x: ((x.exp(), x.sin()), 0), outputs=2)(L).apply)(L.tensor(X)),
    "unbatched and non-tensor args": lambda L: L.func.vmap(
        _two_args(L).apply, in_dims=(0, None, None))(L.tensor(X), L.ones(3), 3),
    "args batched along different dims": lambda L: L.func.vmap(
        _two_args(L).apply, in_dims=(1, 0, None))(L.tensor(X), L.ones(3, 2), 2),
    "no batched arg": lambda L: L.func.vmap(
        lambda x, y: _rule_again(L).apply(y) * x, in_dims=(0, None))(L.tensor(X), L.ones(3)),
    "generate_vmap_rule": lambda L: L.func.vmap(_function(L, generate=True).apply)(L.tensor(X)),
    "no rule outside vmap": lambda L: _function(L).apply(L.tensor(X)),
    "no rule under grad": lambda L: L.func.grad(lambda x: _function(L).apply(x).sum())(
        L.tensor(X[0])),
}

ERRORS: dict[str, Callable[[Any], Any]] = {
    "old-style Function under grad": lambda L: L.func.grad(
        lambda x: _function(L, setup=False).apply(x).sum())(L.tensor(X[0])),
    "neither rule": lambda L: L.func.vmap(_function(L).apply)(L.tensor(X)),
    "both rules": lambda L: L.func.vmap(
        _function(L, lambda info, in_dims, x: (x, 0), generate=True).apply)(L.tensor(X)),
    "no setup_context": lambda L: L.func.vmap(_function(L, setup=False).apply)(L.tensor(X)),
    "no setup_context, generated rule": lambda L: L.func.vmap(
        _function(L, setup=False, generate=True).apply)(L.tensor(X)),
    "no rule, unbatched arg": lambda L: L.func.vmap(
        lambda x, y: _function(L).apply(y) * x, in_dims=(0, None))(L.tensor(X), L.ones(3)),
    "one return": lambda L: L.func.vmap(_returning(lambda x: x)(L).apply)(L.tensor(X)),
    "three returns": lambda L: L.func.vmap(
        _returning(lambda x: (x, 0, 1))(L).apply)(L.tensor(X)),
    "out_dims deeper than the output": lambda L: L.func.vmap(
        _returning(lambda x: (x.exp(), (0,)))(L).apply)(L.tensor(X)),
    "out_dims shorter than the outputs": lambda L: L.func.vmap(
        _returning(lambda x: ((x.exp(), x.sin()), (0,)), outputs=2)(L).apply)(L.tensor(X)),
    "out_dims a list": lambda L: L.func.vmap(
        _returning(lambda x: ((x.exp(), x.sin()), [0, 0]), outputs=2)(L).apply)(L.tensor(X)),
    "the rule raises": lambda L: L.func.vmap(
        _returning(lambda x: 1 / 0)(L).apply)(L.tensor(X)),
}


def _run(program: Callable[[Any], Any], L: Any) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = program(L)
    return out.getvalue() + repr(result)


@pytest.mark.parametrize("case", PROGRAMS)
def test_prints_what_torch_prints(case: str) -> None:
    assert _run(PROGRAMS[case], mt) == _run(PROGRAMS[case], torch)


@pytest.mark.parametrize("case", ERRORS)
def test_refuses_as_torch(case: str) -> None:
    raised = []
    for L in (mt, torch):
        with pytest.raises(Exception) as info:
            _run(ERRORS[case], L)
        raised.append((type(info.value).__name__, str(info.value)))
    assert raised[0] == raised[1]
