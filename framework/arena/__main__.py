"""``python -m arena``."""

from __future__ import annotations

import sys

from arena.cli.main import main

sys.exit(main())
