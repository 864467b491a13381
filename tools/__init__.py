"""Maintainer tools for the repository (not part of the minitorch package)."""
