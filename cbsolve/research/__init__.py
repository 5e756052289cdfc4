"""Research drivers: analyses the scripts run on the exact searches, reached by no command.

A capped witness search (:mod:`.witness`), the expected-case tree polisher (:mod:`.polish`),
one first guess solved class by class (:mod:`.first_guess_value`) and the first-guess lower
bound (:mod:`.first_guess_bound`). They use the search wing (``cbsolve.search``) from below;
nothing in the package imports them (``scripts/research/`` does).
"""
