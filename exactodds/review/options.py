"""The inputs of ``review`` (the command and ``POST /review``), declared once and apart from the review itself: the
command line declares its options at start-up, and the review loads only when it runs."""

from __future__ import annotations

from ..inputs import Input

#: The log's text, in a request (the command reads a file, or the standard input).
LOG = Input("log", "text", 'The log\'s text: JSON lines (or CSV with a header), as a file holds it, e.g.'
            ' "{\\"shoe\\": \\"T7\\", \\"decks\\": 8}\\n…".', surfaces=frozenset({"api"}))
SKIP_BAD = Input("skip-bad", "flag", "Go on past a bad line (its number and error listed with the findings, and"
                 " counted) instead of stopping at it.")
SEED = Input("seed", "whole", "The seed of the permutation test of the stakes against the EV (the same log, the same"
             " p-values).", low=0, high=2**63 - 1, default=0)
PERMUTATIONS = Input("permutations", "whole", "The shuffles of that test: the least p it can give is 1 / (1 + N).",
                     low=99, high=1_000_000, default=9_999)
#: The processes that review a log (the command's: a server reviews a request's log in its own process).
WORKERS = Input("workers", "whole", "Processes that review the log, each shoe whole in one (the same verdict, byte for"
                " byte, whatever the number). Default: every core (up to 8) for a JSON-lines log file of more than"
                " 4 MB, else 1.",
                low=1, high=64, metavar="N", surfaces=frozenset({"cli"}))
#: A log file of more than this many bytes is reviewed by every core unless ``--workers`` says otherwise: the
#: workers' start (some 0.5 s) is then a small share of its review (some 20 s a 16 MB log on one core).
PARALLEL_BYTES = 4_000_000
#: The most processes a review starts unless told (``--workers`` starts more): each is an interpreter of its own, and
#: the main process adds every shoe to the verdict alone, so that a machine's every core is not worth its memory.
MOST_WORKERS = 8
#: The review's own inputs, beside the game's settings and bets files.
REVIEW_INPUTS = (SKIP_BAD, SEED, PERMUTATIONS)
