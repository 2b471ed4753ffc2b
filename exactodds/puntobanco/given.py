"""Events about the dealt cards, for conditional odds: ``--given "P1 in 6789 and B1 = K"``.

Positions are the cards of the counted six-card draw in deal order: P1, B1, P2, B2, then
the fifth and sixth cards out of the shoe (P3 and B3: the third cards when drawn, the
Player's first). A coup that stops early still has a fifth and sixth card in the ordered
draw that counts it, so an event on P3 or B3 is about those cards whether or not they
are dealt to a hand. Ranks are written as in ``--shoe`` (A 2 … 9 T J Q K, 10 for T).
An event is conditions joined by ``and``; each condition is ``POS in RANKS``,
``POS not in RANKS``, ``POS = RANK`` or ``POS != RANK``, RANKS written together (``6789``)
or with commas (``6,7,8,9``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..cards import RANKS, Rank
from ..errors import ExactOddsError, shown

#: The positions of the counted six-card draw, in deal order (P3 and B3: the fifth and sixth cards out of the shoe).
POSITIONS = ("P1", "B1", "P2", "B2", "P3", "B3")
_ALL = frozenset(range(len(RANKS)))
#: A squeeze class's name as written: a word of three letters or more, or words and numbers joined by dashes.
_CLASS = re.compile(r"[a-z]{3,}(-[a-z0-9]+)*|[a-z]+(-[a-z0-9]+)+")
_CONDITION = re.compile(r"^\s*([A-Za-z]\w*)\s*(not\s+in|in|!=|=)\s*(.*?)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Given:
    """An event about the dealt cards: the ranks allowed at each of the six positions (rank indices).

    >>> g = Given.parse("p1 in 6,7,8,9 and B1 != 10")
    >>> g.event, sorted(g.allowed[1]) == list(range(9)) + [10, 11, 12]
    ('P1 in 6,7,8,9 and B1 != T', True)
    """

    #: The event in normal form, as it is printed and written to JSON.
    event: str
    #: For each position P1, B1, P2, B2, P3, B3, the indices (into RANKS) of the ranks allowed there.
    allowed: tuple[frozenset[int], ...]

    @classmethod
    def parse(cls, text: str) -> Given:
        """Read an event: conditions ``POS in|not in|=|!= RANKS`` joined by ``and``."""
        if not text.strip():
            raise ExactOddsError("--given needs an event, e.g. \"P1 in 6789\" or \"B1 = K\"")
        allowed = [_ALL] * len(POSITIONS)
        parts = []
        for condition in re.split(r"\s+and\s+", text.strip(), flags=re.IGNORECASE):
            match = _CONDITION.match(condition)
            if not match:
                raise ExactOddsError(
                    f"cannot read the condition {shown(condition.strip())!r} of --given: write POS in RANKS, POS not"
                    " in RANKS, POS = RANK or POS != RANK (POS one of P1 B1 P2 B2 P3 B3), joined by 'and'"
                )
            name, op, rank_text = match.group(1).upper(), " ".join(match.group(2).lower().split()), match.group(3)
            if name not in POSITIONS:
                valid = " ".join(POSITIONS)
                raise ExactOddsError(f"unknown position {shown(match.group(1))!r} in --given: use one of {valid}")
            ranks = _ranks(rank_text)
            if op in ("=", "!=") and len(ranks) != 1:  # one value is one rank: "66" and "KK" are two
                raise ExactOddsError(f"{name} {op} needs one rank, got {shown(rank_text.strip(), 20)!r}: use 'in' for"
                                     " several")
            chosen = frozenset(RANKS.index(r) for r in ranks)
            position = POSITIONS.index(name)
            allowed[position] &= _ALL - chosen if op in ("not in", "!=") else chosen
            parts.append(f"{name} {op} {','.join(RANKS[i].value for i in sorted(chosen))}")
        return cls(" and ".join(parts), tuple(allowed))


@cache
def squeeze_classes() -> dict[str, tuple[str, str]]:
    """The classes a squeezed card's edge shows (``exactodds/data/squeeze.toml``, with its source): each name, its
    ranks and what the edge shows; every rank in exactly one.

    >>> squeeze_classes()["side-3"][0]
    '678'
    """
    from ..betfile import packaged_text
    from ..tomldata import load_toml

    classes = load_toml(packaged_text("squeeze.toml"), "squeeze.toml")["classes"]
    out = {name: (entry["ranks"], entry["shows"]) for name, entry in classes.items()}
    held = sorted(RANKS.index(r) for ranks, _ in out.values() for r in _rank_list(ranks))
    assert held == list(range(len(RANKS))), "the squeeze classes hold each rank once"
    return out


def _ranks(text: str) -> list[Rank]:
    """The ranks of ``6789``, ``6,7,8,9``, ``{6,7,8}``, ``10 J`` or ``T,J,Q,K``, in order and as often as written, or
    of a squeeze class (:func:`squeeze_classes`: ``side-3`` is 6, 7, 8).

    >>> [r.value for r in _ranks("10,J")], len(_ranks("66")), [r.value for r in _ranks("{6, 7}")]
    (['T', 'J'], 2, ['6', '7'])
    >>> [r.value for r in _ranks("side-3")]
    ['6', '7', '8']
    """
    stripped = text.strip()
    if stripped.startswith("{") and stripped.endswith("}"):
        text = stripped[1:-1]
    elif _CLASS.fullmatch(stripped.lower()) and re.search(r"[^atjqk]", stripped.lower()):  # a class's name
        classes = squeeze_classes()
        if stripped.lower() not in classes:
            raise ExactOddsError(f"unknown class {shown(stripped)!r} in --given: the squeeze's classes are"
                                 f" {', '.join(classes)}; or write the ranks (6789)")
        text = classes[stripped.lower()][0]
    return _rank_list(text)


def _rank_list(text: str) -> list[Rank]:
    """The ranks written in ``text`` (no class, no braces), in order and as often as written."""
    if re.search(r"(^|,)\s*(,|$)", text.strip()) and text.strip():  # as --shoe and --remove: no empty entry
        raise ExactOddsError("a condition of --given has an empty entry in its ranks (two commas, or one at an end)")
    ranks: list[Rank] = []
    for item in re.split(r"[\s,]+", text.strip()):
        i = 0
        while i < len(item):
            piece = "10" if item.startswith("10", i) else item[i]
            ranks.append(Rank.parse(piece))
            i += len(piece)
    if not ranks:
        raise ExactOddsError("a condition of --given names no rank: write e.g. P1 in 6789 or B1 = K")
    return ranks
