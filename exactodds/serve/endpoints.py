"""Every endpoint of ``exactodds serve``, by path: what it takes, what it answers, and the plain function that
answers it (no web framework here: the functions run, and are tested, without the ``serve`` extra).

Each answer is the text a command prints, byte for byte: ``/odds`` is ``odds --format json``,
``/batch`` the lines of ``batch``, ``/solve``, ``/edge-sort`` and ``/design`` their commands' ``--format json``,
a tracking step a line of ``track --script -``. To serve another command, write its function
(a request object in, a :class:`Reply` out) and add one :class:`Endpoint` to :data:`ENDPOINTS`:
the routes, the check of its keys, the OpenAPI schema and the ``/docs`` page all read that list.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..batch import SHOE_KEYS, BadLine, PricedRow, price_rows, shoe_of
from ..design.countability import DEFAULT_CUT_CARD
from ..design.output import result_text
from ..design.request import DEFAULT_MAX_PAY, DEFAULT_MIN_PAY, DEFAULT_STEP, DEFAULT_TOP, MAX_TOP, build_order
from ..errors import ExactOddsError, unknown_name
from ..exact import parse_commission
from ..lab.plan import MIN_CUT_CARD
from ..present.odds import render
from ..present.odds_json import JsonLayout, parse_fields
from ..puntobanco.given import Given
from ..puntobanco.odds import analyze, resolve_bets
from ..rebate import Rebate
from ..tracker import Tracker
from ..version import __version__
from .inputs import (
    DECK_RANGE,
    KEYS,
    MAX_SHOES,
    REBATE_KEYS,
    RULES_KEYS,
    Setup,
    check_keys,
    deck_range,
    flag,
    number_text,
    rebate_of,
    rules_and_bets,
    setup,
    text,
    whole,
    words,
)
from .tracks import Tracks


@dataclass(frozen=True)
class Reply:
    """An answer: the HTTP status and the JSON text of the body."""

    status: int
    body: str


def json_reply(data: Any, status: int = 200) -> Reply:
    """``data`` as a JSON body on one line, as ``track --script -`` writes each step.

    >>> json_reply({"status": "ok"}).body
    '{"status": "ok"}\\n'
    """
    return Reply(status, json.dumps(data, ensure_ascii=False) + "\n")


#: What every endpoint is handed: the request object (its keys checked), the path's parameters, the sessions.
Handler = Callable[[dict[str, Any], Mapping[str, str], Tracks], Reply]


@dataclass(frozen=True)
class Endpoint:
    """One endpoint: method and path, what it does, the keys its request object may hold, an example, its function.

    ``keys`` None: it takes no body. ``work``: it may compute for long, so it runs off the event loop, with the
    time limit. ``own``: the keys whose schema and meaning are the endpoint's own, not those of :data:`KEYS`.
    """

    method: str
    path: str
    summary: str
    keys: tuple[str, ...] | None
    handler: Handler
    example: dict[str, Any] | None = None
    work: bool = True
    own: Mapping[str, tuple[dict[str, Any], str]] = field(default_factory=dict)

    def key(self, name: str) -> tuple[dict[str, Any], str]:
        """The JSON schema of the key ``name`` of this endpoint's request object, and what it means."""
        return self.own.get(name) or KEYS[name]


