"""The `splitter` game plugin."""
