"""``minitorch.utils``: the data loading tools of ``torch.utils``.

>>> from minitorch.utils import data
>>> len(data.TensorDataset(minitorch.ones(3, 2)))
3
"""

from . import checkpoint, data

__all__ = ["checkpoint", "data"]
