"""``cbsolve verify FILE``: independent check of a strategy tree or lower-bound certificate.

Calls :func:`cbsolve.certify.verify_file` (scorer only, never the search). Exit 0 when the file
is valid, 1 when it is not (the message says which node and which claim), 2 when it cannot be
read. Variant options, when given, state the variant the file must be for: a valid
proof of another game is reported invalid for this one (exit 1).
"""
from __future__ import annotations

import click

from . import EXIT_NONE, EXIT_OK, app, emit, json_option, variant_options


@app.command("verify")
@click.argument("file", metavar="FILE")
@json_option
@variant_options(optional=True)
def verify_command(file, as_json, variant) -> int:
    """Replay a tree against every secret / check a certificate, with the scorer alone.

    Variant options, when given, name the game the file must be for (else it is INVALID)."""
    from ..certify import NotATree, verify_file
    from ..errors import SpaceTooLarge

    try:
        report = verify_file(file, variant)
    except NotATree as exc:
        raise NotATree(f"{file}: {exc}") from None
    except SpaceTooLarge as exc:
        raise SpaceTooLarge(f"{file}: cannot be verified here: replaying every secret needs "
                            f"their list, and {exc}") from None
    emit(as_json, report.to_json(), format_report(file, report))
    return EXIT_OK if report.valid else EXIT_NONE


def format_report(file: str, rep) -> str:
    if not rep.valid and rep.worst is None:
        return f"{file}: INVALID {rep.kind}: {rep.message}"
    from ..claims import describe
    from ..variant import Variant

    if rep.valid:
        lines = [f"{file}: valid {rep.kind} for {Variant.from_dict(rep.variant).describe()}"]
    else:
        n = len(rep.mismatches)
        lines = [f"{file}: INVALID {rep.kind}: {n} claim{'s' if n != 1 else ''} "
                 "differ from the replay"]
        lines += [f"  {describe(x)}" for x in rep.mismatches]
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
        parts.append(f"{key} ({', '.join(value)})" if isinstance(value, dict) else key)
    return "claims agree with the replay: " + ", ".join(parts)
