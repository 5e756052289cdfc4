"""``cbsolve merge DIR``: compose the results of a sharded worst-case refutation into one
certificate (cbsolve/search/worst/merge.py; docs/optimal.md, "Sharded proofs").

Exit 0 when the certificate is written (``cbsolve verify`` then checks it as a whole), 1 when
an orbit has no result yet or is not refuted (each named), 2 when the plan or a result is
unreadable, tampered with or from another proof.
"""
from __future__ import annotations

from pathlib import Path

import click

from ..errors import InvalidVariant
from . import EXIT_NONE, EXIT_OK, FILE, app, emit, json_option
from ._ledger import merge_ledger
from ..search.worst.merge import merge_shards
from ..search.worst.shard_files import write_atomic

#: The certificate's name in the plan's directory when --out is not given.
DEFAULT_NAME = "certificate.json"


@app.command("merge")
@click.argument("directory")
@click.option("--out", type=FILE, default=None, metavar="FILE",
              help=f"Write the certificate to FILE (default: DIR/{DEFAULT_NAME}).")
@click.option("--ledger", "ledger", is_flag=True,
              help="Compose what DIR/ledger.jsonl proves (every unit refuted) into "
                   "DIR/result.json, instead of a certificate from the result files.")
@click.option("--tree", type=FILE, default=None, metavar="FILE",
              help="With --ledger: a strategy tree of the same game (replayed by the verifier) "
                   "for the upper end, e.g. a shipped certified tree.")
@json_option
def merge_command(directory, out, ledger, tree, as_json) -> int:
    """Merge the shards of `optimal --plan DIR` into one lower-bound certificate."""
    if tree is not None and not ledger:
        raise InvalidVariant("--tree gives the upper end of a ledger's result: give --ledger")
    if ledger:
        return merge_ledger(directory, out, tree, as_json)
    import json

    merged = merge_shards(directory)
    data = merged.to_json()
    data["plan"] = str(directory)
    if merged.certificate is None:
        emit(as_json, data, _incomplete(merged, directory))
        return EXIT_NONE
    path = Path(out) if out else Path(directory) / DEFAULT_NAME
    write_atomic(path, json.dumps(merged.certificate, separators=(",", ":")) + "\n")
    data["out"] = str(path)
    emit(as_json, data, f"{merged.orbits} orbits merged: no strategy finds every secret within "
                        f"{merged.depth} guesses (worst case >= {merged.depth + 1}); certificate "
                        f"written to {path}; check it with: cbsolve verify {path}")
    return EXIT_OK


def _incomplete(merged, directory) -> str:
    lines = [f"{directory}: no certificate ({merged.orbits} orbits, refuting {merged.depth} "
             "guesses)"]
    if merged.not_refuted and merged.units is not None:
        lines.append(f"  not refuted by the split (first guess:class:second guess, with "
                     ":reply:third guess for a split second guess, or an orbit run whole): "
                     f"{' '.join(merged.not_refuted)} (the last guess named settles its class: "
                     "plan the orbit without --split, or with a larger --split-size, to go on)")
    elif merged.not_refuted:
        lines.append(f"  not refuted: {' '.join(merged.not_refuted)} (each finds every secret "
                     f"within {merged.depth} guesses: {merged.depth} cannot be refuted)")
    if merged.missing:
        shown = " ".join(merged.missing[:20])
        lines.append(f"  missing ({len(merged.missing)}, orbit:guess): {shown}"
                     + (" ..." if len(merged.missing) > 20 else ""))
    return "\n".join(lines)
