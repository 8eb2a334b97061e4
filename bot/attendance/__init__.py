"""attendance."""
