"""Containers: ``Sequential`` (modules applied one after the other), ``ModuleList`` and
``ModuleDict`` (modules held by position or by name), ``ParameterList`` and
``ParameterDict`` (parameters held the same way). Each registers what it holds, so the
owner's ``parameters()``, ``state_dict()`` and repr see it, as torch's do.

>>> import minitorch
>>> from minitorch import nn
>>> model = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
>>> len(model), model[1]
(2, ReLU())
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain
from typing import Any

from .. import _args
from .._tensor import Tensor
from .module import Module, _indent, class_repr
from .parameter import Parameter

__all__ = ["ModuleDict", "ModuleList", "ParameterDict", "ParameterList", "Sequential"]


def _position(index: Any, size: int) -> int:
    """``index`` as a position in ``[0, size)`` (negative counts from the end), with torch's
    TypeError and IndexError."""
    index = _args.python_index(index)
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of range")
    return index % size


def _dir_without_indices(self: Module) -> list[str]:
    """A list container's ``dir()``: its elements' names (``"0"``, ``"1"``) left out, as
    torch's."""
    return [key for key in Module.__dir__(self) if not key.isdigit()]


class Sequential(Module):
    """A chain of modules named ``0, 1, ...`` (or by an OrderedDict's keys).

    Index it like a list (a slice gives a Sequential), iterate it, ``append`` to it.

    >>> nn.Sequential(OrderedDict(fc=nn.Linear(1, 1)))
    Sequential(
      (fc): Linear(in_features=1, out_features=1, bias=True)
    )
    """

    __dir__ = _dir_without_indices

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def forward(self, input: Any) -> Any:
        for module in self._modules.values():
            input = module(input)
        return input

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return Sequential(OrderedDict(list(self._modules.items())[index]))
        return self._modules[self._key(index)]

    def __setitem__(self, index: int, module: Module) -> None:
        setattr(self, self._key(index), module)

    def __delitem__(self, index: int | slice) -> None:
        """Remove the module(s) at ``index``; the rest are numbered ``0, 1, ...`` again, as
        torch does."""
        keys = list(self._modules)[index] if isinstance(index, slice) else [self._key(index)]
        for key in keys:
            delattr(self, key)
        self._renumbered(list(self))

    def insert(self, index: int, module: Module) -> Sequential:
        """Put ``module`` at position ``index`` (``len(self)`` appends).

        >>> len(nn.Sequential(nn.ReLU()).insert(0, nn.Tanh()))
        2
        """
        if not isinstance(module, Module):
            raise AssertionError("module should be of type: <class "
                                 "'torch.nn.modules.module.Module'>")  # torch's words
        n = len(self)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        index = index + n if index < 0 else index
        # torch shifts the entries by their numbers as names: named ones are a KeyError
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def extend(self, sequential: Any) -> Sequential:
        """Append each module of ``sequential``."""
        for module in sequential:
            self.append(module)
        return self

    def _renumbered(self, modules: list[Module]) -> None:
        """These modules, in this order, named ``0, 1, ...``."""
        for key in list(self._modules):
            delattr(self, key)
        for position, module in enumerate(modules):
            self.add_module(str(position), module)

    def _key(self, index: int) -> str:
        """The name of the module at position ``index`` (negative counts from the end)."""
        return list(self._modules)[_position(index, len(self._modules))]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> Sequential:
        """Add ``module`` at the end.

        >>> len(nn.Sequential().append(nn.ReLU()))
        1
        """
        self.add_module(str(len(self)), module)
        return self

    def __add__(self, other: Sequential) -> Sequential:
        """A new Sequential of these modules, then ``other``'s.

        >>> len(nn.Sequential(nn.ReLU()) + nn.Sequential(nn.Tanh()))
        2
        """
        return Sequential(*self, *self._addend(other))

    def __iadd__(self, other: Sequential) -> Sequential:
        """``other``'s modules appended to this Sequential."""
        return self.extend(self._addend(other))

    @staticmethod
    def _addend(other: Any) -> Sequential:
        """``other`` if it is a Sequential, else torch's refusal."""
        if not isinstance(other, Sequential):
            raise ValueError("add operator supports only objects of Sequential class, but "
                             f"{class_repr(other)} is given.")
        return other

    def __mul__(self, other: int) -> Sequential:
        """A new Sequential of these modules ``other`` times over (the same modules).

        >>> len(nn.Sequential(nn.ReLU()) * 3)
        3
        """
        return Sequential(*list(self) * self._factor(other))

    __rmul__ = __mul__

    def __imul__(self, other: int) -> Sequential:
        """These modules repeated ``other`` times, in this Sequential."""
        for module in list(self) * (self._factor(other) - 1):
            self.append(module)
        return self

    def _factor(self, other: Any) -> int:
        """``other`` as a repeat count, refused in torch's words."""
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {class_repr(self)} and "
                            f"{class_repr(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {class_repr(self)}")
        return other

    def pop(self, index: int | slice) -> Module:
        """Remove and return the module at ``index``.

        >>> nn.Sequential(nn.ReLU(), nn.Tanh()).pop(0)
        ReLU()
        """
        module = self[index]
        del self[index]
        return module


