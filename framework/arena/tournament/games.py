"""The installed games as far as one game id needs them, through the plugin index the host
cache keeps (:func:`arena.plugins.registry.registry_for`): ``arena match`` imports only its
game's plugin while the index of the last full scan still holds."""

from __future__ import annotations

import hashlib
import json
import os
import sys

from arena import hostcache
from arena.plugins import registry as plugins


def registry_for_game(game_id: str) -> plugins.Registry:
    """Only ``game_id``'s plugin imported where the cached index still holds, else a full
    scan, whose index is then cached for the next command."""
    where = json.dumps([os.getuid(), sys.version, sys.path, os.getcwd()])
    key = "plugins-" + hashlib.sha256(where.encode()).hexdigest()
    found = plugins.registry_for(game_id, hostcache.read_entry(key))
    if found is None:
        pm = plugins.get_plugin_manager()
        found = plugins.load_registry(pm)
        hostcache.write_entry(key, plugins.plugin_index(pm, found))
    return found
