"""Eval outputs: what they measured, read by one adapter per format. Never a source of authority."""