class ModuleList(Module):
    """Modules held in a list, named ``0, 1, ...``; it has no ``forward`` of its own.

    Its repr shows a run of equal modules once, as torch's does.

    >>> nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Tanh()])
    ModuleList(
      (0-1): 2 x ReLU()
      (2): Tanh()
    )
    """

    __dir__ = _dir_without_indices

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return type(self)(list(self._modules.values())[index])
        return self._modules[str(_position(index, len(self)))]

    def __setitem__(self, index: int, module: Module) -> None:
        setattr(self, str(_position(index, len(self))), module)

    def __delitem__(self, index: int | slice) -> None:
        modules = list(self._modules.values())
        if isinstance(index, slice):
            del modules[index]
        else:
            del modules[_position(index, len(modules))]
        self._renumber(modules)

    def _renumber(self, modules: list[Module]) -> None:
        """Hold ``modules`` under the names ``0, 1, ...`` again."""
        for name in list(self._modules):
            self._forget(name)
        for index, module in enumerate(modules):
            self.add_module(str(index), module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        return ModuleList(chain(self, other))

    def append(self, module: Module) -> ModuleList:
        """Add ``module`` at the end.

        >>> len(nn.ModuleList().append(nn.ReLU()))
        1
        """
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        """Add each of ``modules`` at the end.

        >>> len(nn.ModuleList([nn.ReLU()]).extend([nn.Tanh(), nn.ReLU()]))
        3
        """
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleList.extend should be called with an iterable, but got "
                            f"{type(modules).__name__}")
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        """Put ``module`` before position ``index``.

        >>> m = nn.ModuleList([nn.ReLU()]); m.insert(0, nn.Tanh()); m[0]
        Tanh()
        """
        # torch's own loop: each entry moved up one name, then ``module`` stored by name as
        # it is (no type check; a negative index reaches a name "-1" that is not there)
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def pop(self, index: int | slice) -> Any:
        """Remove the module at ``index`` and return it.

        >>> nn.ModuleList([nn.ReLU(), nn.Tanh()]).pop(-1)
        Tanh()
        """
        module = self[index]
        del self[index]
        return module

    def __repr__(self) -> str:
        runs: list[list[Any]] = []  # [first, last, repr] of each run of equal reprs
        for index, module in enumerate(self):
            text = repr(module)
            if runs and runs[-1][2] == text:
                runs[-1][1] = index
            else:
                runs.append([index, index, text])
        if not runs:
            return f"{type(self).__name__}()"
        lines = [_indent(f"({first}): {text}" if first == last else
                         f"({first}-{last}): {last - first + 1} x {text}")
                 for first, last, text in runs]
        return f"{type(self).__name__}(\n  " + "\n  ".join(lines) + "\n)"


def _pairs(owner: str, items: Any) -> Iterator[tuple[Any, Any]]:
    """The ``(key, value)`` pairs of ``update``'s argument, with torch's errors (``owner``
    names the container in them); a plain dict's are sorted only for ``ParameterDict``."""
    if not isinstance(items, Iterable):
        name = "ParametersDict" if owner == "ParameterDict" else owner  # torch's spelling
        raise TypeError(f"{name}.update should be called with an iterable of key/value "
                        f"pairs, but got {type(items).__name__}")
    if isinstance(items, (OrderedDict, ModuleDict, ParameterDict)):
        return iter(list(items.items()))
    if isinstance(items, Mapping):
        pairs = list(items.items())
        return iter(sorted(pairs) if owner == "ParameterDict" else pairs)
    return _sequence_pairs(owner, items)


