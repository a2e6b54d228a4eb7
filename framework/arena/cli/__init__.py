"""The ``arena`` command line: the parser, one module per command group, presentation."""
