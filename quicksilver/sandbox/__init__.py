"""Running untrusted Python in isolation and talking to it (see docs/sandbox.md)."""
