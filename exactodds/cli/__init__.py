"""The ``exactodds`` command line: a thin layer over the public API, one module per family of commands.

- :mod:`.registry`: every command by name, the group :func:`cli` and :func:`main`; each family
  module is imported when one of its commands runs or is listed;
- the families: :mod:`.odds` (``odds``), :mod:`.batch` (``batch``), :mod:`.listings` (``games``,
  ``bets``, ``facts``, ``rules``), :mod:`.tables`, :mod:`.lab` (``eor``, ``tags``, ``simulate``),
  :mod:`.decisions` (``solve``, ``big-table``), :mod:`.information` (``edge-sort``), :mod:`.report`
  (``report``, ``plot``), :mod:`.design` (``design``), :mod:`.tracker` (``track``), :mod:`.serve`
  (``serve``, the JSON API of :mod:`exactodds.serve`);
- :mod:`.options`: the option bundles, each option declared once, handing a command the objects
  they describe (a :class:`~.options.Setup` of shoe, rules and bets);
- :mod:`.group`: the click group, whose bad input is one ``Error:`` line.

What a command prints is made in :mod:`exactodds.present`; its formats are named in
:mod:`exactodds.present.formats`.
"""

from __future__ import annotations

from .registry import cli, main

__all__ = ["cli", "main"]
