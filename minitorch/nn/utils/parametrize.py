"""``nn.utils.parametrize``: a tensor of a module computed, on every read, from others.

``register_parametrization(module, "weight", p)`` moves ``module.weight`` to
``module.parametrizations.weight.original`` and makes ``module.weight`` a property that
returns ``p(original)``: gradients flow through ``p`` to the original, and an optimizer
updates the original. As torch does, the module's class is swapped for a subclass
(``ParametrizedLinear``) that carries the property.

>>> import minitorch
>>> from minitorch import nn
>>> from minitorch.nn.utils import parametrize
>>> class Symmetric(nn.Module):
...     def forward(self, X):
...         return X.triu() + X.triu(1).T
>>> layer = parametrize.register_parametrization(nn.Linear(2, 2), "weight", Symmetric())
>>> type(layer).__name__, list(layer.state_dict())
('ParametrizedLinear', ['bias', 'parametrizations.weight.original'])
>>> bool((layer.weight == layer.weight.T).all())
True
"""

from __future__ import annotations

import collections.abc
import contextlib
import copyreg
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from copy import deepcopy
from typing import Any

from ..._tensor import Tensor
from ...autograd import grad_mode
from ..container import ModuleDict, ModuleList
from ..module import Module
from ..parameter import Parameter

__all__ = ["ParametrizationList", "cached", "is_parametrized", "register_parametrization",
           "remove_parametrizations", "transfer_parametrizations_and_params",
           "type_before_parametrizations"]

_cache_enabled = 0
_cache: dict[tuple[int, str], Tensor] = {}


@contextmanager
def cached() -> Iterator[None]:
    """Compute each parametrized tensor once inside the block, on its first read.

    >>> from minitorch.nn.utils import parametrize as P
    >>> class Noisy(nn.Module):
    ...     def forward(self, X):
    ...         print("computed")
    ...         return X
    >>> layer = P.register_parametrization(nn.Linear(2, 2), "weight", Noisy())
    computed
    >>> with P.cached():
    ...     w = layer.weight + layer.weight
    computed
    """
    global _cache, _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module: Module, name: str, X: Tensor) -> None:
    if isinstance(X, Parameter):
        module.register_parameter(name, X)
    else:
        module.register_buffer(name, X)


def _maybe_set(dest: Tensor, src: Tensor) -> None:
    """Give ``dest`` the values (and shape) of ``src``, keeping ``dest``'s identity (torch's
    ``set_``): an optimizer holding ``dest`` keeps working."""
    dest.data = src


