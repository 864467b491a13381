"""grad_mode.set_multithreading_enabled and ParameterDict.setdefault against torch."""

from __future__ import annotations

import pytest
import torch
from oracle import assert_same_error, raised_by

import minitorch


def _multithreading_story(L) -> list:
    G = L.autograd.grad_mode
    seen = [L.autograd.is_multithreading_enabled()]
    manager = G.set_multithreading_enabled(False)  # switches now, as torch's
    seen.append(L.autograd.is_multithreading_enabled())
    with manager:
        seen.append(L.autograd.is_multithreading_enabled())
    seen.append(L.autograd.is_multithreading_enabled())

    @G.set_multithreading_enabled(False)
    def inside() -> bool:
        return L.autograd.is_multithreading_enabled()

    seen += [inside(), L.autograd.is_multithreading_enabled()]
    with G.set_multithreading_enabled(True):
        x = L.ones(2, requires_grad=True)
        (x * 2).sum().backward()
        seen.append(x.grad.tolist())
    seen.append(L.autograd.is_multithreading_enabled())
    G.set_multithreading_enabled(True)
    return seen


def test_set_multithreading_enabled_as_torch() -> None:
    assert _multithreading_story(minitorch) == _multithreading_story(torch)


@pytest.mark.parametrize("mode", [1, None, "a", 0.0])
def test_set_multithreading_enabled_refuses_non_bools_as_torch(mode) -> None:
    def call(L):
        return L.autograd.grad_mode.set_multithreading_enabled(mode)

    want, got = raised_by(call, torch), raised_by(call, minitorch)
    assert_same_error(got, want)


@pytest.mark.parametrize("default", ["ones", "none", "int", "existing"])
def test_parameter_dict_setdefault_as_torch(default: str) -> None:
    def story(L):
        d = L.nn.ParameterDict({"a": L.ones(1)})
        value = {"ones": L.ones(2), "none": None, "int": 5, "existing": L.zeros(3)}[default]
        key = "a" if default == "existing" else "b"
        r = d.setdefault(key, value)
        return (repr(r), sorted(d.keys()), type(r).__name__, repr(d),
                [n for n, _ in d.named_parameters()])

    assert story(minitorch) == story(torch)
