"""``minitorch.nn``: modules, parameters and the layers the course's models are built from.

>>> import minitorch
>>> from minitorch import nn
>>> model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
>>> model(minitorch.ones(5, 4)).shape
minitorch.Size([5, 2])
"""

from __future__ import annotations

from . import functional, init
from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .batchnorm import BatchNorm1d, BatchNorm2d
from .container import Sequential
from .dropout import Dropout
from .flatten import Flatten
from .linear import Identity, Linear
from .loss import CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module
from .parameter import Parameter
from .pooling import AvgPool2d

__all__ = ["AvgPool2d", "BatchNorm1d", "BatchNorm2d", "CrossEntropyLoss", "Dropout", "Flatten",
           "Identity", "Linear", "LogSoftmax", "MSELoss", "Module", "NLLLoss", "Parameter",
           "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh", "functional", "init"]
