"""``cbsolve convert IN OUT --from FMT --to FMT``: strategy trees between the field's formats.

Thin: reads the file and replays it with the independent verifier (:func:`cbsolve.api.verify`:
a tree that does not solve every secret, or whose claims are wrong, is not
converted: exit 1), writes it (:func:`cbsolve.formats.write_document`).
"""
from __future__ import annotations

import click

from . import EXIT_NONE, EXIT_OK, FILE, app, emit, json_option, variant_options
from .verify import FORMAT_HELP, file_symbols_option, format_option, verified
from ..formats import check_format, guess_format, write_document


@app.command("convert")
@click.argument("source", metavar="IN")
@click.argument("target", metavar="OUT", type=FILE)
@format_option("--from", "from_format")
@click.option("--to", "to_format", default=None, metavar="FMT",
              help=f"Format of OUT: {FORMAT_HELP} (default: from OUT's extension).")
@file_symbols_option
@json_option
@variant_options(optional=True)
def convert_command(source, target, from_format, to_format, file_symbols, as_json, variant) -> int:
    """Convert a strategy tree between formats (replayed and checked on the way).

    Variant options: the game of a file in a format that does not name it (irving and
    arfst-* default to mastermind, kunigami-json to bulls-cows)."""
    to_format = to_format or guess_format(target)
    if to_format is None:
        raise click.UsageError(f"cannot tell the format of {target!r} from its name; "
                               f"give --to ({FORMAT_HELP})")
    check_format(to_format)
    report = verified(source, from_format, variant, file_symbols, "--from")
    doc, fmt = report.document, report.format
    if not report.valid:
        if as_json:             # exit 1 is an answer: one document under --json, as for the rest
            emit(True, {"source": source, "from": fmt, "target": target, "to": to_format,
                        "converted": False, "message": report.message}, "")
        else:
            click.echo(f"{source}: not converted: {report.message}", err=True)
        return EXIT_NONE
    write_document(doc, target, to_format, file_symbols if to_format != "cbsolve" else None)
    data = {"source": source, "from": fmt, "target": target, "to": to_format,
            "secrets": report.secrets, "worst": report.worst, "total": report.total,
            "nodes": report.nodes, "variant": report.variant}
    emit(as_json, data, f"{source} ({fmt}) -> {target} ({to_format}): {report.secrets} secrets, "
                        f"worst {report.worst}, total {report.total}")
    return EXIT_OK
