"""Charts and reports (matplotlib, no display needed)."""
