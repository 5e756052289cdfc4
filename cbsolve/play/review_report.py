"""How ``cbsolve review`` shows its grades: text for a person, and a self-contained HTML page
with a plot of regret by turn (``--html FILE``; matplotlib draws it, inlined as a PNG)."""
from __future__ import annotations

import base64
import html
import io

from ..errors import CbsolveError
from .game_review import OBJECTIVES


def _figure(value: float | None, bounds: list, digits: int) -> str:
    if value is not None:
        return f"{value:.{digits}f}"
    low, high = bounds
    return f"[{low:.{digits}f}, {'?' if high is None else f'{high:.{digits}f}'}]"


def text(doc: dict) -> str:
    """The review as lines: one block a game (a line a move), then the summary."""
    lines = []
    for game in doc["games"]:
        head = (f"line {game['line']}: {game['turns']} guesses, "
                f"{'solved' if game['solved'] else 'not solved'}")
        if game["turns_over_optimum"] is not None:
            head += f" ({game['turns_over_optimum']:+d} against the optimal worst case)"
        lines.append(head)
        lines.append("   #  guess  reply   before  after  cand  regret worst  regret expected")
        for m in game["moves"]:
            flag = "yes" if m["candidate"] else "no"
            w = _figure(m["regret"]["worst"], m["regret_bounds"]["worst"], 0)
            e = _figure(m["regret"]["expected"], m["regret_bounds"]["expected"], 3)
            lines.append(f"  {m['move']:2d}  {m['guess']:<5}  {m['reply']:<6} {m['candidates_before']:7d}"
                         f" {m['candidates_after']:6d}  {flag:<4}  {w:>12}  {e:>15}")
        total_w = _figure(game["regret"]["worst"], game["regret_bounds"]["worst"], 0)
        total_e = _figure(game["regret"]["expected"], game["regret_bounds"]["expected"], 3)
        mistake = game["first_mistake"]
        lines.append(f"  regret: worst {total_w}, expected {total_e}; first mistake: "
                     f"{'none proved' if mistake is None else f'move {mistake}'}"
                     f"{'' if game['complete'] else ' (review cut short)'}")
    for problem in doc.get("bad", []):
        lines.append(f"skipped: {problem}")
    s = doc["summary"]
    share = "-" if s["exact_share"] is None else f"{100 * s['exact_share']:.0f} %"
    lines.append(f"{s['games']} games, {s['moves']} moves ({share} exact), solved "
                 f"{s['solved']}, mean {_num(s['mean_turns'], 2)} guesses; mean regret per game: "
                 f"worst {_num(s['mean_regret_worst_per_game'], 2)}, expected "
                 f"{_num(s['mean_regret_expected_per_game'], 3)} (over the games reviewed exactly); "
                 f"{s['seconds']:.2f} s")
    if not s["complete"]:
        lines.append(f"stopped ({s['stopped']}): games or moves after it were not reviewed")
    return "\n".join(lines)


def _num(value, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def plot_png(doc: dict) -> bytes:
    """Regret by turn: each exact move a dot, the mean per turn a line, one panel an objective."""
    from ..extras import require

    matplotlib = require("matplotlib", "review's HTML plot")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    for ax, objective in zip(axes, OBJECTIVES, strict=True):
        points = [(m["move"], m["regret"][objective]) for g in doc["games"] for m in g["moves"]
                  if m["regret"][objective] is not None]
        if points:
            xs, ys = zip(*points, strict=True)
            ax.scatter(xs, ys, s=8, alpha=0.35)
            turns = sorted(set(xs))
            means = [sum(y for x, y in points if x == t) / xs.count(t) for t in turns]
            ax.plot(turns, means, marker="o", color="black", label="mean")
            ax.legend()
        ax.set_title(f"{objective} regret by turn (exact moves)")
        ax.set_xlabel("turn")
        ax.set_ylabel("extra guesses" + (" per secret" if objective == "expected" else ""))
        ax.grid(alpha=0.3)
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=90)
    plt.close(fig)
    return out.getvalue()


def page(doc: dict) -> str:
    """One HTML page: the summary, the plot, one table a game."""
    s = doc["summary"]
    png = base64.b64encode(plot_png(doc)).decode("ascii")
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
                   for k, v in s.items())
    games = []
    for game in doc["games"]:
        cells = "".join(
            f"<tr><td>{m['move']}</td><td class=code>{html.escape(m['guess'])}</td>"
            f"<td>{html.escape(m['reply'])}</td><td>{m['candidates_before']}</td>"
            f"<td>{m['candidates_after']}</td><td>{'yes' if m['candidate'] else 'no'}</td>"
            f"<td>{_figure(m['regret']['worst'], m['regret_bounds']['worst'], 0)}</td>"
            f"<td>{_figure(m['regret']['expected'], m['regret_bounds']['expected'], 3)}</td></tr>"
            for m in game["moves"])
        games.append(
            f"<h2>Line {game['line']}: {game['turns']} guesses, "
            f"{'solved' if game['solved'] else 'not solved'}</h2><table><tr><th>#</th>"
            "<th>guess</th><th>reply</th><th>before</th><th>after</th><th>candidate</th>"
            f"<th>regret worst</th><th>regret expected</th></tr>{cells}</table>")
    return (f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>cbsolve review"
            f"</title><style>{_STYLE}</style></head><body><h1>cbsolve review</h1>"
            f"<table>{rows}</table><p><img alt='regret by turn' src='data:image/png;base64,"
            f"{png}'></p>{''.join(games)}<p class=muted>Regret: extra guesses against the best "
            "guess at the position (worst: in the worst case; expected: per secret), the final "
            "guess counted; [a, b] are proved bounds where the review was not exact.</p>"
            "</body></html>")


def write_page(doc: dict, path: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(page(doc))
    except OSError as exc:
        raise CbsolveError(f"cannot write --html file {path!r}: {exc.strerror or exc}") from None


_STYLE = ("body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
          "table{border-collapse:collapse;margin:.5em 0}td,th{padding:.15em .6em;"
          "border-bottom:1px solid #ddd;text-align:right}.code{font-family:ui-monospace,"
          "monospace}.muted{color:#666}")
