"""The CLI reference page, generated from the click commands themselves.

A MkDocs hook (mkdocs.yml, ``hooks:``): the page ``docs/cli.md`` holds the marker
``<!-- cli-reference -->``, replaced at build time by every command's ``--help``, so the
reference cannot drift from the options. ``python scripts/docs_cli_reference.py`` prints it.
"""
from __future__ import annotations

MARKER = "<!-- cli-reference -->"


def reference() -> str:
    """Markdown: one section per command, its help text as ``cbsolve COMMAND --help`` prints it."""
    import importlib

    import click

    from cbsolve import cli

    for name in cli.COMMAND_MODULES:
        importlib.import_module(f"cbsolve.cli.{name}")
    parts = []
    root = click.Context(cli.app, info_name="cbsolve")
    for name in sorted(cli.app.commands):
        command = cli.app.commands[name]
        with click.Context(command, info_name=name, parent=root) as ctx:
            text = command.get_help(ctx)
        parts.append(f"## `cbsolve {name}`\n\n```text\n{text}\n```\n")
    return "\n".join(parts)


def on_page_markdown(markdown: str, page, config, files) -> str:   # MkDocs hook
    if MARKER in markdown:
        return markdown.replace(MARKER, reference())
    return markdown


def main() -> None:
    print(reference())


if __name__ == "__main__":
    main()
