"""``python -m cbsolve`` and the ``cbsolve`` command.

Importing the CLI and the libraries a command needs takes a few tenths of a second (more on a
loaded machine); a Ctrl-C then lands in an import, before the CLI's own handler is installed,
and would print a traceback. Here it ends as any other interrupt: one line, exit 130.
"""
import json
import sys


def main() -> None:
    try:
        from .cli import run
    except KeyboardInterrupt:
        if "--json" in sys.argv:      # the stub of cli/_interrupt.py, which is not imported yet
            words = [a for a in sys.argv[1:] if not a.startswith("-")]
            print(json.dumps({"command": words[0] if words else None, "interrupted": True,
                              "complete": False}))
        sys.stderr.write("cbsolve: interrupted\n")
        sys.exit(130)
    run()


if __name__ == "__main__":
    main()
