"""The plots' common ground: the request a plot is drawn from, a figure, and a figure as deterministic bytes."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..analysis import Rules
from ..cards import Shoe
from ..errors import ExactOddsError, shown
from ..game import Game, Settings
from ..layout import one_line
from ..paytable import Bet
from ..present.formats import IMAGE_FORMATS

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The extra that holds the report's libraries.
REPORT_EXTRA = "pip install 'exactodds[report]'"
#: A fixed salt for the ids in SVG files, so the same plot is the same bytes.
_SVG_SALT = "exactodds"
#: The numbers of decks of the ``decks`` plot; the infinite shoe (a game with one) is drawn after them.
DECKS = tuple(range(1, 13))
#: The most characters of a text that a plot draws (a rules file's name may be long): a longer one is cut.
MAX_TEXT = 1000


def literal(text: str, limit: int = MAX_TEXT) -> str:
    r"""A text for matplotlib to draw as written: one line, at most ``limit`` characters, and each ``$`` escaped.

    matplotlib reads ``$…$`` as TeX math (a rules file's ``$\foo$`` would stop the plot);
    the escaped ``\$`` is drawn as ``$``. :func:`as_written` undoes it.

    >>> print(literal("pays $5$ on a\n6"), literal("x" * 20, 5))
    pays \$5\$ on a 6 xxxx…
    """
    text = one_line(text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("$", r"\$")


def as_written(drawn: str) -> str:
    r"""The text of a plot's label as written, from the text given to matplotlib (:func:`literal`).

    >>> as_written(literal(r"a \$ and $")) == r"a \$ and $"
    True
    """
    return drawn.replace(r"\$", "$")


@dataclass(frozen=True)
class PlotRequest:
    """What a plot is drawn from: the game and its settings, the shoe, the bets (none: the game's for the plot), and
    the options some kinds read.

    >>> from exactodds.games import find_game
    >>> game = find_game("dragon-tiger")
    >>> PlotRequest(game, game.settings_of({"tie-pays": "11"}), Shoe.standard(8)).rules.header()
    'dragon-tiger · tie 11:1'
    """

    game: Game
    settings: Settings
    shoe: Shoe
    bets: tuple[str | Bet, ...] = ()
    seed: int | None = None
    shoes: int | None = None
    params: Mapping[str, str] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        """The rules the game is priced under, as the captions name them."""
        return self.game.rules(self.settings)

    def chosen(self, kind: str) -> tuple[str | Bet, ...]:
        """The bets named, or those the game's plot ``kind`` draws when none is."""
        return self.bets or self.game.plot_default(kind, self.settings)


PlotFunction = Callable[[PlotRequest], "Figure"]


def require(module: str) -> Any:
    """Import a library of the ``report`` extra, or raise one clear error naming the extra.

    >>> require("json").__name__
    'json'
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        top = module.partition(".")[0]
        raise ExactOddsError(f"{top} is not installed: the report and plots need it ({REPORT_EXTRA})") from None


def new_figure(width: float = 8.0, height: float = 4.5) -> Figure:
    """A matplotlib figure with no global state (no pyplot), in the house style."""
    require("matplotlib")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=100, layout="constrained")
    return figure


def figure_bytes(figure: Figure, fmt: str) -> bytes:
    """The figure as PNG, SVG or PDF bytes, the same bytes every time (no dates, fixed SVG ids)."""
    import matplotlib

    if fmt not in (*IMAGE_FORMATS, "pdf"):
        raise ExactOddsError(f"unknown image format {shown(fmt)!r}: use one of {', '.join(IMAGE_FORMATS)}")
    metadata: dict[str, Any] = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}.get(
        fmt, {"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None}
    )
    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": _SVG_SALT, "svg.fonttype": "path"}):
        figure.savefig(buffer, format=fmt, metadata=metadata, dpi=150 if fmt == "png" else 100)
    return buffer.getvalue()

