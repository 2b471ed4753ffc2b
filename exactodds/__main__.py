"""``python -m exactodds``: the same as the ``exactodds`` command."""

from .cli import main

main()
