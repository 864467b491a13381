"""``minitorch.optim``: optimizers that update parameters from their gradients, and the
learning-rate schedulers (``optim.lr_scheduler``) that adjust them between epochs.

>>> import minitorch
>>> from minitorch import nn, optim
>>> opt = optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1, momentum=0.9)
>>> type(opt).__name__, len(opt.param_groups[0]["params"])
('SGD', 2)
"""

# No ``from __future__ import annotations`` here: it would bind ``annotations`` in the
# namespace, and ``dir(optim)`` is torch's (programs print it).
from . import _functional as _functional
from . import _stateless as _stateless
from . import lr_scheduler, swa_utils
from ._adafactor import Adafactor
from ._muon import Muon
from ._stateless import swap_in_optimizer_params_and_state
from .adam import Adam, AdamW
from .adam_variants import Adamax, NAdam, RAdam
from .lbfgs import LBFGS
from .optimizer import Optimizer
from .rmsprop import Adadelta, Adagrad, RMSprop
from .rprop_asgd import ASGD, Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam

# torch's names for these two (their modules are private)
Adafactor.__module__ = Muon.__module__ = "minitorch.optim"

# torch imports its classes from submodules and then drops the submodule names, so that
# ``dir(torch.optim)`` lists the optimizers only; the submodules stay importable by path.
del adam, adam_variants, lbfgs, optimizer, rmsprop, rprop_asgd, sgd, sparse_adam  # noqa: F821
del _elementwise, lr_scheduler_cycles, lr_scheduler_plateau, lr_scheduler_shapes  # noqa: F821

__all__ = ["ASGD", "LBFGS", "SGD", "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax",
           "Muon", "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SparseAdam",
           "lr_scheduler", "swa_utils", "swap_in_optimizer_params_and_state"]
