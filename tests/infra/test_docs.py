"""The documentation site builds with ``mkdocs build --strict`` (no broken link,
no page left out of the navigation, no docstring the API page cannot read), and
its generated pages hold what they are generated from: every command of the
typer app on the CLI reference, ``sim.api.encounter`` on the API page."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_docs_build_strict(tmp_path):
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    import typer

    import sim.cli

    cli = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    app = typer.main.get_command(sim.cli.app)
    for name, command in app.commands.items():
        assert f"zonesim {name}</code>" in cli, f"the CLI reference lacks `zonesim {name}`"
        for param in getattr(command, "params", []):
            for opt in getattr(param, "opts", []):
                if opt.startswith("--"):
                    assert opt in cli, f"the CLI reference lacks {opt} of `zonesim {name}`"

    api = (site / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    assert 'id="sim.api.encounter"' in api

    rules = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert "Z-01" in rules and "M-08" in rules
