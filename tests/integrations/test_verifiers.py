"""The verifiers 0.4 adapter (cbsolve/integrations/verifiers.py), offline: the environment is
loaded by its taskset id through verifiers' own loaders, and its ``run`` plays a scripted
player that stands in for the model behind ``agents.player.interaction(task)`` (the
framework's contract: a prompted task's first ``turn()`` is bare, each later one carries the
host's message, a terminated segment ends the exchange). The trace is verifiers' own."""
from __future__ import annotations

import asyncio
import contextlib
import importlib.util

import pytest
from testkit import check_moves, reference_reply

from cbsolve.integrations.game import GameSession

if importlib.util.find_spec("verifiers") is None:
    pytest.skip("verifiers not installed", allow_module_level=True)

#: Bound by the fixture below: verifiers takes about 5 s of CPU to import, so only the worker
#: that runs these tests pays it, not every worker that collects them.
vf = CodebreakerEnv = load_environment = None


@pytest.fixture(autouse=True, scope="module")
def _verifiers():
    global vf, CodebreakerEnv, load_environment
    vf = pytest.importorskip("verifiers.v1")
    from cbsolve.integrations.verifiers import CodebreakerEnv, load_environment


class ScriptedInteraction:
    """Replies from a script; records what the host said (None: the bare opening turn)."""

    def __init__(self, task, replies):
        self.replies = list(replies)
        self.heard: list[str | None] = []
        self.trace = vf.Trace(task=vf.TraceTask(type=type(task).__name__, data=task.data,
                                                key=task.key, hash=task.hash),
                              agent=vf.AgentInfo(config=vf.AgentConfig(), name="player"))

    async def turn(self, message=None):
        assert (message is None) == (not self.heard), "only the opening turn is bare"
        self.heard.append(message)
        if not self.replies:
            return vf.Segment(messages=[], terminated=True)
        return vf.Segment(messages=[vf.AssistantMessage(content=self.replies.pop(0))])


class ScriptedPlayer:
    def __init__(self, replies):
        self.replies = replies
        self.last: ScriptedInteraction | None = None

    @contextlib.asynccontextmanager
    async def interaction(self, task):
        self.last = ScriptedInteraction(task, self.replies)
        yield self.last


class Agents:
    def __init__(self, replies):
        self.player = ScriptedPlayer(replies)


def environment(**options):
    config = vf.resolve_env_config({"taskset": {"id": "cbsolve-codebreaker", **options}})
    return vf.load_environment(config)


def play(env, task, replies):
    agents = Agents(replies)
    asyncio.run(env.run(task, agents))
    return agents.player.last


def test_the_taskset_id_finds_the_environment_and_its_options():
    env = environment(variant="mastermind", length=3, digits=4, slack=1)
    assert isinstance(env, CodebreakerEnv)
    task = next(iter(env.taskset.take(1)))
    options = env.taskset.config.game_options()
    assert options.variant.symbols == "1234" and options.variant.length == 3
    assert task.data.prompt == GameSession(options, seed=0).prompt()
    assert f"You have {options.turn_limit()} guesses" in task.data.prompt


def test_scripted_episode_to_the_end_with_bad_and_repeated_replies():
    env = environment(variant="bulls-cows", length=3, digits=6, seed=11)
    task = next(iter(env.taskset.take(1)))
    secret = GameSession(env.taskset.config.game_options(), seed=11).secret
    wrong = "012" if secret != "012" else "345"
    script = ["hmm, no idea", "[0012]", f"[{wrong}]", f"[{wrong}]", f"so it is [{secret}]"]
    interaction = play(env, task, script)
    # the host's answers, in order: re-prompts for the two bad replies, then the replies
    b, c = reference_reply(env.taskset.config.game_options().variant, secret, wrong)
    assert "no guess in square brackets" in interaction.heard[1]
    assert "repeats symbol" in interaction.heard[2] or "length" in interaction.heard[2]
    assert interaction.heard[3].startswith(f"[{wrong}]: {b} bull")
    assert len(interaction.heard) == 5          # the winning reply ends the game: no 6th turn
    trace = interaction.trace
    record = trace.info["cbsolve"]
    assert record["secret"] == secret and record["solved"]
    assert [e["guess"] for e in record["entries"]] == [wrong, wrong, secret]
    # the rewards on the trace are the game's, weighted so that their sum is the total
    weighted = sum(r.score * r.weight for r in trace.rewards.values())
    assert weighted == pytest.approx(record["rewards"]["total"])
    assert trace.rewards["format"].score == pytest.approx(3 / 5)
    assert trace.rewards["invalid_penalty"].score == pytest.approx(-0.2)
    assert trace.metrics["repeated_guesses"] == 1 and trace.metrics["turns"] == 3
    replayed = GameSession(env.taskset.config.game_options(), seed=11)
    for reply in script:
        replayed.play(reply)
    check_moves(replayed)
    assert replayed.record() == record


