"""Running scenarios: compile content to kernel inputs, chunk, seed, aggregate."""
