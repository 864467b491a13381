"""``nn.utils.prune``: zero out part of a parameter through a mask, as torch's pruning does.

Pruning ``module.weight`` replaces the parameter by ``weight_orig`` (the same Parameter,
still trained) and a buffer ``weight_mask`` of zeros and ones; ``module.weight`` becomes the
plain tensor ``weight_mask * weight_orig``, recomputed before every forward by the pruning
method itself, registered as a forward pre-hook. Pruning the same tensor again combines the
methods in a :class:`PruningContainer` (the new mask only prunes what the old one kept);
:func:`remove` makes the pruning permanent (``weight`` a Parameter again, holding zeros).

Methods choose what to prune: at random (:class:`RandomUnstructured`, drawn with the same
``rand`` as torch, so the same seed prunes the same entries), by smallest magnitude
(:class:`L1Unstructured`), whole channels by norm or at random (:class:`LnStructured`,
:class:`RandomStructured`), or a given mask (:class:`CustomFromMask`); an ``amount`` is a
fraction of the entries (float) or a count (int).

>>> import minitorch
>>> from minitorch import nn
>>> from minitorch.nn.utils import prune
>>> m = nn.Linear(2, 2)
>>> with minitorch.no_grad():
...     _ = m.weight.copy_(minitorch.tensor([[1., -3.], [0.5, 2.]]))
>>> _ = prune.l1_unstructured(m, "weight", amount=2)
>>> m.weight_mask
tensor([[0., 1.],
        [0., 1.]])
>>> prune.is_pruned(m), sorted(name for name, _ in m.named_parameters())
(True, ['bias', 'weight_orig'])
"""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import Any

from ... import _creation, _random
from ..._tensor import Tensor
from ..module import Module
from .convert_parameters import parameters_to_vector

__all__ = ["BasePruningMethod", "CustomFromMask", "Identity", "L1Unstructured",
           "LnStructured", "PruningContainer", "RandomStructured", "RandomUnstructured",
           "custom_from_mask", "global_unstructured", "identity", "is_pruned",
           "l1_unstructured", "ln_structured", "random_structured", "random_unstructured",
           "remove"]


class BasePruningMethod(ABC):
    """A way to choose a mask for a tensor (:meth:`compute_mask`), and the forward pre-hook
    that re-applies it to ``module.<name>`` before each forward.

    >>> isinstance(Identity(), BasePruningMethod)
    True
    """

    PRUNING_TYPE: str
    _tensor_name: str

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        """The new mask for ``t``, pruning within what ``default_mask`` keeps."""

    def apply_mask(self, module: Module) -> Tensor:
        """``<name>_mask * <name>_orig`` of ``module``."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned")
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module: Module, name: str, *args: Any,
              importance_scores: Tensor | None = None, **kwargs: Any) -> BasePruningMethod:
        """Prune ``module.<name>`` with ``cls(*args, **kwargs)``, choosing by
        ``importance_scores`` (default: the tensor itself); returns the hook installed."""
        method = _merged_with_earlier(cls(*args, **kwargs), module, name)
        orig = getattr(module, name)
        if importance_scores is not None:
            if importance_scores.shape != orig.shape:
                raise AssertionError(f"importance_scores should have the same shape as "
                                     f"parameter {name} of {module}, got "
                                     f"{importance_scores.shape} vs {orig.shape}")
        else:
            importance_scores = orig
        first = not isinstance(method, PruningContainer)
        if first:  # the parameter moves to <name>_orig
            module.register_parameter(name + "_orig", orig)
            _unregister(module, module._parameters, name)
            default_mask = _creation.ones_like(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone()
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if first:  # put the parameter back
                module.register_parameter(name, getattr(module, name + "_orig"))
                _unregister(module, module._parameters, name + "_orig")
            raise
        return method

    def prune(self, t: Tensor, default_mask: Tensor | None = None,
              importance_scores: Tensor | None = None) -> Tensor:
        """``t`` times the mask this method computes for it (no module involved)."""
        if importance_scores is not None:
            if importance_scores.shape != t.shape:
                raise AssertionError(f"importance_scores should have the same shape as tensor "
                                     f"t, got {importance_scores.shape} vs {t.shape}")
        else:
            importance_scores = t
        default_mask = default_mask if default_mask is not None else _creation.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module: Module) -> None:
        """Make the pruning permanent: ``<name>`` the Parameter ``<name>_orig`` holding the
        pruned values; ``<name>_orig`` and ``<name>_mask`` go."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned before pruning can be "
                                 "removed")
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        _unregister(module, module._parameters, self._tensor_name + "_orig")
        _unregister(module, module._buffers, self._tensor_name + "_mask")
        setattr(module, self._tensor_name, orig)


