"""The `chess5` game plugin."""
