"""The tracker's command language: what a line typed to it means, parsed into values.

A line is cards dealt (``7 K 10``), a whole coup (``P 2 3 9 B 3 4``), cards burned face up
(``burn 5``), or a word that deals nothing (``undo``, ``new shoe``, ``save FILE``, ...); anything
else is a one-line :class:`~exactodds.errors.ExactOddsError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Rank, parse_card
from ..errors import ExactOddsError

#: The longest line read (characters; bytes in a script): a whole shoe of cards typed on one line fits many times over.
MAX_LINE = 20_000

HELP = """\
Type the cards as they are dealt, several on a line if you like: 7  K  T  10  (suits are ignored).
  P 2 3 9 B 3 4    a whole coup: the Player's cards, then the Banker's (checked against the tableau)
  burn 5 K         cards burned face up (face-down burns are not typed: unseen cards change nothing)
  undo             take back the last step           new shoe    start again from the full shoe
  save FILE        write the session (JSON)          load FILE   read a saved session back
  help             this text                         quit        leave (Ctrl-D too)"""


@dataclass(frozen=True)
class Cards:
    """Cards dealt in the order of the game (they join the coup in progress)."""

    ranks: tuple[Rank, ...]


@dataclass(frozen=True)
class Burn:
    """Cards that leave the shoe outside any coup."""

    ranks: tuple[Rank, ...]


@dataclass(frozen=True)
class WholeCoup:
    """A whole coup: the Player's two or three cards and the Banker's."""

    player: tuple[Rank, ...]
    banker: tuple[Rank, ...]


@dataclass(frozen=True)
class Control:
    """A command that deals nothing: ``undo``, ``new shoe``, ``help``, ``quit``, or ``save``/``load`` a file."""

    name: str
    path: str = ""


Command = Cards | Burn | WholeCoup | Control

# No one-letter words: Q is a queen (and every rank letter a card).
_WORDS = {"undo": "undo", "help": "help", "?": "help", "quit": "quit", "exit": "quit", "new": "new shoe",
          "new shoe": "new shoe"}


def parse_command(line: str) -> Command | None:
    """Read one line typed to the tracker (``None`` for a blank line or a ``#`` comment).

    >>> parse_command("7 k 10")
    Cards(ranks=(<Rank.SEVEN: '7'>, <Rank.KING: 'K'>, <Rank.TEN: 'T'>))
    >>> parse_command("P 2 3 9 B 3 4") == WholeCoup(tuple(map(Rank, "239")), tuple(map(Rank, "34")))
    True
    >>> parse_command("q")  # a queen, not quit
    Cards(ranks=(<Rank.QUEEN: 'Q'>,))
    >>> parse_command("save my shoe.json"), parse_command("  # a note")
    (Control(name='save', path='my shoe.json'), None)
    """
    if len(line) > MAX_LINE:
        raise ExactOddsError(f"a line of {len(line):,} characters is too long (at most {MAX_LINE:,})")
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    words = text.replace(",", " ").split()
    first = words[0].lower()
    joined = " ".join(w.lower() for w in words)
    if joined in _WORDS:
        return Control(_WORDS[joined])
    if first in ("save", "load"):
        path = text[len(words[0]):].strip()
        if not path or len(path) > 4096:  # the longest path a system opens (PATH_MAX): no message quotes more
            raise ExactOddsError(f"{first} needs a file name of at most 4,096 characters, e.g. `{first} shoe.json`")
        return Control(first, path)
    if first == "burn":
        if len(words) == 1:
            raise ExactOddsError("burn needs the cards burned face up, e.g. `burn 5`")
        return Burn(_ranks(words[1:]))
    if first in ("p", "b", "player", "banker"):
        return _whole_coup(words)
    return Cards(_ranks(words))


def _ranks(words: list[str]) -> tuple[Rank, ...]:
    ranks = []
    for word in words:
        try:
            ranks.append(parse_card(word)[0])
        except ExactOddsError:
            raise ExactOddsError(
                f"{word[:20]!r} is neither a card (A 2-9 T/10 J Q K) nor a command: type `help`"
            ) from None
    return tuple(ranks)


def _whole_coup(words: list[str]) -> WholeCoup:
    hands: dict[str, list[str]] = {}
    side = ""
    for word in words:
        key = word.lower()
        if key in ("p", "player", "b", "banker"):
            side = key[0]
            if side in hands:
                raise ExactOddsError("a coup names the Player (P) and the Banker (B) once each")
            hands[side] = []
        else:
            hands[side].append(word)
    if set(hands) != {"p", "b"}:
        raise ExactOddsError("a whole coup names both hands, e.g. `P 2 3 9 B 3 4`")
    player, banker = _ranks(hands["p"]), _ranks(hands["b"])
    for name, hand in (("Player", player), ("Banker", banker)):
        if len(hand) not in (2, 3):
            raise ExactOddsError(f"the {name} holds 2 or 3 cards in a coup, not {len(hand)}")
    return WholeCoup(player, banker)
