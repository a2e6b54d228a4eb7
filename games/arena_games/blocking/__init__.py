"""The `blocking` game plugin."""
