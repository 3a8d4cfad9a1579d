"""The shell: the Python API, the command line and output writing. Parses, calls the library,
renders, exits; it decides nothing itself."""
