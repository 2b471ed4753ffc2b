"""The output formats, one registry: for each kind of output, the formats it is written in.

Every ``--format`` choice, every extension an ``--output`` file may have, and every renderer's
check reads its formats from here, so a new format is named once. The first format of a
kind is its default. The kinds:

- an *analysis* report of exact figures (``odds``, ``eor``): :data:`FORMATS`;
- a *lab* report of the card-counting lab (``simulate``, ``tags``): :data:`SIMULATION_FORMATS`;
- a *game* report, of a solved game or of information (``solve``, ``big-table``, ``edge-sort``):
  :data:`GAME_FORMATS`;
- a *document* written to a file, the format told by its extension (``report``): :data:`REPORT_FORMATS`;
- an *image* written to a file, the same way (``plot``): :data:`IMAGE_FORMATS`.
"""

from __future__ import annotations

from typing import Literal, get_args

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
#: The formats of a document (``report``), told by the output file's extension.
REPORT_FORMATS: tuple[str, ...] = ("xlsx", "pdf", "html", "md")
#: The formats of an image (``plot``), told by the output file's extension.
IMAGE_FORMATS: tuple[str, ...] = ("png", "svg")

#: Every kind of output with its formats (the first its default).
OUTPUT_FORMATS: dict[str, tuple[str, ...]] = {
    "analysis": FORMATS,
    "lab": SIMULATION_FORMATS,
    "game": GAME_FORMATS,
    "document": REPORT_FORMATS,
    "image": IMAGE_FORMATS,
}

__all__ = [
    "FORMATS",
    "GAME_FORMATS",
    "IMAGE_FORMATS",
    "OUTPUT_FORMATS",
    "REPORT_FORMATS",
    "SIMULATION_FORMATS",
    "Format",
    "LabFormat",
]
