"""The pipeline contract: typed records, the stage declaration, the runner that derives wiring,
keys, manifests, counts and rejects from it (docs/architecture.md)."""