def health(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """The server is up: its version."""
    return json_reply({"status": "ok", "version": __version__})


ODDS_KEYS = (*SHOE_KEYS, *RULES_KEYS, "given", *REBATE_KEYS, "precision", "fields")


def odds(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``odds --format json`` for the request's shoe, rules and bets (with ``fields``: the ``batch --fields``
    object)."""
    chosen = setup(data)
    given_text = text(data, "given")
    given = None if given_text is None else Given.parse(given_text)
    places = whole(data, "precision", 0, 60, 10)
    fields = _fields(data)
    if fields is not None and given is not None:
        raise ExactOddsError("give either fields (the batch object, which has no given) or given, not both")
    rebate = rebate_of(data)
    analysis = replace(analyze(chosen.shoe, chosen.rules, chosen.bets, given=given), rebate=rebate)
    if fields is None:
        return Reply(200, render(analysis, "json", places))
    layout = JsonLayout(analysis.rules, [f.bet for f in analysis.bets], places, _rebate_fields(fields, rebate), rebate)
    counts = [o.count for f in analysis.bets for o in f.outcomes]
    return Reply(200, layout.line(analysis.shoe, counts, analysis.orderings) + "\n")


def _rebate_fields(fields: frozenset[str] | None, rebate: Rebate | None) -> frozenset[str] | None:
    """``fields``, refused when they ask for the EV with a rebate and no rebate is given (as ``batch`` does)."""
    if fields is not None and "rebate" in fields and rebate is None:
        raise ExactOddsError("fields rebate writes each bet's EV with a rebate: give the rate with rebate")
    return fields


def _fields(data: dict[str, Any]) -> frozenset[str] | None:
    """The keys of ``fields`` (a comma-separated text, as ``--fields``, or a list), or ``None``."""
    value = data.get("fields")
    if value is None:
        return None
    listed = words({"fields": value}, "fields") if isinstance(value, list) else None
    return parse_fields(",".join(listed) if listed is not None else text(data, "fields") or "")


BATCH_KEYS = ("shoes", *RULES_KEYS, *REBATE_KEYS, "precision", "fields")


def batch(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``batch`` on a list of shoes: each line it writes, in order, a bad shoe its index and message."""
    shoes = data.get("shoes")
    if not isinstance(shoes, list):
        raise ExactOddsError('"shoes" is required: a list of shoe objects such as {"decks": 8}')
    if len(shoes) > MAX_SHOES:
        raise ExactOddsError(f"{len(shoes):,} shoes: at most {MAX_SHOES:,} in one request")
    rules, bets = rules_and_bets(data)
    chosen = resolve_bets(rules, bets, suits=False)  # shoes may be known by rank only, as batch's lines
    rebate = rebate_of(data)
    layout = JsonLayout(rules, chosen, whole(data, "precision", 0, 60, 10), _rebate_fields(_fields(data), rebate),
                        rebate)
    out = []
    for number, result in price_rows([json.dumps(shoe) for shoe in shoes], rules, chosen):
        if isinstance(result, BadLine):
            out.append(json.dumps({"index": number - 1, "error": result.message}, ensure_ascii=False))
        else:
            assert isinstance(result, PricedRow)  # a shoe naming a game is a bad line: no lookup is given
            out.append(layout.line(result.shoe, result.counts, result.orderings))
    return Reply(200, '{"results": [' + ",\n".join(out) + "]}\n")


SOLVE_KEYS = ("game", "model", *SHOE_KEYS, "commission", "precision")


def solve(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``solve --format json``: chemin de fer solved exactly."""
    from ..chemindefer import solve as solve_game
    from ..present.solution import render_solution
    from ..variants import SOLVED_GAMES, SOLVED_MODELS

    game = text(data, "game") or SOLVED_GAMES[0]
    model = text(data, "model") or "B2"
    for kind, name, valid in (("game", game, SOLVED_GAMES), ("model", model, SOLVED_MODELS)):
        if name not in valid:
            raise unknown_name(kind, name, valid)
    shoe_keys = {k: v for k, v in data.items() if k in SHOE_KEYS}
    if model == "A1" and shoe_keys:
        raise ExactOddsError("model A1 is the infinite deck: give no counts, decks, shoe or remove")
    shoe = None if model == "A1" else shoe_of(shoe_keys)
    commission = text(data, "commission")
    rate = parse_commission(commission) if commission is not None else 0
    places = whole(data, "precision", 0, 60, 10)
    return Reply(200, render_solution(solve_game(game=game, model=model, shoe=shoe, commission=rate), "json", places))


EDGE_SORT_KEYS = (*SHOE_KEYS, *RULES_KEYS, "high", "cards", "best_sort", "precision")


def edge_sort(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``edge-sort --format json``: the best bet in each High/Low state of the first cards, and the edge."""
    from ..present.information import render_edge_sort
    from ..puntobanco.given import POSITIONS
    from ..puntobanco.information import DEFAULT_HIGH, best_sort
    from ..puntobanco.information import edge_sort as sort_edges

    chosen = setup(data)
    high = text(data, "high")
    cards = whole(data, "cards", 1, len(POSITIONS))
    search = flag(data, "best_sort")
    places = whole(data, "precision", 0, 60, 4)
    if search:
        if high is not None:
            raise ExactOddsError("give either high or best_sort (which searches every High set), not both")
        best = best_sort(chosen.shoe, chosen.rules, chosen.bets, cards=cards)
        return Reply(200, render_edge_sort(best.best, best, "json", places))
    sort = sort_edges(chosen.shoe, chosen.rules, chosen.bets, high=high or DEFAULT_HIGH, cards=cards)
    return Reply(200, render_edge_sort(sort, None, "json", places))


DESIGN_KEYS = (*SHOE_KEYS, *(k for k in RULES_KEYS if k != "bets"), "bet", "edge", "free", "step", "min_pay", "max_pay",
               "monotone", "top", "solve", "cut_card", "precision")


def design(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """``design --format json``: the pay tables of a band, or one pay solved exactly (``write`` is not a key: the
    server writes no file)."""
    bet = text(data, "bet")
    if bet is None:
        raise ExactOddsError('"bet" is required: the id of the one bet designed, e.g. "dragon-7"')
    edge = text(data, "edge")
    if edge is None:
        raise ExactOddsError('"edge" is required: a band such as "5%:6%", or one edge such as "7.6%" with solve')
    shoe_data, decks = deck_range(data)
    chosen = setup({**shoe_data, "bets": [bet]})
    order = build_order(
        [bet], chosen.shoe, chosen.rules, chosen.bets, edge=edge, free=words(data, "free") or (),
        step=number_text(data, "step", DEFAULT_STEP), min_pay=number_text(data, "min_pay", DEFAULT_MIN_PAY),
        max_pay=number_text(data, "max_pay", DEFAULT_MAX_PAY), monotone=flag(data, "monotone"),
        top=whole(data, "top", 1, MAX_TOP, DEFAULT_TOP), solve=text(data, "solve"),
        cut_card=whole(data, "cut_card", MIN_CUT_CARD, None, DEFAULT_CUT_CARD), decks=decks,
    )
    return Reply(200, result_text(order.run(), "json", whole(data, "precision", 0, 30, 4)))


TRACK_KEYS = (*SHOE_KEYS, *RULES_KEYS, *REBATE_KEYS, "precision")


def track_new(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """A new tracking session: its id and the first line ``track --script -`` writes."""
    chosen: Setup = setup(data)
    rebate = rebate_of(data)
    places = whole(data, "precision", 0, 30, 4)
    return json_reply(tracks.create(Tracker(chosen.shoe, chosen.rules, chosen.bets, rebate), places), 201)


def track_step(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """One command typed to a session: the line ``track --script -`` writes for it (400 with its error)."""
    command = text(data, "command")
    if command is None:
        raise ExactOddsError('"command" is required: one line typed to the tracker, e.g. "P 2 3 9 B 3 4"')
    status, step = tracks.step(params["id"], command)
    return json_reply(step, status)


def track_get(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """A session: the document ``save`` would write, and its last step."""
    return json_reply(tracks.get(params["id"]))


def track_delete(data: dict[str, Any], params: Mapping[str, str], tracks: Tracks) -> Reply:
    """End a session."""
    return json_reply(tracks.delete(params["id"]))


#: Every endpoint, in the order of the docs.
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("GET", "/health", "The server is up: its status and version.", None, health, work=False),
    Endpoint("POST", "/odds", "Exact odds of one shoe: the JSON of `exactodds odds --format json`.", ODDS_KEYS, odds,
             {"decks": 8, "remove": "7,7,8", "bets": ["banker", "tie"]}),
    Endpoint("POST", "/batch", "Many shoes (at most 10,000): the lines of `exactodds batch`, in order.", BATCH_KEYS,
             batch, {"shoes": [{"decks": 8}, {"decks": 6, "remove": "9,9"}], "fields": "ev"}),
    Endpoint("POST", "/solve", "Chemin de fer solved exactly: the JSON of `exactodds solve --format json`.",
             SOLVE_KEYS, solve, {"model": "B2", "decks": 1}),
    Endpoint("POST", "/edge-sort", "Edge sorting: the JSON of `exactodds edge-sort --format json`.",
             EDGE_SORT_KEYS, edge_sort, {"decks": 8, "cards": 1}),
    Endpoint("POST", "/design", "Pay tables for a target house edge: the JSON of `exactodds design --format json`.",
             DESIGN_KEYS, design, {"bet": "dragon-7", "edge": "7%:8%", "min_pay": 30, "max_pay": 50},
             own={"decks": DECK_RANGE}),
    Endpoint("POST", "/tracks", "Start tracking a shoe: the session's id and its first step.", TRACK_KEYS,
             track_new, {"decks": 8, "bets": ["banker", "tie"]}),
    Endpoint("POST", "/tracks/{id}", "One command to a session: the step `exactodds track --script -` writes.",
             ("command",), track_step, {"command": "P 2 3 9 B 3 4"}),
    Endpoint("GET", "/tracks/{id}", "A session: its document (as `save` writes it) and its last step.", None,
             track_get),
    Endpoint("DELETE", "/tracks/{id}", "End a session.", None, track_delete, work=False),
)


def answer(endpoint: Endpoint, data: Any, params: Mapping[str, str], tracks: Tracks) -> Reply:
    """The reply of ``endpoint`` to a request object (its keys checked first).

    >>> answer(ENDPOINTS[1], {"decks": 1, "bets": ["tie"]}, {}, Tracks()).body.splitlines()[1]
    '  "rules": {'
    """
    if endpoint.keys is not None:
        data = check_keys(data, endpoint.keys, f"the body of {endpoint.method} {endpoint.path}")
    return endpoint.handler(data if isinstance(data, dict) else {}, params, tracks)
