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
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from .. import _args
from .._tensor import Tensor
from ..autograd import grad_mode, profiler
from ..autograd.graph import RemovableHandle, add_hook
from ..nn.module import typename
from ..nn.parameter import zero_grad_

__all__ = ["Optimizer", "register_optimizer_step_post_hook",
           "register_optimizer_step_pre_hook"]


_global_step_pre_hooks: dict[int, Any] = {}
_global_step_post_hooks: dict[int, Any] = {}


def register_optimizer_step_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Call ``hook(optimizer, args, kwargs)`` before every optimizer's ``step`` (before its
    own pre-hooks); a returned ``(args, kwargs)`` replaces the step's arguments.

    >>> from minitorch.optim.optimizer import register_optimizer_step_pre_hook
    >>> handle = register_optimizer_step_pre_hook(lambda opt, args, kwargs: None)
    >>> handle.remove()
    """
    return add_hook(_global_step_pre_hooks, hook)


def register_optimizer_step_post_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Call ``hook(optimizer, args, kwargs)`` after every optimizer's ``step`` (after its own
    post-hooks).

    >>> from minitorch.optim.optimizer import register_optimizer_step_post_hook
    >>> register_optimizer_step_post_hook(lambda opt, args, kwargs: None).remove()
    """
    return add_hook(_global_step_post_hooks, hook)


def _hooked_step(step: Callable[..., Any]) -> Callable[..., Any]:
    """``step`` with torch's step hooks around it (the global pre-hooks, the optimizer's,
    the step, the optimizer's post-hooks, the global ones), all inside torch's
    ``record_function("Optimizer.step#<class>.step")`` when profiling. The hooks see
    ``args`` as torch passes them: starting with the optimizer itself.

    >>> from minitorch.autograd.profiler import profile
    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
    >>> with profile() as prof:
    ...     opt.step()
    >>> prof.function_events[0].name
    'Optimizer.step#SGD.step'
    """

    def hooked(*args: Any, **kwargs: Any) -> Any:
        self = args[0]
        for hook in [*_global_step_pre_hooks.values(), *self._optimizer_step_pre_hooks.values()]:
            result = hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(f"{step} must return None or a tuple of (new_args, "
                                       f"new_kwargs), but got {result}.")
                args, kwargs = result
        if self._step_reads_self:  # torch's grad-mode wrapper reads its self from args: a
            # hook's replacement fails as there; then it sets grad mode to that setting
            _args.flag("set_grad_enabled", args[0].defaults["differentiable"], "enabled", 1)
        out = step(*args, **kwargs)
        for hook in [*self._optimizer_step_post_hooks.values(),
                     *_global_step_post_hooks.values()]:
            hook(self, args, kwargs)
        return out

    @functools.wraps(step)
    def profiled(self: Optimizer, *args: Any, **kwargs: Any) -> Any:
        if profiler._active is None:
            return hooked(self, *args, **kwargs)
        with profiler.record_function(f"Optimizer.step#{type(self).__name__}.step"):
            return hooked(self, *args, **kwargs)

    return profiled


def _take_names(group: dict[str, Any]) -> None:
    """torch's named parameters: ``(name, tensor)`` pairs give the group its ``param_names``
    (all of its parameters named, or none)."""
    names = [p[0] for p in group["params"] if isinstance(p, tuple)]
    group["params"] = [p[1] if isinstance(p, tuple) else p for p in group["params"]]
    if names:
        if len(names) != len(group["params"]):
            raise ValueError("all optimizer params should be with/without names. Some param "
                             "names are missing")
        group["param_names"] = names


# the devices torch captures on, as its foreach kernels (and some optimizers) list them
CAPTURABLE_NO_XLA = ("cuda", "xpu", "hpu", "privateuseone")


