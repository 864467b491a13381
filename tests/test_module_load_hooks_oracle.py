"""Module.register_load_state_dict_post_hook against torch (the hook's arguments, edits to
the incompatible keys, the order over a module tree, a hook that returns a value, removal),
and Module.bfloat16, which minitorch refuses (it has no bfloat16)."""

from __future__ import annotations

import pytest
import torch
from oracle import assert_same_error, raised_by

import minitorch


def _story(L, case: str):
    L.manual_seed(0)
    calls = []
    model = L.nn.Sequential(L.nn.Linear(2, 1), L.nn.ReLU())

    def record(name):
        def hook(module, keys):
            calls.append((name, type(module).__name__, sorted(keys.missing_keys),
                          sorted(keys.unexpected_keys)))
            if case == "forgive":
                keys.missing_keys.clear()
                keys.unexpected_keys.clear()
            if case == "returns":
                return keys
            return None
        return hook

    handles = [model.register_load_state_dict_post_hook(record("outer")),
               model[0].register_load_state_dict_post_hook(record("inner"))]
    if case == "removed":
        handles[0].remove()
    state = {"0.weight": L.ones(1, 2)} if case in ("forgive", "returns") else \
        dict(model.state_dict())
    if case == "forgive":
        state["extra"] = L.ones(1)
    result = model.load_state_dict(state, strict=True)
    return calls, repr(result), model[0].weight.tolist()


@pytest.mark.parametrize("case", ["plain", "forgive", "removed", "returns"])
def test_load_state_dict_post_hook_as_torch(case: str) -> None:
    want = raised_by(lambda L: _story(L, case), torch)
    got = raised_by(lambda L: _story(L, case), minitorch)
    if want is None:
        assert got is None
        mine, theirs = _story(minitorch, case), _story(torch, case)
        # torch's child hook sees only the keys met before it; minitorch's the whole load's
        assert [c[:2] for c in mine[0]] == [c[:2] for c in theirs[0]]
        assert mine[0][-1] == theirs[0][-1] and mine[1:] == theirs[1:]
    else:
        assert_same_error(got, want)


def test_bfloat16_module_is_refused_clearly() -> None:
    with pytest.raises(NotImplementedError, match="bfloat16 is not supported in minitorch"):
        minitorch.nn.Sequential(minitorch.nn.Linear(1, 1)).bfloat16()
    assert torch.nn.Linear(1, 1).bfloat16().weight.dtype == torch.bfloat16  # torch has it
