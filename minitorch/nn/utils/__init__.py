"""``nn.utils``: clipping gradients before an optimizer step (``clip_grad``), batching
sequences of different lengths (``rnn``) and parameters as one vector (``convert_parameters``).

>>> import minitorch
>>> from minitorch import nn
>>> p = nn.Parameter(minitorch.tensor([3., 4.])); p.grad = minitorch.tensor([3., 4.])
>>> nn.utils.clip_grad_norm_([p], 1.0), p.grad
(tensor(5.), tensor([0.6000, 0.8000]))
"""

from __future__ import annotations

from . import rnn
from .clip_grad import clip_grad_norm_, clip_grad_value_
from .convert_parameters import parameters_to_vector, vector_to_parameters

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "rnn",
           "vector_to_parameters"]