class Optimizer:
    """Base class of optimizers: subclasses pass their ``defaults`` and define ``step``.

    ``params`` is an iterable of tensors, or of dicts ``{"params": [...], "lr": ...}`` (one
    per parameter group; missing settings come from ``defaults``).
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "step" in cls.__dict__:  # profiled as torch's: one labelled block per step
            cls.step = _hooked_step(cls.__dict__["step"])

    # the group settings in the order torch's step reads them (a loaded group that lacks
    # one fails there, with torch's KeyError)
    _settings: tuple[str, ...] = ()
    # torch's __setstate__ after a load: the settings a loaded group may lack, and the state
    # entries a parameter's state must have once it has any (numbers made float32 tensors)
    _loaded_defaults: dict[str, Any] = {"foreach": None, "maximize": False,
                                        "differentiable": False}
    _loaded_scalars: tuple[str, ...] = ()  # (torch's base checks none; its elementwise ones do)
    # whether torch wraps the step in _use_grad_for_differentiable, which takes its self
    # from the arguments a step pre-hook may have replaced
    _step_reads_self = True
    # torch's capturable=True refusal off the devices its kernels capture on: what it names
    _capturable_what = "params and state_steps"
    _capturable_devices: tuple[str, ...] = (*CAPTURABLE_NO_XLA, "xla")
    # what torch's foreach kernel names instead, and its devices, where they differ
    _foreach_capturable: tuple[str, tuple[str, ...]] | None = None

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {typename(params)}")
        self.defaults = defaults
        self._optimizer_step_pre_hooks: dict[int, Any] = {}
        self._optimizer_step_post_hooks: dict[int, Any] = {}
        self._optimizer_state_dict_pre_hooks: dict[int, Any] = {}
        self._optimizer_state_dict_post_hooks: dict[int, Any] = {}
        self._optimizer_load_state_dict_pre_hooks: dict[int, Any] = {}
        self._optimizer_load_state_dict_post_hooks: dict[int, Any] = {}
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        if defaults.get("fused"):
            if defaults.get("differentiable"):
                raise RuntimeError("`fused` does not support `differentiable`")
            if defaults.get("foreach"):
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def __getstate__(self) -> dict[str, Any]:
        """torch's pickled state: the settings, the state and the groups (not the hooks, nor
        a scheduler's wrapper of ``step``, which cannot be pickled)."""
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """torch's unpickling: the state, with no hooks.

        >>> import pickle
        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
        >>> pickle.loads(pickle.dumps(opt)).param_groups[0]["lr"]
        0.1
        """
        self.__dict__.update(state)
        for kind in ("step_pre", "step_post", "state_dict_pre", "state_dict_post",
                     "load_state_dict_pre", "load_state_dict_post"):
            self.__dict__.setdefault(f"_optimizer_{kind}_hooks", {})
        self.defaults.setdefault("differentiable", False)

    def _check_update(self, p: Tensor, group: dict[str, Any]) -> None:
        """torch's refusals of updating ``p`` as its group asks: capturable=True off the
        devices torch captures on; with ``differentiable`` (torch's step runs in grad mode)
        an in-place write into a leaf that requires grad."""
        what, devices = self._capturable_what, self._capturable_devices
        if group.get("foreach") and self._foreach_capturable is not None:
            what, devices = self._foreach_capturable
        if group.get("capturable") and p.device.type not in devices:
            raise AssertionError(f"If capturable=True, {what} must be on "
                                 f"supported devices: {list(devices)}.")
        if self.defaults.get("differentiable") and p.requires_grad:
            if not p.is_leaf:  # torch records the step into p's graph; minitorch cannot
                raise NotImplementedError("minitorch's optimizers do not differentiate "
                                          "through a step: differentiable=True needs leaves")
            raise RuntimeError("a leaf Variable that requires grad is being used in an "
                               "in-place operation.")

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters with its own settings (e.g. a smaller ``lr``)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        if "params" not in param_group:  # torch reads it as a dict's item
            raise KeyError("params")
        params = param_group["params"]
        if isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        # torch's key order: the group's own (params first, as usually given), then defaults
        group = {**param_group, "params": [params] if isinstance(params, Tensor) else list(params)}
        _take_names(group)
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        for p in group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{typename(p)}")
            if not self.defaults.get("differentiable") and not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        if len(set(group["params"])) != len(group["params"]):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        for other in self.param_groups:
            if ("param_names" in group) != ("param_names" in other):
                raise ValueError("all optimizer param groups should be with/without names. "
                                 "cannot add param group "
                                 f"{'with' if 'param_names' in group else 'without'} names to "
                                 "the optimizer")
        taken = {p for g in self.param_groups for p in g["params"]}
        if any(p in taken for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def register_step_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(optimizer, args, kwargs)`` before each ``step``; a returned
        ``(args, kwargs)`` replaces the step's arguments.

        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
        >>> _ = opt.register_step_pre_hook(lambda o, args, kwargs: print("stepping"))
        >>> opt.step()
        stepping
        """
        return add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(optimizer, args, kwargs)`` after each ``step``.

        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
        >>> opt.register_step_post_hook(lambda o, args, kwargs: None).remove()
        """
        return add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook: Callable[..., Any],
                                     prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer)`` before ``state_dict`` builds its dict.

        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
        >>> _ = opt.register_state_dict_pre_hook(lambda o: print("saving"))
        >>> _ = opt.state_dict()
        saving
        """
        return add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook: Callable[..., Any],
                                      prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer, state_dict)`` on the built dict; a returned dict replaces it.

        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
        >>> _ = opt.register_state_dict_post_hook(lambda o, sd: {**sd, "note": 1})
        >>> opt.state_dict()["note"]
        1
        """
        return add_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any],
                                          prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer, state_dict)`` before loading; a returned dict is loaded
        instead.

        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
        >>> opt.register_load_state_dict_pre_hook(lambda o, sd: None).remove()
        """
        return add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any],
                                           prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer)`` after loading.

        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
        >>> opt.register_load_state_dict_post_hook(lambda o: None).remove()
        """
        return add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

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
        for pre_hook in list(self._optimizer_state_dict_pre_hooks.values()):
            pre_hook(self)
        index = {id(p): i for i, p in enumerate(self._all_params())}
        groups = []  # torch's: the settings, then the parameters' positions
        for g in self.param_groups:
            packed = {k: v for k, v in g.items() if k != "params"}
            packed["params"] = [index[id(p)] for p in g["params"]]
            groups.append(packed)
        # torch's: the state's own values, keys that are not parameters kept as they are
        state = {index[id(p)] if isinstance(p, Tensor) else p: s for p, s in self.state.items()}
        state_dict = {"state": state, "param_groups": groups}
        for post_hook in list(self._optimizer_state_dict_post_hooks.values()):
            result = post_hook(self, state_dict)
            state_dict = state_dict if result is None else result
        return state_dict

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the state and settings saved by ``state_dict`` (tensors are copied)."""
        state_dict = state_dict.copy()  # as torch's first step (a non-dict fails there)
        for pre_hook in list(self._optimizer_load_state_dict_pre_hooks.values()):
            result = pre_hook(self, state_dict)
            state_dict = state_dict if result is None else result
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(a["params"]) != len(b["params"]) for a, b in zip(groups, self.param_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        param_of = dict(zip((i for g in groups for i in g["params"]), self._all_params()))
        self.state = defaultdict(dict)
        for i, saved in state_dict["state"].items():  # state of no parameter kept as it is
            if i in param_of:
                self.state[param_of[i]] = _copied(saved)
            else:
                self.state[i] = saved
        # torch's: the saved settings replace the groups' (a setting left out stays out)
        self.param_groups = [{**saved, "params": group["params"], **(
            {"param_names": group["param_names"]} if "param_names" in group else {})}
            for group, saved in zip(self.param_groups, copy.deepcopy(groups))]
        self._settle_loaded()
        for post_hook in list(self._optimizer_load_state_dict_post_hooks.values()):
            post_hook(self)

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
        if "betas" in self._settings:  # torch's step unpacks them for every group, even empty
            _args.python_unpack(group["betas"], 2)
        return plain_settings(group)

    def _all_params(self) -> list[Tensor]:
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

    >>> from minitorch.optim.optimizer import plain_settings
    >>> plain_settings({"params": [], "lr": minitorch.tensor(0.5)})["lr"]
    0.5
    """
    return _Settings(group)


