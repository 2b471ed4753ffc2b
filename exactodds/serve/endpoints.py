"""Every endpoint of ``exactodds serve``, by path: what it takes, what it answers, and the plain function that
answers it (no web framework here: the functions run, and are tested, without the ``serve`` extra).

Each answer is the text a command prints, byte for byte: ``/odds`` is ``odds --format json``,
``/batch`` the lines of ``batch``, ``/solve``, ``/edge-sort``, ``/design``, ``/fit-rtp``, ``/peek`` and ``/review``
their commands' ``--format json``,
a tracking step a line of ``track --script -``. To serve another command, write its function
(a request object in, a :class:`Reply` out) and add one :class:`Endpoint` to :data:`ENDPOINTS`,
saying where its work runs (``runs``: a worker process unless it answers at once or reads the
sessions) and, if it may be costly, how to estimate its cost from the request (``cost``,
:mod:`.costs`): the routes, the check of its keys, the OpenAPI schema and the ``/docs`` page all
read that list.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from ..batch import BadLine, GameLine, PricedRow, price_rows
from ..design.output import result_text
from ..design.request import (
    CUT_CARD,
    DEFAULT_TOP,
    DESIGN_PRECISION,
    EDGE,
    FREE,
    MAX_PAY_INPUT,
    MIN_PAY,
    MONOTONE,
    SOLVE,
    STEP,
    TOP,
    build_order,
)
from ..errors import ExactOddsError
from ..games import DEFAULT, GAMES, with_capability
from ..games.lit.options import FAMILY_LIT_COUNT, FAMILY_MULTIPLIERS, FIT_FEE, FIT_INPUTS, GRID, RTP
from ..inputs import BET, BETS_FILE, DECKS, DECKS_RANGE, FIELDS, GAME, GIVEN, PRECISION, REBATE, Input
from ..present.listings import render_bets, render_facts, render_games, render_rule_sets
from ..present.odds import render
from ..present.odds_json import JsonLayout, parse_fields
from ..puntobanco.information import BEST_SORT, CARDS, HIGH, SORT_PRECISION
from ..puntobanco.peek import PEEK_FEE, PEEK_INPUTS, PEEK_RTP, REVEAL
from ..request import settings_inputs
from ..review.options import LOG, PERMUTATIONS, REVIEW_INPUTS, SEED, SKIP_BAD
from ..tracker import TRACK_PRECISION, Tracker
from ..version import __version__
from .costs import batch_cost, odds_cost, review_cost, search_cost
from .keys import SHOE_INPUTS, check_keys, request_setup, required, value
from .replies import Reply, json_reply
from .tracks import Tracks

#: What every endpoint is handed: the request object (its keys checked), the path's parameters, the sessions.
Handler = Callable[[dict[str, Any], Mapping[str, str], Tracks], Reply]


#: Where an endpoint's work is done: on the server's event loop (instant answers), in a thread of the server (the
#: tracking sessions, which live in its memory), or in a worker process killed at the time limit (the rest).
Runs = Literal["loop", "thread", "process"]


@dataclass(frozen=True)
class Endpoint:
    """One endpoint: method and path, what it does, the inputs its request may hold (their keys), an example, its
    function and the schema of its answer.

    ``inputs`` None: it takes nothing (a GET with a query string takes its inputs from the query). ``runs``: where
    its work is done (:data:`Runs`). ``answer``: the JSON schema of a 200 answer (:mod:`.schemas`). ``cost``: an
    estimate of its work from the request object, before any of it is done (:func:`cost`).
    """

    method: str
    path: str
    summary: str
    inputs: tuple[Input, ...] | None
    handler: Handler
    example: dict[str, Any] | None = None
    runs: Runs = "process"
    answer: str = "odds"
    cost: Callable[[dict[str, Any]], int] | None = None

    @cached_property  # read by every request (each input's key is worked out from its name)
    def keys(self) -> tuple[str, ...] | None:
        """The keys its request may hold, those of its inputs (``None``: it takes none)."""
        return None if self.inputs is None else tuple(one.key for one in self.inputs)


def health(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """The server is up: its version."""
    return json_reply({"status": "ok", "version": __version__})


def _places(data: dict[str, Any], places: Input = PRECISION) -> int:
    """The decimal places asked for (``precision``), read by the input the endpoint declares (its command's: the
    shared one, or the command's own), its default when absent."""
    return int(value(data, places, places.default))


def _fields(data: dict[str, Any]) -> frozenset[str] | None:
    """The keys of ``fields`` (a comma-separated text, as ``--fields``, or a list), or ``None``."""
    words = FIELDS.read(data)
    return None if words is None else parse_fields(",".join(words))


GAME_KEYS = tuple(one for one in (GAME, *settings_inputs(), BET, BETS_FILE))
ODDS_INPUTS = (*SHOE_INPUTS, *GAME_KEYS, GIVEN, PRECISION, FIELDS)


def odds(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``odds --format json`` for the request's game, shoe and bets (with ``fields``: the ``batch --fields``
    object)."""
    setup, _ = request_setup(data, tool="odds")
    given = GIVEN.read(data)
    places = _places(data)
    fields = _fields(data)
    if fields is not None and given is not None:
        raise ExactOddsError("give either fields (the batch object, which has no given) or given, not both")
    analysis = setup.price(given=given)
    if fields is None:
        return Reply(200, render(analysis, "json", places))
    rebate = _rebate_fields(fields, analysis.rebate)
    layout = JsonLayout(analysis.rules, [f.bet for f in analysis.bets], places, fields, rebate,
                        counting=analysis.counting)
    counts = [o.count for f in analysis.bets for o in f.outcomes]
    return Reply(200, layout.line(analysis.shoe, counts, analysis.orderings) + "\n")


def _rebate_fields(fields: frozenset[str], rebate: Any) -> Any:
    """The rebate, refused when ``fields`` ask for the EV with a rebate and none is given (as ``batch`` does)."""
    if "rebate" in fields and rebate is None:
        raise ExactOddsError(f"--fields rebate writes each bet's EV with a rebate: give the rate with {REBATE.shown}"
                             " RATE")
    return rebate


#: The most shoes one ``/batch`` request may send.
MAX_SHOES = 10_000
SHOES = Input("shoes", "objects", f"The shoes to price (at most {MAX_SHOES:,}), each a batch object such as"
              ' {"decks": 8, "remove": "7,7,8"}.', high=MAX_SHOES, surfaces=frozenset({"api"}))
BATCH_INPUTS = (SHOES, *GAME_KEYS, PRECISION, FIELDS)


def batch(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``batch`` on a list of shoes: each line it writes, in order, a bad shoe its index and message."""
    shoes = data.get("shoes")
    if not isinstance(shoes, list):
        raise ExactOddsError('"shoes" is required: a list of shoe objects such as {"decks": 8}')
    if len(shoes) > MAX_SHOES:
        raise ExactOddsError(f"{len(shoes):,} shoes: at most {MAX_SHOES:,} in one request")
    setup, _ = request_setup(data, tool="batch", shoe=False)
    game, settings = setup.game, setup.settings
    chosen = game.resolve(setup.bets, settings, suits=False)  # shoes may be known by rank only, as batch's lines
    fields = _fields(data)
    rebate = settings.given().get("rebate")
    if fields is not None:
        _rebate_fields(fields, rebate)
    layout = JsonLayout(game.rules(settings), chosen, _places(data), fields, rebate, counting=game.counting)
    out = []
    for number, result in price_rows([json.dumps(shoe) for shoe in shoes], game, settings, chosen):
        if isinstance(result, BadLine):
            out.append(json.dumps({"index": number - 1, "error": result.message}, ensure_ascii=False))
        else:
            assert isinstance(result, PricedRow) and not isinstance(result, GameLine)  # no lookup: no line names one
            line = layout.line(result.shoe, result.counts, result.orderings)
            chart = game.chart_of(result.shoe, settings) if fields is None else None
            if chart is not None:
                line = line[:-1] + ',"chart":' + json.dumps(chart.as_json(), separators=(",", ":")) + "}"
            out.append(line)
    return Reply(200, '{"results": [' + ",\n".join(out) + "]}\n")


SOLVE_INPUTS = (*SHOE_INPUTS, GAME, *settings_inputs(), PRECISION)


def solve(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``solve --format json``: a game solved between its two sides (chemin de fer), exactly."""
    from ..chemindefer.solution import solve as solve_game
    from ..present.solution import render_solution

    setup, _ = request_setup(data, need="solve", default=with_capability("solve")[0], tool="solve")
    model, commission = setup.settings["model"], setup.settings["commission"] or 0
    if model == "A1" and setup.shoe_given:
        raise ExactOddsError("model A1 is the infinite deck: give no counts, decks, shoe or remove")
    shoe = None if model == "A1" else setup.shoe
    solution = solve_game(game=setup.game.name, model=model, shoe=shoe, commission=commission)
    return Reply(200, render_solution(solution, "json", _places(data)))


EDGE_SORT_INPUTS = (*SHOE_INPUTS, *GAME_KEYS, HIGH, CARDS, BEST_SORT, SORT_PRECISION)


def edge_sort(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``edge-sort --format json``: the best bet in each High/Low state of the first cards, and the edge."""
    from ..present.information import render_edge_sort
    from ..puntobanco.information import DEFAULT_HIGH, best_sort
    from ..puntobanco.information import edge_sort as sort_edges

    setup, _ = request_setup(data, need="edge-sort", tool="edge-sort")
    rules = setup.game.tableau_rules(setup.settings, "edge-sort", "edge-sort")
    high = HIGH.read(data)
    cards = required(data, CARDS, "the known cards in deal order, 1 (P1) to 6")
    places = _places(data, SORT_PRECISION)
    if value(data, BEST_SORT, False):
        if high is not None:
            raise ExactOddsError("give either high or best_sort (which searches every High set), not both")
        best = best_sort(setup.shoe, rules, setup.bets, cards=cards)
        return Reply(200, render_edge_sort(best.best, best, "json", places))
    sort = sort_edges(setup.shoe, rules, setup.bets, high=high or DEFAULT_HIGH, cards=cards)
    return Reply(200, render_edge_sort(sort, None, "json", places))


#: The one bet designed: a bet's id (of the game, or of ``bets_toml``).
DESIGN_BET = Input("bet", "text", "The one bet designed: an id of the game's bets or of bets_toml.", metavar="ID")
DESIGN_INPUTS = (*(DECKS_RANGE if one is DECKS else one for one in SHOE_INPUTS),
                 *(one for one in GAME_KEYS if one is not BET), DESIGN_BET, EDGE, FREE, STEP, MIN_PAY,
                 MAX_PAY_INPUT, MONOTONE, TOP, SOLVE, CUT_CARD, DESIGN_PRECISION)


def design(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``design --format json``: the pay tables of a band, or one pay solved exactly (``write`` is not a key: the
    server writes no file)."""
    bet = required(data, DESIGN_BET, 'the id of the one bet designed, e.g. "dragon-7"')
    edge = required(data, EDGE, 'a band such as "5%:6%", or one edge such as "7.6%" with solve')
    places = _places(data, DESIGN_PRECISION)  # read before the search: a bad value is refused at once
    setup, decks = request_setup({**data, "bets": [bet]}, need="fixed-pays", tool="design", decks_range=True)
    order = build_order(
        [bet], setup, edge=edge, free=value(data, FREE, ()), step=value(data, STEP, STEP.default),
        min_pay=value(data, MIN_PAY, MIN_PAY.default), max_pay=value(data, MAX_PAY_INPUT, MAX_PAY_INPUT.default),
        monotone=value(data, MONOTONE, False), top=value(data, TOP, DEFAULT_TOP), solve=SOLVE.read(data),
        cut_card=value(data, CUT_CARD, CUT_CARD.default), decks=decks,
    )
    return Reply(200, result_text(order.run(), "json", places))


FIT_RTP_INPUTS = (*SHOE_INPUTS, GAME, *FIT_INPUTS)


def fit_rtp(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``fit-rtp --format json``: the laws of a lit-card game's family that give every advertised RTP (the laws, with
    p in them, are the fit's inputs, not the game's settings)."""
    from ..games.lit.inverse import fit_answer

    rtps = required(data, RTP, 'the advertised RTPs, e.g. ["player=98.9%", "banker=98.7%"]')
    shoe_keys = {k: v for k, v in data.items() if k in (GAME.key, *(one.key for one in SHOE_INPUTS))}
    setup, _ = request_setup(shoe_keys, need="lit-law", default=with_capability("lit-law")[0], tool="fit-rtp")
    text = fit_answer(setup.game, setup.shoe, FAMILY_LIT_COUNT.read(data),  # type: ignore[arg-type]
                      FAMILY_MULTIPLIERS.read(data), FIT_FEE.read(data), rtps, value(data, GRID, GRID.default),
                      "json")
    return Reply(200, text)


PEEK_API_INPUTS = (*SHOE_INPUTS, GAME, *settings_inputs(), *PEEK_INPUTS)


def peek(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``peek --format json``: each reveal pattern with the best raise, the game under a reveal law, or the reveal laws
    of a family that give advertised RTPs."""
    from ..puntobanco.peek import peek_answer

    setup, _ = request_setup(data, need="peek", tool="peek")
    rules = setup.game.tableau_rules(setup.settings, "peek", "peek")
    return Reply(200, peek_answer(setup.shoe, rules, REVEAL.read(data), value(data, PEEK_FEE, PEEK_FEE.default),
                                  PEEK_RTP.read(data) or (), "json"))


REVIEW_API_INPUTS = (GAME, *settings_inputs(), BETS_FILE, LOG, *REVIEW_INPUTS)


def review_log(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``review - --format json`` on the log in the body: the verdict, with every finding."""
    from ..review import review
    from ..review.log import records
    from ..review.render import verdict_json

    text = required(data, LOG, 'the log\'s text, JSON lines such as "{\\"shoe\\": \\"T7\\", \\"decks\\": 8}\\n…"')
    own = {LOG.key, *(one.key for one in REVIEW_INPUTS)}
    setup, _ = request_setup({k: v for k, v in data.items() if k not in own}, need="review", tool="review",
                             shoe=False)
    verdict = review(records(text.splitlines()), setup.settings, setup.file_bets,
                     skip_bad=bool(value(data, SKIP_BAD, False)), seed=value(data, SEED, SEED.default),
                     permutations=value(data, PERMUTATIONS, PERMUTATIONS.default))
    return Reply(200, verdict_json(verdict))


TRACK_INPUTS = (*SHOE_INPUTS, *GAME_KEYS, TRACK_PRECISION)


def track_new(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """A new tracking session: its id and the first line ``track --script -`` writes."""
    setup, _ = request_setup(data, need="by-rank", tool="track")
    places = _places(data, TRACK_PRECISION)
    tracker = Tracker(setup.shoe, bets=setup.bets, game=setup.game, settings=setup.settings)
    return json_reply(tracks.create(tracker, places), 201)


COMMAND = Input("command", "text", 'One line typed to the tracker, e.g. "P 2 3 9 B 3 4" (see `exactodds track`).',
                surfaces=frozenset({"api"}))


def track_step(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """One command typed to a session: the line ``track --script -`` writes for it (400 with its error)."""
    command = required(data, COMMAND, 'one line typed to the tracker, e.g. "P 2 3 9 B 3 4"')
    status, step = tracks.step(params["id"], command)
    return json_reply(step, status)


def track_get(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """A session: the document ``save`` would write, and its last step."""
    return json_reply(tracks.get(params["id"]))


def track_delete(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """End a session."""
    return json_reply(tracks.delete(params["id"]))


def games(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``games --format json``: every game of the registry."""
    return Reply(200, render_games(GAMES, "json"))


#: The query of the listings of one game: the game and its settings (``GET /bets?game=dragon-tiger&tie_pays=11``).
LISTING_INPUTS = (GAME, *settings_inputs())
#: A game with bets of its own to show in the examples: the first after the default; and a lit-card game.
_ANOTHER = next(game for game in GAMES if game.has("bets") and game is not DEFAULT)
_LIT = with_capability("lit-law")[0]


def bets(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``bets --format json``: a game's bets under its settings."""
    setup, _ = request_setup(data, tool="bets", shoe=False)
    return Reply(200, render_bets(setup.game, setup.settings, fmt="json"))


def facts(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``facts --format json``: the facts a game's bets are written in."""
    setup, _ = request_setup(data, need="bets-files", tool="facts", shoe=False)
    return Reply(200, render_facts(setup.game, "json"))


def rules(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``rules --format json``: the rule sets of a game that has them."""
    setup, _ = request_setup(data, need="rule-sets", tool="rules", shoe=False)
    return Reply(200, render_rule_sets(setup.game, "json"))


#: Every endpoint, in the order of the docs.
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("GET", "/health", "The server is up: its status and version.", None, health, runs="loop",
             answer="health"),
    Endpoint("GET", "/games", "The games: the JSON of `exactodds games --format json`.", None, games, runs="loop",
             answer="games"),
    Endpoint("GET", "/bets", "A game's bets (query: game and its settings): `exactodds bets --format json`.",
             LISTING_INPUTS, bets, {"game": _ANOTHER.name}, answer="bets"),
    Endpoint("GET", "/facts", "The facts a game's bets are written in: `exactodds facts --format json`.",
             (GAME,), facts, {"game": _ANOTHER.name}, answer="facts"),
    Endpoint("GET", "/rules", "The rule sets of a game that has them: `exactodds rules --format json`.",
             (GAME,), rules, {"game": DEFAULT.name}, answer="rules"),
    Endpoint("POST", "/odds", "Exact odds of one shoe: the JSON of `exactodds odds --format json`.", ODDS_INPUTS,
             odds, {"decks": 8, "remove": "7,7,8", "bets": ["banker", "tie"]}, cost=odds_cost),
    Endpoint("POST", "/batch", f"Many shoes (at most {MAX_SHOES:,}): the lines of `exactodds batch`, in order.",
             BATCH_INPUTS, batch, {"shoes": [{"decks": 8}, {"decks": 6, "remove": "9,9"}], "fields": "ev"},
             answer="batch", cost=batch_cost),
    Endpoint("POST", "/solve", "A game solved between its sides: the JSON of `exactodds solve --format json`.",
             SOLVE_INPUTS, solve, {"model": "B2", "decks": 1}, answer="solve", cost=search_cost),
    Endpoint("POST", "/edge-sort", "Edge sorting: the JSON of `exactodds edge-sort --format json`.",
             EDGE_SORT_INPUTS, edge_sort, {"decks": 8, "cards": 1}, answer="edge-sort", cost=search_cost),
    Endpoint("POST", "/design", "Pay tables for a target house edge: the JSON of `exactodds design --format json`.",
             DESIGN_INPUTS, design, {"bet": "dragon-7", "edge": "7%:8%", "min_pay": 30, "max_pay": 50},
             answer="design", cost=search_cost),
    Endpoint("POST", "/fit-rtp", "The laws of a lit-card game that give its advertised RTPs: the JSON of `exactodds"
             " fit-rtp --format json`.", FIT_RTP_INPUTS, fit_rtp,
             {"game": _LIT.name, "multipliers": "2:1-p,3:p", "rtps": ["player=98.9%", "banker=98.7%"]},
             answer="fit-rtp", cost=search_cost),
    Endpoint("POST", "/peek", "Peek Baccarat priced with the best raise: the JSON of `exactodds peek --format json`.",
             PEEK_API_INPUTS, peek, {"decks": 8, "reveal": "P1B1:1/2,P1P2B2:1/2"}, answer="peek", cost=search_cost),
    Endpoint("POST", "/review", "A table's log reviewed wager by wager: the JSON of `exactodds review - --format"
             " json`.", REVIEW_API_INPUTS, review_log,
             {"log": '{"shoe": "T7", "decks": 8}\n{"shoe": "T7", "coup": 1, "player": "2S 3H 9D", "banker": "3C 4D"}\n'
                     '{"shoe": "T7", "coup": 1, "who": "seat-3", "bet": "banker", "stake": "25", "net": "23.75"}\n'},
             answer="review", cost=review_cost),
    Endpoint("POST", "/tracks", "Start tracking a shoe: the session's id and its first step.", TRACK_INPUTS,
             track_new, {"decks": 8, "bets": ["banker", "tie"]}, runs="thread", answer="track"),
    Endpoint("POST", "/tracks/{id}", "One command to a session: the step `exactodds track --script -` writes.",
             (COMMAND,), track_step, {"command": "P 2 3 9 B 3 4"}, runs="thread", answer="step"),
    Endpoint("GET", "/tracks/{id}", "A session: its document (as `save` writes it) and its last step.", None,
             track_get, runs="thread", answer="session"),
    Endpoint("DELETE", "/tracks/{id}", "End a session.", None, track_delete, runs="loop", answer="ended"),
)


def answer(endpoint: Endpoint, data: Any, params: Mapping[str, str], tracks: Tracks) -> Reply:
    """The reply of ``endpoint`` to a request object (its keys checked first).

    >>> answer(ENDPOINTS[5], {"decks": 1, "bets": ["tie"]}, {}, Tracks()).body.splitlines()[1]
    '  "rules": {'
    """
    if endpoint.keys is not None:
        data = check_keys(data, endpoint.keys, f"the {'query' if endpoint.method == 'GET' else 'body'} of"
                          f" {endpoint.method} {endpoint.path}")
    return endpoint.handler(data if isinstance(data, dict) else {}, params, tracks)
