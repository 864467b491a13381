"""All parameters as one flat vector, and back (torch's ``nn.utils.convert_parameters``).

>>> import minitorch
>>> from minitorch import nn
>>> layer = nn.Linear(2, 1)
>>> vec = nn.utils.parameters_to_vector(layer.parameters())
>>> vec.shape
torch.Size([3])
>>> nn.utils.vector_to_parameters(minitorch.zeros(3), layer.parameters()); layer.bias
Parameter containing:
tensor([0.], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import _args
from ..._aliases import typename
from ..._tensor import Tensor
from ...ops.shape import cat

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """The parameters flattened and joined in order (differentiable, as torch's ``cat``).

    >>> nn.utils.parameters_to_vector([minitorch.ones(2, 2), minitorch.zeros(1)])
    tensor([1., 1., 1., 1., 0.])
    """
    flat = []
    for p in parameters:
        _args.python_attribute(p, "device")  # torch reads each one's device first
        flat.append(p.view(-1))
    return cat(flat)


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Give each parameter, in order, the next slice of ``vec`` as its data (a view of it).

    >>> nn.utils.vector_to_parameters([1.0], [])
    Traceback (most recent call last):
    TypeError: expected torch.Tensor, but got: list
    """
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    pointer = 0
    for param in parameters:
        _args.python_attribute(param, "device")  # torch reads each one's device first
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
