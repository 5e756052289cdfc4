"""Checkpoint and resume of the exact searches (``cbsolve optimal --checkpoint DIR``,
``--resume DIR``): the file and its checks (:mod:`.store`), what each objective records
(:mod:`.worst`, :mod:`.expected`)."""
from .store import (
    DEFAULT_EVERY,
    FILE_NAME,
    NOT_CHECKPOINTED,
    Checkpoint,
    CheckpointError,
    identity,
    read,
    refuse,
    search_identity,
    started,
)

__all__ = ["DEFAULT_EVERY", "FILE_NAME", "NOT_CHECKPOINTED", "Checkpoint", "CheckpointError",
           "identity", "read", "refuse", "search_identity", "started"]
