"""``Optimizer``: the base of the update rules that move parameters against their gradients.

An optimizer holds ``param_groups`` (lists of parameters, each with its own settings such as
``lr``) and a per-parameter ``state`` (e.g. SGD's momentum buffer). ``step()`` updates the
parameters in place from their ``.grad``; ``zero_grad()`` clears the gradients.

>>> import minitorch
>>> from minitorch import nn, optim
>>> model = nn.Linear(2, 1)
>>> opt = optim.SGD(model.parameters(), lr=0.1)
>>> model(minitorch.ones(4, 2)).sum().backward()
>>> opt.step(); opt.zero_grad()
>>> model.weight.grad is None
True
"""

from __future__ import annotations

import copy
import functools
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from .._tensor import Tensor
from ..autograd import grad_mode, profiler
from ..nn.module import typename
from ..nn.parameter import zero_grad_

__all__ = ["Optimizer"]


def _profiled_step(step: Callable[..., Any]) -> Callable[..., Any]:
    """``step`` inside torch's ``record_function("Optimizer.step#<class>.step")``.

    >>> from minitorch.autograd.profiler import profile
    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
    >>> with profile() as prof:
    ...     opt.step()
    >>> prof.function_events[0].name
    'Optimizer.step#SGD.step'
    """

    @functools.wraps(step)
    def profiled(self: Optimizer, *args: Any, **kwargs: Any) -> Any:
        if profiler._active is None:
            return step(self, *args, **kwargs)
        with profiler.record_function(f"Optimizer.step#{type(self).__name__}.step"):
            return step(self, *args, **kwargs)

    return profiled


class Optimizer:
    """Base class of optimizers: subclasses pass their ``defaults`` and define ``step``.

    ``params`` is an iterable of tensors, or of dicts ``{"params": [...], "lr": ...}`` (one
    per parameter group; missing settings come from ``defaults``).
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "step" in cls.__dict__:  # profiled as torch's: one labelled block per step
            cls.step = _profiled_step(cls.__dict__["step"])

    # the group settings in the order torch's step reads them (a loaded group that lacks
    # one fails there, with torch's KeyError)
    _settings: tuple[str, ...] = ()
    # torch's __setstate__ after a load: the settings a loaded group may lack, and the state
    # entries a parameter's state must have once it has any (numbers made float32 tensors)
    _loaded_defaults: dict[str, Any] = {"foreach": None, "maximize": False,
                                        "differentiable": False}
    _loaded_scalars: tuple[str, ...] = ("step",)

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {typename(params)}")
        self.defaults = defaults
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters with its own settings (e.g. a smaller ``lr``)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        group = {**self.defaults, **param_group,
                 "params": [params] if isinstance(params, Tensor) else list(params)}
        for p in group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{typename(p)}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        taken = {p for g in self.param_groups for p in g["params"]}
        if any(p in taken for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all parameters (to None by default)."""
        zero_grad_((p for g in self.param_groups for p in g["params"]), set_to_none)

    def step(self, closure: Any = None) -> Any:
        """Update the parameters once from their gradients (defined by each optimizer)."""
        raise NotImplementedError

    @staticmethod
    def _closure_loss(closure: Any) -> Any:
        """``closure()`` run with grad mode on, as torch's optimizers do; None without one."""
        if closure is None:
            return None
        with grad_mode._recording(True):
            return closure()

    def state_dict(self) -> dict[str, Any]:
        """The state and the settings, parameters named by their position (0, 1, ...).

        >>> sorted(optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1).state_dict())
        ['param_groups', 'state']
        """
        index = {id(p): i for i, p in enumerate(self._params())}
        groups = [{**g, "params": [index[id(p)] for p in g["params"]]}
                  for g in self.param_groups]
        # torch's: the state's own values, keys that are not parameters kept as they are
        state = {index[id(p)] if isinstance(p, Tensor) else p: s for p, s in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the state and settings saved by ``state_dict`` (tensors are copied)."""
        state_dict = state_dict.copy()  # as torch's first step (a non-dict fails there)
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(a["params"]) != len(b["params"]) for a, b in zip(groups, self.param_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        param_of = dict(zip((i for g in groups for i in g["params"]), self._params()))
        self.state = defaultdict(dict)
        for i, saved in state_dict["state"].items():  # state of no parameter kept as it is
            if i in param_of:
                self.state[param_of[i]] = _copied(saved)
            else:
                self.state[i] = saved
        # torch's: the saved settings replace the groups' (a setting left out stays out)
        self.param_groups = [{**saved, "params": group["params"]}
                             for group, saved in zip(self.param_groups, copy.deepcopy(groups))]
        self._settle_loaded()

    def _settle_loaded(self) -> None:
        """torch's __setstate__: a loaded group's missing flags take their defaults, and a
        parameter's non-empty state must hold its scalars (torch's KeyError if not)."""
        for group in self.param_groups:
            for key, value in self._loaded_defaults.items():
                group.setdefault(key, value)
            for p in group["params"]:
                state = self.state.get(p)
                for key in self._loaded_scalars if state else ():
                    if key not in state:
                        raise KeyError(key)
                    if not isinstance(state[key], Tensor):
                        state[key] = Tensor._make(p._xp.asarray(float(state[key]),
                                                                 dtype=p._xp.float32))

    def _settings_of(self, group: dict[str, Any]) -> dict[str, Any]:
        """``group``'s settings for an update (see ``plain_settings``), read as torch's step
        reads them: a loaded group that lacks one raises torch's KeyError."""
        for key in self._settings:
            if key not in group:
                raise KeyError(key)
        return plain_settings(group)

    def _params(self) -> list[Tensor]:
        return [p for g in self.param_groups for p in g["params"]]

    def __repr__(self) -> str:
        text = f"{type(self).__name__} ("
        for i, group in enumerate(self.param_groups):  # torch's layout: groups apart by a
            text += f"\nParameter Group {i}\n"       # blank line, ")" on a line of its own
            text += "".join(f"    {key}: {group[key]}\n" for key in sorted(group)
                            if key != "params")
        return text + ")"



def _copied(value: Any) -> Any:
    """A loaded state's value: tensors copied, inside dicts too."""
    if isinstance(value, Tensor):
        return value.detach().clone()
    if isinstance(value, dict):
        return {key: _copied(v) for key, v in value.items()}
    return value


def plain_settings(group: dict[str, Any]) -> dict[str, Any]:
    """``group`` for an update on arrays: its tensor settings (torch takes a tensor ``lr`` or
    ``betas``) read as the numbers they hold.

    >>> minitorch.optim.optimizer.plain_settings({"params": [], "lr": minitorch.tensor(0.5)})["lr"]
    0.5
    """
    return {key: value if key == "params" else _plain(value) for key, value in group.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value.item()
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return value
