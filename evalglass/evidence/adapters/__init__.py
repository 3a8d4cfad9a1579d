"""One module per eval-output format, each declaring `ADAPTER` (see evidence/registry.py); the
`_`-prefixed modules are the machinery they share. Adapters read; they never decide."""
