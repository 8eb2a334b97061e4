"""computers."""
