"""Second-opinion oracles only the tests use (a vendor's own validator beside check())."""
