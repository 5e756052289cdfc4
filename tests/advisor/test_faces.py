"""Every face asks the position service (docs/architecture.md, "The position service"): the
commands and the API calls below reach :class:`PositionService`'s answer for their question,
so none decides on its own. Each case records the service's method as it runs and checks the
face printed that method's answer."""
from __future__ import annotations

import json

import pytest
from testkit import cli_run

from cbsolve.advisor import PositionService


@pytest.fixture
def asked(monkeypatch):
    """The service's answers, recorded as the faces ask for them: {method: [answers]}."""
    seen: dict[str, list] = {}
    for name in ("advise", "partition", "partition_table", "optimum", "bounds"):
        original = getattr(PositionService, name)

        def record(self, *args, _original=original, _name=name, **kwargs):
            answer = _original(self, *args, **kwargs)
            seen.setdefault(_name, []).append(answer)
            return answer

        monkeypatch.setattr(PositionService, name, record)
    return seen


MM = ("--variant", "mastermind")


@pytest.mark.parametrize("args, method, check", [
    (("next", *MM, "1122:1,0"), "advise", lambda a, d: d["guess"] == a.guess),
    (("partition", *MM, "1344", "1122:1,0"), "partition",
     lambda a, d: d["largest"] == a.largest),
    (("partition", *MM, "--all", "1122:1,0"), "partition_table",
     lambda a, d: d["guesses"][0]["guess"] == a.guesses[0]["guess"]),
    (("optimal", *MM, "--length", "3", "--digits", "4"), "optimum",
     lambda a, d: d["worst"] == a.worst and d["proved"]),
    (("optimal", *MM, "1122:1,0", "--objective", "expected"), "optimum",
     lambda a, d: d["total"] == a.total and d["position"] == a.position),
    (("bounds", *MM, "--no-search", "--time-limit", "5"), "bounds",
     lambda a, d: d["worst"] == a.worst.to_json()),
])
def test_the_command_prints_the_services_answer(asked, capsys, args, method, check):
    code, out, err = cli_run(capsys, *args, "--json")
    assert code == 0, err
    assert len(asked.get(method, [])) == 1, sorted(asked)
    assert check(asked[method][0], json.loads(out))


def test_the_api_asks_the_service(asked):
    import cbsolve as cb

    optimum = cb.optimal(["1122:1,0"], variant="mastermind")
    bounds = cb.bounds("mastermind", search=False, strategies=False)
    table = cb.partition_table(["1122:1,0"], variant="mastermind")
    assert asked["optimum"] == [optimum] and asked["bounds"] == [bounds]
    assert asked["partition_table"] == [table]
