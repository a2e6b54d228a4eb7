"""cg-referee: play through any CodinGame-style referee process (cg-brutaltester protocol)."""
