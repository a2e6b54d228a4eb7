"""Tournaments: the file and its checks, the schedule, one scheduler per format, the run."""
