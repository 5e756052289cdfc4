"""A strategy tree as one self-contained HTML page a person can walk (``--html FILE``).

Place in the data flow: after a tree is built (``evaluate``, ``optimal``) or read and replayed
(``verify``). The page needs no network and no build step: the tree, the candidates of every
node (listed where there are at most :data:`LIST_LIMIT`) and a few lines of script are inline.
It shows the guess to play, one button per reply the remaining secrets can give, the
candidates left and the path so far; any step of the path jumps back. The path of replies is
the URL fragment (``page.html#0,1/1,2``: the replies to the first and second guesses), so a
position can be bookmarked, shared, or opened by a test in a headless browser.

The numbers on the page come from the scorer here, not from the script: the script only
follows the tree.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

import numpy as np

from ..certificates.certify import position_secrets
from ..game.codes import CodeSpace
from ..errors import CbsolveError
from ..game.scoring import score_against
from ..game.variant import Variant

#: Nodes with at most this many candidates list them on the page.
LIST_LIMIT = 60


def page_tree(variant: Variant, root: dict, start: np.ndarray | None = None) -> dict:
    """The compact tree the page's script walks: g guess, n candidates, w the guess can win,
    s candidates (when few), c {reply: node}; ``start``: the secrets of a tree from a position
    (code indices; default every code)."""
    space = CodeSpace(variant)
    codes = space.codes
    win = variant.win_response

    def build(node: dict, idx: np.ndarray) -> dict:
        guess = node["guess"]
        replies = score_against(variant, space.parse(guess), codes[idx])
        out = {"g": guess, "n": int(idx.size), "w": bool(np.any(replies == win))}
        if idx.size <= LIST_LIMIT:
            out["s"] = space.format_many(codes[idx])
        kids = node.get("children") or {}
        out["c"] = {}
        for r in np.unique(replies):
            if r == win:
                continue
            key = variant.format_response(int(r))
            out["c"][key] = build(kids[key], idx[replies == r])
        return out

    return build(root, np.arange(codes.shape[0]) if start is None else start)


def summary(tree: dict) -> dict:
    """Secrets, worst, total, average and histogram of guesses, read off the page's tree (each
    secret is found where a guess equals it: ``w`` at that depth)."""
    histogram: dict[int, int] = {}

    def walk(node: dict, depth: int) -> None:
        if node["w"]:
            histogram[depth] = histogram.get(depth, 0) + 1
        for child in node["c"].values():
            walk(child, depth + 1)

    walk(tree, 1)
    total = sum(d * k for d, k in histogram.items())
    secrets = sum(histogram.values())
    return {"secrets": secrets, "worst": max(histogram, default=0), "total": total,
            "average": total / secrets if secrets else 0.0,
            "histogram": dict(sorted(histogram.items()))}


def page_title(doc: dict, what: str | None = None) -> str:
    """The game and what the tree is ("optimal (worst), proved", "minimax strategy")."""
    variant = Variant.from_dict(doc["variant"])
    if what is None:
        if doc.get("objective"):
            what = f"optimal ({doc['objective']})" + (", proved" if doc.get("proved") else "")
        elif str(doc.get("strategy", "")).startswith("read from"):
            what = f"tree {doc['strategy']}"
        else:
            what = f"{doc.get('strategy') or 'a'} strategy"
    return f"{variant.describe()} \N{EM DASH} {what}"


def _summary_html(s: dict) -> str:
    hist = ", ".join(f"{d}: {k}" for d, k in s["histogram"].items())
    return (f'<p id="summary">{s["secrets"]} secrets; worst case {s["worst"]} guesses; '
            f'average {s["average"]:.4f} (total {s["total"]}); histogram '
            f'<span class="code">{{{html.escape(hist)}}}</span></p>')


def render(doc: dict, title: str | None = None, source: str | None = None) -> str:
    """The page of ``doc``: headed by its game and ``title`` (what the tree is; default from
    the document's objective or strategy); ``source`` (a file name) is shown beneath."""
    variant = Variant.from_dict(doc["variant"])
    tree = page_tree(variant, doc["root"], position_secrets(doc, variant))
    data = {"tree": tree, "win": variant.format_response(variant.win_response),
            "variant": variant.describe(), "strategy": doc.get("strategy", "")}
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    heading = page_title(doc, title)
    return (_TEMPLATE.replace("@TITLE@", html.escape(heading))
            .replace("@SOURCE@", "" if source is None else
                     f'<p class="muted" id="source">from {html.escape(source)}</p>')
            .replace("@SUMMARY@", _summary_html(summary(tree)))
            .replace("@DATA@", payload))


def write_html(doc: dict, path, title: str | None = None, source: str | None = None) -> None:
    try:
        Path(path).write_text(render(doc, title, source), encoding="utf-8")
    except OSError as exc:
        raise CbsolveError(f"cannot write --html file {str(path)!r}: {exc.strerror or exc}") from None


_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 46em; margin: 2em auto; padding: 0 1em; color: #222; }
code, .code { font-family: ui-monospace, monospace; }
#guess { font-size: 2.4em; letter-spacing: .12em; margin: .2em 0; }
button { font: inherit; font-family: ui-monospace, monospace; margin: .15em; padding: .3em .7em;
         cursor: pointer; }
#path li a { text-decoration: none; }
.muted { color: #666; }
#candidates { word-spacing: .4em; }
button .count { color: #555; font-size: .8em; margin-left: .4em; }
#mark { font-size: .95em; }
#mark.secret { color: #17612a; }
#mark.not-secret { color: #666; }
</style></head>
<body>
<h1>@TITLE@</h1>
@SOURCE@
@SUMMARY@
<ol id="path"></ol>
<div id="state">
  <p id="status"></p>
  <div id="guess" class="code"></div>
  <p id="mark"></p>
  <p id="left"></p>
  <div id="replies"></div>
  <p id="candidates" class="code"></p>
</div>
<p><a href="#" id="restart">start again</a></p>
<script id="tree-data" type="application/json">@DATA@</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("tree-data").textContent);
const $ = (id) => document.getElementById(id);
function replies() {
  const h = decodeURIComponent(location.hash.replace(/^#/, ""));
  return h ? h.split("/") : [];
}
function go(path) { location.hash = path.join("/"); }
function text(el, s) { el.textContent = s; }
function render() {
  const path = replies();
  let node = DATA.tree, steps = [], solved = false, bad = null;
  for (let i = 0; i < path.length; i++) {
    const r = path[i];
    if (r === DATA.win && node.w && i === path.length - 1) { steps.push([node.g, r]); solved = true; break; }
    if (!(r in node.c)) { bad = r; break; }
    steps.push([node.g, r]);
    node = node.c[r];
  }
  const ol = $("path"); ol.innerHTML = "";
  steps.forEach(([g, r], i) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "#" + path.slice(0, i).join("/");
    a.title = "back to this guess";
    a.innerHTML = "<code></code> &rarr; <code></code>";
    a.children[0].textContent = g; a.children[1].textContent = r;
    li.appendChild(a); ol.appendChild(li);
  });
  const buttons = $("replies"); buttons.innerHTML = "";
  document.body.dataset.guesses = steps.length + (solved ? 0 : 1);
  if (bad !== null) {
    text($("status"), "No remaining secret gives the reply " + bad + " here: check the replies.");
    document.body.dataset.state = "impossible";
    text($("guess"), ""); text($("left"), ""); text($("candidates"), ""); text($("mark"), "");
    return;
  }
  if (solved) {
    text($("status"), "Solved in " + steps.length + " guess" + (steps.length > 1 ? "es" : "") + ".");
    text($("guess"), node.g); text($("left"), ""); text($("candidates"), ""); text($("mark"), "");
    document.body.dataset.state = "solved";
    return;
  }
  const n = node.n;
  document.body.dataset.state = "play";
  text($("status"), "Guess " + (steps.length + 1) + ": play");
  text($("guess"), node.g);
  text($("mark"), node.w ? "\u2713 can be the secret" : "cannot be the secret (it only splits them)");
  $("mark").className = node.w ? "secret" : "not-secret";
  text($("left"), n === 1 ? "1 candidate left: this is the secret." : n + " candidates left.");
  text($("candidates"), node.s ? node.s.join(" ") : "");
  const keys = Object.keys(node.c);
  if (node.w) keys.push(DATA.win);
  keys.forEach((r) => {
    const b = document.createElement("button");
    const size = r === DATA.win ? 1 : node.c[r].n;
    b.textContent = r === DATA.win ? r + " (solved)" : r;
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = size === 1 ? "1 secret" : size + " secrets";
    b.appendChild(count);
    b.dataset.reply = r;
    b.dataset.count = size;
    b.title = "reply " + r + ": " + count.textContent + " left";
    b.onclick = () => go(path.slice(0, steps.length).concat([r]));
    buttons.appendChild(b);
  });
}
window.addEventListener("hashchange", render);
render();
</script>
</body></html>
"""
