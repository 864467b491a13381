"""Lazy modules: layers that learn their input size from their first input (d2l builds
every network so: ``nn.LazyConv2d(6, kernel_size=5)``, ``nn.LazyBatchNorm2d()``,
``nn.LazyLinear(10)``).

Their parameters and buffers start as :class:`~minitorch.nn.UninitializedParameter` /
``UninitializedBuffer``. A forward pre-hook runs before the first forward: it materialises
them with the input's size, draws them as the plain layer does (the same random numbers as
torch's after the same seed), removes itself and turns the module into the plain layer
(``cls_to_become``), as torch's ``LazyModuleMixin`` does.

>>> import minitorch
>>> from minitorch import nn
>>> conv = nn.LazyConv2d(4, kernel_size=3)
>>> conv
LazyConv2d(0, 4, kernel_size=(3, 3), stride=(1, 1))
>>> conv(minitorch.ones(1, 2, 5, 5)).shape, conv
(torch.Size([1, 4, 3, 3]), Conv2d(2, 4, kernel_size=(3, 3), stride=(1, 1)))
"""

from __future__ import annotations

from typing import Any

from .. import _creation
from .._dtype import int64
from .._tensor import Tensor
from ..autograd import grad_mode
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .linear import Linear
from .parameter import UninitializedBuffer, UninitializedParameter, _Uninitialized

__all__ = ["LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyConv1d", "LazyConv2d",
           "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d",
           "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d", "LazyLinear",
           "LazyModuleMixin"]


class LazyModuleMixin:
    """A module whose first forward materialises its uninitialized parameters and buffers
    (``initialize_parameters(input)``), then turns it into ``cls_to_become``.

    >>> issubclass(nn.LazyLinear, nn.lazy.LazyModuleMixin)
    True
    """

    cls_to_become: type | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(  # type: ignore[attr-defined]
            LazyModuleMixin._infer_parameters)

    def has_uninitialized_params(self) -> bool:
        """True while a parameter or buffer still waits for its shape."""
        tensors = [*self._parameters.values(), *self._buffers.values()]  # type: ignore
        return any(isinstance(t, _Uninitialized) for t in tensors)

    def initialize_parameters(self, input: Tensor) -> None:
        """Give the parameters and buffers their shapes from ``input``."""
        raise NotImplementedError

    @staticmethod
    def _infer_parameters(module: Any, args: tuple) -> None:
        module.initialize_parameters(*args)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {type(module).__name__} has not been fully initialized")
        module._initialize_hook.remove()
        del module._initialize_hook
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def state_dict(self, *args: Any, destination: dict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> Any:
        """As Module's; uninitialized parameters are kept as they are (they cannot be
        detached), as torch's lazy modules do."""
        return super().state_dict(  # type: ignore[misc]
            *args, destination=destination, prefix=prefix,
            keep_vars=keep_vars or self.has_uninitialized_params())


class LazyLinear(LazyModuleMixin, Linear):
    """A :class:`Linear` whose ``in_features`` is the last dim of its first input.

    >>> fc = nn.LazyLinear(2)
    >>> fc
    LazyLinear(in_features=0, out_features=2, bias=True)
    >>> fc(minitorch.ones(1, 3)).shape, fc
    (torch.Size([1, 2]), Linear(in_features=3, out_features=2, bias=True))
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(0, 0, False, device, dtype)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        """Draw fresh weights, once they have a shape (torch's order: weight, then bias)."""
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:
        """Materialise weight (out_features, input's last dim) and bias, then draw them;
        after ``load_state_dict`` (which materialised them) only learn ``in_features``."""
        if self.has_uninitialized_params():
            with grad_mode.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(
                    f"The in_features inferred from input: {input.shape[-1]} is not equal to "
                    f"in_features from self.weight: {self.weight.shape[-1]}")
            self.in_features = input.shape[-1]


class _LazyConvNd(LazyModuleMixin):
    """What the lazy convolutions share: ``in_channels`` from the first input's channels
    (dim 1 of a batched input, dim 0 of an unbatched one), then the weight materialised in
    the plain layer's shape and drawn as it draws it."""

    def _start(self, out_channels: int, bias: bool, device: Any, dtype: Any) -> None:
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        """Draw fresh weights, once they have a shape."""
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()  # type: ignore[misc]

    def initialize_parameters(self, input: Tensor) -> None:
        """Materialise the weight and bias from the input's channels, then draw them."""
        if not self.has_uninitialized_params():
            return
        dims = self._dims  # type: ignore[attr-defined]
        if input.dim() not in (dims + 1, dims + 2):
            raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) "
                               f"input to {type(self).__name__}, but got input of size: "
                               f"{input.shape}")
        self.in_channels = input.shape[1] if input.dim() == dims + 2 else input.shape[0]
        if self.in_channels % self.groups:  # type: ignore[attr-defined]
            raise ValueError("in_channels must be divisible by groups")
        per_group = self.groups  # type: ignore[attr-defined]
        shape = (self.in_channels, self.out_channels // per_group) if self.transposed else \
            (self.out_channels, self.in_channels // per_group)  # type: ignore[attr-defined]
        with grad_mode.no_grad():
            self.weight.materialize((*shape, *self.kernel_size))  # type: ignore[attr-defined]
            if self.bias is not None:  # type: ignore[attr-defined]
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


class _LazyConv(_LazyConvNd):
    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups,  # type: ignore
                         False, padding_mode, device, dtype)
        self._start(out_channels, bias, device, dtype)


class _LazyConvTranspose(_LazyConvNd):
    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros", device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, output_padding,  # type: ignore
                         groups, False, dilation, padding_mode, device, dtype)
        self._start(out_channels, bias, device, dtype)


