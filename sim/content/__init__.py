"""Content: TOML files -> validated, frozen entries -> arrays for the kernels."""

from sim.content.load import DEFAULT_DIR, Content, ContentError, Entry, load_content

__all__ = ["DEFAULT_DIR", "Content", "ContentError", "Entry", "load_content"]
