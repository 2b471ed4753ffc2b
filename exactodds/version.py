"""The package version, at the bottom of the layers so that any module may read it."""

from __future__ import annotations

__version__ = "0.1.0"
