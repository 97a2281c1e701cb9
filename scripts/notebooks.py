"""Run the gallery's notebooks top to bottom and save them with their outputs.

    python scripts/notebooks.py [NAME ...]

`mkdocs build` runs the notebooks again as it builds the gallery; the saved
outputs are what GitHub and the fast docs build (``ZONESIM_DOCS_EXECUTE=false``)
show, so run this after a change the notebooks show. About 1 minute 10 s on 2
cores; the tests run them too (`-m slow`).
"""

import base64
import io
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from mkdocs_hooks import GALLERY  # noqa: E402


def main(names):
    for name in names or GALLERY:
        path = ROOT / "notebooks" / f"{name}.ipynb"
        nb = nbformat.read(path, as_version=4)
        print(f"running {path.name}", flush=True)
        NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
        for cell in nb.cells:  # no machine-dependent noise in the saved file
            cell.get("metadata", {}).pop("execution", None)
            for output in cell.get("outputs", []):
                if "image/png" in output.get("data", {}):
                    output["data"]["image/png"] = small_png(output["data"]["image/png"])
        nbformat.write(nb, path)


def small_png(data: str, width: int = 900) -> str:
    """A saved figure at most ``width`` pixels wide, in 128 colours: a tenth of the bytes, the same picture."""
    from PIL import Image

    image = Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")
    if image.width > width:
        image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    out = io.BytesIO()
    image.quantize(128).save(out, format="PNG", optimize=True)
    return base64.b64encode(out.getvalue()).decode("ascii")


if __name__ == "__main__":
    main(sys.argv[1:])
