"""Transitional: the names the card-counting lab still imports from here; their home is :mod:`exactodds.render`.

Remove this module once the lab imports ``shoe_rules_header`` and ``SIMULATION_FORMATS`` from
:mod:`exactodds.render`.
"""

from __future__ import annotations

from .render import SIMULATION_FORMATS, shoe_rules_header

__all__ = ["SIMULATION_FORMATS", "shoe_rules_header"]
