"""minitorch's built-in differentiable operations, one module per family.

Every op is a :class:`~minitorch.autograd.Function`: the same mechanism a user's custom
Function goes through. ``minitorch/__init__.py`` and the Tensor methods expose them.
"""
