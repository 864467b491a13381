"""``optim._functional``: torch's home of the optimizers' functional forms (``F.adam``,
``F.sgd``, ...), which update lists of parameters, gradients and state tensors in place.

minitorch's optimizers update each parameter inside their ``step`` and have no separate
functional forms yet, so this module (present so that ``dir(optim)`` is torch's) offers none:
use the optimizer classes.

>>> import minitorch
>>> hasattr(minitorch.optim._functional, "adam")
False
"""
