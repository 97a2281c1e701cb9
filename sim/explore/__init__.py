"""The live explorer (``zonesim explore``): edit the content in a page and watch
the headline numbers of ``zonesim compare`` move against the loaded baseline,
on common dice, their intervals narrowing as more batches come in.

    >>> from sim.explore import app
    >>> app()            # in a Jupyter cell: the page, measuring once shown
    >>> app("my_content")

Needs Panel: ``pip install -e '.[explore]'``."""

from sim.explore.engine import Explorer

__all__ = ["Explorer", "app"]


def app(content=None, *, threads=None, explorer=None):
    """The explorer's page for a content folder (default: the shipped one), as a
    Panel object: display it in a notebook cell, or serve it. It starts measuring
    when a browser first shows it; pass an ``explorer`` to show one already built."""
    import panel as pn

    from sim.explore.page import view

    pn.extension()
    return view(explorer or Explorer(content, threads=threads))
