"""The ``verifiers`` taskset id ``cbsolve-codebreaker``: verifiers finds a taskset by importing the
package named after its id, so this package re-exports :mod:`cbsolve.integrations.verifiers`
(the ``verifiers`` extra)."""
from cbsolve.integrations.verifiers import *  # noqa: F403
from cbsolve.integrations.verifiers import __all__  # noqa: F401
