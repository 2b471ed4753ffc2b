"""Exact solutions of chemin de fer, the two-person game punto banco came from.

The Player may draw or stand on 5, the Banker may choose in every cell of the tableau; the
solver finds the equilibria exactly, for the infinite deck (model A1) or any finite shoe
(models B2 and B3), with or without the house's commission on the Banker's wins:
:mod:`.model` (the cells counted), :mod:`.linear` (exact linear algebra), :mod:`.vertices`
(candidates), :mod:`.solver`, :mod:`.solution` (``solve``, the verification, the JSON).

>>> from exactodds.chemindefer.solution import solve
>>> solve(model="A1").player["5"]
Fraction(9, 11)
"""

from __future__ import annotations

#: The game this package solves, by its name in the registry (:mod:`exactodds.games.chemin_de_fer`).
GAME = "chemin-de-fer"
#: The information models it is solved in (what each side sees): A1 the infinite deck, B2, B3.
MODELS: tuple[str, ...] = ("A1", "B2", "B3")
