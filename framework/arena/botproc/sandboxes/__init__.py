"""Sandbox backends: each one way of confining bots behind one interface.

* :mod:`~arena.botproc.sandboxes.base` - the settings (:class:`Sandbox`) and the
  interface every backend implements (:class:`SandboxBackend`);
* :mod:`~arena.botproc.sandboxes.none` - ``sandbox: none`` (the launcher's steps alone);
* :mod:`~arena.botproc.sandboxes.bwrap` - ``sandbox: bwrap`` (bubblewrap);
* :mod:`~arena.botproc.sandboxes.view` - what a bot is shown of the host for its command;
* :mod:`~arena.botproc.sandboxes.registry` - the backends by name, choosing one.
"""
