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
    help="The most a request may compute: a request that would take longer is refused at once (400), one that"
         " does is stopped there (503); either answer is one error line.",
)
@click.option(
    "--workers", type=WholeNumber(1, 64), default=None, metavar="N",
    help="Worker processes that compute the answers (one is kept for cheap requests)  [default: one per core, at"
         " least 2]",
)
@click.option(
    "--read-timeout", type=WholeNumber(1, 600), default=15, show_default=True, metavar="SECONDS",
    help="The most a client may take to send a request's line and headers, and then its body: past it, 408.",
)
def serve_command(host: str, port: int, time_limit: int, workers: int | None, read_timeout: int) -> None:
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
    run(address, port, time_limit, workers=workers, read_seconds=read_timeout)
