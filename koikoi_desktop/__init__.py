"""Koi-Koi Desktop: an offline game of Koi-Koi with hanafuda flower cards.

This package's ``__init__`` imports nothing heavy: ``import koikoi_desktop.engine`` works without
pygame or platformdirs installed.
"""

__version__ = "0.1.0"
