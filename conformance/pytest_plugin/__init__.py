"""The pytest plugin: one item per scenario x provider x mode."""