def _check_consistent(what: str, X: Any, Y: Tensor, tensor_name: str) -> None:
    """Registering ``what`` kept the dtype and shape of ``Y`` (else torch's ValueError)."""
    got = f"parametrization(module.{tensor_name}).{{}}" if what == "forward" else "returned {}"
    if not isinstance(X, Tensor):
        raise ValueError(f"A parametrization must return a tensor. Got {type(X).__name__}."
                         if what == "forward" else
                         f"parametrization.right_inverse must return a tensor. Got: "
                         f"{type(X).__name__}")
    for attr in ("dtype", "shape"):
        if getattr(X, attr) != getattr(Y, attr):
            head = (f"Registering a parametrization may not change the {attr} of the tensor, "
                    "unless the `unsafe` flag is enabled.\n" if what == "forward" else
                    f"The tensor returned by parametrization.right_inverse must have the same "
                    f"{attr} as module.{tensor_name}, unless the `unsafe` flag is enabled.\n")
            raise ValueError(f"{head}module.{tensor_name}.{attr}: {getattr(Y, attr)}\n"
                             f"{got.format(attr)}: {getattr(X, attr)}")


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, in registration order, and the original
    tensor(s) they start from: ``original``, or ``original0``, ``original1``, ... when the
    first parametrization's ``right_inverse`` returns several.

    >>> from minitorch.nn.utils import parametrize as P
    >>> P.register_parametrization(nn.Linear(3, 2), "weight", nn.Tanh()).parametrizations.weight
    ParametrizationList(
      (0): Tanh()
    )
    """

    def __init__(self, modules: Sequence[Module], original: Tensor,
                 unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        shape = original.shape  # (torch reads the shape first; right_inverse may set them)
        before = {"dtype": original.dtype, "shape": shape}
        with grad_mode.no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    with contextlib.suppress(NotImplementedError):
                        new = module.right_inverse(new)
        if not isinstance(new, (Tensor, Sequence)):
            raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors "
                             f"(list, tuple...). Got {type(new).__name__}")
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            self._adopt_one(original, new)
        else:
            self._adopt_several(original, new)
        if not self.unsafe:
            self._check_forward(before)

    def _adopt_one(self, original: Tensor, new: Tensor) -> None:
        if original.dtype != new.dtype:
            raise ValueError("When `right_inverse` outputs one tensor, it may not change the "
                             f"dtype.\noriginal.dtype: {original.dtype}\n"
                             f"right_inverse(original).dtype: {new.dtype}")
        with grad_mode.no_grad():
            _maybe_set(original, new)
        _register_parameter_or_buffer(self, "original", original)

    def _adopt_several(self, original: Tensor, new: Sequence) -> None:
        for i, originali in enumerate(new):
            if not isinstance(originali, Tensor):
                raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors "
                                 f"(list, tuple...). Got element {i} of the sequence with type "
                                 f"{type(originali).__name__}.")
            if isinstance(original, Parameter):
                originali = Parameter(originali, original.requires_grad)
            originali.requires_grad_(original.requires_grad)
            _register_parameter_or_buffer(self, f"original{i}", originali)

    def _check_forward(self, before: dict) -> None:
        Z = self()
        if not isinstance(Z, Tensor):
            raise ValueError(f"A parametrization must return a tensor. Got {type(Z).__name__}.")
        for attr in ("dtype", "shape"):
            if getattr(Z, attr) != before[attr]:
                raise ValueError(
                    f"Registering a parametrization may not change the {attr} of the tensor, "
                    f"unless `unsafe` flag is enabled.\nunparametrized {attr}: "
                    f"{before[attr]}\nparametrized {attr}: {getattr(Z, attr)}")

    def right_inverse(self, value: Tensor) -> None:
        """Store in the original(s) the tensor(s) the parametrizations, run backwards through
        their ``right_inverse``, give for ``value`` (what ``module.weight = value`` does)."""
        with grad_mode.no_grad():
            for module in reversed(self):
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(f"parametrization {type(module).__name__} does not "
                                       "implement right_inverse.")
                value = module.right_inverse(value)
            if self.is_tensor:
                self._store_one(value)
            else:
                self._store_several(value)

    def _store_one(self, value: Any) -> None:
        if not isinstance(value, Tensor):
            raise ValueError(f"`right_inverse` should return a tensor. Got {type(value).__name__}")
        if value.dtype != self.original.dtype:
            raise ValueError(f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                             f"while `original` has dtype {self.original.dtype}")
        _maybe_set(self.original, value)

    def _store_several(self, value: Any) -> None:
        if not isinstance(value, collections.abc.Sequence):
            raise ValueError("'right_inverse' must return a sequence of tensors. "
                             f"Got {type(value).__name__}.")
        if len(value) != self.ntensors:
            raise ValueError("'right_inverse' must return a sequence of tensors of length "
                             f"{self.ntensors}. Got a sequence of length {len(value)}.")
        for i, tensor in enumerate(value):
            original_i = getattr(self, f"original{i}")
            if not isinstance(tensor, Tensor):
                raise ValueError("'right_inverse' must return a sequence of tensors or "
                                 f"reference-type opaques. Got element {i} of type "
                                 f"{type(tensor).__name__}.")
            if original_i.dtype != tensor.dtype:
                raise ValueError(f"Tensor {i} returned by `right_inverse` has dtype "
                                 f"{tensor.dtype} while `original{i}` has dtype "
                                 f"{original_i.dtype}")
            _maybe_set(original_i, tensor)

    def forward(self) -> Tensor:
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            x = module(x)
        return x


def _default_deepcopy(self: Module, memo: dict) -> Module:
    if id(self) in memo:
        return memo[id(self)]
    replica = self.__new__(self.__class__)
    memo[id(self)] = replica
    replica.__dict__ = deepcopy(self.__dict__, memo)
    for slot in copyreg._slotnames(self.__class__):  # type: ignore[attr-defined]
        if hasattr(self, slot):
            setattr(replica, slot, deepcopy(getattr(self, slot), memo))
    return replica


def _getstate(self: Module) -> None:
    raise RuntimeError(
        "Serialization of parametrized modules is only supported through state_dict(). See:\n"
        "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
        "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training")


def _inject_new_class(module: Module) -> None:
    """Swap the module's class for a ``Parametrized<Name>`` subclass, the home of the
    properties (a property on the class would otherwise reach every instance)."""
    cls = module.__class__
    namespace: dict[str, Any] = {"__getstate__": _getstate}
    if not hasattr(cls, "__deepcopy__"):
        namespace["__deepcopy__"] = _default_deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), namespace)


def _inject_property(module: Module, tensor_name: str) -> None:
    def get_parametrized(self: Module) -> Tensor:
        parametrization = self.parametrizations[tensor_name]
        if not _cache_enabled:
            return parametrization()
        key = (id(self), tensor_name)
        if key not in _cache:
            _cache[key] = parametrization()
        return _cache[key]

    def set_original(self: Module, value: Tensor) -> None:
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def register_parametrization(module: Module, tensor_name: str, parametrization: Module, *,
                             unsafe: bool = False) -> Module:
    """Make ``module.<tensor_name>`` the output of ``parametrization`` applied to the
    original tensor (or to the previous parametrization's output, when it is parametrized
    already). With ``unsafe``, the parametrization may change the shape and dtype.

    >>> from minitorch.nn.utils import parametrize as P
    >>> m = P.register_parametrization(nn.Linear(2, 2), "bias", nn.Tanh())
    >>> [name for name, _ in m.named_parameters()]
    ['weight', 'parametrizations.bias.original']
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            Y = getattr(module, tensor_name)
            X = parametrization(Y)
            _check_consistent("forward", X, Y, tensor_name)
            if hasattr(parametrization, "right_inverse"):
                try:
                    Z = parametrization.right_inverse(X)
                except NotImplementedError:
                    pass
                else:
                    _check_consistent("right_inverse", Z, Y, tensor_name)
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a "
                         f"parametrized element with name '{tensor_name}'")
    return module


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether ``module`` has a parametrization on ``tensor_name`` (on any tensor if None).

    >>> from minitorch.nn.utils import parametrize as P
    >>> m = P.register_parametrization(nn.Linear(2, 2), "bias", nn.Tanh())
    >>> P.is_parametrized(m, "bias"), P.is_parametrized(m, "weight"), P.is_parametrized(m)
    (True, False, True)
    """
    parametrizations = module.__dict__.get("parametrizations")
    if not isinstance(parametrizations, ModuleDict):
        return False
    return len(parametrizations) > 0 if tensor_name is None else tensor_name in parametrizations


def remove_parametrizations(module: Module, tensor_name: str,
                            leave_parametrized: bool = True) -> Module:
    """Make ``module.<tensor_name>`` a plain parameter (or buffer) again: its current
    parametrized value, or with ``leave_parametrized=False`` the original's value.

    >>> from minitorch.nn.utils import parametrize as P
    >>> m = P.register_parametrization(nn.Linear(2, 2), "bias", nn.Tanh())
    >>> type(P.remove_parametrizations(m, "bias")).__name__
    'Linear'
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with grad_mode.no_grad():
                _maybe_set(original, getattr(module, tensor_name))
    elif leave_parametrized:
        t = getattr(module, tensor_name)
        original = Parameter(t) if t.requires_grad else t
    else:
        raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor "
                         "that is parametrized in terms of a sequence of tensors.")
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """The module's class before parametrizations swapped it.

    >>> from minitorch.nn.utils import parametrize as P
    >>> m = P.register_parametrization(nn.Linear(2, 2), "bias", nn.Tanh())
    >>> type(m).__name__, P.type_before_parametrizations(m).__name__
    ('ParametrizedLinear', 'Linear')
    """
    return module.__class__.__bases__[0] if is_parametrized(module) else type(module)


def transfer_parametrizations_and_params(from_module: Module, to_module: Module,
                                         tensor_name: str | None = None) -> Module:
    """Register ``from_module``'s parametrizations (of ``tensor_name``, or all) on
    ``to_module`` too, sharing their original tensors.

    >>> from minitorch.nn.utils import parametrize as P
    >>> m = P.register_parametrization(nn.Linear(2, 2), "bias", nn.Tanh())
    >>> other = P.transfer_parametrizations_and_params(m, nn.Linear(2, 2))
    >>> other.parametrizations.bias.original is m.parametrizations.bias.original
    True
    """
    if not is_parametrized(from_module):
        return to_module
    names = list(from_module.parametrizations) if tensor_name is None else [tensor_name]
    for name in names:
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        source = from_module.parametrizations[name]
        for param_func in source:
            register_parametrization(to_module, name, param_func)
        target = to_module.parametrizations[name]
        originals = ["original"] if hasattr(source, "original") else [
            f"original{i}" for i in range(source.ntensors)]
        for original in originals:
            setattr(target, original, getattr(source, original))
    return to_module