class LazyConv1d(_LazyConv, Conv1d):
    """A :class:`Conv1d` whose ``in_channels`` is its first input's channels.

    >>> nn.LazyConv1d(4, 3)(minitorch.ones(2, 3, 5)).shape
    torch.Size([2, 4, 3])
    """

    cls_to_become = Conv1d


class LazyConv2d(_LazyConv, Conv2d):
    """A :class:`Conv2d` whose ``in_channels`` is its first input's channels.

    >>> nn.LazyConv2d(8, 3, padding=1)(minitorch.ones(2, 3, 4, 4)).shape
    torch.Size([2, 8, 4, 4])
    """

    cls_to_become = Conv2d


class LazyConv3d(_LazyConv, Conv3d):
    """A :class:`Conv3d` whose ``in_channels`` is its first input's channels.

    >>> nn.LazyConv3d(4, 1)(minitorch.ones(2, 3, 2, 2, 2)).shape
    torch.Size([2, 4, 2, 2, 2])
    """

    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConvTranspose, ConvTranspose1d):
    """A :class:`ConvTranspose1d` whose ``in_channels`` is its first input's channels.

    >>> nn.LazyConvTranspose1d(4, 3)(minitorch.ones(2, 3, 5)).shape
    torch.Size([2, 4, 7])
    """

    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTranspose, ConvTranspose2d):
    """A :class:`ConvTranspose2d` whose ``in_channels`` is its first input's channels.

    >>> nn.LazyConvTranspose2d(4, 3)(minitorch.ones(2, 3, 5, 5)).shape
    torch.Size([2, 4, 7, 7])
    """

    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTranspose, ConvTranspose3d):
    """A :class:`ConvTranspose3d` whose ``in_channels`` is its first input's channels.

    >>> nn.LazyConvTranspose3d(4, 1)(minitorch.ones(2, 3, 2, 2, 2)).shape
    torch.Size([2, 4, 2, 2, 2])
    """

    cls_to_become = ConvTranspose3d


class _LazyNormBase(LazyModuleMixin):
    """What both lazy batch norms share: ``num_features`` from the input's dim 1."""

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(0, eps, momentum, False, False, device, dtype)
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = _creation.tensor(0, dtype=int64, device=device)

    def reset_parameters(self) -> None:
        """Reset the statistics and affine parameters, once they have a shape."""
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()  # type: ignore[misc]

    def initialize_parameters(self, input: Tensor) -> None:
        """Materialise weight, bias and running statistics of the input's channels."""
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1]
        with grad_mode.no_grad():
            for name in ("weight", "bias", "running_mean", "running_var"):
                tensor = getattr(self, name)
                if isinstance(tensor, _Uninitialized):
                    tensor.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, BatchNorm1d):
    """A :class:`BatchNorm1d` whose ``num_features`` is its first input's dim 1.

    >>> bn = nn.LazyBatchNorm1d()
    >>> bn(minitorch.ones(4, 3)).shape, bn.running_mean
    (torch.Size([4, 3]), tensor([0.1000, 0.1000, 0.1000]))
    """

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormBase, BatchNorm2d):
    """A :class:`BatchNorm2d` whose ``num_features`` is its first input's channels.

    >>> nn.LazyBatchNorm2d()(minitorch.ones(2, 3, 4, 4)).shape
    torch.Size([2, 3, 4, 4])
    """

    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNormBase, BatchNorm3d):
    """A :class:`BatchNorm3d` whose ``num_features`` is its first input's channels.

    >>> nn.LazyBatchNorm3d()(minitorch.ones(2, 3, 2, 2, 2)).shape
    torch.Size([2, 3, 2, 2, 2])
    """

    cls_to_become = BatchNorm3d


class LazyInstanceNorm1d(_LazyNormBase, InstanceNorm1d):
    """An :class:`InstanceNorm1d` whose ``num_features`` is its first input's dim 1 (with
    the lazy modules' defaults, as torch: affine, tracking running statistics).

    >>> nn.LazyInstanceNorm1d()(minitorch.ones(2, 3, 4)).shape
    torch.Size([2, 3, 4])
    """

    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormBase, InstanceNorm2d):
    """An :class:`InstanceNorm2d` whose ``num_features`` is its first input's dim 1.

    >>> nn.LazyInstanceNorm2d()(minitorch.ones(2, 3, 4, 4)).shape
    torch.Size([2, 3, 4, 4])
    """

    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNormBase, InstanceNorm3d):
    """An :class:`InstanceNorm3d` whose ``num_features`` is its first input's dim 1.

    >>> nn.LazyInstanceNorm3d()(minitorch.ones(2, 3, 2, 2, 2)).shape
    torch.Size([2, 3, 2, 2, 2])
    """

    cls_to_become = InstanceNorm3d
