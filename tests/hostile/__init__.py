"""Hostile and unlucky input: every class of attack or accident the CLI must survive, as property
tests and fixed cases. Bombs run in a subprocess under an address-space limit (`limited`)."""
