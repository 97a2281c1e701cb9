"""The item economy: the declared valuation context (``economy.toml``), item
values in G as compensating variation on common random numbers, verdicts and
price tuning. It asks the runners of ``sim.run`` one question: the outcome of a
kit on given dice."""
