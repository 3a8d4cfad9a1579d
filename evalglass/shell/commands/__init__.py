"""The command line's commands, one module per group; `evalglass.shell.cli` assembles them."""
