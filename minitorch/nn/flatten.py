"""``Flatten``: merge dimensions ``start_dim..end_dim`` into one.

>>> import minitorch
>>> from minitorch import nn
>>> nn.Flatten()(minitorch.ones(2, 3, 4)).shape
torch.Size([2, 12])
"""

from __future__ import annotations

from .._tensor import Tensor
from .module import Module

__all__ = ["Flatten"]


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
