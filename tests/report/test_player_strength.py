"""The report's "how strong is the player" part of the fights section: the study
strategy's survival beside the optimal player's, with and without the escape."""

import polars as pl
import pytest

import strategies
from sim.content import load_content
from sim.report.study import Section, load_study, player_strength
from sim.run.fight import exact_fight
from tests.conftest import edited_content


def _strength(content, tmp_path):
    study = load_study(content, quick=True)
    fighter = strategies.get("fighter")
    rows = [{"monster": m, "tier": tier, "p_survive": exact_fight(content, kit, [m], fighter).probabilities["p_survive"]}
            for m in content.monsters for tier, kit in study.tiers.items()]
    section = Section("fights")
    player_strength(section, content, study, fighter, rows, tmp_path)
    return pl.read_parquet(tmp_path / "player_strength.parquet"), section


@pytest.mark.parametrize("reputation", [0, 5])
def test_z33_the_optimal_player_never_survives_less_and_the_escape_is_what_he_adds(tmp_path, reputation):
    """Over every monster and report tier: the optimal player who may not escape survives at
    least as often as the fighter (the same fight to the end, played best), and the one who
    may escape at least as often as that. At reputation 0 every escape roll succeeds (Z-33,
    escape_auto_max 1) so he survives every fight; at 5 the roll succeeds on 5-6 only, so
    the deadliest fights stay deadly. Planted bug: the escape allowed to the restricted player
    (``may_escape`` ignored) made him survive every fight at reputation 0 as well."""
    content = load_content(edited_content(tmp_path, "rules.toml", "start_reputation = 0",
                                          f"start_reputation = {reputation}"))
    frame, section = _strength(content, tmp_path)
    assert len(frame) == len(content.monsters) * 4 and (frame["strategy"] == "fighter").all()
    assert (frame["p_optimal_no_escape"] >= frame["p_survive"] - 1e-12).all()
    assert (frame["p_optimal"] >= frame["p_optimal_no_escape"] - 1e-12).all()
    deadly = frame.filter(pl.col("p_survive") < 0.5)
    assert len(deadly) > 0 and (deadly["p_optimal_no_escape"] < 0.5).all()
    if reputation == 0:
        assert (frame["p_optimal"] > 1 - 1e-9).all() and deadly["optimal_tries_escape"].all()
    else:
        assert (deadly["p_optimal"] < 1.0).all() and (deadly["p_optimal"] > deadly["p_optimal_no_escape"]).all()
    text = section.blocks[0][1]
    assert "How strong is the player" in text and f"starting reputation ({reputation}" in text
