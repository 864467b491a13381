"""``torch.nn.parallel`` on a machine without GPUs: :class:`DataParallel` is the module itself.

>>> import minitorch
>>> net = minitorch.nn.DataParallel(minitorch.nn.Linear(2, 1))
>>> net
DataParallel(
  (module): Linear(in_features=2, out_features=1, bias=True)
)
"""

from __future__ import annotations

from typing import Any

from ..module import Module


class DataParallel(Module):
    """Splits each batch over the GPUs in torch; with none (as here, on the CPU) it runs
    ``module`` unchanged and ignores ``device_ids``, as torch does when no CUDA device is
    available.

    >>> net = DataParallel(minitorch.nn.Linear(2, 1))
    >>> list(net.state_dict())
    ['module.weight', 'module.bias']
    """

    def __init__(self, module: Module, device_ids: Any = None, output_device: Any = None,
                 dim: int = 0) -> None:
        super().__init__()
        self.module = module  # without CUDA torch ignores device_ids and output_device
        self.device_ids: list = []

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)


__all__ = ["DataParallel"]
