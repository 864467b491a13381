"""``Flatten``: merge dimensions ``start_dim..end_dim`` into one; ``Unflatten`` splits one.

>>> import minitorch
>>> from minitorch import nn
>>> nn.Flatten()(minitorch.ones(2, 3, 4)).shape
torch.Size([2, 12])
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from .module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Flatten a batch of tensors to vectors (by default all dims after the first).

    >>> nn.Flatten()
    Flatten(start_dim=1, end_dim=-1)
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size`` (one size may be -1): ``input.unflatten``.

    >>> nn.Unflatten(1, (2, 5))(minitorch.ones(3, 10)).shape
    torch.Size([3, 2, 5])
    """

    def __init__(self, dim: int, unflattened_size: Any) -> None:
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError("unflattened_size must be a tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        for i, size in enumerate(unflattened_size):
            if not isinstance(size, int):
                raise TypeError("unflattened_size must be tuple of ints, but found element of "
                                f"type {type(size).__name__} at pos {i}")
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
