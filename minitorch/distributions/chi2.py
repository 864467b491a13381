"""``Chi2`` (defined beside ``Gamma``, of which it is a case), under torch's module name.

>>> Chi2(2.).mean
tensor(2.)
"""

from .gamma import Chi2

__all__ = ["Chi2"]
