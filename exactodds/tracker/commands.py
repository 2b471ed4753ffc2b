"""The tracker's command language: what a line typed to it means, parsed into values.

A line is cards dealt (``7 K 10``), a whole coup (``P 2 3 9 B 3 4``: each hand of the game's coup
named once, by its name or label, then its cards), cards burned face up (``burn 5``), or a word
that deals nothing (``undo``, ``new shoe``, ``save FILE``, ...); anything else is a one-line
:class:`~exactodds.errors.ExactOddsError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Rank, parse_card
from ..coups import BACCARAT_HANDS, Coups, Hand
from ..errors import ExactOddsError

#: The longest line read (characters; bytes in a script): a whole shoe of cards typed on one line fits many times over.
MAX_LINE = 20_000

_HELP = """\
Type the cards as they are dealt, several on a line if you like: 7  K  T  10  (suits are ignored).
{coup}
  burn 5 K         cards burned face up (face-down burns are not typed: unseen cards change nothing)
  undo             take back the last step           new shoe    start again from the full shoe
  save FILE        write the session (JSON)          load FILE   read a saved session back
  help             this text                         quit        leave (Ctrl-D too)"""


def help_text(coups: Coups | None, game: str) -> str:
    """The commands, for ``help``: a whole coup as the game's ``coups`` write it (``None``: coups not followed).

    >>> print(help_text(None, "lucky-draw").splitlines()[1])
      lucky-draw: coups are not followed, so the cards typed only leave the shoe (no whole coups)
    """
    if coups is None:
        return _HELP.format(coup=f"  {game}: coups are not followed, so the cards typed only leave the shoe"
                                 " (no whole coups)")
    return _HELP.format(coup=f"  {coups.example():<16} a whole coup: {coups.written()}")


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
    """A whole coup: each hand's cards, in the order of the game's hands (none read where coups are not followed)."""

    hands: tuple[tuple[Rank, ...], ...]


@dataclass(frozen=True)
class Control:
    """A command that deals nothing: ``undo``, ``new shoe``, ``help``, ``quit``, or ``save``/``load`` a file."""

    name: str
    path: str = ""


Command = Cards | Burn | WholeCoup | Control

# No one-letter words: Q is a queen (and every rank letter a card).
_WORDS = {"undo": "undo", "help": "help", "?": "help", "quit": "quit", "exit": "quit", "new": "new shoe",
          "new shoe": "new shoe"}


def parse_command(line: str, hands: Sequence[Hand] = BACCARAT_HANDS) -> Command | None:
    """Read one line typed to the tracker (``None`` for a blank line or a ``#`` comment); ``hands``: those of the
    game's coup, which a whole coup names (none: a game whose coups are not followed).

    >>> parse_command("7 k 10")
    Cards(ranks=(<Rank.SEVEN: '7'>, <Rank.KING: 'K'>, <Rank.TEN: 'T'>))
    >>> parse_command("P 2 3 9 B 3 4") == WholeCoup((tuple(map(Rank, "239")), tuple(map(Rank, "34"))))
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
    if any(first in (hand.name.lower(), hand.label.lower()) for hand in hands):
        return _whole_coup(words, hands)
    if not hands and not _is_card(words[0]) and any(_is_card(word) for word in words[1:]):
        return WholeCoup(())  # a coup typed whole, where coups are not followed: the tracker says so
    return Cards(_ranks(words))


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except ExactOddsError:
        return False
    return True


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


def _whole_coup(words: list[str], hands: Sequence[Hand]) -> WholeCoup:
    """Each hand's cards, the hand named by its name or label (in any case), each once and every one."""
    named = {word: hand.name for hand in hands for word in (hand.name.lower(), hand.label.lower())}
    held: dict[str, list[str]] = {}
    side = ""
    for word in words:
        key = word.lower()
        if key in named:
            side = named[key]
            if side in held:
                raise ExactOddsError(f"a coup names {' and '.join(hand.shown for hand in hands)} once each")
            held[side] = []
        else:
            held[side].append(word)
    if len(held) != len(hands):
        each = "both hands" if len(hands) == 2 else "each hand"
        example = " ".join(f"{hand.label} …" for hand in hands)
        raise ExactOddsError(f"a whole coup names {each}, each before its cards: `{example}`")
    return WholeCoup(tuple(_ranks(held[hand.name]) for hand in hands))
