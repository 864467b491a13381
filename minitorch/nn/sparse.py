"""``Embedding``: a table of learnable vectors looked up by integer index (word vectors);
``EmbeddingBag``: the same lookups reduced per bag of indices.

>>> import minitorch
>>> from minitorch import nn
>>> nn.Embedding(10, 3, padding_idx=0)
Embedding(10, 3, padding_idx=0)
"""

from __future__ import annotations

from typing import Any

from .. import _args, _creation
from .._tensor import Tensor
from ..autograd import grad_mode
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["Embedding", "EmbeddingBag"]


class Embedding(Module):
    """``num_embeddings`` vectors of size ``embedding_dim``, drawn from N(0, 1) as torch's;
    the ``padding_idx`` row starts at zero and gets no gradient.

    >>> emb = nn.Embedding(5, 2)
    >>> emb(minitorch.tensor([[0, 4, 4]])).shape
    torch.Size([1, 3, 2])
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0,
                 scale_grad_by_freq: bool = False, sparse: bool = False,
                 _weight: Tensor | None = None, _freeze: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = _padding_index(padding_idx, num_embeddings, "Padding_idx")
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.sparse = sparse
        if _weight is None:
            self.weight = Parameter(_creation.empty((num_embeddings, embedding_dim),
                                                    device=device, dtype=dtype),
                                    requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and "
                                     "embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        """Draw the vectors from N(0, 1) again; the padding row is zero."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with grad_mode._recording(False):
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input: Tensor) -> Tensor:
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse is not False:
            s += ", sparse=True"
        return s

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True,
                        padding_idx: int | None = None, max_norm: float | None = None,
                        norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                        sparse: bool = False) -> Embedding:
        """An Embedding holding ``embeddings`` (2-D); frozen unless ``freeze=False``.

        >>> nn.Embedding.from_pretrained(minitorch.eye(2)).weight.requires_grad
        False
        """
        assert embeddings.dim() == 2, "Embeddings parameter is expected to be 2-dimensional"
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse,
                   _weight=embeddings, _freeze=freeze)


class EmbeddingBag(Module):
    """An Embedding whose lookups are reduced per bag (``mode`` "sum", "mean" or "max")
    without storing the rows: ``F.embedding_bag`` with the module's settings.

    >>> bag = nn.EmbeddingBag(10, 3, mode="sum")
    >>> bag, bag(minitorch.tensor([1, 2, 4, 5]), minitorch.tensor([0, 2])).shape
    (EmbeddingBag(10, 3, mode='sum'), torch.Size([2, 3]))
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, max_norm: float | None = None,
                 norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean",
                 sparse: bool = False, _weight: Tensor | None = None,
                 include_last_offset: bool = False, padding_idx: int | None = None,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.padding_idx = _padding_index(padding_idx, num_embeddings, "padding_idx")
        if _weight is None:
            self.weight = Parameter(_creation.empty((num_embeddings, embedding_dim),
                                                    device=device, dtype=dtype))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and "
                                     "embedding_dim")
            self.weight = Parameter(_weight)
        self.mode, self.sparse, self.include_last_offset = mode, sparse, include_last_offset

    reset_parameters = Embedding.reset_parameters

    def forward(self, input: Tensor, offsets: Tensor | None = None,
                per_sample_weights: Tensor | None = None) -> Tensor:
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type,
                               self.scale_grad_by_freq, self.mode, self.sparse,
                               per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm!r}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type!r}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq!r}"
        s += f", mode={self.mode!r}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx!r}"
        return s

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True,
                        max_norm: float | None = None, norm_type: float = 2.0,
                        scale_grad_by_freq: bool = False, mode: str = "mean",
                        sparse: bool = False, include_last_offset: bool = False,
                        padding_idx: int | None = None) -> EmbeddingBag:
        """An EmbeddingBag holding ``embeddings`` (2-D); frozen unless ``freeze=False``.

        >>> w = minitorch.tensor([[1, 2.3, 3], [4, 5.1, 6.3]])
        >>> nn.EmbeddingBag.from_pretrained(w)(minitorch.tensor([[1, 0]]))
        tensor([[2.5000, 3.7000, 4.6500]])
        """
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        bag = cls(rows, cols, max_norm, norm_type, scale_grad_by_freq, mode, sparse,
                  embeddings, include_last_offset, padding_idx)
        bag.weight.requires_grad = not freeze
        return bag


def _padding_index(padding_idx: Any, num_embeddings: Any, name: str) -> Any:
    """``padding_idx`` checked by torch's asserts (each side read only where it applies,
    ``name`` as its message spells it), a negative one counted from the end."""
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= num_embeddings:
                raise AssertionError(f"{name} must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < _args.python_negative(num_embeddings):
                raise AssertionError(f"{name} must be within num_embeddings")
            padding_idx = num_embeddings + padding_idx
    return padding_idx
