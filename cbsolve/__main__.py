"""``python -m cbsolve``."""
from .cli import run

run()
