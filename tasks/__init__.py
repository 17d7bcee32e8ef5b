"""Thin Prefect tasks over the core stages (quicksilver/stages/): caching, retries, logging.

Each module wraps one stage. A task receives the validated build configuration (as plain data),
the stage's cache key (computed by the flow from the stage's logic version, its config sections
and its input files: see quicksilver.stages.mercury) and, for the sharded stages, the shard. The
key is the Prefect cache key; task results are small summaries, never records (records go to
files under data/build/<name>/stages/).
"""
