"""Quicksilver: build code-efficiency benchmarks and score solutions against them.

The package is the Prefect-free core. Stages live in plain modules; ``tasks/`` and
``flows/`` wrap them for orchestration.
"""

__version__ = "0.1.0"
