"""A puzzle stream as a dataset: ``DIR/train.jsonl``, ``DIR/test.jsonl`` and a dataset card
``DIR/README.md`` (``puzzle --count K --export DIR``), loaded by the Hugging Face ``datasets``
library as ``load_dataset("json", data_files={"train": ..., "test": ...})`` or, through the
card's ``configs``, ``load_dataset(DIR)``.

The splits share no puzzle up to symmetry. Renaming the symbols or permuting the positions
(the same way in every code) changes no score, so such a copy of a puzzle is the same puzzle
for a solver. Each puzzle goes to the split its *orbit key* picks: a hash of an invariant of
those renamings (the variant; per entry its reply, the pattern of its symbols' multiplicities,
and the multiset of (score against each other entry's guess, that entry's reply)). Copies have
equal keys, so they land in one split; the key may also join puzzles that are not copies,
which only coarsens the split.
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from ..game.codes import CodeSpace

CARD = """---
configs:
- config_name: default
  data_files:
  - split: train
    path: train.jsonl
  - split: test
    path: test.jsonl
---

# cbsolve puzzles

Unique-secret puzzles of {variant}, made by `cbsolve puzzle --count {count} --seed {seed}
--difficulty {difficulty} --kind {kind} --export DIR` (cbsolve {version}). One JSON document
a line, the document `cbsolve puzzle --seed S --json` prints (docs/contract.md, `puzzle`):
`entries` (guess, bulls, cows), `secret`, `difficulty` and the measured `difficulty_measure`,
`kind` and, for kinds other than `find`, `answer`.

- train: {train} puzzles; test: {test} puzzles ({fraction:g} of the orbit keys).
- The splits share no puzzle up to renaming the symbols and permuting the positions (the
  orbit key, `cbsolve/puzzles/export.py`).
- Every puzzle is verified: the native filter lists exactly its secret.

```python
from datasets import load_dataset
ds = load_dataset("json", data_files={{"train": "train.jsonl", "test": "test.jsonl"}})
```
"""


def orbit_key(variant, entries: list[dict]) -> str:
    """A hash equal for any two puzzles that are copies of each other under renaming the
    symbols and permuting the positions (see the module docstring)."""
    from ..game.rule import score

    space = CodeSpace(variant)
    codes = [space.parse(e["guess"]) for e in entries]
    replies = [(e["bulls"], e.get("cows", 0)) for e in entries]
    rows = []
    for i, g in enumerate(codes):
        pattern = tuple(sorted(Counter(g).values()))
        links = sorted((score(variant, g, h), replies[j])
                       for j, h in enumerate(codes) if j != i)
        rows.append((replies[i], pattern, links))
    text = json.dumps([variant.to_dict(), sorted(rows)])
    return hashlib.sha256(text.encode()).hexdigest()


def in_test(key: str, fraction: float) -> bool:
    return int(key[:15], 16) / 16 ** 15 < fraction


def export(puzzles, folder: str | Path, fraction: float, card: dict) -> dict:
    """Write the splits and the card; returns the counts."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    counts = {"train": 0, "test": 0}
    with open(folder / "train.jsonl", "w", encoding="utf-8") as train, \
            open(folder / "test.jsonl", "w", encoding="utf-8") as test:
        for p in puzzles:
            split = "test" if in_test(orbit_key(p.variant, p.entries), fraction) else "train"
            (test if split == "test" else train).write(json.dumps(p.to_json()) + "\n")
            counts[split] += 1
    (folder / "README.md").write_text(CARD.format(**card, **counts, fraction=fraction),
                                      encoding="utf-8")
    return counts
