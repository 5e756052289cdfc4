"""--html: a self-contained page to walk a tree; checked as data, then in a real browser."""
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cbsolve.cli import main
from cbsolve.formats.html import LIST_LIMIT, page_tree, render, summary
from cbsolve.strategy import evaluate
from cbsolve.certificates.tree import make_tree
from cbsolve.game.variant import Variant

VARIANT = Variant(3, "0123", repeats=False)      # 24 secrets: small enough to list at the root


@pytest.fixture(scope="module")
def doc():
    ev = evaluate(VARIANT, "minimax")
    return make_tree(VARIANT, "minimax", "all", ev.tree["root"], ev.histogram)


def embedded(page: str) -> dict:
    m = re.search(r'<script id="tree-data" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))


def test_page_is_self_contained(doc):
    page = render(doc, "t")
    assert not re.search(r"(src|href)=\"(https?:)?//", page)   # no network
    assert "<link" not in page and "import " not in page


def test_page_tree_counts_every_secret(doc):
    tree = embedded(render(doc, "t"))["tree"]
    assert tree["n"] == 24 and len(tree["s"]) == 24

    def solved(node):   # every secret ends at exactly one node whose guess it is
        return int(node["w"]) + sum(solved(c) for c in node["c"].values())

    assert solved(tree) == 24
    for child in tree["c"].values():
        assert child["n"] == len(child["s"]) <= LIST_LIMIT


def test_page_is_titled_by_game_and_objective_with_a_summary(doc):
    page = render(doc, None, source="/some/where/tree.json (cbsolve)")
    heading = page.split("<h1>")[1].split("</h1>")[0]
    assert heading == "3 of 4 symbols &#x27;0123&#x27;, distinct \u2014 minimax strategy"
    assert "/some/where" not in page.split("<h1>")[0]         # the file is no title
    assert 'id="source">from /some/where/tree.json (cbsolve)' in page
    tree = embedded(page)["tree"]
    s = summary(tree)
    stats = doc["stats"]      # what evaluate measured, replayed independently by the page
    assert (s["secrets"], s["worst"], s["total"]) == (stats["secrets"], stats["worst"],
                                                      stats["total"])
    assert {str(k): v for k, v in s["histogram"].items()} == {str(k): v for k, v in
                                                              stats["histogram"].items()}
    assert (f'<p id="summary">24 secrets; worst case {s["worst"]} guesses; average '
            f'{s["average"]:.4f} (total {s["total"]})') in page


def test_an_optimal_tree_is_titled_by_its_objective(tmp_path):
    page = tmp_path / "mm.html"
    model = Path(__file__).resolve().parents[1] / "models" / "mastermind-worst.json"
    assert main(["verify", str(model), "--html", str(page)]) == 0
    text = page.read_text()
    heading = text.split("<h1>")[1].split("</h1>")[0]
    assert heading.startswith("mastermind: 4 of 6") and heading.endswith("optimal (worst), proved")
    # the file's stats as `verify` replays them: worst 5 (Knuth 1977), total 5627
    assert "1296 secrets; worst case 5 guesses; average 4.3418 (total 5627)" in text


def test_cli_evaluate_and_verify_write_pages(tmp_path, capsys):
    page = tmp_path / "mm.html"
    assert main(["evaluate", "--variant", "mastermind", "--html", str(page), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["html"] == str(page)
    assert embedded(page.read_text())["tree"]["g"] == "1122"     # Knuth's opening
    out = tmp_path / "t.json"
    assert main(["evaluate", "--variant", "mastermind", "--out", str(out)]) == 0
    assert main(["verify", str(out), "--html", str(tmp_path / "v.html")]) == 0
    assert (tmp_path / "v.html").exists()


BROWSER = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)),
               None)


def dump_dom(path, fragment: str) -> str:
    out = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                          f"file://{path}#{fragment}"], capture_output=True, text=True,
                         timeout=120, check=True)
    return out.stdout


@pytest.mark.skipif(BROWSER is None, reason="no headless browser installed (Debian: apt-get "
                                            "install chromium; .ci/run installs it when it can)")
def test_walk_the_tree_in_a_browser(doc, tmp_path):
    path = tmp_path / "tree.html"
    path.write_text(render(doc, "walk"))
    tree = page_tree(VARIANT, doc["root"])
    reply, child = next(iter(tree["c"].items()))
    dom = dump_dom(path, reply)      # the page after the first reply
    assert 'data-state="play"' in dom
    assert f'<div id="guess" class="code">{child["g"]}</div>' in dom
    assert f"{child['n']} candidate" in dom and " ".join(child["s"]) in dom
    assert f"<code>{tree['g']}</code>" in dom                   # the path so far
    # each reply button says how many secrets it leaves; the guess says if it can be the secret
    for r, grandchild in child["c"].items():
        size = grandchild["n"]
        assert (f'data-reply="{r}" data-count="{size}"' in dom
                and f'{r}<span class="count">{size} secret{"s" if size > 1 else ""}</span>' in dom)
    mark = "\u2713 can be the secret" if child["w"] else "cannot be the secret"
    assert mark in dom
    # the winning reply to a guess that can be the secret ends the game
    node, path_ = tree, []
    while not node["w"]:
        r, node = next(iter(node["c"].items()))
        path_.append(r)
    dom = dump_dom(path, "/".join(path_ + ["3,0"]))
    assert 'data-state="solved"' in dom and f"Solved in {len(path_) + 1} guess" in dom
    dom = dump_dom(path, "9,9")
    assert 'data-state="impossible"' in dom


def test_cli_optimal_writes_a_page(tmp_path):
    page = tmp_path / "opt.html"
    assert main(["optimal", "--variant", "mastermind", "--length", "3", "--digits", "4",
                 "--html", str(page)]) == 0
    assert embedded(page.read_text())["tree"]["n"] == 64
