"""``python -m arena``."""

from __future__ import annotations

import sys

from arena.cli import main

sys.exit(main())
