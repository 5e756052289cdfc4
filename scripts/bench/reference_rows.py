"""Reference rows for environment builders: cbsolve's own players through each adapter,
offline (docs/integrations.md, "Reference rows").

    python scripts/bench/reference_rows.py                        # Bulls & Cows 3/6, 30 games
    python scripts/bench/reference_rows.py --games 10 --adapters gym,textarena
    python scripts/bench/reference_rows.py --variant mastermind --length 3 --digits 4

Players (each given the replies so far; the same secrets, drawn with seeds S, S+1, ...):
``random`` a random consistent guess (NumPy, seeded), ``minimax`` Knuth's heuristic (the
position service's advice, strategy ``minimax``), ``optimal`` the expected-case optimum (the
service's advice, strategy ``optimal``, objective ``expected``). Adapters: ``gym`` the
Gymnasium environment ``cbsolve/CodeBreaker-v0`` (actions are code indices), ``textarena``
``textarena.make("cbsolve/CodeBreaker-v0")`` (the player's text is ``[GUESS]``), ``verifiers``
the ``cbsolve-codebreaker`` taskset's environment run with a scripted player that reads the
host's messages (no model, no network); the gym is given the secret the other two draw, so
every adapter plays the same games. Each game's entries are then graded by the review
engine (``cbsolve review``): a row is the solve rate, the mean guesses, and the mean regret a
game (summed over its moves; worst case and expected, exact moves only, the share given).
Prints a Markdown table; ``--jsonl FILE`` also writes every game as a ``review`` line.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import statistics

import numpy as np

from cbsolve.game.variant import Variant

PLAYERS = ("random", "minimax", "optimal")
ADAPTERS = ("gym", "textarena", "verifiers")
#: The host's words for a reply (cbsolve/integrations/replies.py): "[012]: 1 bull, 2 cows".
_REPLY = re.compile(r"\[(\w+)\]: (\d+) (?:bull|black peg)s?(?:, (\d+) (?:cow|white peg)s?)?")


class Player:
    """One of :data:`PLAYERS`, asked for a guess after a list of ``GUESS:B,C`` tokens."""

    def __init__(self, name: str, variant: Variant, seed: int):
        from cbsolve.advisor import PositionService

        self.name, self.variant = name, variant
        self.service = PositionService(variant, seed=seed)
        self.rng = np.random.default_rng(seed)

    def guess(self, tokens: list[str]) -> str:
        from cbsolve.game.feedback import FeedbackLog

        log = FeedbackLog.parse(self.variant, tokens)
        space = self.service.space
        if self.name == "random":
            cands = self.service.candidates(log) if len(log) else np.arange(space.size)
            return space.format(space.codes[int(self.rng.choice(cands))])
        strategy, objective = (("minimax", "worst") if self.name == "minimax"
                               else ("optimal", "expected"))
        return self.service.advise(log, strategy=strategy, objective=objective).guess


def _token(variant: Variant, guess: str, bulls: int, cows: int | None) -> str:
    return f"{guess}:{bulls}" if variant.bulls_only else f"{guess}:{bulls},{cows or 0}"


def play_gym(player: Player, options: dict, seed: int) -> list[str]:
    import gymnasium

    env = gymnasium.make("cbsolve/CodeBreaker-v0", variant=player.variant, slack=options["slack"])
    env.reset(seed=seed, options={"secret": _secret(options, seed)})   # the adapters' secret
    inner, tokens = env.unwrapped, []
    while True:
        guess = player.guess(tokens)
        obs, _, terminated, truncated, _ = env.step(inner.encode(guess))
        row = obs[len(tokens)]
        tokens.append(_token(player.variant, guess, int(row[-2]), int(row[-1])))
        if terminated or truncated:
            return tokens


def play_textarena(player: Player, options: dict, seed: int) -> list[str]:
    import textarena as ta

    import cbsolve.integrations.textarena  # noqa: F401  (registers the ids)

    env = ta.make("cbsolve/CodeBreaker-v0", **options)
    env.reset(num_players=1, seed=seed)
    while isinstance(env, ta.Wrapper):
        env = env.env
    session, done = env.session, False
    while not done:
        done, _ = env.step(f"[{player.guess(session.log.tokens())}]")
    return session.log.tokens()


def play_verifiers(player: Player, options: dict, seed: int) -> list[str]:
    import verifiers.v1 as vf

    config = vf.resolve_env_config({"taskset": {"id": "cbsolve-codebreaker", "seed": seed,
                                                **options}})
    env = vf.load_environment(config)
    task = next(iter(env.taskset.take(1)))
    heard: list[str] = []

    class Interaction:
        trace = vf.Trace(task=vf.TraceTask(type=type(task).__name__, data=task.data,
                                           key=task.key, hash=task.hash),
                         agent=vf.AgentInfo(config=vf.AgentConfig(), name="player"))

        async def turn(self, message=None):
            if message is not None:
                heard.append(message)
            tokens = [_token(player.variant, g, int(b), c and int(c))
                      for g, b, c in _REPLY.findall("\n".join(heard))]
            return vf.Segment(messages=[vf.AssistantMessage(
                content=f"[{player.guess(tokens)}]")])

    interaction = Interaction()

    class Agents:
        class player:  # noqa: N801  (the attribute the environment asks for)
            @staticmethod
            @contextlib.asynccontextmanager
            async def interaction(task):
                yield interaction

    asyncio.run(env.run(task, Agents))
    record = interaction.trace.info["cbsolve"]      # the game as the host recorded it
    return [_token(player.variant, e["guess"], e["bulls"], e.get("cows"))
            for e in record["entries"]]


def _secret(options: dict, seed: int) -> str:
    """The secret the LLM adapters' host draws with ``seed`` (the gym is given the same)."""
    from cbsolve.integrations.game import GameOptions, GameSession

    return GameSession(GameOptions.from_options(**options), seed=seed).secret


