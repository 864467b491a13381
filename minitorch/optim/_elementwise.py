"""What the adaptive optimizers (Adam, AdamW, RMSprop, Adagrad) share: checked settings, a
``step`` that updates each parameter with a gradient, and array helpers for the update.

The update works on arrays, not on recorded Tensor operations: a step is never part of a
graph, and each parameter's version is bumped so saved-tensor checks stay honest.

>>> import minitorch
>>> from minitorch import optim
>>> check_settings(lr=0.1, eps=1e-8)
>>> check_settings(lr=-1)
Traceback (most recent call last):
ValueError: Invalid learning rate: -1
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _args
from .._args import OMITTED
from .._tensor import Tensor, broadcast_error, broadcast_pair, check_output_shape
from .optimizer import Optimizer

__all__ = ["ElementwiseOptimizer", "check_settings", "check_tensor_lr", "inplace_shape",
           "op_number", "setting", "state_tensor", "weight_decay_of"]

_NAMES = {"lr": "learning rate", "eps": "epsilon value", "weight_decay": "weight_decay value",
          "momentum": "momentum value", "alpha": "alpha value", "lr_decay": "lr_decay value",
          "initial_accumulator_value": "initial_accumulator_value value",
          "momentum_decay": "momentum_decay value"}


def check_tensor_lr(lr: Any) -> None:
    """torch takes a tensor ``lr`` of one element only.

    >>> from minitorch.optim._elementwise import check_tensor_lr
    >>> check_tensor_lr(minitorch.ones(2))
    Traceback (most recent call last):
    ValueError: Tensor lr must be 1-element
    """
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")


def check_settings(betas: Any = OMITTED, same_kind_betas: bool = True, **settings: Any) -> None:
    """torch's ValueError for a negative (or nan) setting, a tensor ``lr`` of several
    elements, or ``betas`` (when given) outside [0, 1) or, where torch checks it
    (``same_kind_betas``: Adam's), of mixed kinds; torch's own comparisons and indexing, so a
    setting that is no number fails as in torch."""
    check_tensor_lr(settings.get("lr"))
    keys = list(settings)
    betas_after = keys[:keys.index("eps") + 1] if "eps" in keys else keys  # torch's order
    for key in betas_after:
        _check_nonnegative(key, settings[key])
    if betas is not OMITTED:
        _check_betas(betas)
    for key in keys[len(betas_after):]:
        _check_nonnegative(key, settings[key])
    if betas is not OMITTED and same_kind_betas and not (
            all(isinstance(b, float) for b in betas[:2]) or
            all(isinstance(b, Tensor) for b in betas[:2])):
        raise ValueError("betas must be either both floats or both Tensors")


def _check_nonnegative(key: str, value: Any) -> None:
    if not _args.python_op(0.0, "<=", value):  # (torch's operand order names the types)
        raise ValueError(f"Invalid {_NAMES[key]}: {value}")


def _check_betas(betas: Any) -> None:
    for i in range(2):  # torch reads betas[0] and betas[1]
        beta = _args.python_item(betas, i)
        if not (_args.python_op(0.0, "<=", beta) and _args.python_op(beta, "<", 1.0)):
            raise ValueError(f"Invalid beta parameter at index {i}: {beta}")


def setting(group: dict, key: str, op: str, arg: str, position: int | None = None,
            negated: bool = False, into: Any = None) -> Any:
    """``group[key]`` where torch's step hands it to the tensor op ``op`` as ``arg``: a
    setting that is no number (one edited into ``param_groups``) gets torch's parser refusal
    there, not numpy's. A positional ``arg`` is a Tensor one (numbers pass too); a keyword
    one (``alpha``, ``value``) takes a Number only; ``negated``: torch hands it ``-value``.
    ``into``: the tensor (or array) the in-place op writes, whose shape a tensor setting (or
    a value of its shape) must broadcast to, as torch's in-place ops require.

    >>> setting({"eps": "x"}, "eps", "add_", "other", 1)
    Traceback (most recent call last):
    TypeError: add_(): argument 'other' (position 1) must be Tensor, not str
    >>> setting({"weight_decay": None}, "weight_decay", "add", "alpha")
    Traceback (most recent call last):
    TypeError: add(): argument 'alpha' must be Number, not NoneType
    >>> setting({"eps": minitorch.tensor([[0.1]])}, "eps", "add_", "other", 1,
    ...         into=minitorch.ones(2))
    Traceback (most recent call last):
    RuntimeError: output with shape [2] doesn't match the broadcast shape [1, 2]
    """
    value = group.raw(key) if hasattr(group, "raw") else group[key]
    if key in _SQUEEZED and isinstance(value, Tensor):
        value = value.squeeze()  # torch's _to_scalar: one element of any shape is 0-d
    op_number(_args.python_negative(value) if negated else value, op, arg, position)
    if into is not None:
        inplace_shape(value, into)
    return -group[key] if negated else group[key]


_SQUEEZED = frozenset({"lr", "betas"})


def inplace_shape(value: Any, into: Any) -> None:
    """torch's refusal of an in-place write into ``into`` (a tensor or array) of a value shaped
    as the tensor setting ``value`` (numbers pass): it must broadcast to ``into``'s shape.

    >>> inplace_shape(minitorch.tensor([0.5]), minitorch.tensor(1.0))
    Traceback (most recent call last):
    RuntimeError: output with shape [] doesn't match the broadcast shape [1]
    """
    if isinstance(value, Tensor):
        check_output_shape(tuple(into.shape), broadcast_pair(into, value))


def op_number(value: Any, op: str, arg: str, position: int | None = None) -> Any:
    """``value`` as torch's parser takes it as the argument ``arg`` of the tensor op ``op``
    (see ``setting``).

    >>> op_number("a", "mul_", "other", 1)
    Traceback (most recent call last):
    TypeError: mul_(): argument 'other' (position 1) must be Tensor, not str
    """
    if position is not None and isinstance(value, Tensor):
        return value
    if position is not None and not isinstance(value, (int, float, complex)) and \
            not _args.holds_number(value):  # (a numpy scalar is a number to torch's parser)
        _args.tensor_args(op, (value, arg, position))
    _args.number_types(op, (value, arg, position))
    return value


def check_fused(kernel: str, lists: int, keywords: dict, flags: tuple, signature: str) -> None:
    """torch's parse of its fused kernel's keywords (given in the reverse of its listing):
    ``flags`` take a bool only, ``lr`` a number or a tensor, the rest a number or a 0-d
    tensor that needs no grad; ``signature`` is the float-``lr`` overload.

    >>> check_fused("_k_", 1, {"maximize": 1}, ("maximize",), "tuple of Tensors self, *, "
    ...             "bool maximize")
    Traceback (most recent call last):
    TypeError: _k_() received an invalid combination of arguments - got (list, maximize=int), \
but expected (tuple of Tensors self, *, bool maximize)
    """
    def fits(key: str, value: Any) -> bool:
        if key in flags:
            return isinstance(value, bool)
        if key in ("grad_scale", "found_inf"):
            return value is None
        if isinstance(value, Tensor):
            return key == "lr" or (value.dim() == 0 and not value.requires_grad)
        return isinstance(value, (int, float))

    if not all(fits(key, value) for key, value in keywords.items()):
        tensor_lr = signature.replace("float lr", "Tensor lr")
        signatures = (tensor_lr, signature) if tensor_lr != signature else (signature,)
        raise _args.invalid_combination(kernel, ([],) * lists, *signatures, keywords=keywords)


def weight_decay_of(group: dict) -> Any:
    """``group``'s weight decay, as torch's ``grad.add(p, alpha=weight_decay)`` takes it (its
    fused kernel reads a double: a bool is its number there, not add's refused bool alpha)."""
    value = setting(group, "weight_decay", "add", "alpha")
    return float(value) if group.get("fused") and isinstance(value, bool) else value


def state_tensor(array: Any) -> Tensor:
    """A state entry (a moment, a step count) as a tensor, as torch keeps it."""
    return Tensor._make(array)


class ElementwiseOptimizer(Optimizer):
    """An optimizer whose ``_update(p, grad, state, group)`` changes ``p._data`` in place."""

    _state: tuple[str, ...] = ()  # a parameter's state entries, in the order torch reads them
    _loaded_scalars: tuple[str, ...] = ("step",)  # (each one's __setstate__ reads its step)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; returns ``closure()`` if given."""
        loss = self._closure_loss(closure)
        for group in map(self._settings_of, self.param_groups):
            for p in group["params"]:
                if p._grad is None:
                    continue
                grad = p._grad._data
                state = self._loaded_state(p, self.state[p], group)
                self._check_update(p, group)
                self._update(p, -grad if group["maximize"] else grad, state, group)
                p._version_counter.value += 1
        return loss

    def _update(self, p: Tensor, grad: Any, state: dict, group: dict) -> None:
        raise NotImplementedError

    def _state_keys(self, group: dict) -> tuple[str, ...]:
        return self._state

    def _loaded_state(self, p: Tensor, state: dict, group: dict) -> dict:
        """``state``, whose entries torch reads once it has any (it fills in only an empty
        one): a loaded state that lacks one raises torch's KeyError, one of another shape
        (another parameter's) torch's error of its update."""
        if not state:
            return state
        keys = self._state_keys(group)
        for key in keys:
            if key not in state:
                raise KeyError(key)
        for key in keys:
            value = state[key]
            if (key not in self._loaded_scalars and isinstance(value, Tensor)
                    and value.shape != p.shape):
                raise broadcast_error(value, p)
        return state

    @staticmethod
    def _zeros_state(p: Tensor, state: dict, *names: str) -> list[Tensor]:
        """The state entries ``names``, created as zeros shaped like ``p`` the first time."""
        for name in names:
            if name not in state:
                state[name] = state_tensor(p._xp.zeros_like(p._data))
        return [state[name] for name in names]

    @staticmethod
    def _count_step(p: Tensor, state: dict) -> float:
        """Add one to ``state["step"]`` (a float32 0-d tensor, as torch's) and return it."""
        xp = p._xp
        if "step" not in state:
            state["step"] = state_tensor(xp.zeros((), dtype=xp.float32))
        step = state["step"]
        step._data = step._data + 1
        return float(step._data)
