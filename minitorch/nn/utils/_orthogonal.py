"""``parametrizations.orthogonal``: a weight kept orthogonal (``QᵀQ = I`` for a tall ``Q``, the
transpose for a wide one) by a map from unconstrained matrices: the exponential or the Cayley
transform of a skew-symmetric matrix, or a product of Householder reflectors.

With ``use_trivialization`` (the default) the map's output is multiplied onto a stored
orthogonal ``base``, which ``right_inverse`` sets to the assigned matrix (completed to a square
one with random columns when it is not square); the parameter restarts at the point that the
map sends to the identity.

>>> from minitorch.nn.utils import parametrizations
>>> m = parametrizations.orthogonal(nn.Linear(2, 3))
>>> bool(minitorch.dist(m.weight.T @ m.weight, minitorch.eye(2)) < 1e-5)
True
"""

from __future__ import annotations

from ... import _random, linalg
from ..._creation import eye
from ..._tensor import Tensor
from ...autograd import grad_mode
from ...ops.householder import geqrf
from ...ops.matrix_exp import matrix_exp
from ...ops.shape import cat
from ..module import Module
from . import parametrize

__all__ = ["orthogonal"]

_MAPS = ("matrix_exp", "cayley", "householder")


def _is_orthogonal(Q: Tensor) -> bool:
    """``QᵀQ = I`` within ten ulps per row, as torch's check."""
    n, k = Q.shape[-2:]
    eps = 10.0 * n * (1.1920928955078125e-07 if Q.dtype.itemsize == 4 else 2.220446049250313e-16)
    return bool((Q.mT @ Q).allclose(eye(k, dtype=Q.dtype), atol=eps))


def _orthonormalised(A: Tensor) -> Tensor:
    """Q of ``A = QR`` (``A`` tall), its columns signed so that R's diagonal is non-negative."""
    packed, tau = geqrf(A)
    Q = linalg.householder_product(packed, tau)
    return Q * packed.diagonal(0, -2, -1).sign().unsqueeze(-2)


class _Orthogonal(Module):
    def __init__(self, weight: Tensor, orthogonal_map: str, *,
                 use_trivialization: bool = True) -> None:
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: Tensor) -> Tensor:
        transposed = X.shape[-2] < X.shape[-1]
        if transposed:
            X = X.mT
        Q = self._householder(X) if self.orthogonal_map == "householder" else self._square(X)
        if getattr(self, "base", None) is not None:
            Q = self.base @ Q
        return Q.mT if transposed else Q

    def _square(self, X: Tensor) -> Tensor:
        """The exponential or Cayley map of a skew matrix built from ``X``'s lower triangle,
        cut to ``X``'s k columns."""
        n, k = X.shape[-2:]
        X = X.tril()
        if n != k:  # embed into a square matrix
            X = cat([X, X.new_zeros((n, n - k)).expand(*X.shape[:-2], -1, -1)], -1)
        A = X - X.mT
        if self.orthogonal_map == "matrix_exp":
            Q = matrix_exp(A)
        else:  # (I + A/2)(I - A/2)⁻¹
            Id = eye(n, dtype=A.dtype)
            Q = linalg.solve(Id - 0.5 * A, Id + 0.5 * A)
        return Q[..., :k] if n != k else Q

    @staticmethod
    def _householder(X: Tensor) -> Tensor:
        """The reflectors stored below ``X``'s diagonal, each scaled to a true reflection
        (τ = 2 / ‖v‖²); the diagonal's signs (±1, not learned) flip the columns."""
        A = X.tril(-1)
        tau = 2.0 / (1.0 + (A * A).sum(-2))
        Q = linalg.householder_product(A, tau)
        return Q * X.diagonal(0, -2, -1).int().unsqueeze(-2)

    def right_inverse(self, Q: Tensor) -> Tensor:
        with grad_mode.no_grad():
            return self._right_inverse(Q)

    def _right_inverse(self, Q: Tensor) -> Tensor:
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        given = Q
        n, k = Q.shape[-2:]
        transposed = n < k
        if transposed:
            Q, n, k = Q.mT, k, n
        if not hasattr(self, "base"):
            return self._householder_inverse(Q, transposed)
        if n != k:  # complete Q to a square orthogonal matrix
            noise = _random.randn(*Q.shape[:-2], n, n - k, dtype=Q.dtype)
            Q = _orthonormalised(cat([Q, noise], -1))
        else:
            Q = Q.clone() if _is_orthogonal(Q) else _orthonormalised(Q)
        self.base = Q
        # -I: the householder map sends it to the identity (and the others ignore the diagonal)
        restart = given.new_zeros(given.shape)
        restart.diagonal(0, -2, -1).fill_(-1.0)
        return restart

    def _householder_inverse(self, Q: Tensor, transposed: bool) -> Tensor:
        """The packed reflectors of Q's QR decomposition, the diagonal holding R's signs
        (flipped where LAPACK skipped the reflection, τ = 0)."""
        if self.orthogonal_map != "householder":
            raise NotImplementedError("It is not possible to assign to the matrix exponential "
                                      "or the Cayley parametrizations when "
                                      "use_trivialization=False.")
        A, tau = geqrf(Q)
        signs = A.diagonal(0, -2, -1).sign()
        A.diagonal(0, -2, -1).copy_(signs * (1 - 2 * (tau == 0.0).to(A.dtype)))
        return A.mT if transposed else A


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Keep ``module.<name>`` (a matrix or a batch) orthogonal; ``orthogonal_map`` is
    "matrix_exp" (square default), "cayley" or "householder" (default otherwise).

    >>> from minitorch.nn.utils import parametrizations
    >>> parametrizations.orthogonal(nn.Linear(3, 3)).parametrizations.weight[0]
    _Orthogonal()
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. "
                         f"Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        square = weight.shape[-2] == weight.shape[-1]
        orthogonal_map = "matrix_exp" if square else "householder"
    if orthogonal_map not in _MAPS:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, orthogonal_map, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module
