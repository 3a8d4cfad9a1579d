"""Tools built on the core: they read records and evidence but never grant authority."""
