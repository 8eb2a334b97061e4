"""standings."""
