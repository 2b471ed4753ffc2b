"""The one exception type for bad input to exactodds."""

from __future__ import annotations


class ExactOddsError(ValueError):
    """A domain error: bad shoe, unknown rule set or bet, malformed parameter.

    >>> isinstance(ExactOddsError("bad"), ValueError)
    True
    """
