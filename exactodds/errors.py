"""The one exception type for bad input to exactodds, and the one way to refuse an unknown name."""

from __future__ import annotations

from collections.abc import Sequence

#: The longest message :func:`unknown_name` writes (a name is cut, the valid names listed as far as they fit):
#: with the command line's "Error: " before it the line stays under 200 characters.
MAX_LINE = 190


class ExactOddsError(ValueError):
    """A domain error: bad shoe, unknown rule set or bet, malformed parameter.

    >>> isinstance(ExactOddsError("bad"), ValueError)
    True
    """


def first_line(message: str) -> str:
    """The first line of ``message``, its spaces squeezed: how an error is shown, on the command line or over HTTP.

    >>> first_line("  bad  shoe\\n  more")
    'bad shoe'
    """
    return " ".join(message.strip().split("\n")[0].split())


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
    from difflib import get_close_matches  # only on the way out, with an error

    def key(text: str) -> str:
        return "-".join(text.lower().replace("_", "-").split())

    shown = name if len(name) <= 40 else name[:40] + "…"
    candidates = {key(c): c for c in (*valid, *aliases)}
    close = [candidates[k] for k in get_close_matches(key(name), list(candidates), n=3, cutoff=0.6)]
    head = f"unknown {kind} {shown!r}: " + (f"did you mean {', '.join(close)}? Valid" if close else "valid")
    head += f" {plural or kind + 's'} are "
    listed: list[str] = []
    for item in valid:
        if len(head) + len(", ".join([*listed, item])) + len(f", … ({more})") + len(or_else) > MAX_LINE:
            return ExactOddsError(head + ", ".join(listed) + (f", … ({more})" if more else ", …"))
        listed.append(item)
    return ExactOddsError(head + ", ".join(listed) + (f", or {or_else}" if or_else else ""))
