"""Playing one game: the referee's step engine, framing of answers, view diffs, helper processes."""
