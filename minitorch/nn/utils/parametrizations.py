"""``nn.utils.parametrizations``: common parametrizations built on ``parametrize``:
``weight_norm`` (``original0`` the norms g, ``original1`` the direction v) and
``spectral_norm`` (the weight divided by its largest singular value, estimated by power
iteration on the buffers ``_u`` and ``_v``) and ``orthogonal`` (see ``_orthogonal``).

>>> from minitorch.nn.utils import parametrizations
>>> m = parametrizations.weight_norm(nn.Linear(3, 2))
>>> list(m.state_dict())
['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
"""

from __future__ import annotations

from ..._tensor import Tensor
from ...autograd import grad_mode
from .. import functional as F
from ..conv import TRANSPOSED_LAYERS
from ..module import Module
from . import parametrize
from ._orthogonal import orthogonal
from .spectral_norm import unit_normal, weight_as_matrix
from .weight_norm import _weight_norm, norm_except_dim

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: Tensor) -> tuple[Tensor, Tensor]:
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Parametrize ``module.<name>`` as ``g * v / ||v||`` (norms over every dimension but
    ``dim``, over all when ``dim`` is None): ``g`` is ``original0``, ``v`` ``original1``.

    >>> from minitorch.nn.utils import parametrizations
    >>> m = parametrizations.weight_norm(nn.Linear(3, 2))
    >>> m.parametrizations.weight.original0.shape, m.parametrizations.weight.original1.shape
    (torch.Size([2, 1]), torch.Size([2, 3]))
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


class _SpectralNorm(Module):
    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, "
                             f"{ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = weight_as_matrix(weight, self.dim, flatten=True)
            h, w = weight_mat.shape
            self.register_buffer("_u", unit_normal(weight_mat, h, eps))
            self.register_buffer("_v", unit_normal(weight_mat, w, eps))
            self._power_method(weight_mat, 15)

    def _power_method(self, weight_mat: Tensor, n_power_iterations: int) -> None:
        """Refine the singular vectors ``_u`` and ``_v`` in place (outside autograd)."""
        with grad_mode.no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(F.normalize(weight_mat.mv(self._v), dim=0, eps=self.eps))
                self._v.copy_(F.normalize(weight_mat.T.mv(self._u), dim=0, eps=self.eps))

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = weight_as_matrix(weight, self.dim, flatten=True)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        return weight / u.dot(weight_mat.mv(v))

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Module:
    """Parametrize ``module.<name>`` as itself divided by its spectral norm (dimension
    ``dim``, 1 for transposed convolutions, 0 otherwise, is the matrix's rows).

    >>> from minitorch.nn.utils import parametrizations
    >>> m = parametrizations.spectral_norm(nn.Linear(3, 2))
    >>> [name for name, _ in m.named_buffers()]
    ['parametrizations.weight.0._u', 'parametrizations.weight.0._v']
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, TRANSPOSED_LAYERS) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