def _unregister(module: Module, registry: dict, name: str) -> None:
    """torch's ``del module._parameters[name]`` (or ``_buffers``): minitorch's Module also
    keeps each registered tensor in its instance dict, for fast attribute reads."""
    del registry[name]
    module.__dict__.pop(name, None)


def _merged_with_earlier(method: BasePruningMethod, module: Module, name: str
                         ) -> BasePruningMethod:
    """``method`` for ``module.<name>``, taking the place of the pruning hook already there
    (if any): the two go into one PruningContainer, or ``method`` joins the container."""
    method._tensor_name = name
    earlier = [(key, hook) for key, hook in module._forward_pre_hooks.items()
               if isinstance(hook, BasePruningMethod) and hook._tensor_name == name]
    if len(earlier) > 1:
        raise AssertionError(f"Avoid adding multiple pruning hooks to the same tensor {name} of "
                             f"module {module}. Use a PruningContainer.")
    if not earlier:
        return method
    key, old = earlier[0]
    del module._forward_pre_hooks[key]
    container = old if isinstance(old, PruningContainer) else PruningContainer(old)
    container.add_pruning_method(method)
    return container


class PruningContainer(BasePruningMethod):
    """The pruning methods applied in turn to one tensor; its mask is the last method's,
    computed on what the earlier ones kept.

    >>> first = Identity(); first._tensor_name = "weight"
    >>> len(PruningContainer(first))
    1
    """

    def __init__(self, *methods: BasePruningMethod) -> None:
        self._pruning_methods: tuple[BasePruningMethod, ...] = ()
        if len(methods) == 1:
            self._tensor_name = methods[0]._tensor_name
        for method in methods:
            self.add_pruning_method(method)

    def add_pruning_method(self, method: BasePruningMethod) -> None:
        """Append ``method`` (it must prune the same tensor)."""
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError("Can only add pruning methods acting on the parameter named "
                             f"'{self._tensor_name}' to PruningContainer {self}. Found "
                             f"'{method._tensor_name}'")
        self._pruning_methods += (method,)

    def __len__(self) -> int:
        return len(self._pruning_methods)

    def __iter__(self) -> Iterator[BasePruningMethod]:
        return iter(self._pruning_methods)

    def __getitem__(self, idx: Any) -> Any:
        return self._pruning_methods[idx]

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        """The last method's mask, computed on the entries (unstructured) or the channels
        (structured) that ``default_mask`` still keeps."""
        method = self._pruning_methods[-1]
        mask = default_mask.to(dtype=t.dtype)
        kept = _kept(method, t, default_mask)
        mask[kept] = method.compute_mask(t[kept], default_mask=default_mask[kept]).to(
            dtype=mask.dtype)
        return mask


def _kept(method: BasePruningMethod, t: Tensor, mask: Tensor) -> Any:
    """The index of what ``method`` may still prune: entries where ``mask`` is 1, channels
    along ``method.dim`` with any 1 left, or everything (a global method)."""
    kind = method.PRUNING_TYPE
    if kind == "unstructured":
        return mask == 1
    if kind == "global":
        return (slice(None),) * t.dim()
    if kind != "structured":
        raise ValueError(f"Unrecognized PRUNING_TYPE {kind}")
    if not hasattr(method, "dim"):
        raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to have the '
                             "attribute `dim` defined.")
    dim = method.dim + t.dim() if method.dim < 0 else method.dim
    if dim < 0:
        raise IndexError(f"Index is out of bounds for tensor with dimensions {t.dim()}")
    channels = mask.sum(dim=[d for d in range(t.dim()) if d != dim]) != 0
    return tuple(channels if d == dim else slice(None) for d in range(t.dim()))


