"""What each column of a published Mercury row means: the dataset card's field table
(:mod:`quicksilver.publishing.card`) reads it, and a test checks it names every column of
:data:`~quicksilver.publishing.schema.MERCURY_FEATURES`."""

FIELD_DOCS: dict[str, str] = {
    "id": "LeetCode frontend question id, as a string of digits",
    "slug_name": "LeetCode title slug (`two-sum`); unique in the dataset",
    "meta_info": "`{data: {question: {...}}}`: the question as LeetCode's GraphQL API returns it "
    "(`stats` and `similarQuestions` are JSON strings)",
    "difficulty": "`Easy`, `Medium` or `Hard`; empty for a source without a rating (HumanEval)",
    "pretty_content": "`[statement]`: the problem statement as plain text",
    "solutions": "reference solutions `{hash, runtime, solution}`: int64 content hash, runtime "
    'as a judge-style string ("1.2ms"; Quicksilver writes its own measurement, the judge\'s is '
    "in `solution_provenance`; null allowed for Mercury's rows), Python 3 source",
    "prompt": "starter code (the `class Solution` stub) given to a model",
    "entry_point": "name of the method (or function) the tests call",
    "generator_code": "Python source of the test-input generator",
    "test_cases": 'JSON list of `{"input": [args...], "expected": value}`',
    "convert_online": "code formatting a case as LeetCode's online judge takes it",
    "convert_offline": "code turning a stored case into call arguments (empty: identity)",
    "evaluate_offline": "code judging an output against the expected value (empty: equality; "
    "any order when `answer_any_order`)",
    "source": "where the question came from: `bundled`, `leetcode`, ...",
    "snapshot_sha256": "sha256 of the snapshot file the row was built from",
    "generator_path": "`offline` (constraint-driven synthesizer) or `llm` (model-written)",
    "generator_model": "model that wrote the generator (`llm` rows); for `offline` rows the "
    "synthesizer's name and version",
    "test_seed": "seed the generator ran with for this task",
    "n_generated_cases": "test cases drawn from the generator",
    "n_example_cases": "test cases taken from the statement's examples",
    "answer_any_order": "whether a list answer is accepted in any order",
    "solution_provenance": "per solution hash: `source`, `model`, `url`, `runtime_reported` "
    "(nulls when unknown), `imports_added` (the import lines the build put at the top of the "
    "solution for names Mercury's evaluator does not inject, such as `Counter`; empty for most)",
    "runtime_meter": "meter of `reference_runtimes`: `icount`, `cpu`, `instructions`",
    "instruction_rate": "instruction meters: instructions per CPU second of the build machine, "
    "measured against the cpu meter; it converts the counts into `solutions[].runtime` strings "
    "(null for the cpu meter)",
    "runtime_unit": "unit of `reference_runtimes` (`s` or `instructions`)",
    "reference_runtimes": "per solution hash: measured cost over all test cases, its 95% CI, "
    "the passes taken, whether the measurement converged (always for icount) and why not "
    "(`flags`: budget, max-rounds, unconverged, few-rounds)",
    "reference_peak_memory": "per solution hash: peak memory (bytes) above the post-load "
    "baseline, read by the host from /proc (the largest over test cases, and per test case, "
    "in case order); empty when memory was not measured",
    "machine_id": "short id of the machine the references were measured on",
    "machine": "that machine as JSON (CPU, cores, arch, kernel, Python)",
    "quicksilver_version": "version of Quicksilver that built the row",
    "build_config_sha256": "sha256 of the build configuration",
    "release_date": "when the question was released (`YYYY-MM-DD`); null: undated (never guessed)",
    "count_fingerprint": "icount: 16 hex digits over what the counts depend on (interpreter, "
    "its libraries and standard library, runtime, QEMU, plugin, guest environment); "
    "`quicksilver score` reuses `reference_runtimes` where its own digest is the same (null "
    "for other meters)",
    "count_environment": "icount: those parts as JSON (`compared`), with what was recorded "
    "but not compared (`informational`: kernel, CPU, cores, machine id)",
    "reference_memory_detail": "per solution hash: the post-load memory baseline (bytes) and "
    "the time-memory integral (`tmu`, from `tmu_samples` readings) scoring reads with a "
    "reference's count (NMU, NTMU); nulls when not measured",
    "judge_limits": "the CPU seconds the build's judge gave each reference: per call and load "
    "(`call_seconds`, the ceiling; `quicksilver score` gives a sample the same) and for the "
    "whole test set (`test_set_seconds`), with the screening floor, the test set's budget and "
    "its cost; nulls when the build did not record them",
    "release_date_source": "how `release_date` is known: `leetcode` (reported by LeetCode), "
    "`question-id` (tied to the question id), `contest`, `manual`; null when undated",
}