def test_loss_at_the_turn_limit_and_a_player_that_stops_early():
    env = environment(variant="black-peg", length=3, digits=4, max_turns=2, seed=3)
    task = next(iter(env.taskset.take(1)))
    secret = GameSession(env.taskset.config.game_options(), seed=3).secret
    wrong = "111" if secret != "111" else "222"
    interaction = play(env, task, [f"[{wrong}]", f"[{wrong}]", f"[{secret}]"])
    record = interaction.trace.info["cbsolve"]
    assert not record["solved"] and len(record["entries"]) == 2   # the 3rd reply never asked
    assert "black peg" in interaction.heard[1] and "white" not in interaction.heard[1]
    assert "turns_over_optimum" not in interaction.trace.metrics      # a lost game has none
    # a model whose run ends (a limit of its own) mid-game: the game is scored as it stands
    early = play(env, task, [f"[{wrong}]"])
    assert early.trace.info["cbsolve"]["entries"][0]["guess"] == wrong
    assert early.trace.rewards["solved"].score == 0


def test_load_environment_keyword_form():
    env = load_environment(variant="bulls-cows", letters=6, length=3, on_invalid="lose-turn")
    options = env.taskset.config.game_options()
    assert options.variant.symbols == "ABCDEF" and options.on_invalid == "lose-turn"


def test_concurrent_episodes_give_the_games_played_alone():
    # verifiers runs rollouts concurrently, each move's work in a thread: the games must not
    # see each other (cbsolve's caches hold one game at a time)
    env = environment(variant="bulls-cows", length=3, digits=6, seed=20)
    tasks = list(env.taskset.take(3))
    options = env.taskset.config.game_options()
    scripts = [["[012]", "[345]", "[123]", f"[{GameSession(options, seed=20 + i).secret}]"]
               for i in range(3)]
    everyone = [Agents(script) for script in scripts]

    async def together():
        await asyncio.gather(*(env.run(t, a) for t, a in zip(tasks, everyone, strict=True)))

    asyncio.run(together())
    for i, agents in enumerate(everyone):
        alone = GameSession(options, seed=20 + i)
        for reply in scripts[i]:
            if not alone.done:
                alone.play(reply)
        assert agents.player.last.trace.info["cbsolve"] == alone.record()


def test_a_whole_episode_through_verifiers_run_episode_has_no_error():
    # verifiers' own episode boundary (setup, run, finalize; any exception becomes an episode
    # error): only the agents are scripted, through the env's (private) agent factory
    env = environment(variant="bulls-cows", letters=6, length=3, seed=1)
    task = next(iter(env.taskset.take(1)))
    agents = Agents(["???", "[ABC]", "[ABC]", "[FED]", "[DEF]", "[CAB]", "[BCA]", "[ACB]"])

    def scripted(ctx, completed, on_trace, on_discard):
        player = agents.player
        real = player.interaction

        @contextlib.asynccontextmanager
        async def interaction(task):
            async with real(task) as it:
                yield it
            it.trace.ok = True              # the framework sets this when a run completes
            completed.append(it.trace)
        player.interaction = interaction
        return agents

    env._episode_agents = scripted
    episode = asyncio.run(env.run_episode(task, ctx=None))
    assert episode.errors == [] and episode.ok
    (trace,) = episode.traces
    record = trace.info["cbsolve"]
    assert record["variant"]["symbols"] == "ABCDEF" and len(record["turns"]) >= 2
    assert record["turns"][0]["kind"] == "unparsable"
