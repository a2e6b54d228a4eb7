"""The referee: plays one game (the step engine), framing of answers, view diffs, helpers."""
