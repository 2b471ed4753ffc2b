"""The baccarat family: games with a deal of their own, each a registry entry (:mod:`exactodds.variants`) plus its deal.

:mod:`.deal` says what a deal is (its facts, settings, bets file and exact enumerator), :mod:`.pricing` prices a
game's bets from its deal's counts with the figures every bet has (:mod:`exactodds.analysis`); each game's deal
is a module: :mod:`.dragon_tiger`, :mod:`.three_card`, :mod:`.lucky_draw` (with a decision: its chart).
"""
