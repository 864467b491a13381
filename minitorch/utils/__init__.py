"""``minitorch.utils``: the data loading tools of ``torch.utils``.

>>> from minitorch.utils import data
>>> len(data.TensorDataset(minitorch.ones(3, 2)))
3
"""

from . import checkpoint, data, data_files  # noqa: F401  (data_files: data's submodules)

__all__ = ["checkpoint", "data"]
