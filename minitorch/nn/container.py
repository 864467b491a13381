"""``Sequential``: modules applied one after the other.

>>> import minitorch
>>> from minitorch import nn
>>> model = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
>>> len(model), model[1]
(2, ReLU())
"""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from .module import Module

__all__ = ["Sequential"]


class Sequential(Module):
    """A chain of modules named ``0, 1, ...`` (or by an OrderedDict's keys).

    Index it like a list (a slice gives a Sequential), iterate it, ``append`` to it.

    >>> nn.Sequential(OrderedDict(fc=nn.Linear(1, 1)))
    Sequential(
      (fc): Linear(in_features=1, out_features=1, bias=True)
    )
    """

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

    def _key(self, index: int) -> str:
        """The name of the module at position ``index`` (negative counts from the end)."""
        size, index = len(self._modules), operator.index(index)  # torch's TypeError
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of range")
        return list(self._modules)[index % size]

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
