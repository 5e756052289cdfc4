"""Option help shared by several commands, in one module of its own so that a command that
shares a text imports the text, not the other command (and that command's engine)."""
from __future__ import annotations

from ..runtime import time_policy

#: The heuristics a strategy option names (evaluate, next).
STRATEGY_HELP = "minimax | expected | entropy | parts | first | random"
#: Options shared by the faces that advise (next, assist, play, bot).
OBJECTIVE_HELP = ("What 'optimal' minimises, through the whole game: worst (the most guesses "
                  "any secret needs) or expected (the average). A certified tree for it is "
                  "followed while the game is on it, then the exact search from the position "
                  "for the same objective; where neither fits in time, a heuristic aiming at "
                  "it, labelled. Default worst.")
TIME_HELP = (f"Time for each answer (default {time_policy.ASSIST_SECONDS:g}; 0: no limit); at "
             "the limit the best found so far, labelled.")
