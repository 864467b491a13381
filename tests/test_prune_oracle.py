"""``nn.utils.prune`` against torch: masks (the random ones drawn as torch draws them after
the same seed), the reparametrisation (``<name>_orig``, ``<name>_mask``, the pre-hook),
combined pruning, ``remove``, ``global_unstructured``, gradients and torch's errors."""

from __future__ import annotations

from typing import Any

import pytest
import torch
import torch.nn.utils.prune  # torch does not import it with nn.utils

import minitorch as mt
from tests.oracle import assert_same_error, raised_by


def _net(L: Any) -> Any:
    L.manual_seed(0)
    return L.nn.Sequential(L.nn.Conv2d(2, 4, 3), L.nn.Flatten(), L.nn.Linear(4 * 4 * 4, 5))


def _story(L: Any) -> list:
    P = L.nn.utils.prune
    net = _net(L)
    conv, fc = net[0], net[2]
    seen = []
    P.random_unstructured(conv, "weight", amount=0.3)
    P.l1_unstructured(conv, "bias", amount=2)
    P.ln_structured(conv, "weight", amount=0.5, n=2, dim=0)
    P.random_structured(conv, "weight", amount=1, dim=1)
    P.ln_structured(fc, "weight", amount=2, n=1, dim=-1,
                    importance_scores=fc.weight.detach().abs() + 1)
    P.identity(fc, "bias")
    seen += [repr(list(conv.named_parameters())), repr(list(conv.named_buffers())),
             [type(h).__name__ for h in conv._forward_pre_hooks.values()],
             [type(m).__name__ for m in conv._forward_pre_hooks[next(
                 k for k, h in conv._forward_pre_hooks.items() if h._tensor_name == "weight")]],
             list(net.state_dict()), P.is_pruned(net), repr(conv.weight), repr(fc.weight)]
    x = L.randn(2, 2, 6, 6)
    net(x).sum().backward()
    seen += [repr(conv.weight_orig.grad), repr(fc.weight_orig.grad)]
    P.remove(conv, "weight")
    seen += [repr(list(conv.named_parameters())), list(conv._buffers), P.is_pruned(conv),
             hasattr(conv, "weight_orig"), hasattr(conv, "weight_mask")]
    other = _net(L)
    P.global_unstructured([(other[0], "weight"), (other[2], "weight")],
                          pruning_method=P.L1Unstructured, amount=0.4)
    P.global_unstructured([(other[0], "weight"), (other[2], "weight")],
                          pruning_method=P.RandomUnstructured, amount=10)
    P.custom_from_mask(other[2], "bias", mask=L.tensor([1, 0, 1, 0, 1]))
    seen += [repr(other[0].weight_mask), int((other[2].weight == 0).sum()),
             repr(other[2].bias), repr(P.L1Unstructured(0.5).prune(L.tensor([1., -3, 2, 0])))]
    return seen


def test_the_pruning_recipe_matches_torch() -> None:
    got, want = _story(mt), _story(torch)
    for g, w in zip(got, want):
        assert g == w


@pytest.mark.parametrize("call", [
    lambda L: L.nn.utils.prune.l1_unstructured(L.nn.Linear(2, 2), "weight", amount=1.5),
    lambda L: L.nn.utils.prune.l1_unstructured(L.nn.Linear(2, 2), "weight", amount=-1),
    lambda L: L.nn.utils.prune.l1_unstructured(L.nn.Linear(2, 2), "weight", amount="a"),
    lambda L: L.nn.utils.prune.l1_unstructured(L.nn.Linear(2, 2), "weight", amount=5),
    lambda L: L.nn.utils.prune.ln_structured(L.nn.Linear(2, 2), "bias", 1, n=2, dim=0),
    lambda L: L.nn.utils.prune.ln_structured(L.nn.Linear(2, 2), "weight", 1, n=2, dim=2),
    lambda L: L.nn.utils.prune.remove(L.nn.Linear(2, 2), "weight"),
    lambda L: L.nn.utils.prune.l1_unstructured(L.nn.Linear(2, 2), "weight", 1,
                                               importance_scores=L.ones(3)),
    lambda L: L.nn.utils.prune.global_unstructured(
        [(L.nn.Linear(2, 2), "weight")], pruning_method=L.nn.utils.prune.LnStructured,
        amount=1, n=2),
])
def test_errors_match_torch(call: Any) -> None:
    got, want = raised_by(call, mt), raised_by(call, torch)
    assert_same_error(got, type(want)(str(want).replace("torch.nn", "minitorch.nn")))


def test_a_failed_pruning_leaves_the_parameter_in_place() -> None:
    def run(L: Any) -> list:
        m = L.nn.Linear(2, 2)
        raised_by(lambda _: L.nn.utils.prune.l1_unstructured(m, "weight", amount=9), L)
        return [name for name, _ in m.named_parameters()] + list(m._buffers)
    assert run(mt) == run(torch)
