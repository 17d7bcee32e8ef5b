"""Prefect over the core (this package is the only one that imports Prefect): tasks made from the
stages' declarations, and what a build flow runs.

- :mod:`quicksilver.orchestration.stages`: one thin task per stage of a build
  (``<build>-<stage>``), its Prefect cache keyed by the stage's key and trusted only when the
  core says the stage is done;
- :mod:`quicksilver.orchestration.retries`: which failed runs are run again: infrastructure
  faults only (a sandbox that could not start), as the config's ``retries:`` says; never a
  solution's verdict;
- :mod:`quicksilver.orchestration.chains`: the sharded stages' scheduler (every worker slot busy);
- :mod:`quicksilver.orchestration.build`: a build's flow body, from its list of stages;
- :mod:`quicksilver.orchestration.cli`: a build flow's command line;
- :mod:`quicksilver.orchestration.flows`: the build flows themselves (``quicksilver build``,
  flows/build_*.py and the deployments run them).

Task results are small summaries, never records (records go to files under the build's stages/).
"""

import os

# Set before Prefect configures logging (at its import): importing any module of this package
# imports this first.
# the core logs through `logging`; Prefect forwards these loggers to the run's logs
os.environ.setdefault("PREFECT_LOGGING_EXTRA_LOGGERS", "quicksilver")
# the core's worker threads (the profiler's parallel zygotes) log outside any flow-run context:
# their records go to the console, not to the API, without a UserWarning each
os.environ.setdefault("PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW", "ignore")
# offline machines: the temporary server's telemetry would only log a DNS failure
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
# and the client's notice about it, which Prefect prints on a terminal (the first thing a
# maintainer's `make build-dataset` showed)
os.environ.setdefault("DO_NOT_TRACK", "1")
