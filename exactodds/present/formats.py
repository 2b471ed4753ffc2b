"""The output formats, one registry: for each kind of output, the formats it is written in.

Every ``--format`` choice, every extension an ``--output`` file may have, and every renderer's
check reads its formats from here, so a new format is named once. The first format of a
kind is its default. The kinds:

- an *analysis* report of exact figures (``odds``, ``eor``): :data:`FORMATS`;
- a *lab* report of the card-counting lab (``simulate``, ``tags``): :data:`SIMULATION_FORMATS`;
- a *game* report, of a solved game or of information (``solve``, ``big-table``, ``edge-sort``):
  :data:`GAME_FORMATS`;
- a *design* of a bet's pay tables (``design``): :data:`DESIGN_FORMATS`;
- a *document* written to a file, the format told by its extension (``report``): :data:`REPORT_FORMATS`;
- an *image* written to a file, the same way (``plot``): :data:`IMAGE_FORMATS`;
- a *listing* of what can be priced (``games``, ``bets``, ``facts``, ``rules``): :data:`LISTING_FORMATS`;
- a *review* of a table's log (``review``): :data:`REVIEW_FORMATS`;
- a review as a *document* written to a file, the format told by its extension (``review --output``):
  :data:`REVIEW_DOCUMENT_FORMATS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Literal, TypeVar, get_args

from ..errors import unknown_name

T = TypeVar("T")

Format = Literal["table", "markdown", "csv", "json"]
"""The output formats of :func:`render` and :func:`render_eor`: ``table``, ``markdown``, ``csv`` or ``json``."""
#: The formats of an analysis report (``odds``, ``eor``).
FORMATS: tuple[Format, ...] = get_args(Format)
#: The output formats of the card-counting lab's reports.
LabFormat = Literal["table", "json"]
#: The formats of a lab report (``simulate``, ``tags``).
SIMULATION_FORMATS: tuple[LabFormat, ...] = get_args(LabFormat)
#: The formats of a game or information report (``solve``, ``big-table``, ``edge-sort``).
GAME_FORMATS: tuple[str, ...] = ("table", "json")
#: The formats of a design of pay tables (``design``).
DESIGN_FORMATS: tuple[str, ...] = ("table", "json")
#: The formats of a document (``report``), told by the output file's extension.
REPORT_FORMATS: tuple[str, ...] = ("xlsx", "pdf", "html", "md")
#: The formats of an image (``plot``), told by the output file's extension.
IMAGE_FORMATS: tuple[str, ...] = ("png", "svg")
#: The formats of a listing (``games``, ``bets``, ``facts``, ``rules``; the API's listings answer the JSON).
LISTING_FORMATS: tuple[str, ...] = ("text", "json")

#: The formats of a review of a table's log (``review``): the verdict, the verdict as JSON, every wager as CSV.
REVIEW_FORMATS: tuple[str, ...] = ("table", "json", "csv")
#: The formats of a review's document (``review --output``), told by the output file's extension.
REVIEW_DOCUMENT_FORMATS: tuple[str, ...] = ("pdf", "html", "md")

#: Every kind of output with its formats (the first its default).
OUTPUT_FORMATS: dict[str, tuple[str, ...]] = {
    "analysis": FORMATS,
    "lab": SIMULATION_FORMATS,
    "game": GAME_FORMATS,
    "design": DESIGN_FORMATS,
    "document": REPORT_FORMATS,
    "image": IMAGE_FORMATS,
    "listing": LISTING_FORMATS,
    "review": REVIEW_FORMATS,
    "review-document": REVIEW_DOCUMENT_FORMATS,
}



def write_format(kind: str, fmt: str, writers: Mapping[str, Callable[[], T]]) -> T:
    """Write ``fmt``, a format of the ``kind`` of output, with its writer (each writer of a kind goes through here).

    A format the kind does not have is one clear error. A writer that does not write every
    format of its kind fails at every call, whatever the format asked for: a format added to
    the registry fails every writer of its kind until each one writes it, never falls through
    silently to another format.

    >>> writers = {"table": lambda: "a table", "json": lambda: "{}"}
    >>> write_format("game", "json", writers)
    '{}'
    >>> write_format("game", "jsn", writers)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown format 'jsn': did you mean json? Valid formats are table, json
    """
    formats = OUTPUT_FORMATS[kind]
    if set(writers) != set(formats):
        written = ", ".join(writers)
        raise NotImplementedError(f"the {kind} formats are {', '.join(formats)}; this writer writes {written}")
    if fmt not in writers:
        raise unknown_name("format", fmt, formats)
    return writers[fmt]()


__all__ = [
    "DESIGN_FORMATS",
    "FORMATS",
    "GAME_FORMATS",
    "IMAGE_FORMATS",
    "LISTING_FORMATS",
    "OUTPUT_FORMATS",
    "REPORT_FORMATS",
    "REVIEW_DOCUMENT_FORMATS",
    "SIMULATION_FORMATS",
    "Format",
    "LabFormat",
    "write_format",
]
