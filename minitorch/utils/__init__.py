"""``minitorch.utils``: the data loading tools of ``torch.utils``.

>>> from minitorch.utils import data
>>> len(data.TensorDataset(minitorch.ones(3, 2)))
3
"""

from . import data

__all__ = ["data"]
