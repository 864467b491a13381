"""``swap_in_optimizer_params_and_state``: run an optimizer, for a while, on other parameters
and another state (given as ``optimizer.state_dict()`` gives it), then put its own back.

>>> import minitorch
>>> from minitorch import nn, optim
>>> p = nn.Parameter(minitorch.ones(1))
>>> opt = optim.SGD([p], lr=0.5, momentum=0.9)
>>> p.grad = minitorch.ones(1); opt.step()
>>> q = nn.Parameter(minitorch.zeros(1)); q.grad = minitorch.ones(1)
>>> with swap_in_optimizer_params_and_state(opt, {"q": q}, opt.state_dict()):
...     opt.step()
>>> q.data, p.data
(tensor([-0.9500]), tensor([0.5000]))
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from .._tensor import Tensor

__all__ = ["swap_in_optimizer_params_and_state"]

_NAME = "swap_in_optimizer_params_and_state"


def _checked_state(state: Any) -> dict:
    if not isinstance(state, dict):
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['state'] to be a dict mapping "
                           "packed parameter ids to per-param state dicts, got "
                           f"{type(state).__name__}.")
    if any(isinstance(key, Tensor) for key in state):
        raise RuntimeError(f"{_NAME} requires optimizer.state_dict()-style state keyed by "
                           "packed parameter ids.")
    if any(isinstance(key, int) and not isinstance(v, dict) for key, v in state.items()):
        raise RuntimeError(f"{_NAME} requires per-parameter optimizer state entries to be "
                           "dictionaries.")
    return state


def _checked_groups(optimizer: Any, groups: Any) -> list:
    if not isinstance(groups, list):
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['param_groups'] to be a list "
                           f"of param-group dicts, got {type(groups).__name__}.")
    if len(groups) != len(optimizer.param_groups):
        raise RuntimeError("swapin_optim_state has a different number of parameter groups "
                           "than the live optimizer.")
    return groups


def _checked_ids(index: int, live: dict, saved: Any) -> list[int]:
    """The packed parameter ids of ``saved``, a group that must match ``live``'s shape."""
    if not isinstance(saved, dict):
        raise RuntimeError(f"{_NAME} requires each optimizer param group to be a dictionary.")
    ids = saved.get("params")
    if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
        raise RuntimeError(f"{_NAME} requires optimizer.state_dict()-style "
                           "param_groups[*]['params'] entries keyed by packed parameter ids.")
    if len(ids) != len(live["params"]):
        raise RuntimeError(f"swapin_optim_state param group {index} has a different number of "
                           "params than the live optimizer param group.")
    saved_only = [k for k in saved if k not in live]
    live_only = [k for k in live if k not in saved]
    if saved_only or live_only:
        raise RuntimeError(f"{_NAME} requires optimizer.state_dict()-style param group keys to "
                           "exactly match the live optimizer group keys for group "
                           f"{index}. Keys only in swap-in: {saved_only}. Keys only in live: "
                           f"{live_only}.")
    return ids


def _swaps(optimizer: Any, parameters: dict[str, Tensor],
           optim_state: Any) -> tuple[dict, list[tuple[dict, dict, list]]]:
    """The checked state, and per group: the live group, its swap-in settings and tensors."""
    if not optimizer.state:
        raise RuntimeError(f"{_NAME} requires initialized optimizer state.")
    if not isinstance(optim_state, dict):
        raise RuntimeError(f"{_NAME} requires a DCP-style optimizer state_dict.")
    state = _checked_state(optim_state.get("state"))
    groups = _checked_groups(optimizer, optim_state.get("param_groups"))
    tensors = list(parameters.values())
    start, seen, swaps = 0, set(), []
    for index, (live, saved) in enumerate(zip(optimizer.param_groups, groups)):
        ids = _checked_ids(index, live, saved)
        seen.update(ids)
        if start + len(ids) > len(tensors):
            raise RuntimeError(f"{_NAME} requires the explicit parameter state to match "
                               "optimizer.param_groups ordering.")
        swaps.append((live, saved, tensors[start:start + len(ids)]))
        start += len(ids)
    extra = [key for key in state if key not in seen]
    if extra:
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['state'] to be keyed only by "
                           f"packed parameter ids from param_groups[*]['params']; got extra "
                           f"keys {extra!r}.")
    return state, swaps


@contextlib.contextmanager
def swap_in_optimizer_params_and_state(optimizer: Any, swapin_parameters: dict[str, Tensor],
                                       swapin_optim_state: dict[str, Any]) -> Iterator[None]:
    """Within the ``with`` block, ``optimizer`` steps ``swapin_parameters`` (in the order of
    its own parameters) with the settings and state of ``swapin_optim_state`` (an
    ``optimizer.state_dict()``); on exit its own groups and state are back. The swapped-in
    state's tensors are updated in place; anything else done to it is not kept.

    >>> opt = optim.SGD([nn.Parameter(minitorch.ones(1))], lr=0.1)
    >>> with optim.swap_in_optimizer_params_and_state(opt, {}, opt.state_dict()):
    ...     pass
    Traceback (most recent call last):
    RuntimeError: swap_in_optimizer_params_and_state requires initialized optimizer state.
    """
    state, swaps = _swaps(optimizer, swapin_parameters, swapin_optim_state)
    own_state = optimizer.state
    own_groups = [dict(group) for group in optimizer.param_groups]  # the same params lists
    try:
        swapped: defaultdict[Tensor, Any] = defaultdict(dict)
        for live, saved, tensors in swaps:
            live.update({key: value for key, value in saved.items() if key != "params"})
            live["params"] = tensors
            for tensor, key in zip(tensors, saved["params"]):
                swapped[tensor] = dict(state.get(key, {}))
        optimizer.state = swapped
        yield
    finally:
        for group, own in zip(optimizer.param_groups, own_groups):
            group.clear()
            group.update(own)
        optimizer.state = own_state


swap_in_optimizer_params_and_state.__module__ = "minitorch.optim"
