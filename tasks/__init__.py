"""Prefect over the core: tasks made from the stages' declarations, and what a build flow runs.

- :mod:`tasks.stages`: one thin task per stage of a build (``<build>-<stage>``), its Prefect cache
  keyed by the stage's key and trusted only when the core says the stage is done;
- :mod:`tasks.retries`: which failed runs are run again: infrastructure faults only (a sandbox
  that could not start), as the config's ``retries:`` says; never a solution's verdict;
- :mod:`tasks.chains`: the sharded stages' scheduler (every worker slot busy);
- :mod:`tasks.build`: a build's flow body, from its list of stages;
- :mod:`tasks.cli`: a build flow's command line.

Task results are small summaries, never records (records go to files under the build's stages/).
"""
