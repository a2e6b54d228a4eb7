"""``arena serve``: a local web app that shows an output folder live and steers its run.

A face like the CLI: it reads the store (read-only) and the run's status file, writes only
the run's control file, and never plays games itself (see docs/serve.md).
"""
