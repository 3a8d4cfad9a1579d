"""Evidence: what eval outputs measured, read from untrusted files by one adapter per format into
typed values, with the interval estimates and the sufficient statistics rows reduce to. It never
reads host records and never decides: evidence can block a gate, never grant one."""
