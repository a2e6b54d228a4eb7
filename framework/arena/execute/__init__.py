"""Executing games: one executor interface, the local worker pool, Dask, the job a worker plays."""
