"""Publishing a built dataset, in four parts:

- :mod:`~quicksilver.publishing.schema`: what a row must be (shared checks, the Mercury format),
  and :mod:`~quicksilver.publishing.dpe_schema` for the DPE / EvalPerf format;
- :mod:`~quicksilver.publishing.card`: the dataset card (README.md);
- :mod:`~quicksilver.publishing.writer`: Parquet, ``save_to_disk`` and the card, written only when
  valid, and a build's publish that keeps what is valid;
- :mod:`~quicksilver.publishing.hub`: the release of a written folder to the Hugging Face Hub
  (``quicksilver publish``).

Nothing here knows about stages: the publish stages (quicksilver/stages/publish*.py) make the rows
from their records and call the writer; the command line calls the Hub release.
"""
