"""cbsolve as the oracle inside LLM and RL environment frameworks.

- :mod:`.game`: one game session, shared by every adapter: it reads a model's reply, scores
  the guess with cbsolve's rule and computes the rewards and metrics from exact quantities;
- :mod:`.oracle`: those quantities (the certified turn limit, the candidates left, a move's
  regret), each under the turn's :class:`~cbsolve.runtime.deadline.Deadline` and labelled exact or not;
- :mod:`.replies`: how a reply is read (the last square-bracketed token) and what the host says;
- :mod:`.verifiers`: a ``verifiers`` 0.4 (``verifiers.v1``) taskset and environment (the
  ``verifiers`` extra; its id is ``cbsolve-codebreaker``);
- :mod:`.textarena`: a ``textarena.Env`` registered as ``cbsolve/...-v0`` (the ``textarena``
  extra).

The framework modules import their framework; this package and the shared modules do not.
"""
