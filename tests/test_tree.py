"""Strategy-tree documents (docs/tree-format.md): write/read, structural checks, replay, DOT."""
import copy
import json

import pytest

from cbsolve import Variant
from cbsolve.strategy import evaluate
from cbsolve.certificates.tree import (
    InvalidTree,
    check_tree,
    count_nodes,
    histogram_of,
    read_tree,
    stats_of,
    to_dot,
    write_tree,
)

V = Variant(3, "0123", repeats=True)


@pytest.fixture(scope="module")
def tree():
    return evaluate(V, "minimax").tree


def test_roundtrip(tmp_path, tree):
    path = tmp_path / "t.json"
    write_tree(tree, path)
    back = read_tree(path)
    assert back == tree
    assert check_tree(back) == V
    assert histogram_of(V, back["root"]) == {int(k): v for k, v in tree["stats"]["histogram"].items()}


def test_stats_of():
    assert stats_of({1: 1, 3: 2, 2: 0}) == {"secrets": 3, "worst": 3, "total": 7,
                                            "histogram": {"1": 1, "3": 2}}


def test_replay_rejects_an_unsolved_secret(tree):
    bad = copy.deepcopy(tree)
    node = bad["root"]
    reply = next(iter(node["children"]))
    del node["children"][reply]
    with pytest.raises(InvalidTree, match=f"no child for reply {reply}"):
        histogram_of(V, bad["root"])


def test_replay_rejects_a_bad_guess(tree):
    bad = copy.deepcopy(tree)
    bad["root"]["guess"] = "0129"
    with pytest.raises(InvalidTree, match="0129"):
        histogram_of(V, bad["root"])


@pytest.mark.parametrize("mutate, message", [
    (lambda t: t.update(format="other"), "not a strategy tree"),
    (lambda t: t.update(version=2), "unsupported tree version 2"),
    (lambda t: t.pop("root"), "no \"root\""),
    (lambda t: t["root"].update(children=[1]), "children must be an object"),
    (lambda t: t["variant"].update(length=0), "length 0"),
])
def test_check_tree_rejects(tree, mutate, message):
    bad = copy.deepcopy(tree)
    mutate(bad)
    with pytest.raises(InvalidTree if "length" not in message else Exception, match=message):
        check_tree(bad)


def test_read_tree_errors(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(InvalidTree, match="not valid JSON"):
        read_tree(p)
    with pytest.raises(InvalidTree, match="missing.json': no such file"):
        read_tree(tmp_path / "missing.json")


def test_dot(tree):
    dot = to_dot(tree)
    assert dot.startswith("digraph strategy {") and dot.rstrip().endswith("}")
    assert dot.count("->") == count_nodes(tree["root"]) - 1
    assert f'label="{tree["root"]["guess"]}"' in dot
    cut = to_dot(tree, max_depth=1)
    assert cut.count("->") == len(tree["root"]["children"])


def test_a_gz_name_is_written_gzipped_and_read_back(tmp_path, tree):
    """``--out t.json.gz`` wrote plain JSON under that name, which ``verify`` then refused
    (reading unpacks every ``.gz`` file)."""
    import gzip

    path = tmp_path / "t.json.gz"
    write_tree(tree, path)
    assert json.loads(gzip.decompress(path.read_bytes())) == tree
    assert read_tree(path) == tree


def test_written_file_is_plain_json(tmp_path, tree):
    path = tmp_path / "t.json"
    write_tree(tree, path)
    data = json.loads(path.read_text())
    assert data["format"] == "cbsolve-tree" and data["stats"]["secrets"] == 64
