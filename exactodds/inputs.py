"""The inputs of every command and request, declared once: the command line's option and the API's key are one
:class:`Input` each, with its help, its kind and its JSON schema.

An input has a name (``tie-pays``); its option is ``--tie-pays`` and its key ``tie_pays`` (a file is
``--rules-file FILE`` on the command line and ``rules_toml``, the file's text, in a request). Its
*kind* says what a value is, and both surfaces read it to the same plain value before anything is
built: the command line by click's types (:mod:`exactodds.cli.options`), a request object by
:meth:`Input.read`. The OpenAPI schema (:meth:`Input.schema`), the ``--help`` texts and the docs'
references are all made from here. A game's settings are inputs too
(:attr:`exactodds.game.Game.settings`); the inputs every game shares are :data:`SHOE`, :data:`BETS`,
:data:`OUTPUT` and the rebate's, :data:`REBATE` and :data:`REBATE_BASIS`.

>>> TIE = Input("tie-pays", "pay", "Tie pays X to 1.")
>>> TIE.option, TIE.key, TIE.read({"tie_pays": 11}), TIE.schema()["oneOf"][1]
('--tie-pays', 'tie_pays', '11', {'type': 'integer'})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from .errors import ExactOddsError, unknown_name
from .rebate import BASES
from .records import record
from .tomldata import MAX_FILE_BYTES

#: What a value of an input is: a text; a whole number (``low`` to ``high``); a flag; a list of words; the text of a
#: TOML file; one of ``choices``; a pay or a rate (a text such as ``1/2`` or ``5%``, or a whole number); a number of
#: decks or a range ``LOW:HIGH`` of them; cards (a text such as ``7,7,8``, or a request's list of them); a shoe's
#: counts by rank (a request's object); objects (a request's list of at most ``high`` of them, each read later).
Kind = Literal["text", "whole", "flag", "words", "file", "choice", "pay", "decks", "cards", "counts", "objects"]

#: Where an input is read: the command line, a request of the HTTP API, or both.
Surface = Literal["cli", "api"]
BOTH: frozenset[Surface] = frozenset({"cli", "api"})

_METAVARS = {"text": "TEXT", "whole": "N", "words": "WORD", "file": "FILE", "pay": "X", "decks": "N"}


@record
class Input:
    """One input of a command or request, declared once: its name, kind, help and what it may take.

    ``multiple``: repeatable on the command line, a list in a request. ``surfaces``: where it is
    read. ``key``: the request's key when not the name with underscores (``--bet`` is ``bets``).
    ``default``: what it is when not given, shown in the help and the schema (``None``: nothing,
    the command decides).
    """

    name: str
    kind: Kind
    help: str
    metavar: str = ""
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    default: str | int | bool | None = None
    multiple: bool = False
    surfaces: frozenset[Surface] = BOTH
    key_name: str = ""

    def __post_init__(self) -> None:
        if (self.kind == "choice") != bool(self.choices):
            raise ExactOddsError(f"input {self.name}: a choice has its words, no other kind")
        if self.kind == "file" and not self.name.endswith("-file"):
            raise ExactOddsError(f"input {self.name}: a file's input is named NAME-file (--NAME-file, NAME_toml)")

    @property
    def option(self) -> str:
        """The command line's option: ``--tie-pays``."""
        return f"--{self.name}"

    @property
    def key(self) -> str:
        """The request's key: ``tie_pays`` (a file's: its text, ``rules_toml``)."""
        if self.key_name:
            return self.key_name
        if self.kind == "file":
            return self.name.removesuffix("-file").replace("-", "_") + "_toml"
        return self.name.replace("-", "_")

    @property
    def param(self) -> str:
        """The name of the value in Python: the option's, with underscores (click's parameter name)."""
        return self.name.replace("-", "_")

    @property
    def shown(self) -> str:
        """The input as an error names it, on either surface: the command line's option (a request's error has the
        command's words, as the answers are the command's)."""
        return self.option

    def choose(self, word: str) -> str:
        """A word of a choice, checked: a near miss is told the closest (``unknown strategy 'Optimal': did you mean
        optimal?``).

        >>> Input("strategy", "choice", "", choices=("optimal", "total")).choose("best")
        Traceback (most recent call last):
        ...
        exactodds.errors.ExactOddsError: unknown strategy 'best': valid strategies are optimal, total
        """
        if word not in self.choices:
            kind = self.name.replace("-", " ")
            plural = kind[:-1] + "ies" if kind.endswith("y") else kind[:-2] + "es" if kind.endswith("is") else ""
            raise unknown_name(kind, word, self.choices, plural=plural)
        return word

    @property
    def placeholder(self) -> str:
        """The metavar of its value in ``--help``: its own, the choices joined, or its kind's."""
        return self.metavar or ("|".join(self.choices) if self.choices else _METAVARS.get(self.kind, ""))

    def schema(self) -> dict[str, Any]:
        """The JSON schema of its value in a request (the OpenAPI schema's ``properties``).

        >>> Input("precision", "whole", "Decimal places.", low=0, high=60).schema()
        {'type': 'integer', 'minimum': 0, 'maximum': 60, 'description': 'Decimal places.'}
        """
        one = _schema(self)
        if self.multiple and self.kind != "file":
            one = {"oneOf": [one, {"type": "array", "items": one}]} if self.kind == "words" else {
                "type": "array", "items": one}
        if self.default is not None:
            one = {**one, "default": self.default}
        return {**one, "description": self.help}

    def read(self, data: Mapping[str, Any]) -> Any:
        """The value of its key in a request object, checked by its kind, as the command line would give it (``None``
        when absent): a text, an int, a bool, a tuple of words (``multiple``), a file's text.

        >>> Input("bet", "words", "Bets.", multiple=True, key_name="bets").read({"bets": ["tie", "banker"]})
        ('tie', 'banker')
        >>> Input("decks", "whole", "Decks.", low=1).read({"decks": "8"})
        Traceback (most recent call last):
        ...
        exactodds.errors.ExactOddsError: "decks" must be a whole number of at least 1, not '8'
        """
        if self.key not in data or data[self.key] is None:
            return None
        value = data[self.key]
        if self.multiple and self.kind != "file":
            if self.kind == "words" and isinstance(value, str):
                value = [word for word in value.split(",") if word.strip()]
            if not isinstance(value, list):
                raise ExactOddsError(f'"{self.key}" must be a list')
            return tuple(_one(self, item) for item in value)
        return _one(self, value)


