"""Contest mode: participants' uploads, their builds and versions, served with a league."""
