"""Host checks: run the processes and look at the files checks.yaml names, with one recorded
retry and a cache of passes. The only tool that starts processes; it writes nowhere but its cache,
and what a check found is decided by the core like every metric.
"""