PLAY = {"gym": play_gym, "textarena": play_textarena, "verifiers": play_verifiers}


def rows(options: dict, games: int, seed: int, adapters, players, move_time, jsonl=None) -> list[dict]:
    """One row a (adapter, player): games, solved, mean guesses, mean regret a game."""
    from cbsolve.advisor import PositionService
    from cbsolve.runtime.deadline import Deadline
    from cbsolve.play.game_review import review_game
    from cbsolve.play.transcripts import read_game

    variant = Variant.from_options(options["variant"], length=options.get("length"),
                                   digits=options.get("digits"))
    reviewer = PositionService(variant)
    out = []
    for adapter in adapters:
        for name in players:
            player = Player(name, variant, seed)
            reviewed = []
            for k in range(games):
                tokens = PLAY[adapter](player, options, seed + k)
                line = json.dumps({"variant": variant.to_dict(), "entries": tokens,
                                   "id": f"{adapter}/{name}/{seed + k}"})
                if jsonl is not None:
                    jsonl.write(line + "\n")
                reviewed.append(review_game(reviewer, read_game(line, k + 1, variant),
                                            Deadline(None), move_time))
            row = {"adapter": adapter, "player": name, "games": games,
                   "solved": sum(g.solved for g in reviewed),
                   "mean_turns": statistics.fmean(g.turns for g in reviewed)}
            for objective in ("worst", "expected"):
                totals = [t[objective] for g in reviewed if (t := g.totals())[objective] is not None]
                row[f"regret_{objective}"] = statistics.fmean(totals) if totals else None
                row[f"exact_{objective}"] = len(totals)
            out.append(row)
    return out


def table(found: list[dict]) -> str:
    lines = ["| adapter | player | games | solved | mean guesses | mean regret a game, worst | "
             "mean regret a game, expected |", "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in found:
        def cell(o):
            value = r[f"regret_{o}"]
            shown = "-" if value is None else f"{value:.3f}"
            return shown if r[f"exact_{o}"] == r["games"] else f"{shown} ({r[f'exact_{o}']} exact)"
        lines.append(f"| {r['adapter']} | {r['player']} | {r['games']} | "
                     f"{100 * r['solved'] / r['games']:.0f} % | {r['mean_turns']:.2f} | "
                     f"{cell('worst')} | {cell('expected')} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="bulls-cows")
    parser.add_argument("--length", type=int, default=3)
    parser.add_argument("--digits", type=int, default=6)
    parser.add_argument("--slack", type=int, default=2)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--adapters", default=",".join(ADAPTERS))
    parser.add_argument("--players", default=",".join(PLAYERS))
    parser.add_argument("--move-time", type=float, default=1.0)
    parser.add_argument("--jsonl", default=None, metavar="FILE")
    args = parser.parse_args(argv)
    options = {"variant": args.variant, "length": args.length, "digits": args.digits,
               "slack": args.slack}
    with (open(args.jsonl, "w", encoding="utf-8") if args.jsonl else contextlib.nullcontext()) as fh:
        found = rows(options, args.games, args.seed, args.adapters.split(","),
                     args.players.split(","), args.move_time or None, fh)
    print(f"{Variant.from_options(args.variant, length=args.length, digits=args.digits).describe()}"
          f", slack {args.slack}, {args.games} games from seed {args.seed}")
    print(table(found))


if __name__ == "__main__":
    main()
