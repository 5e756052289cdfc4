"""MkDocs hooks (mkdocs.yml, ``hooks:``): the CLI reference generated from the click commands,
and the docstrings' cross-reference roles shown as plain names.

The page ``docs/cli.md`` holds the marker ``<!-- cli-reference -->``, replaced at build time by
every command's ``--help``, so the reference cannot drift from the options.
``python scripts/docs/docs_hooks.py`` prints it. The docstrings cite code Sphinx-style
(``:class:`~cbsolve.search.SearchResult```), which mkdocstrings leaves as text: the rendered
page keeps the name (the last part when it starts with ``~``) and drops the role.
"""
from __future__ import annotations

import re

MARKER = "<!-- cli-reference -->"
_ROLE = re.compile(r":(?:class|func|mod|meth|data|attr|exc|obj):<code>(~?)([\w.]+)</code>")


def reference() -> str:
    """Markdown: one section per command, its help text as ``cbsolve COMMAND --help`` prints it."""
    import importlib

    import click

    from cbsolve import cli

    for name in getattr(cli, "COMMAND_MODULES", ()):     # commands register when imported
        importlib.import_module(f"cbsolve.cli.{name}")
    parts = []
    root = click.Context(cli.app, info_name="cbsolve", max_content_width=100)
    for name in sorted(cli.app.list_commands(root)):
        command = cli.app.get_command(root, name)
        if command is None:
            continue
        with click.Context(command, info_name=name, parent=root,
                           max_content_width=100) as ctx:
            text = command.get_help(ctx)
        parts.append(f"## `cbsolve {name}`\n\n```text\n{text}\n```\n")
    return "\n".join(parts)


def on_page_markdown(markdown: str, page, config, files) -> str:   # MkDocs hook
    if MARKER in markdown:
        return markdown.replace(MARKER, reference())
    return markdown


def _plain(m: re.Match) -> str:
    name = m.group(2).rsplit(".", 1)[-1] if m.group(1) else m.group(2)
    return f"<code>{name}</code>"


def on_page_content(html: str, page, config, files) -> str:   # MkDocs hook
    return _ROLE.sub(_plain, html)


def main() -> None:
    print(reference())


if __name__ == "__main__":
    main()
