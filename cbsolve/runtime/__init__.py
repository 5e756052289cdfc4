"""Time and the machine: one Deadline made at a command's edge and passed down, how a budget is
shared, how many workers run, which instruction set the kernels use, and the status words every
search reports.

- :mod:`.deadline`: ``Deadline`` and the ``Expired`` family of stops.
- :mod:`.time_policy`: every share of a time budget, in one place.
- :mod:`.workers`: the ``workers`` policy.
- :mod:`.isa` and :mod:`.machine`: the kernels' instruction-set path; the machine a figure ran on.
- :mod:`.status`: one status vocabulary for every backend and search.
"""
