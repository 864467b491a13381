"""``torch.__future__``: switches for how ``nn.Module`` conversions (``to``, ``double``,
``to_empty`` ...) replace a module's parameters.

By default a conversion sets each parameter's ``.data`` (the Parameter objects stay). With
``set_overwrite_module_params_on_conversion(True)`` it assigns new Parameter objects; with
``set_swap_module_params_on_conversion(True)`` (which takes precedence) it swaps the new
values into the existing objects with :func:`minitorch.utils.swap_tensors`.

>>> import minitorch
>>> set_overwrite_module_params_on_conversion(True)
>>> m = minitorch.nn.Linear(1, 1); w = m.weight
>>> m.double().weight is w
False
>>> set_overwrite_module_params_on_conversion(False)
"""

from __future__ import annotations

_overwrite_module_params_on_conversion: bool = False
_swap_module_params_on_conversion: bool = False

__all__ = ["get_overwrite_module_params_on_conversion", "get_swap_module_params_on_conversion",
           "set_overwrite_module_params_on_conversion", "set_swap_module_params_on_conversion"]


def set_overwrite_module_params_on_conversion(value: bool) -> None:
    """Make module conversions assign new Parameter objects (True) or set ``.data`` (False).

    >>> set_overwrite_module_params_on_conversion(False)
    """
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion() -> bool:
    """Whether module conversions assign new Parameter objects (False by default).

    >>> get_overwrite_module_params_on_conversion()
    False
    """
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value: bool) -> None:
    """Make module conversions swap new values into the existing Parameter objects with
    ``swap_tensors`` (True) instead of setting ``.data`` (False).

    >>> set_swap_module_params_on_conversion(False)
    """
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion() -> bool:
    """Whether module conversions use ``swap_tensors`` (False by default).

    >>> get_swap_module_params_on_conversion()
    False
    """
    return _swap_module_params_on_conversion