class _Settings(dict):
    """A group's settings, each tensor read as the number it holds only when the update
    uses it: torch's step reads a setting where its update does (none when no parameter
    has a gradient)."""

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if key == "params":
            return value
        if key in _TESTED and isinstance(value, Tensor) and value.numel() != 1:
            bool(value != 0)  # torch's refusal of a tensor of several (or no) values
        if key in _PAIRS and isinstance(value, Tensor) and value.dim():
            return tuple(_plain(v) for v in value)  # torch unpacks a tensor's rows
        return bool(value) if key in _FLAGS and isinstance(value, Tensor) else _plain(value)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default  # noqa: SIM401 (dict.get skips [])

    def raw(self, key: str) -> Any:
        """The setting as the group holds it (a tensor stays one)."""
        return super().__getitem__(key)


_FLAGS = frozenset({"maximize", "amsgrad", "nesterov", "centered", "decoupled_weight_decay",
                    "foreach", "capturable", "differentiable"})
"""Settings torch's step reads in an ``if``: a tensor of several values is ambiguous there."""


_PAIRS = frozenset({"betas", "etas", "step_sizes"})
"""Settings torch's step unpacks into two (``beta1, beta2 = group["betas"]``)."""


_TESTED = frozenset({"weight_decay", "momentum", "t0"})
"""Settings torch's step first reads in an ``if`` (``weight_decay != 0``)."""


def _plain(value: Any) -> Any:
    if isinstance(value, Tensor) or (_args.holds_number(value) and not _narrow(value)):
        return value.item()  # (a numpy scalar as wide as Python's number, which torch's ops
        # read as one: it widens no float32 update, as numpy's float64 would)
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return value


def _narrow(number: Any) -> bool:
    """Whether a numpy scalar is narrower than Python's number of its kind (float16 and
    float32, complex64), which Python's arithmetic in torch's step keeps narrow."""
    kind, size = number.dtype.kind, number.dtype.itemsize
    return kind in "fc" and size < (16 if kind == "c" else 8)
