"""pytest plugin (registered through the pytest11 entry point): scenarios become items."""
