"""Judge calibration: how well a model grader agrees with human labels, as evidence a host can
point to. It computes and reports; it never edits host records or decides authority."""
