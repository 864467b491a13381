"""Fresh fuzz seeds of session 34 (the four fuzzers of session 33, written by helpers who did
not see minitorch's tests, on the new seed 3401): what they found. Each case runs under torch
and minitorch (``L``) and must raise torch's exception with torch's message, or give torch's
result."""

from __future__ import annotations

from typing import Any

import pytest

from tests.oracle import assert_as_torch, assert_same

NO_RULE = ["L.nn.functional.silu(e)", "L.nn.functional.softsign(e)", "e.flip(0)",
           "L.where(e > 0, e, 0.)", "e.min(0).values", "L.maximum(e, e.flip(0))", "e.roll(1)",
           "L.nn.functional.gelu(e)", "e.sort().values", "L.max(e, 0)[1]", "e.cummax(0)[0]",
           "L.nn.functional.hardtanh(e)", "e.diff()", "L.atan2(e, e.flip(0))"]


@pytest.mark.parametrize("op", NO_RULE)
@pytest.mark.parametrize("then", ["value", "item", "tolist", "if", "into unbatched", "numpy"])
def test_vmap_runs_an_op_without_a_rule_per_example_inside_the_batch_as_torch(
        op: str, then: str) -> None:
    """Autograd fuzz: ``vmap(lambda e: F.silu(e).sum().item())`` ran ``func`` once per
    example, so ``item()`` saw one example and returned (an op with no batching rule sent the
    whole call to the per-example path). torch's fallback runs the op per example and goes on
    with a batch, so what ``func`` reads of it next is refused."""
    def fn(L: Any) -> Any:
        x = L.tensor([[1.25, -2., 3.], [4., 5., -6.]], requires_grad=True)
        sink = L.zeros(())

        def f(e: Any) -> Any:
            y = eval(op, {"e": e, "L": L})
            if then == "item":
                return y.sum().item() * e
            if then == "tolist":
                return L.tensor(y.tolist()).sum()
            if then == "if":
                return e if y.float().sum() > 0 else -e
            if then == "into unbatched":
                return sink.add_(y.float().sum())
            if then == "numpy":
                return L.tensor(y.detach().numpy())
            return y
        return L.func.vmap(f)(x)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("view", ["h[0]", "h.diagonal()", "h[:, 1:]", "h.t()", "h.view(3, 2)",
                                  "h.unsqueeze(0)", "h[None, 1]"])
@pytest.mark.parametrize("change", ["unsqueeze_(0)", "squeeze_()", "t_()", "transpose_(0, -1)",
                                    "squeeze_(0)", "unsqueeze_(-1)"])
@pytest.mark.parametrize("then", ["v.sum().backward()", "v.mul_(2); h.sum().backward()",
                                  "h.add_(1); (v * 1).sum().backward()",
                                  "(v * 3).sum().backward(); out = h.grad_fn.name()"])
def test_an_inplace_view_change_of_a_view_is_recorded_as_torch(view: str, change: str,
                                                               then: str) -> None:
    """Autograd fuzz: ``v = h.diagonal(); v.squeeze_()`` with ``h`` requiring grad was refused
    ("does not support recording an in-place view change of a view"); torch records it: the
    view keeps its base, takes the in-place node (``SqueezeBackward3``...) and a later write
    through it or its base rebases it as any view."""
    def fn(L: Any) -> Any:
        x = L.tensor([[0.5, 1.5, 2.0], [0.25, 0.75, 1.0]], requires_grad=True)
        h = x * 2
        scope = {"h": h, "L": L, "out": None}
        exec(f"v = {view}; v.{change}", scope)
        v = scope["v"]
        names = (v.grad_fn.name(), v._version, h._version, v._base is h, v.shape, v.stride())
        exec(then, scope)
        return names, x.grad, scope["out"], v.grad_fn.name()
    assert_as_torch(fn, assert_same)
