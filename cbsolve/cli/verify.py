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
    from ..certify import verify_file
    from ..errors import SpaceTooLarge

    try:
        report = verify_file(file, variant)
    except SpaceTooLarge as exc:
        raise SpaceTooLarge(f"{file}: cannot be verified here: replaying every secret needs "
                            f"their list, and {exc}") from None
    emit(as_json, report.to_json(), format_report(file, report))
    return EXIT_OK if report.valid else EXIT_NONE


def format_report(file: str, rep) -> str:
    if not rep.valid:
        return f"{file}: INVALID {rep.kind}: {rep.message}"
    from ..variant import Variant

    lines = [f"{file}: valid {rep.kind} for {Variant.from_dict(rep.variant).describe()}"]
    if rep.position is not None:
        played = " ".join(f"{e['guess']}:{e['reply']}" for e in rep.position["entries"])
        lines.append(f"  from the position after {played or 'no entries'} (guesses counted "
                     "from there)")
    if rep.worst is not None:
        hist = ", ".join(f"{k}: {v}" for k, v in sorted(rep.histogram.items()))
        lines.append(f"  secrets {rep.secrets}, worst {rep.worst}, total {rep.total}, "
                     f"histogram {{{hist}}}")
    if rep.lower_bound is not None:
        lines.append(f"  certified: no strategy finds every secret within {rep.lower_bound - 1} "
                     f"guesses (worst case >= {rep.lower_bound})")
    if rep.optimal:
        lines.append(f"  the tree's worst case {rep.worst} is therefore optimal")
    lines.append(f"  {rep.nodes} nodes checked")
    return "\n".join(lines)
