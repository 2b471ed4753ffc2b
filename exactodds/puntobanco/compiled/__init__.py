"""The compiled evaluator: the exhaustive walk folded once per tableau into a table, then priced by weights.

Every coup is counted over ordered six-card draws, and all orderings of one multiset of
card values are equally likely. So the walk over the 10^6 sequences of six values is
done once per tableau and folded into a table of small integer coefficients by (value
multiset, weight kind) and coup state; a shoe then only supplies the number of ways it
deals each multiset (a product of falling factorials), and any count is a dot product.

The package, from the bottom up:

- :mod:`~exactodds.puntobanco.compiled.kernel`: THE weights kernel. The factor tensor of a shoe
  (falling factorials (c_v)_k and the rank-pair rows P2, P22), the weight of every table
  row, and the exactness proofs of its int64, float64-limb and Python-integer paths.
- :mod:`~exactodds.puntobanco.compiled.modular`: one huge shoe (past the int64 bound) in int64
  residues modulo a few primes, rebuilt exactly by the Chinese remainder theorem.
- :mod:`~exactodds.puntobanco.compiled.table`: :func:`build` walks the sequences and makes a
  :class:`CompiledTableau` (blocks W, A, B for the pairs among the 0-valued ranks).
- :mod:`~exactodds.puntobanco.compiled.private`: the cache folder, the safe read of its files, its size cap.
- :mod:`~exactodds.puntobanco.compiled.probe`: a few six-card hands dealt afresh, which every table read
  from disk must match.
- :mod:`~exactodds.puntobanco.compiled.cache`: :func:`compiled`, the table from memory, a verified
  file on disk, or built; :func:`cache_dir`, :func:`cache_key`.
- :mod:`~exactodds.puntobanco.compiled.flat`: the same counts for one shoe in Python integers from a flat
  table of one bet set's coefficients, cached on disk: no numpy (the CLI's start-up path).
- :mod:`~exactodds.puntobanco.compiled.pricing`: :class:`Evaluator` (counts of groups of states for
  one shoe or many), :class:`BetPricer` and its cache :func:`pricer`, :func:`coup_distribution`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .cache import FORMAT_VERSION, cache_key, compiled
    from .factors import DRAW
    from .kernel import RowWeights, factor_table, factor_tensor, falling_rows, float64_is_exact, int64_is_exact, weights
    from .pricing import BetPricer, Evaluator, coup_distribution, pricer
    from .private import cache_dir
    from .table import CompiledTableau, build

# Every name below needs numpy: each is imported on first use, so that a module of the package
# (the flat evaluator :mod:`exactodds.puntobanco.compiled.flat`, say) can be imported without it.
_LAZY = {
    **dict.fromkeys(("FORMAT_VERSION", "cache_key", "compiled"), "cache"),
    "cache_dir": "private",
    "DRAW": "factors",
    **dict.fromkeys(
        ("RowWeights", "factor_table", "factor_tensor", "falling_rows", "float64_is_exact", "int64_is_exact",
         "weights"),
        "kernel",
    ),
    **dict.fromkeys(("BetPricer", "Evaluator", "coup_distribution", "pricer"), "pricing"),
    **dict.fromkeys(("CompiledTableau", "build"), "table"),
}  # fmt: skip


def __getattr__(name: str) -> Any:
    """Import the names of the compiled package (and numpy) on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "DRAW",
    "FORMAT_VERSION",
    "BetPricer",
    "CompiledTableau",
    "Evaluator",
    "RowWeights",
    "build",
    "cache_dir",
    "cache_key",
    "compiled",
    "coup_distribution",
    "factor_table",
    "factor_tensor",
    "falling_rows",
    "float64_is_exact",
    "int64_is_exact",
    "pricer",
    "weights",
]
