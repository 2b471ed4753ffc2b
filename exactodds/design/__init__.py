"""A bet designed: the pay tables of a grid whose house edge lies in a band, or one pay solved for an edge, exactly,
for a bet of any game with bets (asked of the game only: its pricing, its bets, its notation, its capabilities).

- :mod:`.search`: the band search over integers, by bounds (no candidate priced by the engine);
- :mod:`.countability`: perfect play's gain per shoe by Griffin's normal approximation from exact EORs (a game
  with the capability ``countability``);
- :mod:`.model`: the request, the bet priced once, each table's exact figures, :func:`~.model.design`
  and :func:`~.model.solve`;
- :mod:`.request`: a design as asked for (the band, the grid, the one bet), built from plain values and checked,
  for the command and the server alike;
- :mod:`.output`: the table, the JSON, and a table written back as a bets file.
"""
