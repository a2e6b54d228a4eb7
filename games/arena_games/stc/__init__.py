"""The `stc` game plugin."""
