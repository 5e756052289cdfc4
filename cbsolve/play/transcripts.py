"""Game transcripts as ``review`` reads them: JSON lines, one game a line, each checked.

A line is ``{"variant": V, "entries": [...]}``: V a preset name or the variant object
cbsolve's JSON prints (``Variant.to_dict``; absent: the command's variant options), the entries
in the JSON log form ``puzzle --json`` prints (``{"guess", "bulls", "cows"}``; a token
``"GUESS:B,C"`` is read too). The adapters' own records (:meth:`cbsolve.integrations.game.
GameSession.record`) have that form, bare or where the frameworks keep them (``{"cbsolve":
record}``, verifiers' ``{"info": {"cbsolve": record}}``, TextArena's ``{"game_info": {"0":
{"cbsolve": record}}}``); a record's ``secret`` is checked against its replies.

Everything that makes a line unreviewable is found here, before any review starts, and named
with its line: not JSON, not a game, an unknown variant, a game of another variant than the
options, a guess that is no code of the game, a reply that no secret gives after the replies
before it, an entry after the game was won, a secret its replies rule out.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from ..game.codes import CodeSpace
from ..errors import CbsolveError
from ..game.feedback import FeedbackLog
from ..inputs import check_json_depth
from ..game.scoring import score_against
from ..game.variant import Variant


class BadTranscript(CbsolveError):
    """A transcript line that cannot be reviewed; the message names the line (``line``)."""

    line: int = 0


@dataclass
class Transcript:
    """One game to review: its line number, its log and, per move, the code indices of the
    secrets consistent before it (``candidates[k]`` before entry k + 1; the last item after
    the last entry)."""

    line: int
    log: FeedbackLog
    candidates: list[np.ndarray]
    secret: str | None = None
    extra: dict = field(default_factory=dict)    # the line's other keys (an id, a model name)

    @property
    def variant(self) -> Variant:
        return self.log.variant


def read_lines(lines: Iterable[str], options: Variant | None) -> Iterator[Transcript | BadTranscript]:
    """Each non-blank line's game, or the error that names what is wrong with it. ``options``:
    the variant the command line gave (None: none given; a line without a variant is then
    Bulls & Cows)."""
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            yield read_game(text, number, options)
        except BadTranscript as exc:
            exc.line = number
            yield exc


def read_game(text: str, line: int, options: Variant | None) -> Transcript:
    """The game on one line (see the module docstring); BadTranscript names what is wrong."""
    where = f"line {line}"
    try:
        check_json_depth(text, where)
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadTranscript(f"{where}: not valid JSON ({exc.msg}, column {exc.colno})") from None
    except CbsolveError as exc:
        raise BadTranscript(f"{where}: {exc}") from None
    game = _record_of(data)
    if game is None:
        raise BadTranscript(f'{where}: expected a game {{"variant": ..., "entries": [...]}} or '
                            "an adapter's record")
    variant = _variant_of(game.get("variant"), options, where)
    log = FeedbackLog(variant)
    for number, item in enumerate(game["entries"], 1):
        try:
            log.entries.append(_entry(log, item, number))
        except CbsolveError as exc:
            raise BadTranscript(f"{where}: {exc}") from None
    secret = game.get("secret")
    if secret is not None and not isinstance(secret, str):
        raise BadTranscript(f"{where}: secret must be a code as a string, got {secret!r}")
    extra = {k: v for k, v in game.items() if k in ("id", "name", "model", "seed")}
    return Transcript(line, log, _candidates(log, secret, where), secret, extra)


def _record_of(data) -> dict | None:
    """The game object in ``data``: itself, or an adapter's record where a framework keeps it."""
    for _ in range(3):
        if not isinstance(data, dict):
            return None
        if isinstance(data.get("entries"), list):
            return data
        inner = data.get("cbsolve")
        if inner is None and isinstance(data.get("info"), dict):
            inner = data["info"].get("cbsolve")
        if inner is None and isinstance(data.get("game_info"), (dict, list)):
            info = data["game_info"]
            first = info[0] if isinstance(info, list) and info else (
                info.get("0", info.get(0)) if isinstance(info, dict) else None)
            inner = first.get("cbsolve") if isinstance(first, dict) else None
        data = inner
    return None


def _variant_of(given, options: Variant | None, where: str) -> Variant:
    if given is None:
        return options if options is not None else Variant.preset("bulls-cows")
    try:
        if isinstance(given, str):
            variant = Variant.preset(given)
        elif isinstance(given, dict):
            variant = Variant.from_dict(given)
        else:
            raise CbsolveError(f"expected a preset name or a variant object, got {given!r}")
    except (CbsolveError, KeyError, TypeError, ValueError) as exc:
        raise BadTranscript(f"{where}: variant: {exc}") from None
    if options is not None and variant != options:
        raise BadTranscript(f"{where}: a game of {variant.describe()}, but the options give "
                            f"{options.describe()}")
    return variant


def _entry(log: FeedbackLog, item, number: int):
    """A token ``GUESS:B,C`` or an object of the JSON log form."""
    return log.parse_token(item, number) if isinstance(item, str) else log.json_entry(item, number)


def _candidates(log: FeedbackLog, secret: str | None, where: str) -> list[np.ndarray]:
    """The consistent secrets before each entry and after the last; a reply no secret gives,
    or an entry after the win, is named."""
    space = CodeSpace(log.variant)
    if not space.enumerable:
        raise BadTranscript(f"{where}: {log.variant.describe()} has too many codes to review "
                            "(its secrets cannot be listed)")
    variant, codes = log.variant, space.codes
    cands = np.arange(space.size, dtype=np.int64)
    out = [cands]
    won = None
    for number, entry in enumerate(log.entries, 1):
        if won is not None:
            raise BadTranscript(f"{where}: entry {number} ({entry.shown(variant)}) comes after "
                                f"the game was won at entry {won}")
        replies = score_against(variant, np.asarray(entry.guess, dtype=np.uint8), codes[cands])
        cands = cands[replies == variant.response_index(entry.bulls, entry.cows)]
        if cands.size == 0:
            raise BadTranscript(f"{where}: entry {number} ({entry.shown(variant)}): no secret "
                                "gives this reply after the entries before it")
        out.append(cands)
        if entry.bulls == variant.length:
            won = number
    if secret is not None:
        try:
            s = space.index_of(space.parse(secret))
        except CbsolveError as exc:
            raise BadTranscript(f"{where}: secret: {exc}") from None
        if not np.isin(s, cands):
            raise BadTranscript(f"{where}: the replies rule out the record's secret {secret}")
    return out
