"""What tomllib makes of the package's TOML files that every start-up reads, made ahead: made by
``python docs/gen_docs.py`` from the files in exactodds/data (their home), so that a command reads them without
importing tomllib and parsing them (some 5 ms of every start-up).

:func:`exactodds.tomldata.load_toml` takes a file's data from here only for its very text, kept beside it: a file
changed and not made again here is parsed as ever. The data is JSON (a file made ahead holds only strings, whole
numbers, booleans, arrays and tables), read anew at each use: the caller's to change.

Generated: do not edit. ``python docs/gen_docs.py --check`` (and a test) fail when it is stale.
"""

#: Each file made ahead, by name: its text, and what tomllib makes of it as JSON.
PARSED: dict[str, tuple[str, str]] = {
    'core-bets.toml': (
        (
            '# The core side bets of every rule set (the default report, after the Player, Banker and Tie bets),\n'
            '# in the notation of a bets file (`--bets-file`), read by the same parser (exactodds.betfile).\n'
            '# The outcome ids, the event names and the descriptions are what the tables and par sheets print.\n'
            '\n'
            '# The pair bets, at the usual 11:1.\n'
            '[bets.player-pair]\n'
            'description = "Player Pair 11:1: the Player\'s first two cards share a rank"\n'
            '[[bets.player-pair.outcome]]\n'
            'id = "win"\n'
            'event = "Player pair"\n'
            'when = { player_pair = true }\n'
            'pays = 11\n'
            '[[bets.player-pair.outcome]]\n'
            'id = "lose"\n'
            'event = "not Player pair"\n'
            'otherwise = true\n'
            'pays = -1\n'
            '\n'
            '[bets.banker-pair]\n'
            'description = "Banker Pair 11:1: the Banker\'s first two cards share a rank"\n'
            '[[bets.banker-pair.outcome]]\n'
            'id = "win"\n'
            'event = "Banker pair"\n'
            'when = { banker_pair = true }\n'
            'pays = 11\n'
            '[[bets.banker-pair.outcome]]\n'
            'id = "lose"\n'
            'event = "not Banker pair"\n'
            'otherwise = true\n'
            'pays = -1\n'
            '\n'
            '# Dragon 7 and Panda 8, the EZ Baccarat side bets: Wizard of Odds, "EZ Baccarat", and Eliot Jacobson.\n'
            '[bets.dragon-7]\n'
            'description = "Dragon 7 40:1: the Banker wins with a three-card 7"\n'
            '[[bets.dragon-7.outcome]]\n'
            'id = "win"\n'
            'event = "Banker wins with a three-card 7"\n'
            'when = { winner = "banker", banker_cards = 3, banker_total = 7 }\n'
            'pays = 40\n'
            '[[bets.dragon-7.outcome]]\n'
            'id = "lose"\n'
            'event = "not Banker wins with a three-card 7"\n'
            'otherwise = true\n'
            'pays = -1\n'
            '\n'
            '[bets.panda-8]\n'
            'description = "Panda 8 25:1: the Player wins with a three-card 8"\n'
            '[[bets.panda-8.outcome]]\n'
            'id = "win"\n'
            'event = "Player wins with a three-card 8"\n'
            'when = { winner = "player", player_cards = 3, player_total = 8 }\n'
            'pays = 25\n'
            '[[bets.panda-8.outcome]]\n'
            'id = "lose"\n'
            'event = "not Player wins with a three-card 8"\n'
            'otherwise = true\n'
            'pays = -1\n'
        ),
        '{"bets":{"player-pair":{"description":"Player Pair 11:1: the Player\'s first two cards share a rank","outcome":[{"id":"win","event":"Player pair","when":{"player_pair":true},"pays":11},{"id":"lose","event":"not Player pair","otherwise":true,"pays":-1}]},"banker-pair":{"description":"Banker Pair 11:1: the Banker\'s first two cards share a rank","outcome":[{"id":"win","event":"Banker pair","when":{"banker_pair":true},"pays":11},{"id":"lose","event":"not Banker pair","otherwise":true,"pays":-1}]},"dragon-7":{"description":"Dragon 7 40:1: the Banker wins with a three-card 7","outcome":[{"id":"win","event":"Banker wins with a three-card 7","when":{"winner":"banker","banker_cards":3,"banker_total":7},"pays":40},{"id":"lose","event":"not Banker wins with a three-card 7","otherwise":true,"pays":-1}]},"panda-8":{"description":"Panda 8 25:1: the Player wins with a three-card 8","outcome":[{"id":"win","event":"Player wins with a three-card 8","when":{"winner":"player","player_cards":3,"player_total":8},"pays":25},{"id":"lose","event":"not Player wins with a three-card 8","otherwise":true,"pays":-1}]}}}',
    ),
}
