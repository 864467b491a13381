"""Products of vectors that tutorials spell with a name: ``outer``.

>>> import minitorch
>>> minitorch.outer(minitorch.tensor([1., 2.]), minitorch.tensor([1., 10.]))
tensor([[ 1., 10.],
        [ 2., 20.]])
"""

from __future__ import annotations

from .. import _args
from .._tensor import Tensor

__all__ = ["outer"]


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """``input[i] * vec2[j]`` for two vectors: torch's ``input.reshape(-1, 1) * vec2``
    (MulBackward0).

    >>> minitorch.ones(2).outer(minitorch.ones(3)).shape
    torch.Size([2, 3])
    """
    _args.tensor_args("outer", (input, "input", 1), (vec2, "vec2", 2))
    for name, v in (("self", input), ("vec2", vec2)):
        if v.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v.dim()}-D")
    return input.reshape(input.shape[0], 1) * vec2
