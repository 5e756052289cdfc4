"""Benchmark: how fast ``cbsolve bot`` answers ``guess`` (target: 50 ms per turn, Bulls & Cows 4/10).

    python scripts/bench/bench_play.py                      # in-process and subprocess, 20 games
    python scripts/bench/bench_play.py --games 50 --strategies minimax,entropy --variant mastermind

For each strategy: start-up time (constructing the bot, which precomputes the opening), then
``games`` games against a host bot; every ``guess`` answer is timed (the guess is computed
there: ``score`` only filters). ``--subprocess`` also times the answers through a real
``python -m cbsolve bot`` pipe, as a referee sees them.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time


def _summary(times: list[float]) -> dict:
    t = sorted(times)
    return {"turns": len(t), "median_ms": round(1000 * statistics.median(t), 3),
            "p95_ms": round(1000 * t[int(0.95 * (len(t) - 1))], 3),
            "max_ms": round(1000 * t[-1], 3)}


def bot_latency(strategy: str = "minimax", games: int = 20, variant=None, seed: int = 1) -> dict:
    """In-process: start-up seconds and per-turn ``guess`` latency of a :class:`Bot`."""
    from cbsolve.play.bot import Bot
    from cbsolve.game.variant import Variant

    variant = variant or Variant.preset("bulls-cows")
    start = time.perf_counter()
    bot = Bot(variant, strategy=strategy, seed=seed)
    startup = time.perf_counter() - start
    host = Bot(variant, strategy="first", seed=seed + 1000)
    times = []
    for _ in range(games):
        bot.handle("new")
        host.handle("new")
        while True:
            t0 = time.perf_counter()
            g = bot.handle("guess")
            times.append(time.perf_counter() - t0)
            reply = host.handle(f"check {g}")
            bot.handle(f"score {reply}")
            if int(reply.split()[0]) == variant.length:
                break
    return {"strategy": strategy, "startup_s": round(startup, 3), **_summary(times)}


def subprocess_latency(strategy: str = "minimax", games: int = 20, seed: int = 1,
                       variant_args: list[str] | None = None) -> dict:
    """Through a real pipe: per-turn ``guess`` latency of ``python -m cbsolve bot``."""
    from cbsolve.play.bot import Bot
    from cbsolve.play.referee import BotProcess
    from cbsolve.game.variant import Variant

    argv = [sys.executable, "-m", "cbsolve", "bot", "--strategy", strategy, "--seed", str(seed),
            *(variant_args or [])]
    start = time.perf_counter()
    bot = BotProcess(argv, name=strategy)
    bot.ask("new")  # the first answer comes after start-up (imports + opening)
    startup = time.perf_counter() - start
    variant = Variant.preset("bulls-cows") if not variant_args else None
    host = Bot(variant or _variant(variant_args), strategy="first", seed=seed + 1000)
    times = []
    try:
        for i in range(games):
            if i:
                bot.ask("new")
            host.handle("new")
            while True:
                t0 = time.perf_counter()
                g = bot.ask("guess")
                times.append(time.perf_counter() - t0)
                reply = host.handle(f"check {g}")
                bot.ask(f"score {reply}")
                if int(reply.split()[0]) == host.variant.length:
                    break
    finally:
        bot.close()
    return {"strategy": strategy, "startup_s": round(startup, 3), **_summary(times)}


def _variant(args: list[str]):
    """The variant that the CLI's variant options ``args`` name."""
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
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--strategies", default="minimax,expected,entropy,parts,first,random")
    p.add_argument("--no-subprocess", action="store_true", help="skip the pipe measurement")
    args, variant_args = p.parse_known_args(argv)
    variant = _variant(variant_args) if variant_args else None
    print(f"{'mode':11} {'strategy':9} {'start-up s':>10} {'turns':>6} {'median ms':>10} "
          f"{'p95 ms':>8} {'max ms':>8}")
    for s in args.strategies.split(","):
        rows = [("in-process", bot_latency(s, args.games, variant))]
        if not args.no_subprocess:
            rows.append(("subprocess", subprocess_latency(s, args.games, variant_args=variant_args)))
        for mode, r in rows:
            print(f"{mode:11} {s:9} {r['startup_s']:>10.3f} {r['turns']:>6} {r['median_ms']:>10.2f} "
                  f"{r['p95_ms']:>8.2f} {r['max_ms']:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
