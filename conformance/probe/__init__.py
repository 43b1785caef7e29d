"""Probing an endpoint: minimal requests per rule -> a measured profile."""
