"""Looking at results: replay files, listings, the HTML viewer and report, their static files."""
