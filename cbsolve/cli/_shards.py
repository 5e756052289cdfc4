"""``cbsolve optimal --plan DIR [--shard K/N]``: plan a sharded worst-case refutation, or run
one shard of it (cbsolve/search/worst/shards.py; docs/optimal.md, "Sharded proofs").

Thin: checks the options that do not combine with a plan, calls the library, prints.
"""
from __future__ import annotations

import click

from ..errors import InvalidVariant
from . import EXIT_NONE, EXIT_OK, emit
from ..search.worst import shards
from ..search.worst.shard_files import read_plan

EXIT_INTERRUPTED = 130


def sharded(plan_dir, shard, *, objective, max_depth, guesses, variant, deadline, workers,
            memory_budget, positional, scheduler, as_json, split="orbit",
            split_size=None, ledger=False) -> int:
    """The ``--plan`` branch of ``optimal``; ``positional``: entries or a log were given."""
    if objective != "worst":
        raise InvalidVariant("--plan shards the worst-case refutation only (--objective worst)")
    if positional or scheduler is not None:
        raise InvalidVariant("--plan works on the whole game, on one machine a shard: not with "
                             "entries, --log or --scheduler")

    if ledger and shard is None:
        raise InvalidVariant("--ledger records the units a shard finishes: give --shard K/N")
    if shard is None:
        if max_depth is None:
            raise InvalidVariant("--plan needs --max-depth D: the depth to refute (the lower "
                                 "end of the worst-case interval `cbsolve bounds` reports)")
        plan = shards.plan_refutation(variant, plan_dir, max_depth, guesses, split, split_size)
        emit(as_json, _plan_json(plan, plan_dir), _plan_text(plan, plan_dir, variant))
        return EXIT_OK
    if split != "orbit":
        raise InvalidVariant("--split belongs to the plan (with --max-depth), not to --shard: "
                             "a shard runs the plan's split")
    k_n = shards.parse_shard(shard)

    if max_depth is not None and max_depth != read_plan(plan_dir)["depth"]:
        raise InvalidVariant(f"--max-depth {max_depth}: the plan in {plan_dir!r} refutes "
                             f"{read_plan(plan_dir)['depth']} (leave --max-depth out)")
    say = None if as_json else _say
    run = shards.run_shard(plan_dir, k_n, variant, deadline=deadline, workers=workers,
                           memory_budget=memory_budget, on_orbit=say, ledger=ledger)
    data = run.to_json()
    data["plan"] = str(plan_dir)
    emit(as_json, data, _run_text(run, plan_dir))
    if run.stop is not None and run.stop.value == "interrupted":
        click.echo("cbsolve: interrupted: the orbits written above are kept; run the shard "
                   "again to go on", err=True)
        return EXIT_INTERRUPTED
    return EXIT_NONE if run.not_refuted else EXIT_OK


def _plan_json(plan: dict, plan_dir) -> dict:
    out = {"plan": str(plan_dir), "depth": plan["depth"], "guesses": plan["guesses"],
           "orbits": plan["orbits"], "checksum": plan["checksum"], "variant": plan["variant"]}
    if "units" in plan:
        out.update(split=plan["split"], units=len(plan["units"]))
        if "split_size" in plan:
            out["split_size"] = plan["split_size"]
    return out


def _plan_text(plan: dict, plan_dir, variant) -> str:
    n = len(plan["orbits"])
    return "\n".join([
        f"{variant.describe()}: plan to refute {plan['depth']} guesses in the worst case "
        f"(guesses from {plan['guesses']})",
        f"  {n} first-guess orbits: {' '.join(plan['orbits'][:12])}{' ...' if n > 12 else ''}",
        *([f"  split by {plan['split']} guesses: {len(plan['units'])} units (a shard K of N "
           "runs the units i with i mod N = K-1)"] if "units" in plan else []),
        f"  written to {plan_dir}; run every shard K of N (any order, any machine):",
        f"    cbsolve optimal <variant options> --plan {plan_dir} --shard K/N",
        f"  then: cbsolve merge {plan_dir}"])


def _run_text(run, plan_dir) -> str:
    k, n = run.shard
    done = sum(o["outcome"] not in ("stopped",) for o in run.orbits)
    what = "units" if any("unit" in o for o in run.orbits) else "orbits"
    lines = [f"shard {k}/{n} of {plan_dir}: {done} {what} done, refuting {run.depth} guesses"]
    if run.not_refuted and any("unit" in o for o in run.orbits):
        part = run.not_refuted[0].count(":") > 2     # first:class:second:reply:third+more
        lines.append(f"  not refuted: {run.not_refuted[0]} (first guess:class:second guess"
                     + (":reply:third guesses): one of those third guesses settles that reply's "
                        f"class within {run.depth - 2} more guesses, so the split does not "
                        "refute its second guess" if part else
                        "): that second guess settles the class within "
                        f"{run.depth - 1} more guesses, so the split does not refute its first "
                        "guess")
                     + " (plan that orbit without --split, or merge to see the rest)")
    elif run.not_refuted:
        lines.append(f"  not refuted: first guess {run.not_refuted[0]} finds every secret within "
                     f"{run.depth} guesses (its strategy is in its result file): {run.depth} "
                     "guesses suffice, the refutation cannot be completed")
    if run.stop is not None:
        lines.append(f"  stopped ({run.stop.value}); nothing of the orbit in progress is kept: "
                     "run the same command again to go on")
    lines.append(f"  {run.seconds:.2f} s")
    return "\n".join(lines)


def _say(entry: dict) -> None:
    extra = ""
    if entry.get("reply") and entry.get("size") is None:    # a part of a third-level split
        extra = (f" (its third guesses, on reply {entry['reply']} of the second guess)"
                 if entry["outcome"] == "refuted" else
                 f" (a third guess settles reply {entry['reply']} of the second guess)")
    elif entry.get("reply"):
        extra = f" by reply {entry['reply']} ({entry['size']} secrets)"
    what = f"unit {entry['unit']}" if "unit" in entry else f"orbit {entry['orbit']}"
    click.echo(f"  {what} {entry['guess']}: {entry['outcome']}{extra}, "
               f"{entry.get('seconds', 0):.2f} s", err=True)
