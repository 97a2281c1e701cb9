"""The designer's workflow: what moved between two content sets (``compare``),
and which assumed [A] numbers the headline results hang on (``sensitivity``)."""