class Identity(BasePruningMethod):
    """Prunes nothing (the mask stays all ones): a tensor reparametrised as pruned.

    >>> Identity().compute_mask(minitorch.ones(2), minitorch.ones(2))
    tensor([1., 1.])
    """

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        return default_mask

    @classmethod
    def apply(cls, module: Module, name: str) -> BasePruningMethod:  # type: ignore[override]
        return super().apply(module, name)


class _Unstructured(BasePruningMethod):
    """Prunes ``amount`` single entries: those with the smallest ``_score``s."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount: float) -> None:
        _check_amount(amount)
        self.amount = amount

    def _order(self, t: Tensor, count: int) -> Tensor:
        raise NotImplementedError

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        count = _count(self.amount, t.nelement())
        mask = default_mask.clone()
        if count != 0:
            mask.view(-1)[self._order(t, count)] = 0
        return mask


class RandomUnstructured(_Unstructured):
    """Prunes ``amount`` entries chosen at random (the ``count`` largest of ``rand_like``).

    >>> RandomUnstructured(2).compute_mask(minitorch.ones(4), minitorch.ones(4)).sum()
    tensor(2.)
    """

    def _order(self, t: Tensor, count: int) -> Tensor:
        return _random.rand_like(t).view(-1).topk(k=count).indices

    @classmethod
    def apply(cls, module: Module, name: str, amount: float  # type: ignore[override]
              ) -> BasePruningMethod:
        return super().apply(module, name, amount=amount)


class L1Unstructured(_Unstructured):
    """Prunes the ``amount`` entries of smallest magnitude.

    >>> L1Unstructured(0.5).compute_mask(minitorch.tensor([3., -1., 2., 0.5]),
    ...                                  minitorch.ones(4))
    tensor([1., 0., 1., 0.])
    """

    def _order(self, t: Tensor, count: int) -> Tensor:
        return t.abs().view(-1).topk(k=count, largest=False).indices

    @classmethod
    def apply(cls, module: Module, name: str, amount: float,  # type: ignore[override]
              importance_scores: Tensor | None = None) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class _Structured(BasePruningMethod):
    """Prunes ``amount`` whole channels along ``dim``: a mask of the channels kept, times
    ``default_mask``."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount: float, dim: int = -1) -> None:
        _check_amount(amount)
        self.amount, self.dim = amount, dim

    def _channels(self, t: Tensor, channels: int, count: int) -> Tensor:
        raise NotImplementedError

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        if len(t.shape) <= 1:
            raise ValueError("Structured pruning can only be applied to multidimensional "
                             f"tensors. Found tensor of shape {t.shape} with {len(t.shape)} "
                             "dims")
        if self.dim >= t.dim():
            raise IndexError(f"Invalid index {self.dim} for tensor of size {t.shape}")
        channels = t.shape[self.dim]
        count = _count(self.amount, channels)
        kept = self._channels(t, channels, count)
        if count == 0:
            return default_mask
        mask = _creation.zeros_like(t)
        mask[tuple(kept if d == self.dim % t.dim() else slice(None)
                   for d in range(t.dim()))] = 1
        mask *= default_mask.to(dtype=mask.dtype)
        return mask


