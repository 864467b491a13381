"""``minitorch.utils``: the data loading tools of ``torch.utils``, and ``swap_tensors``.

>>> from minitorch.utils import data
>>> len(data.TensorDataset(minitorch.ones(3, 2)))
3
"""

from . import checkpoint, data, data_files  # noqa: F401  (data_files: data's submodules)
from ._swap import swap_tensors

__all__ = ["checkpoint", "data", "swap_tensors"]