def _schema(one: Input) -> dict[str, Any]:
    """The JSON schema of one value of ``one``."""
    if one.kind == "whole":
        bounds = {k: v for k, v in (("minimum", one.low), ("maximum", one.high)) if v is not None}
        return {"type": "integer", **bounds}
    if one.kind == "flag":
        return {"type": "boolean"}
    if one.kind == "choice":
        return {"enum": list(one.choices)}
    if one.kind == "pay":  # a text, exactly, or a whole number (a JSON decimal would be read as a float)
        return {"oneOf": [{"type": "string"}, {"type": "integer"}]}
    if one.kind == "decks":
        pattern = r"^\s*[0-9]+\s*:\s*[0-9]+\s*$"  # LOW:HIGH, spaces around the numbers read as without
        return {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": pattern}]}
    if one.kind == "file":
        return {"type": "string", "maxLength": MAX_FILE_BYTES}
    if one.kind == "cards":
        return {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
    if one.kind == "counts":
        return {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
    if one.kind == "objects":
        return {"type": "array", "items": {"type": "object"}, **({"maxItems": one.high} if one.high else {})}
    return {"type": "string"}


def _one(one: Input, value: Any) -> Any:
    """One JSON value of ``one``, checked by its kind; a value of another type is one error naming the key."""
    key = one.key
    if one.kind in ("cards", "counts", "objects"):  # read by what they describe (a shoe, a batch's lines)
        return value
    if one.kind == "whole":
        what = (f"a whole number from {one.low} to {one.high}" if one.low is not None and one.high is not None
                else f"a whole number of at least {one.low}" if one.low is not None else "a whole number")
        if type(value) is not int or (one.low is not None and value < one.low) or (
                one.high is not None and value > one.high):
            shown = repr(value) if len(repr(value)) <= 30 else repr(value)[:30] + "…"
            raise ExactOddsError(f'"{key}" must be {what}, not {shown}')
        return value
    if one.kind == "flag":
        if not isinstance(value, bool):
            raise ExactOddsError(f'"{key}" must be true or false')
        return value
    if one.kind in ("pay", "decks") and type(value) is int:
        return str(value) if one.kind == "pay" else value
    if not isinstance(value, str):
        if one.kind == "pay":
            raise ExactOddsError(f'"{key}" must be a whole number or a text such as "1/2" or "0.5" (a JSON decimal is'
                                 " read as a float, not exactly)")
        raise ExactOddsError(f'"{key}" must be a string')
    if one.kind == "choice":
        one.choose(value)
    if one.kind == "file" and len(value.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise ExactOddsError(f'"{key}" is larger than {MAX_FILE_BYTES:,} bytes, the most a bets or rules file may be')
    return value


# --- the inputs every game shares ---------------------------------------------------------------------------

DECKS = Input("decks", "whole", "Standard 52-card decks (default: the game's usual shoe, 8 for punto banco).")
#: ``decks`` where a range of standard decks is taken too (``design --decks LOW:HIGH``).
DECKS_RANGE = Input("decks", "decks", "Standard 52-card decks (default: the game's usual shoe), or a range LOW:HIGH (on"
                    " HIGH decks, each with its edge at every count of the range).", metavar="N|LOW:HIGH")
SHOE_TEXT = Input("shoe", "text", 'Explicit counts, e.g. "A=32,2=32,…" (unlisted ranks hold 0; "AS=8,AH=8,…" by suit).',
                  metavar="COUNTS")
REMOVE = Input("remove", "cards", 'Cards already seen, e.g. "7,7,8,K" (a list of cards in a request).',
               metavar="CARDS")
COUNTS = Input("counts", "counts", 'The shoe by rank, e.g. {"A": 32, "2": 32, …} (unlisted ranks hold 0).',
               surfaces=frozenset({"api"}))
#: What describes a shoe: a standard shoe of ``decks``, counts typed (``shoe``, a request's ``counts``), less
#: the cards ``remove`` names.
SHOE = (DECKS, SHOE_TEXT, REMOVE, COUNTS)

GAME = Input("game", "text", "The game (default punto banco): one that `exactodds games` lists, by name or alias.")
BET = Input("bet", "words", "A bet to price, by id (repeatable; 'all': every bet the shoe can price).", metavar="ID",
            multiple=True, key_name="bets")
BETS_FILE = Input("bets-file", "file", "Bets defined in the bet notation (TOML), of a game that reads bets files:"
                  " --bet ID picks one; with no --bet naming one, every bet of the files comes after any --bet.",
                  multiple=True)
#: What chooses the bets: their ids, and bets files of the game's notation.
BETS = (BET, BETS_FILE)

GIVEN = Input("given", "text", 'An event about the dealt cards, e.g. "P1 in 6789 and B1 = K" (positions P1 B1 P2 B2'
              " P3 B3: the six cards of the draw in deal order, P3 and B3 the fifth and sixth out of the shoe; in, not"
              " in, =, != joined by 'and'): every figure conditional on it (a game that can, punto banco).",
              metavar="EXPR")

PRECISION = Input("precision", "whole", "Decimal places.", low=0, high=60, default=10)
FORMAT = Input("format", "choice", "Output format.", choices=("table", "markdown", "csv", "json"),
               default="table", surfaces=frozenset({"cli"}))
FIELDS = Input("fields", "words", "Only these keys of each object, as batch --fields (e.g. \"ev,count\").",
               metavar="KEYS", multiple=True)
#: How an answer is written: its format (the command line's; a request's is JSON), its decimal places, its keys.
OUTPUT = (FORMAT, PRECISION, FIELDS)

# --- settings several games share (each game says what it pays and its default) -----------------------------

COMMISSION = Input("commission", "text", "The commission on the wins that pay less the house's share: 5%, 4%, 2.5%,"
                   " 0.05 or 1/20.", metavar="RATE")
TIE_PAYS = Input("tie-pays", "text", "The Tie bet pays X to 1.", metavar="X")

REBATE = Input("rebate", "text", "A rebate on the turnover (0.8%, 0.008 or 1/125): each EV is also shown with it,"
               " EV + RATE x the effective stake (see --rebate-basis).", metavar="RATE")
REBATE_BASIS = Input(
    "rebate-basis", "choice", "What the rebate is paid on, per unit bet: standard (1 - P(push); on a Banker bet a win"
    " counts its net pay, the commission off), total-stake (1), non-refund (1 - P(push)) or losing-only (P(lose)).",
    choices=BASES, default=BASES[0],
)
