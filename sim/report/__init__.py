"""Charts and reports (matplotlib, no display needed): the balance study and its
page, and what a run answers (``answers``) and writes into ``--out`` (``files``)."""
