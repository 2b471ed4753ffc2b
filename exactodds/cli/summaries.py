"""The summary of each command, as ``exactodds --help`` lists it: made by
``python docs/gen_docs.py`` from the commands' own help (their home), so that the list is printed without
importing every command's module.

Generated: do not edit. ``python docs/gen_docs.py --check`` (and a test) fail when it is stale.
"""

#: Each command's help text that click makes its one-line summary from (its ``short_help``, or its help).
SUMMARIES: dict[str, str] = {
    'batch': "Price many shoes: for each input line, the `odds --format json` object (or --fields of it), on one line.",
    'bets': "List a game's bets with their ids: its default bets, then the rest (punto banco: the side-bet catalog), then those of --bets-file.",
    'big-table': "The Player's option on 5 at the big table: the bets when the holder draws, stands or chooses, and his chart.",
    'design': "Pay tables for a target house edge: every table of a pay grid in a band, or one pay solved exactly.",
    'edge-sort': "Edge sorting: the best bet in each High/Low state of the first cards, and the edge per coup, exactly.",
    'eor': "Effect of removal: the exact change in each bet's EV when one card leaves the shoe, and count tags.",
    'facts': "List the facts that the conditions of a game's bets are written in (a --bets-file's, a --rules-file's).",
    'fit-rtp': "The laws of a one-parameter family (p in the probabilities of --multipliers or --lit-count) that give every advertised RTP of a lit-card game, exactly: each bet's range of p, the range that gives all of them (or none: a finding), and what it pins down.",
    'games': "List the games (the registry): their aliases, what they are, their settings and bets, what each can do.",
    'odds': "Exact probability, EV, house edge and SD of every bet for one shoe (with --given: conditional on an event).",
    'peek': "Peek Baccarat: each set of the first four cards shown, with the best raise (keep, double or triple), the exact RTP of the Player and Banker bets and how often they are raised; with --reveal, the game under that law.",
    'plot': "Draw a plot as PNG or SVG, the same bytes every time. KIND: eor (the effect of removal of each rank on one bet), decks (house edge by number of decks, 1-12, and infinite for a game that prices it), shoe-ev (a bet's exact EV through simulated shoes), threshold (the lab's win rate against the count threshold).",
    'report': "Write the math report (par sheet) of bets: pay tables, exact odds, edge, volatility, hold bands, cross-checks.",
    'review': "Review a table's log (JSON lines or CSV; - for stdin): every coup checked against the tableau and the cards left, every wager priced exactly on the cards seen before its coup and settled by the cards dealt, and per bettor and bet the luck, the edge and whether the stakes follow the EV (--format table: the verdict; json: the verdict with every finding; csv: every wager, priced and settled; --output: the verdict as a document).",
    'rules': "List the rule sets of a game that has them (punto banco's), with their aliases.",
    'serve': "Serve the odds over HTTP: a JSON API (odds, batch, solve, edge-sort, live tracking; see /docs).",
    'simulate': "Deal shuffled shoes and play bets by exact EV, by a count, or always (the card-counting lab).",
    'solve': "Solve a game between its two sides exactly (chemin de fer): the value, the Player's choice at 5 and the Banker's strategy in every cell.",
    'tables': "Write the reference tables (par sheets, house edge by decks, EOR, closed forms), or check them.",
    'tags': "Propose a linear count for each bet from its exact effects of removal (use with simulate --tags).",
    'track': "Follow a live shoe: type the cards as they are dealt, see every bet's exact EV for the next coup.",
}
