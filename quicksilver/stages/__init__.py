"""The stages, one file each, named as in the builds (quicksilver/builds.py lists them in order).

Each file holds a stage's logic and its declaration (an upper-case
:class:`~quicksilver.pipeline.stage.Stage`, e.g. ``FILTERS`` in ``filters.py``): records in,
records out, every drop with its reason. Shared by both builds: load, dedup, filters, generators,
testcases, uniqueness. Mercury's: profile, splits, publish. DPE's: candidates, sas, sampling,
pe_profile, select, publish_dpe. ``example.py`` is a made-up task as the publish stages read it.
"""
