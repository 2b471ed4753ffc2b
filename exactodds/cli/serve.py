"""The ``serve`` command: the odds over HTTP, a JSON API (the ``serve`` extra: Starlette and uvicorn, imported
when it runs)."""

from __future__ import annotations

import click

from ..errors import ExactOddsError
from ..serve import listen_address
from .types import WholeNumber


@click.command(name="serve")
@click.option(
    "--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
    help="The IP address to listen on (localhost too); 0.0.0.0 or :: listens on every interface, with a warning.",
)
@click.option("--port", type=WholeNumber(0, 65535), default=8765, show_default=True,
              help="The TCP port (0: a free one, printed).")
@click.option(
    "--time-limit", type=WholeNumber(1, 3600), default=30, show_default=True, metavar="SECONDS",
    help="The most a request may compute: past it, the answer is 503 with one error line.",
)
def serve_command(host: str, port: int, time_limit: int) -> None:
    """Serve the odds over HTTP: a JSON API (odds, batch, solve, edge-sort, live tracking; see /docs).

    Needs the serve extra: pip install 'exactodds[serve]'. Stops on SIGTERM or Ctrl-C.
    """
    address = listen_address(host)
    try:
        from ..serve.app import run
    except ImportError as err:
        raise ExactOddsError(
            f"serve needs the serve extra ({err.name or 'a module'} is not installed): pip install 'exactodds[serve]'"
        ) from None
    run(address, port, time_limit)
