"""The `cluster` game plugin."""
