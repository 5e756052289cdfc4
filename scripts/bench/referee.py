"""Referee match: now ``cbsolve referee`` (cbsolve/cli/referee.py); this script passes its
arguments there, so old command lines keep working.

    python scripts/bench/referee.py --a minimax --b entropy --games 20
    cbsolve referee --a first --b random --games 50 --variant mastermind --json
"""
from __future__ import annotations

import sys


def _variant_from_args(args: list[str]):
    """The variant that the CLI's variant options ``args`` name (scripts/bench/bench_play.py)."""
    import click

    from cbsolve.cli import variant_options

    holder = {}

    @click.command()
    @variant_options
    def grab(variant):
        holder["variant"] = variant

    grab.main(args=args, standalone_mode=False)
    return holder["variant"]


def main(argv: list[str] | None = None) -> int:
    from cbsolve.cli import main as cli

    return cli(["referee", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
