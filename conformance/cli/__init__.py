"""The `conformance` command: one module per subcommand."""
