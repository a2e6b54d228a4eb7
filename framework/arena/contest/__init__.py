"""Contest mode: a self-hosted bot contest (accounts, uploads, the league, the final ranking)."""
