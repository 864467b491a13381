"""``nn.utils``: clipping gradients before an optimizer step (``clip_grad``), batching
sequences of different lengths (``rnn``), parameters as one vector (``convert_parameters``)
and tensors computed from others (``parametrize``, ``parametrizations``, and the older
hook-based ``weight_norm`` and ``spectral_norm``).

>>> import minitorch
>>> from minitorch import nn
>>> p = nn.Parameter(minitorch.tensor([3., 4.])); p.grad = minitorch.tensor([3., 4.])
>>> nn.utils.clip_grad_norm_([p], 1.0), p.grad
(tensor(5.), tensor([0.6000, 0.8000]))
"""

from __future__ import annotations

from . import parametrizations, parametrize, prune, rnn
from .clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .fusion import (
    fuse_conv_bn_eval,
    fuse_conv_bn_weights,
    fuse_linear_bn_eval,
    fuse_linear_bn_weights,
)
from .init import skip_init
from .spectral_norm import remove_spectral_norm, spectral_norm
from .weight_norm import remove_weight_norm, weight_norm

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_",
           "fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval",
           "fuse_linear_bn_weights", "get_total_norm", "parameters_to_vector", "parametrizations",
           "parametrize", "prune", "remove_spectral_norm", "remove_weight_norm", "rnn",
           "skip_init", "spectral_norm", "vector_to_parameters", "weight_norm"]
