"""``cbsolve verify FILE``: independent check of a strategy tree or lower-bound certificate.

Calls :func:`cbsolve.api.verify` (the scorer only, never the search). Exit 0 when the file
is valid, 1 when it is not (the message says which node and which claim), 2 when it cannot be
read. Variant options, when given, state the variant the file must be for: a valid
proof of another game is reported invalid for this one (exit 1).
"""
from __future__ import annotations

import os

import click

from ..errors import InvalidVariant
from ..search.worst.ledger_check import is_ledger
from ..game.variant import Variant
from . import (EXIT_NONE, EXIT_OK, FILE, POSITIVE, SECONDS, SEED, WORKERS, app, emit,
               json_option, variant_options)
from ._budget import TimeLimit
from ._ledger import verify_ledger
from .. import api
from ..formats import format_of
from ..certificates.claims import describe
from ..formats.html import write_html

FORMAT_HELP = "cbsolve, irving, arfst-yaml, arfst-text, kunigami-json"


def format_option(flag: str, dest: str):
    return click.option(flag, dest, default=None, metavar="FMT",
                        help=f"Format of the file: {FORMAT_HELP} (default: from its name; "
                             ".json is cbsolve or kunigami-json, .yml arfst-yaml).")


file_symbols_option = click.option(
    "--file-symbols", default=None, metavar="STR",
    help="The file's alphabet, matched to the variant's by position (default: arfst-* files "
         "0123..., the others the variant's own symbols).")


def verified(file: str, fmt: str | None, variant, file_symbols: str | None, option: str):
    """:func:`cbsolve.api.verify` of ``file``; a format its name does not tell is asked for
    by the command's ``option``."""
    return api.verify(file, variant=variant, format=fmt or format_of(file, option),
                  file_symbols=file_symbols)


@app.command("verify")
@click.argument("file", metavar="FILE")
@format_option("--format", "fmt")
@file_symbols_option
@click.option("--html", "html", type=FILE, default=None, metavar="FILE",
              help="Also write a page to walk the tree in a browser (one self-contained file).")
@click.option("--sample", type=POSITIVE, default=None, metavar="K",
              help="A refutation ledger (ledger.jsonl): re-run K units drawn with --seed, "
                   "not all of them.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="With --sample: the seed of the draw.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help="A refutation ledger: stop re-running units after this long.")
@click.option("--workers", type=WORKERS, default=None, metavar="N",
              help="A refutation ledger: threads of the kernel that re-runs the units.")
@json_option
@variant_options(optional=True)
def verify_command(file, fmt, file_symbols, html, sample, seed, time_limit, workers, as_json,
                   variant) -> int:
    """Replay a tree against every secret / check a certificate, with the scorer alone.

    Measures any tree (worst, total, average, histogram, nodes, guess set) and checks every
    claim the file makes. For a cbsolve file, variant options name the game it must be for
    (else it is INVALID); for the other formats they name the game the file is for. A
    refutation ledger (DIR/ledger.jsonl of `optimal --plan DIR --ledger`): re-run its units
    (or --sample K of them) and check each sub-proof."""
    if is_ledger(file):
        if fmt or file_symbols or html or variant is not None:
            raise InvalidVariant("a refutation ledger names its game in its plan: not with "
                                 "--format, --file-symbols, --html or variant options")
        deadline = TimeLimit.from_option(time_limit, None).deadline    # one budget, here
        return verify_ledger(file, sample=sample, seed=seed, deadline=deadline,
                             workers=workers, as_json=as_json)
    if sample is not None or time_limit is not None or workers is not None:
        raise InvalidVariant("--sample, --seed, --time-limit and --workers re-run the units of "
                             "a refutation ledger (DIR/ledger.jsonl): not for a tree or certificate")
    report = verified(file, fmt, variant, file_symbols, "--format")
    if html and report.worst is not None:
        write_html(report.document, html, source=f"{os.path.basename(file)} ({report.format})")
    emit(as_json, report.to_json(), format_report(file, report))
    return EXIT_OK if report.valid else EXIT_NONE


def format_report(file: str, rep) -> str:
    if not rep.valid and rep.worst is None:
        return f"{file}: INVALID {rep.kind}: {rep.message}"

    if rep.valid:
        lines = [f"{file}: valid {rep.kind} for {Variant.from_dict(rep.variant).describe()}"]
    else:
        n = len(rep.mismatches)
        lines = [f"{file}: INVALID {rep.kind}: {n} claim{'s' if n != 1 else ''} "
                 "differ from the replay"]
        lines += [f"  {describe(x)}" for x in rep.mismatches]
    if rep.position is not None:
        played = " ".join(f"{e['guess']}:{e['reply']}" for e in rep.position["entries"])
        lines.append(f"  from the position after {played or 'no entries'} (guesses counted "
                     "from there)")
    if rep.worst is not None:
        hist = ", ".join(f"{k}: {v}" for k, v in sorted(rep.histogram.items()))
        lines.append(f"  {'replayed: ' if not rep.valid else ''}secrets {rep.secrets}, "
                     f"worst {rep.worst}, total {rep.total}, average {rep.average:.5f}, "
                     f"histogram {{{hist}}}")
        lines.append(f"  guesses: {_guesses(rep.guesses)}")
        if rep.valid:
            lines.append("  " + _claims_line(rep.claimed))
        if rep.search_word:
            lines.append("  the search's word, consistent with the tree but not re-proved here: "
                         + ", ".join(rep.search_word))
    if rep.lower_bound is not None:
        lines.append(f"  certified: no strategy finds every secret within {rep.lower_bound - 1} "
                     f"guesses (worst case >= {rep.lower_bound})")
    if rep.optimal:
        lines.append(f"  the tree's worst case {rep.worst} is therefore optimal")
    lines.append(f"  {rep.nodes} nodes checked")
    return "\n".join(lines)


def _guesses(measured: str) -> str:
    return ("candidates only (every guess could be the secret where it is played)"
            if measured == "candidates" else "all (some guesses cannot be the secret)")


def _claims_line(claimed: dict) -> str:
    if not claimed:
        return "no claims in the file: the numbers above are measured"
    parts = []
    for key, value in claimed.items():
        if isinstance(value, dict):
            parts.append(f"{key} ({', '.join(value)})")
        else:
            parts.append(f"{key} ({value})" if key == "node counts" else key)
    return "claims agree with the replay: " + ", ".join(parts)
