"""The one exception type for bad input to exactodds, and the one way to refuse an unknown name."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: The longest message :func:`unknown_name` writes (a name is cut, the valid names listed as far as they fit):
#: with the command line's "Error: " before it the line stays under 200 characters.
MAX_LINE = 190
#: How much of a user's value an error shows (:func:`shown`): enough to recognise it, a line's worth at most.
SHOWN = 40
#: The longest message :func:`first_line` gives, whatever made it: a safety net under :func:`shown`.
MAX_MESSAGE = 400


class ExactOddsError(ValueError):
    """A domain error: bad shoe, unknown rule set or bet, malformed parameter.

    >>> isinstance(ExactOddsError("bad"), ValueError)
    True
    """


def shown(value: object, width: int = SHOWN) -> str:
    """A user's value as an error shows it: its text cut to ``width`` characters and ``…``, so that a value of
    200,000 characters is not copied into the line and the words after it (the hint) stay on it.

    Every parser that puts what it was given into its message passes it through here (``{shown(text)!r}``
    quotes it). A character no UTF-8 text can hold (a lone surrogate) is shown as U+FFFD, so that the
    message can be printed and sent.

    >>> shown("A" * 100)
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA…'
    >>> shown("5%"), shown(8), shown("x\\ud800")
    ('5%', '8', 'x\\ufffd')
    """
    if isinstance(value, int) and value.bit_length() > 4 * width:  # str() of a huge int is slow, or refused
        return f"a number of more than {width} digits"
    text = value if isinstance(value, str) else str(value)
    text = text if len(text) <= width else text[:width] + "…"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)
    return text


def first_line(message: str) -> str:
    """The first line of ``message``, its spaces squeezed, at most :data:`MAX_MESSAGE` characters: how an error is
    shown, on the command line or over HTTP (each value in it cut by :func:`shown`; the cap is only a safety net).

    >>> first_line("  bad  shoe\\n  more")
    'bad shoe'
    >>> len(first_line("x" * 100_000))
    400
    """
    line = " ".join(message.strip().split("\n", 1)[0].split())
    return line if len(line) <= MAX_MESSAGE else line[: MAX_MESSAGE - 1] + "…"


def by_case(name: str, valid: Iterable[str]) -> str:
    """The one name of ``valid`` that ``name`` spells but for case (ids are taken in any case where no two of them
    differ by case only), else ``name`` as given: an exact match always wins.

    >>> by_case("TIE", ["tie", "banker"]), by_case("tie", ["tie", "Tie"]), by_case("Tie", ["tie", "TIE"])
    ('tie', 'tie', 'Tie')
    """
    names = list(valid)
    if name in names:
        return name
    folded = name.casefold()
    same = [n for n in names if n.casefold() == folded]
    return same[0] if len(same) == 1 else name


def close_names(word: str, names: Sequence[str], n: int) -> list[str]:
    """The ``n`` names closest to ``word`` with a likeness of 0.6 or more (``difflib.get_close_matches``).

    The likeness 2·M/(a + b) of texts of lengths a ≤ b, M characters matching, is at most
    2a/(a + b), which is below 0.6 once b > 7a/3: such names are left out before difflib
    reads ``word``, so that a word of a million characters costs nothing (difflib indexes it).

    >>> close_names("bankr", ["banker", "player"], 2), close_names("x" * 10**6, ["banker"], 2)
    (['banker'], [])
    """
    likely = [name for name in names if 3 * len(word) <= 7 * len(name) and 3 * len(name) <= 7 * len(word)]
    if not likely:
        return []
    from difflib import get_close_matches  # only on the way out, with an error

    return get_close_matches(word, likely, n=n, cutoff=0.6)


def did_you_mean(name: str, valid: Sequence[str]) -> str:
    """``did you mean …? `` naming the closest of ``valid`` to a mistyped ``name`` (a key, a word), or nothing.

    >>> did_you_mean("deck", ["decks", "shoe"]), did_you_mean("zzz", ["decks"])
    ('did you mean decks? ', '')
    """
    close = close_names(name, list(valid), 2)
    return f"did you mean {' or '.join(close)}? " if close else ""


def unknown_name(
    kind: str,
    name: str,
    valid: Sequence[str],
    *,
    aliases: Sequence[str] = (),
    plural: str = "",
    more: str = "",
    or_else: str = "",
) -> ExactOddsError:
    """The error for a name that is none of ``valid`` (nor of ``aliases``): one line of at most 190 characters.

    Identifiers are matched exactly. A near miss (another case, ``_`` for ``-``, a stray space,
    a typo) is told the closest names; then the valid ones are listed as far as the line has
    room, ``more`` (e.g. where to find them all) ending a cut list, ``or_else`` (what else is valid) a whole one.

    >>> str(unknown_name("bet", "BANKER", ["player", "banker", "tie"]))
    "unknown bet 'BANKER': did you mean banker? Valid bets are player, banker, tie"
    >>> str(unknown_name("rule set", "vegas", ["punto-banco", "ez"]))
    "unknown rule set 'vegas': valid rule sets are punto-banco, ez"
    """
    def key(text: str) -> str:
        return "-".join(text.lower().replace("_", "-").split())

    candidates = {key(c): c for c in (*valid, *aliases)}
    close = [candidates[k] for k in close_names(key(name), list(candidates), 3)]
    head = f"unknown {kind} {shown(name)!r}: " + (f"did you mean {', '.join(close)}? Valid" if close else "valid")
    head += f" {plural or kind + 's'} are "
    listed: list[str] = []
    for item in valid:
        if len(head) + len(", ".join([*listed, item])) + len(f", … ({more})") + len(or_else) > MAX_LINE:
            return ExactOddsError(head + ", ".join(listed) + (f", … ({more})" if more else ", …"))
        listed.append(item)
    return ExactOddsError(head + ", ".join(listed) + (f", or {or_else}" if or_else else ""))
