"""The item economy: the one valuation method for every context. A card's
value is what it does, in G at one exchange rate per tier (``value``), on the
reference kits a shopper buys (``shop``) and the comparisons of each card with
them (``kits``), measured as outcomes in paired batches (``outcome``) over a
context (``context``: economy.toml's campaigns and fights view, or a scenario);
prices tuned to values and the Stalkeriada pace (``tune``); synergy of pairs;
the options of ``value`` and ``tune`` checked, and their context built (``options``)."""