class RandomStructured(_Structured):
    """Prunes ``amount`` channels along ``dim`` at random.

    >>> m = RandomStructured(1, dim=0).compute_mask(minitorch.ones(3, 2), minitorch.ones(3, 2))
    >>> m.sum().item()
    4.0
    """

    def _channels(self, t: Tensor, channels: int, count: int) -> Tensor:
        if count == 0:
            return None
        draws = _creation.rand(channels)
        return draws > draws.kthvalue(count).values

    @classmethod
    def apply(cls, module: Module, name: str, amount: float,  # type: ignore[override]
              dim: int = -1) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(_Structured):
    """Prunes the ``amount`` channels along ``dim`` of smallest ``n``-norm.

    >>> LnStructured(1, n=2, dim=0).compute_mask(minitorch.tensor([[1., 1.], [3., 0.]]),
    ...                                          minitorch.ones(2, 2))
    tensor([[0., 0.],
            [1., 1.]])
    """

    def __init__(self, amount: float, n: Any, dim: int = -1) -> None:
        super().__init__(amount, dim)
        self.n = n

    def _channels(self, t: Tensor, channels: int, count: int) -> Tensor:
        dims = list(range(t.dim()))
        dims.remove(dims[self.dim])
        norm = t.norm(p=self.n, dim=dims)
        return norm.topk(k=channels - count, largest=True).indices

    @classmethod
    def apply(cls, module: Module, name: str, amount: float, n: Any,  # type: ignore[override]
              dim: int, importance_scores: Tensor | None = None) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, n=n, dim=dim,
                             importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prunes where a given ``mask`` is 0.

    >>> CustomFromMask(minitorch.tensor([0, 1])).compute_mask(None, minitorch.ones(2))
    tensor([0., 1.])
    """

    PRUNING_TYPE = "global"

    def __init__(self, mask: Tensor) -> None:
        self.mask = mask

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        if default_mask.shape != self.mask.shape:
            raise AssertionError(f"default_mask shape {default_mask.shape} must match "
                                 f"self.mask shape {self.mask.shape}")
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module: Module, name: str, mask: Tensor  # type: ignore[override]
              ) -> BasePruningMethod:
        return super().apply(module, name, mask=mask)


def _check_amount(amount: Any) -> None:
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    integral = isinstance(amount, numbers.Integral)
    if (integral and amount < 0) or (not integral and not 0.0 <= float(amount) <= 1.0):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a "
                         "non-negative integer")


def _count(amount: float, size: int) -> int:
    """How many of ``size`` entries or channels ``amount`` prunes (a fraction is rounded)."""
    if not isinstance(amount, numbers.Integral):
        return round(amount * size)
    if amount > size:
        raise ValueError(f"amount={amount} should be smaller than the number of parameters to "
                         f"prune={size}")
    return amount


def identity(module: Module, name: str) -> Module:
    """Reparametrise ``module.<name>`` as pruned without pruning anything."""
    Identity.apply(module, name)
    return module


def random_unstructured(module: Module, name: str, amount: float) -> Module:
    """Prune ``amount`` entries of ``module.<name>`` at random."""
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module: Module, name: str, amount: float,
                    importance_scores: Tensor | None = None) -> Module:
    """Prune the ``amount`` entries of ``module.<name>`` of smallest magnitude."""
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module: Module, name: str, amount: float, dim: int) -> Module:
    """Prune ``amount`` channels of ``module.<name>`` along ``dim`` at random."""
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module: Module, name: str, amount: float, n: Any, dim: int,
                  importance_scores: Tensor | None = None) -> Module:
    """Prune the ``amount`` channels of ``module.<name>`` along ``dim`` of smallest
    ``n``-norm."""
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module: Module, name: str, mask: Tensor) -> Module:
    """Prune ``module.<name>`` where ``mask`` is 0."""
    CustomFromMask.apply(module, name, mask)
    return module


def global_unstructured(parameters: Iterable[tuple[Module, str]], pruning_method: type,
                        importance_scores: dict | None = None, **kwargs: Any) -> None:
    """Prune the ``(module, name)`` tensors as one: ``pruning_method(**kwargs)`` (an
    unstructured one) chooses among all their entries together, then each gets its part
    of the mask (:func:`custom_from_mask`)."""
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    scores = parameters_to_vector([importance_scores.get((m, name), getattr(m, name))
                                   for m, name in parameters])
    masks = parameters_to_vector([getattr(m, name + "_mask",
                                          _creation.ones_like(getattr(m, name)))
                                  for m, name in parameters])
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. '
                        f"Found method {pruning_method} of type {method.PRUNING_TYPE}")
    container.add_pruning_method(method)
    mask = container.compute_mask(scores, masks)
    start = 0
    for m, name in parameters:
        param = getattr(m, name)
        custom_from_mask(m, name, mask=mask[start:start + param.numel()].view_as(param))
        start += param.numel()


def remove(module: Module, name: str) -> Module:
    """Make the pruning of ``module.<name>`` permanent (see the module docstring)."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning "
                     "can be removed")


def is_pruned(module: Module) -> bool:
    """Whether ``module`` or a submodule carries a pruning hook.

    >>> is_pruned(nn.Linear(1, 1))
    False
    """
    return any(isinstance(hook, BasePruningMethod) for _, sub in module.named_modules()
               for hook in sub._forward_pre_hooks.values())
