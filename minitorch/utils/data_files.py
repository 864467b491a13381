"""``torch.utils.data``'s files as programs import them: ``from torch.utils.data.dataset
import Dataset``, ``from torch.utils.data.sampler import SubsetRandomSampler``, ``from
torch.utils.data.dataloader import default_collate`` (older tutorials and repositories name
the file). Each is a module ``minitorch.utils.data.<file>`` holding the same objects as
``minitorch.utils.data``, importable by that name and an attribute of ``data``.

>>> import minitorch
>>> from minitorch.utils.data.dataset import TensorDataset
>>> TensorDataset is minitorch.utils.data.TensorDataset
True
"""

from __future__ import annotations

import sys
import types

from . import data

__all__ = ["FILES"]

FILES: dict[str, tuple[str, ...]] = {
    "dataset": ("ChainDataset", "ConcatDataset", "Dataset", "IterableDataset", "StackDataset",
                "Subset", "TensorDataset", "random_split"),
    "dataloader": ("BatchSampler", "DataLoader", "Dataset", "IterableDataset", "RandomSampler",
                   "Sampler", "SequentialSampler", "default_collate", "default_convert",
                   "get_worker_info"),
    "sampler": ("BatchSampler", "RandomSampler", "Sampler", "SequentialSampler",
                "SubsetRandomSampler", "WeightedRandomSampler"),
}
"""The names of minitorch's ``data`` that torch's file ``torch.utils.data.<file>`` holds
(its own and those it imports); a test checks the table against torch."""


def _file_module(file: str, names: tuple[str, ...]) -> types.ModuleType:
    module = types.ModuleType(f"{data.__name__}.{file}",
                              f"``torch.utils.data.{file}``'s names, as in ``data``.")
    module.__dict__.update({name: getattr(data, name) for name in names})
    module.__all__ = list(names)
    sys.modules[module.__name__] = module
    return module


# a package's mark (with nowhere to search): ``import ....data.dataset`` then finds the
# modules below in sys.modules, also under another name for minitorch (a ``torch`` alias)
data.__path__ = []  # type: ignore[attr-defined]
for _file, _names in FILES.items():
    setattr(data, _file, _file_module(_file, _names))
