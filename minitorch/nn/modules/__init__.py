"""``minitorch.nn.modules``: the classes of ``nn`` under torch's file paths, as programs name them
(``torch.nn.modules.rnn.LSTM`` in ``torch.serialization.safe_globals`` lists, for one).

>>> import minitorch
>>> minitorch.nn.modules.rnn.LSTM is minitorch.nn.LSTM
True
>>> from minitorch.nn.modules.dropout import Dropout
"""

from __future__ import annotations

import sys
import types

from .. import __all__ as _nn_names
from .. import batchnorm as _batchnorm
from .. import module as _module

_FILES: dict[str, tuple[str, ...]] = {
    "activation": ("CELU", "ELU", "GELU", "GLU", "Hardshrink", "Hardsigmoid", "Hardswish",
                   "Hardtanh", "LeakyReLU", "LogSigmoid", "LogSoftmax", "Mish",
                   "MultiheadAttention", "PReLU", "RReLU", "ReLU", "ReLU6", "SELU", "SiLU",
                   "Sigmoid", "Softmax", "Softmax2d", "Softmin", "Softplus", "Softshrink",
                   "Softsign", "Tanh", "Tanhshrink", "Threshold"),
    "batchnorm": ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LazyBatchNorm1d",
                  "LazyBatchNorm2d", "LazyBatchNorm3d"),
    "channelshuffle": ("ChannelShuffle",),
    "container": ("ModuleDict", "ModuleList", "ParameterDict", "ParameterList", "Sequential"),
    "conv": ("Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
             "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d",
             "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d"),
    "distance": ("CosineSimilarity", "PairwiseDistance"),
    "dropout": ("AlphaDropout", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
                "FeatureAlphaDropout"),
    "flatten": ("Flatten", "Unflatten"),
    "fold": ("Fold", "Unfold"),
    "instancenorm": ("InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
                     "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d"),
    "linear": ("Bilinear", "Identity", "LazyLinear", "Linear"),
    "loss": ("BCELoss", "BCEWithLogitsLoss", "CTCLoss", "CosineEmbeddingLoss", "CrossEntropyLoss",
             "GaussianNLLLoss", "HingeEmbeddingLoss", "HuberLoss", "KLDivLoss", "L1Loss",
             "MSELoss", "MarginRankingLoss", "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss",
             "MultiMarginLoss",
             "NLLLoss", "PoissonNLLLoss", "SmoothL1Loss", "SoftMarginLoss", "TripletMarginLoss",
             "TripletMarginWithDistanceLoss"),
    "module": ("Module",),
    "normalization": ("GroupNorm", "LayerNorm", "LocalResponseNorm", "RMSNorm"),
    "padding": ("CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d",
                "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d",
                "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
                "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"),
    "pixelshuffle": ("PixelShuffle", "PixelUnshuffle"),
    "pooling": ("AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
                "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AvgPool1d",
                "AvgPool2d", "AvgPool3d", "LPPool1d", "LPPool2d", "LPPool3d", "MaxPool1d",
                "MaxPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d"),
    "rnn": ("GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNBase", "RNNCell", "RNNCellBase"),
    "sparse": ("Embedding", "EmbeddingBag"),
    "transformer": ("Transformer", "TransformerDecoder", "TransformerDecoderLayer",
                    "TransformerEncoder", "TransformerEncoderLayer"),
    "upsampling": ("Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"),
}
"""torch's file (``torch.nn.modules.<file>``) of each class minitorch has; a test checks the table
against torch, so a new class that torch keeps in one of these files is added here."""


_nn = sys.modules[__package__.rpartition(".")[0]]
_FILE_OF = {name: file for file, names in _FILES.items() for name in names}


def torch_path(cls: type) -> str | None:
    """torch's dotted name of an ``nn`` class, as its messages print it; None for the others.

    >>> minitorch.nn.modules.torch_path(minitorch.nn.ReLU)
    'torch.nn.modules.activation.ReLU'
    """
    file = _FILE_OF.get(cls.__name__)
    if file is None or getattr(_nn, cls.__name__, None) is not cls:
        return None
    return f"torch.nn.modules.{file}.{cls.__name__}"



def _file_module(file: str, names: tuple[str, ...]) -> types.ModuleType:
    """A module ``minitorch.nn.modules.<file>`` holding ``names``, importable by that name."""
    module = types.ModuleType(f"{__name__}.{file}", f"``nn``'s classes in torch's {file}.py.")
    module.__dict__.update({name: getattr(_nn, name) for name in names})
    module.__all__ = list(names)
    sys.modules[module.__name__] = module
    return module


globals().update({file: _file_module(file, names) for file, names in _FILES.items()})
# torch's module.py also holds the hooks of every module (not among its classes' names)
for _hook in ("register_module_forward_hook", "register_module_forward_pre_hook"):
    setattr(sys.modules[f"{__name__}.module"], _hook, getattr(_module, _hook))
# the private base programs test with isinstance (``nn.modules.batchnorm._BatchNorm``)
sys.modules[f"{__name__}.batchnorm"]._BatchNorm = _batchnorm._BatchNorm
_classes = [name for name in _nn_names if isinstance(getattr(_nn, name, None), type)]
globals().update({name: getattr(_nn, name) for name in _classes})
__all__ = [*_FILES, *_classes, "torch_path"]
