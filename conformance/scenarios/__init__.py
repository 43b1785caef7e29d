"""Scenario files: the format, the loader with located errors, streamed turns."""