def _sequence_pairs(owner: str, items: Iterable[Any]) -> Iterator[tuple[Any, Any]]:
    for j, pair in enumerate(items):
        if not isinstance(pair, Iterable):
            raise TypeError(f"{owner} update sequence element #{j} should be Iterable; "
                            f"is{type(pair).__name__}")
        if len(pair) != 2:
            raise ValueError(f"{owner} update sequence element #{j} has length {len(pair)}; "
                             "2 is required")
        yield pair[0], pair[1]


class ModuleDict(Module):
    """Modules held by name, in insertion order; it has no ``forward`` of its own.

    >>> d = nn.ModuleDict({"act": nn.ReLU()}); d["act"], list(d)
    (ReLU(), ['act'])
    """

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        if key not in self._modules:  # the dict's KeyError, as torch's
            raise KeyError(key)
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        if key not in self._modules:
            raise KeyError(key)
        self._forget(key)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: object) -> bool:
        return key in self._modules

    def clear(self) -> None:
        """Remove every module.

        >>> d = nn.ModuleDict({"a": nn.ReLU()}); d.clear(); len(d)
        0
        """
        for key in list(self._modules):
            self._forget(key)

    def pop(self, key: str) -> Module:
        """Remove the module named ``key`` and return it.

        >>> nn.ModuleDict({"a": nn.ReLU()}).pop("a")
        ReLU()
        """
        module = self[key]
        del self[key]
        return module

    def keys(self) -> Iterable[str]:
        """The names, in order.

        >>> list(nn.ModuleDict({"a": nn.ReLU()}).keys())
        ['a']
        """
        return self._modules.keys()

    def items(self) -> Iterable[tuple[str, Module]]:
        """``(name, module)`` pairs, in order.

        >>> list(nn.ModuleDict({"a": nn.ReLU()}).items())
        [('a', ReLU())]
        """
        return self._modules.items()

    def values(self) -> Iterable[Module]:
        """The modules, in order.

        >>> list(nn.ModuleDict({"a": nn.ReLU()}).values())
        [ReLU()]
        """
        return self._modules.values()

    def update(self, modules: Any) -> None:
        """Add (or replace) the modules of a mapping or of ``(name, module)`` pairs.

        >>> d = nn.ModuleDict(); d.update([("a", nn.ReLU())]); list(d)
        ['a']
        """
        for key, module in _pairs("ModuleDict", modules):
            self[key] = module


def _as_parameter(value: Any) -> Any:
    """A tensor becomes a Parameter (as torch's parameter containers do); anything else
    stays as it is."""
    return Parameter(value) if isinstance(value, Tensor) and \
        not isinstance(value, Parameter) else value


def _describe(value: Any, kind: str) -> str:
    """One line of a parameter container's repr: ``kind`` is the dtype or the tensor type."""
    if not isinstance(value, Tensor):
        return f"Object of type: {type(value).__name__}"
    size = "x".join(str(s) for s in value.shape)
    device = f" ({value.device})" if value.device.type == "cuda" else ""
    what = "Parameter" if isinstance(value, Parameter) else "Tensor"
    return f"{what} containing: [{kind} of size {size}{device}]"


class ParameterList(Module):
    """Parameters held in a list, named ``0, 1, ...``; a plain tensor becomes a Parameter.

    >>> nn.ParameterList([minitorch.ones(2, 3)])
    ParameterList(  (0): Parameter containing: [torch.float32 of size 2x3])
    """

    __dir__ = _dir_without_indices

    def __init__(self, values: Iterable[Any] | None = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("ParameterList should not be called.")

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return type(self)(list(self)[index])
        return getattr(self, str(_position(index, len(self))))

    def __setitem__(self, index: int, value: Any) -> None:
        setattr(self, str(_position(index, len(self))), _as_parameter(value))

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(len(self)))

    def __iadd__(self, values: Iterable[Any]) -> ParameterList:
        return self.extend(values)

    def append(self, value: Any) -> ParameterList:
        """Add ``value`` at the end.

        >>> len(nn.ParameterList().append(minitorch.ones(1)))
        1
        """
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        """Add each of ``values`` at the end.

        >>> len(nn.ParameterList().extend([minitorch.ones(1), minitorch.ones(2)]))
        2
        """
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            f"{type(values).__name__}")
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"  ({i}): {_describe(p, str(getattr(p, 'dtype', '')))}"
                         for i, p in enumerate(self))


