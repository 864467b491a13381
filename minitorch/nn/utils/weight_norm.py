"""The old ``nn.utils.weight_norm``: ``weight`` recomputed as ``g * v / ||v||`` by a
forward pre-hook from two parameters ``weight_g`` and ``weight_v`` (deprecated in torch in
favour of ``nn.utils.parametrizations.weight_norm``, and it warns so).

>>> import warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     m = nn.utils.weight_norm(nn.Linear(3, 2))
>>> [name for name, _ in m.named_parameters()]
['bias', 'weight_g', 'weight_v']
"""

from __future__ import annotations

import warnings
from typing import Any, TypeVar

from ... import _args
from ... import _dtype as D
from ..._tensor import Tensor
from ...ops.weight_norm import weight_norm_interface
from ..module import Module
from ..parameter import Parameter, UninitializedParameter
from ._norm_hook import refuse_second_norm_hook, remove_norm_hook

__all__ = ["WeightNorm", "remove_weight_norm", "weight_norm"]


def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:
    """The ``pow``-norm of ``v`` over every dimension but ``dim`` (kept, the others kept with
    size 1); over all of ``v`` when ``dim`` is -1.

    >>> from minitorch.nn.utils.weight_norm import norm_except_dim
    >>> norm_except_dim(minitorch.tensor([[3., 4.], [0., 1.]]), 2, 0)
    tensor([[5.],
            [1.]])
    """
    _args.tensor_args("norm_except_dim", (v, "v", 1))
    if dim == -1:
        return v.norm(pow)
    dim = _args.dim("norm_except_dim", dim, v.dim(), position=3)
    if not v.numel():  # torch's kernel views v as a matrix first (refused where its -1 is
        _as_matrix(v, dim)  # ambiguous, as it is with no elements)
    others = tuple(d for d in range(v.dim()) if d != dim)
    if not others:  # a vector: torch views it as one column per element, not norm(dim=())
        return v.unsqueeze(1).norm(pow, dim=1)
    return v.norm(pow, dim=others, keepdim=True)


def _as_matrix(v: Tensor, dim: int) -> Tensor:
    """torch's ``norm_except_dim``'s view of ``v``: one row per index of ``dim`` (the first
    dim, or the others moved behind it), or one column per index of the last dim."""
    if dim == 0:
        return v.reshape(v.size(0), -1)
    if dim == v.dim() - 1:
        return v.reshape(-1, v.size(-1))
    return v.transpose(0, dim).reshape(v.size(dim), -1)


def _weight_norm(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """``v`` rescaled to the norm ``g`` along ``dim`` (torch's ``_weight_norm``).

    >>> from minitorch.nn.utils.weight_norm import _weight_norm
    >>> _weight_norm(minitorch.tensor([[3., 4.]]), minitorch.tensor([[10.]]), 0)
    tensor([[6., 8.]])
    """
    fused = dim in (0, v.dim() - 1) and D.float16 not in (v.dtype, g.dtype)
    if fused:  # torch's one node, over contiguous copies
        return weight_norm_interface(v.contiguous(), g.contiguous(), dim)
    return v * (g / norm_except_dim(v, 2, dim))


class WeightNorm:
    """The forward pre-hook that recomputes ``module.<name>`` from ``<name>_g`` and
    ``<name>_v`` before each forward.

    >>> from minitorch.nn.utils.weight_norm import WeightNorm
    >>> m = nn.Module()
    >>> m.w_g, m.w_v = nn.Parameter(minitorch.ones(1)), nn.Parameter(-minitorch.ones(2))
    >>> WeightNorm("w", None).compute_weight(m)
    tensor([-0.7071, -0.7071], grad_fn=<MulBackward0>)
    """

    def __init__(self, name: str, dim: int | None) -> None:
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module: Module) -> Any:
        """The weight from the module's current ``g`` and ``v``."""
        return _weight_norm(getattr(module, self.name + "_v"), getattr(module, self.name + "_g"),
                            self.dim)

    @staticmethod
    def apply(module: Module, name: str, dim: int | None) -> WeightNorm:
        """Split ``module.<name>`` into ``<name>_g`` and ``<name>_v`` and add the hook."""
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning,
                      stacklevel=3)
        refuse_second_norm_hook(module, WeightNorm, name, "weight_norm")
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        if isinstance(weight, UninitializedParameter):
            raise ValueError("The module passed to `WeightNorm` can't have uninitialized "
                             "parameters. Make sure to run the dummy forward before applying "
                             "weight normalization")
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        module.__dict__.pop(name, None)
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        """Make ``module.<name>`` a parameter again, with the current weight's values."""
        weight = self.compute_weight(module)
        delattr(module, self.name)
        delattr(module, self.name + "_g")
        delattr(module, self.name + "_v")
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


T_module = TypeVar("T_module", bound=Module)


def weight_norm(module: T_module, name: str = "weight", dim: int | None = 0) -> T_module:
    """Reparametrize ``module.<name>`` as ``g * v / ||v||`` (norms over all dimensions but
    ``dim``; over the whole tensor when ``dim`` is None), with a forward pre-hook.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     m = nn.utils.weight_norm(nn.Linear(3, 2))
    >>> m.weight_g.shape, m.weight_v.shape
    (torch.Size([2, 1]), torch.Size([2, 3]))
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: T_module, name: str = "weight") -> T_module:
    """Undo ``weight_norm``: ``module.<name>`` is one parameter again.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     m = nn.utils.weight_norm(nn.Linear(3, 2))
    >>> [n for n, _ in nn.utils.remove_weight_norm(m).named_parameters()]
    ['bias', 'weight']
    """
    remove_norm_hook(module, WeightNorm, name, "weight_norm")
    return module
