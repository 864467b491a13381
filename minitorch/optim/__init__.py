"""``minitorch.optim``: optimizers that update parameters from their gradients, and the
learning-rate schedulers (``optim.lr_scheduler``) that adjust them between epochs.

>>> import minitorch
>>> from minitorch import nn, optim
>>> opt = optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1, momentum=0.9)
>>> type(opt).__name__, len(opt.param_groups[0]["params"])
('SGD', 2)
"""

from __future__ import annotations

from . import lr_scheduler, swa_utils
from .adafactor import Adafactor
from .adam import Adam, AdamW
from .adam_variants import Adamax, NAdam, RAdam
from .lbfgs import LBFGS
from .optimizer import Optimizer
from .rmsprop import Adadelta, Adagrad, RMSprop
from .rprop_asgd import ASGD, Rprop
from .sgd import SGD

__all__ = ["ASGD", "LBFGS", "SGD", "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax",
           "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "lr_scheduler", "swa_utils"]
