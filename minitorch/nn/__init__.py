"""``minitorch.nn``: modules, parameters and the layers the course's models are built from.

>>> import minitorch
>>> from minitorch import nn
>>> model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
>>> model(minitorch.ones(5, 4)).shape
torch.Size([5, 2])
"""

from __future__ import annotations

from . import functional, init, utils
from .activation import (
    ELU,
    GELU,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from .attention import MultiheadAttention
from .batchnorm import BatchNorm1d, BatchNorm2d
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import Conv2d, ConvTranspose2d
from .dropout import Dropout
from .flatten import Flatten
from .lazy import LazyBatchNorm1d, LazyBatchNorm2d, LazyConv2d, LazyLinear
from .linear import Identity, Linear
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MarginRankingLoss,
    MSELoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    NLLLoss,
    PoissonNLLLoss,
    SmoothL1Loss,
    SoftMarginLoss,
    TripletMarginLoss,
)
from .module import Module
from .normalization import LayerNorm
from .parameter import Parameter, UninitializedBuffer, UninitializedParameter
from .pooling import AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool2d, AvgPool2d, MaxPool2d
from .rnn import RNN
from .sparse import Embedding

__all__ = [
    "ELU",
    "GELU",
    "RNN",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveMaxPool2d",
    "AvgPool2d",
    "BCELoss",
    "BCEWithLogitsLoss",
    "BatchNorm1d",
    "BatchNorm2d",
    "Conv2d",
    "ConvTranspose2d",
    "CosineEmbeddingLoss",
    "CrossEntropyLoss",
    "Dropout",
    "Embedding",
    "Flatten",
    "GaussianNLLLoss",
    "Hardtanh",
    "HingeEmbeddingLoss",
    "HuberLoss",
    "Identity",
    "KLDivLoss",
    "L1Loss",
    "LayerNorm",
    "LazyBatchNorm1d",
    "LazyBatchNorm2d",
    "LazyConv2d",
    "LazyLinear",
    "LeakyReLU",
    "Linear",
    "LogSigmoid",
    "LogSoftmax",
    "MSELoss",
    "MarginRankingLoss",
    "MaxPool2d",
    "Module",
    "ModuleDict",
    "ModuleList",
    "MultiLabelSoftMarginLoss",
    "MultiMarginLoss",
    "MultiheadAttention",
    "NLLLoss",
    "Parameter",
    "ParameterDict",
    "ParameterList",
    "PoissonNLLLoss",
    "ReLU",
    "ReLU6",
    "Sequential",
    "SiLU",
    "Sigmoid",
    "SmoothL1Loss",
    "SoftMarginLoss",
    "Softmax",
    "Softplus",
    "Tanh",
    "TripletMarginLoss",
    "UninitializedBuffer",
    "UninitializedParameter",
    "functional",
    "init",
    "utils",
]