class ParameterDict(Module):
    """Parameters held by name (a plain dict's in sorted order, as torch's); a plain tensor
    becomes a Parameter.

    >>> d = nn.ParameterDict({"w": minitorch.ones(2)}); d
    ParameterDict(  (w): Parameter containing: [torch.FloatTensor of size 2])
    """

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _checked(key: Any) -> str:
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not "
                            f"a string (type is '{type(key).__name__}'). Open an issue on "
                            "github if you need non-string keys.")
        return key

    def __getitem__(self, key: str) -> Any:
        return getattr(self, self._checked(key))

    def __setitem__(self, key: str, value: Any) -> None:
        hash(key)  # torch stores the key first: an unhashable one fails there
        self._keys[self._checked(key)] = None
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key``, or ``default``.

        >>> nn.ParameterDict().get("w") is None
        True
        """
        return getattr(self, key) if key in self._keys else default

    def setdefault(self, key: str, default: Any | None = None) -> Any:
        """The value of ``key``; if it has none, ``default`` stored under ``key`` first (a
        tensor as a Parameter).

        >>> nn.ParameterDict().setdefault("w", minitorch.ones(1))
        Parameter containing:
        tensor([1.], requires_grad=True)
        """
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key: str) -> Any:
        """Remove ``key`` and return its value.

        >>> nn.ParameterDict({"w": minitorch.ones(1)}).pop("w").shape
        torch.Size([1])
        """
        value = self[key]
        del self[key]
        return value

    def keys(self) -> Iterable[str]:
        """The names, in order.

        >>> list(nn.ParameterDict({"b": minitorch.ones(1), "a": minitorch.ones(1)}).keys())
        ['a', 'b']
        """
        return self._keys.keys()

    def items(self) -> Iterator[tuple[str, Any]]:
        """``(name, value)`` pairs, in order.

        >>> [k for k, _ in nn.ParameterDict({"w": minitorch.ones(1)}).items()]
        ['w']
        """
        return ((k, self[k]) for k in self._keys)

    def values(self) -> Iterator[Any]:
        """The values, in order.

        >>> [v.shape for v in nn.ParameterDict({"w": minitorch.ones(1)}).values()]
        [torch.Size([1])]
        """
        return (self[k] for k in self._keys)

    def update(self, parameters: Any) -> None:
        """Add (or replace) the values of a mapping or of ``(name, value)`` pairs.

        >>> d = nn.ParameterDict(); d.update([("w", minitorch.ones(1))]); list(d)
        ['w']
        """
        for key, value in _pairs("ParameterDict", parameters):
            self[key] = value

    def copy(self) -> ParameterDict:
        """A new ParameterDict of the same values, in this one's order.

        >>> d = nn.ParameterDict({"w": minitorch.ones(1)}); d.copy()["w"] is d["w"]
        True
        """
        return ParameterDict([(k, self[k]) for k in self._keys])

    def clear(self) -> None:
        """Remove every value.

        >>> d = nn.ParameterDict({"w": minitorch.ones(1)}); d.clear(); len(d)
        0
        """
        for key in list(self._keys):
            del self[key]

    def fromkeys(self, keys: Iterable[str], default: Any | None = None) -> ParameterDict:
        """A new ParameterDict with ``default`` under each of ``keys``.

        >>> list(nn.ParameterDict().fromkeys(["a", "b"], minitorch.ones(1)))
        ['a', 'b']
        """
        return ParameterDict((key, default) for key in keys)

    def popitem(self) -> tuple[str, Any]:
        """Remove the last inserted ``(key, value)`` pair and return it.

        >>> nn.ParameterDict({"w": minitorch.ones(1)}).popitem()[0]
        'w'
        """
        key = next(reversed(self._keys)) if self._keys else self._keys.popitem()
        return key, self.pop(key)

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._keys)

    def __or__(self, other: ParameterDict) -> ParameterDict:
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other: ParameterDict) -> ParameterDict:
        merged = other.copy()
        merged.update(self)
        return merged

    def __ior__(self, other: ParameterDict) -> ParameterDict:
        self.update(other)
        return self

    def __call__(self, input: Any) -> Any:
        raise RuntimeError("ParameterDict should not be called.")

    def extra_repr(self) -> str:
        return "\n".join(f"  ({k}): {_describe(p, p.type() if isinstance(p, Tensor) else '')}"
                         for k, p in self.items())
