"""Bot builds: a bot given as source (C++, Rust, Java, ...) compiled once, sandboxed, cached.

* :mod:`~arena.botbuild.build` - recipes, the build cache and running the steps;
* :mod:`~arena.botbuild.languages` - the presets of each language.
"""
