"""Differential Performance Evaluation (DPE / EvalPerf): the pieces of the second benchmark.

- :mod:`quicksilver.dpe.sas`: Synthesizing a Synthesizer, ``perf_input_gen(scale)`` generators
  from an LLM (quicksilver/prompts/sas.j2) or from the offline constraint-driven synthesizer;
- :mod:`quicksilver.dpe.llm_solutions`: extra candidate solutions sampled from an LLM;
- :mod:`quicksilver.dpe.sampling`: exponential input sampling in the sandbox and the choice of
  the performance-exercising input;
- :mod:`quicksilver.dpe.select`: profiling figures, task selection and adaptive clustering.

The build flow that composes them is ``flows/build_dpe.py`` (docs/dpe-build.md).
"""
