"""Bulk synthesis (``onestep batch``): a table of texts in, audio files and a manifest out.

- :mod:`onestep.batch.rows`: reading txt / JSONL / CSV / Parquet into :class:`~onestep.batch.rows.BatchRow`.
- :mod:`onestep.batch.synth`: rows -> audio files + manifest entries, on one engine (any worker), through
  the product's path: :meth:`onestep.TTS.prepare` / :meth:`~onestep.TTS.render` (the one SSML parser, the
  one voice resolver, the engine registry, the output stage and encoders of every interface).
- :mod:`onestep.batch.manifest`: the append-only manifest that makes a job resumable.
- :mod:`onestep.batch.job`: the job settings and its two runners: a local process pool, or a Ray Data
  pipeline (:mod:`onestep.batch.ray_job`, needs the ``ray`` extra).
"""
