"""Lines of every C++ function in cbsolve/_native/ (each under ``LIMIT`` lines: one screen to read).

    python scripts/build/native_function_lengths.py            # the functions at or over the limit
    python scripts/build/native_function_lengths.py --all      # every function, longest first

A function is a brace block opened right after a closing parenthesis (optionally followed by
qualifiers or a constructor's initialiser list) that is not itself inside a function; a lambda
or a loop inside a function counts as part of it. Its length runs from the first line of its
declaration to its closing brace. Comments and literals are blanked first, so braces in them do
not count. ``tests/native/test_native_function_length.py`` runs ``long_functions`` over the sources.
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import NamedTuple

NATIVE = Path(__file__).resolve().parents[2] / "cbsolve" / "_native"
LIMIT = 120
CONTROL = {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype"}
# what may stand between a function's ")" and its "{": qualifiers, a trailing return type, a
# constructor's initialiser list
_TAIL = re.compile(r"\)\s*(?:const|noexcept|override|final|mutable|->[^{;]*|\s)*"
                   r"(?::\s*[\w:<>,\s]+\s*[({][^;]*?)?\s*$", re.S)


class Function(NamedTuple):  # a NamedTuple: the tests load this script without registering it
    path: str
    name: str
    first: int  # 1-based line of the declaration's start
    last: int   # 1-based line of the closing brace

    @property
    def lines(self) -> int:
        return self.last - self.first + 1


def blank_comments(text: str) -> str:
    """``text`` with comments, string and character literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(text)
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    for m in pattern.finditer(text):
        out.append(text[i:m.start()])
        out.append(re.sub(r"[^\n]", " ", m.group()))
        i = m.end()
    out.append(text[i:n])
    return "".join(out)


def _signature_name(head: str) -> str | None:
    """The function's name when ``head`` (text since the previous statement) declares one: the
    word before the first parenthesised group at the top level (attributes skipped)."""
    if not _TAIL.search(head):
        return None
    depth = 0
    for k, c in enumerate(head):
        if c == "(":
            if depth == 0:
                word = re.search(r"([~\w:]+|\])\s*$", head[:k])
                name = word.group(1) if word else None
                if name not in ("__attribute__", "alignas", "__declspec"):
                    return None if name is None or name in CONTROL or name == "]" else name
            depth += 1
        elif c == ")":
            depth -= 1
    return None


def functions(path: Path) -> list[Function]:
    """The outermost function bodies of one source file."""
    text = blank_comments(path.read_text())
    found: list[Function] = []
    stack: list[bool] = []  # per open brace: is it (inside) a function body
    head_start = 0
    open_at: int | None = None
    name = ""
    parens = 0  # open parentheses outside function bodies (a default argument may hold "{}")
    for pos, c in enumerate(text):
        outside = not (stack and stack[-1])
        if outside and c in "()":
            parens += 1 if c == "(" else -1
        if parens > 0:
            continue
        if c == "{":
            inside = bool(stack and stack[-1])
            if inside:
                stack.append(True)
            else:
                head = text[head_start:pos]
                fname = _signature_name(head.rstrip())
                stack.append(fname is not None)
                if fname is not None:
                    skip = len(head) - len(head.lstrip())
                    open_at, name = head_start + skip, fname
            if not inside:
                head_start = pos + 1
        elif c == "}":
            was_function = stack.pop() if stack else False
            if was_function and not (stack and stack[-1]) and open_at is not None:
                found.append(Function(path.name, name, text.count("\n", 0, open_at) + 1,
                                      text.count("\n", 0, pos) + 1))
                open_at = None
            if not (stack and stack[-1]):
                head_start = pos + 1
        elif c == ";" and not (stack and stack[-1]):
            head_start = pos + 1
        elif c == "#" and not (stack and stack[-1]) and (pos == 0 or text[pos - 1] == "\n"):
            head_start = text.find("\n", pos) + 1 or len(text)  # a preprocessor line
    return found


def all_functions(root: Path = NATIVE) -> list[Function]:
    out: list[Function] = []
    for path in sorted([*root.glob("*.cpp"), *root.glob("*.hpp")]):
        out.extend(functions(path))
    return out


def long_functions(root: Path = NATIVE, limit: int = LIMIT) -> list[Function]:
    """The functions of ``limit`` lines or more, longest first."""
    return sorted((f for f in all_functions(root) if f.lines >= limit), key=lambda f: -f.lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="list every function, longest first")
    ap.add_argument("--limit", type=int, default=LIMIT)
    args = ap.parse_args(argv)
    rows = (sorted(all_functions(), key=lambda f: -f.lines) if args.all
            else long_functions(limit=args.limit))
    for f in rows:
        print(f"{f.lines:5d}  {f.path}:{f.first}  {f.name}")
    return 1 if not args.all and rows else 0


if __name__ == "__main__":
    raise SystemExit(main())
