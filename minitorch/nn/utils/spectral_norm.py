"""The old ``nn.utils.spectral_norm``: ``weight`` divided, before each forward, by its
largest singular value, estimated by power iteration on the buffers ``weight_u`` and
``weight_v``; the learned tensor is ``weight_orig``.

>>> m = nn.utils.spectral_norm(nn.Linear(3, 2))
>>> [name for name, _ in m.named_parameters()], [name for name, _ in m.named_buffers()]
(['bias', 'weight_orig'], ['weight_u', 'weight_v'])
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..._tensor import Tensor
from ...autograd import grad_mode
from .. import functional as F
from ..conv import TRANSPOSED_LAYERS
from ..module import Module
from ..parameter import Parameter, UninitializedParameter
from ._norm_hook import refuse_second_norm_hook, remove_norm_hook

__all__ = ["SpectralNorm", "remove_spectral_norm", "spectral_norm"]


def weight_as_matrix(weight: Tensor, dim: int, flatten: bool = False) -> Tensor:
    """``weight`` with ``dim`` first and the other dimensions flattened into the columns:
    by ``reshape(rows, -1)`` as torch's ``spectral_norm`` (refused for no rows and no
    elements), or by ``flatten(1)`` as its parametrization's.

    >>> from minitorch.nn.utils.spectral_norm import weight_as_matrix
    >>> weight_as_matrix(minitorch.ones(2, 3, 4), 1).shape
    torch.Size([3, 8])
    """
    if dim != 0:
        weight = weight.permute(dim, *(d for d in range(weight.dim()) if d != dim))
    return weight.flatten(1) if flatten else weight.reshape(weight.size(0), -1)


def unit_normal(like: Tensor, n: int, eps: float) -> Tensor:
    """A random unit vector of ``n`` entries (drawn as torch draws it)."""
    return F.normalize(like.new_empty(n).normal_(0, 1), dim=0, eps=eps)


class SpectralNorm:
    """The forward pre-hook that sets ``module.<name>`` to ``<name>_orig / sigma``.

    >>> from minitorch.nn.utils.spectral_norm import SpectralNorm
    >>> SpectralNorm(n_power_iterations=0)
    Traceback (most recent call last):
      ...
    ValueError: Expected n_power_iterations to be positive, but got n_power_iterations=0
    """

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.name, self.dim = name, dim
        self.n_power_iterations, self.eps = n_power_iterations, eps

    def compute_weight(self, module: Module, do_power_iteration: bool) -> Tensor:
        """The normalized weight; the power iteration updates the buffers in place first."""
        weight = getattr(module, self.name + "_orig")
        u, v = getattr(module, self.name + "_u"), getattr(module, self.name + "_v")
        weight_mat = weight_as_matrix(weight, self.dim)
        if do_power_iteration:
            with grad_mode.no_grad():
                for _ in range(self.n_power_iterations):
                    v.copy_(F.normalize(weight_mat.t().mv(u), dim=0, eps=self.eps))
                    u.copy_(F.normalize(weight_mat.mv(v), dim=0, eps=self.eps))
                u, v = u.clone(), v.clone()
        return weight / u.dot(weight_mat.mv(v))

    def remove(self, module: Module) -> None:
        """Make ``module.<name>`` a parameter again, with the current normalized values."""
        with grad_mode.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        for suffix in ("", "_u", "_v", "_orig"):
            delattr(module, self.name + suffix)
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module, module.training))

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int,
              eps: float) -> SpectralNorm:
        """Move ``module.<name>`` to ``<name>_orig``, add the buffers and the hook."""
        refuse_second_norm_hook(module, SpectralNorm, name, "spectral_norm")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        if isinstance(weight, UninitializedParameter):
            raise ValueError("The module passed to `SpectralNorm` can't have uninitialized "
                             "parameters. Make sure to run the dummy forward before applying "
                             "spectral normalization")
        with grad_mode.no_grad():
            h, w = weight_as_matrix(weight, dim).shape
            u, v = unit_normal(weight, h, eps), unit_normal(weight, w, eps)
        delattr(module, name)
        module.register_parameter(name + "_orig", weight)
        setattr(module, name, weight.data)
        module.register_buffer(name + "_u", u)
        module.register_buffer(name + "_v", v)
        module.register_forward_pre_hook(fn)
        return fn


T_module = TypeVar("T_module", bound=Module)


def spectral_norm(module: T_module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> T_module:
    """Divide ``module.<name>`` by its spectral norm before every forward (dimension
    ``dim``, 1 for transposed convolutions, 0 otherwise, is the matrix's rows).

    >>> m = nn.utils.spectral_norm(nn.Linear(3, 2)); _ = m(minitorch.ones(1, 3))
    >>> m.weight_u.shape, m.weight_v.shape
    (torch.Size([2]), torch.Size([3]))
    """
    if dim is None:
        dim = 1 if isinstance(module, TRANSPOSED_LAYERS) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: T_module, name: str = "weight") -> T_module:
    """Undo ``spectral_norm``: ``module.<name>`` is one parameter again.

    >>> m = nn.utils.remove_spectral_norm(nn.utils.spectral_norm(nn.Linear(3, 2)))
    >>> [name for name, _ in m.named_parameters()], list(m.buffers())
    (['bias', 'weight'], [])
    """
    remove_norm_hook(module, SpectralNorm, name, "spectral_norm")
    return module
