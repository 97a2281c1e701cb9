"""``zonesim balance``: a planted imbalance is found and fixed by its own numbers,
the same seed gives the same proposals after a kill and a resume and on any
thread count, and bad balance files get one line and exit 2 with nothing written.

The planted case: the default content with the bloodsucker's HP doubled (20 to
40), which drops the standard tier's survival against it from about 0.9 to
0.03 (report.toml's quick counts, seed 1), and one target: the standard tier
survives it 60-80% of the time. Knobs: two of the bloodsucker's numbers and
two unrelated ones (the chimera's HP, the AK-47's price, which no fight reads)."""

import json

import pytest

from sim import api
from tests.conftest import edited_content, zonesim

TARGETS = """
[search]
budget = {budget}
seed = 1

[[target]]
metric = "fight_survival.bloodsucker.standard"
band = [0.6, 0.8]

[[knob]]
file = "monsters.toml"
key = "bloodsucker.hp"
bounds = [10, 60]
step = 2

[[knob]]
file = "monsters.toml"
key = "bloodsucker.dice"
bounds = [1, 4]

[[knob]]
file = "monsters.toml"
key = "chimera.hp"
bounds = [10, 60]
step = 2

[[knob]]
price = "ak47"
bounds = [500, 3000]
step = 100
"""
BLOODSUCKER = ("monsters.toml:bloodsucker.hp", "monsters.toml:bloodsucker.dice")


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("planted")
    folder = edited_content(tmp, "monsters.toml", "hp = 20\ndice = 2\nbonus = 2", "hp = 40\ndice = 2\nbonus = 2")
    targets = tmp / "targets.toml"
    targets.write_text(TARGETS.format(budget=24))
    return folder, targets


def test_a_planted_imbalance_is_fixed_by_its_own_numbers(planted):
    """The baseline misses the band; the top proposal moves only the bloodsucker's
    numbers and lands in the band on fresh dice, its 95% interval inside it."""
    folder, targets = planted
    result = api.balance(targets, content=folder, quick=True)
    target = "fight_survival.bloodsucker.standard"
    assert not result.baseline[target]["met"] and result.baseline[target]["value"] < 0.1
    top = result.proposals[0]
    assert set(top["changes"]) <= set(BLOODSUCKER), top["changes"]
    low, high = top["targets"][target]["ci95"]
    assert top["targets"][target]["met"] and 0.6 <= low and high <= 0.8, top
    for p in result.proposals:  # no proposal keeps a change that does nothing
        assert "items.toml:firearms.ak47.price" not in p["changes"]


def test_the_same_seed_proposes_the_same_after_a_kill_a_resume_on_one_thread_and_on_two_workers(planted, tmp_path,
                                                                                              monkeypatch):
    """Killed while it measures its 9th candidate (the first of the fifth batch of two)
    and resumed, the study proposes what an unbroken one does; so does a run on one
    thread and one on a local cluster of two workers (every candidate meets the same
    dice wherever it runs)."""
    from sim.balance.solve import Evaluator

    folder, targets = planted
    whole = api.balance(targets, content=folder, quick=True, out=tmp_path / "whole")
    measure = Evaluator.metrics

    def killed(self, values, *stage):
        if self.count == 10:  # the baseline, 4 batches of 2 candidates, then the kill
            raise KeyboardInterrupt
        return measure(self, values, *stage)

    with monkeypatch.context() as patch:
        patch.setattr(Evaluator, "metrics", killed)
        with pytest.raises(KeyboardInterrupt):
            api.balance(targets, content=folder, quick=True, out=tmp_path / "cut")
    import optuna

    cut = optuna.load_study(study_name="balance", storage=f"sqlite:///{tmp_path / 'cut' / 'checkpoints' / 'study.db'}")
    states = [t.state.name for t in cut.trials]
    assert states.count("COMPLETE") == 8 and states[-2:] == ["RUNNING", "RUNNING"], states
    resumed = api.balance(targets, content=folder, quick=True, out=tmp_path / "cut", resume=True)
    assert resumed.proposals == whole.proposals
    one = api.balance(targets, content=folder, quick=True, threads=1)
    api.balance(targets, content=folder, quick=True, threads=2, budget=1)  # the threads back for the other tests
    assert one.proposals == whole.proposals
    assert api.balance(targets, content=folder, quick=True, workers=2).proposals == whole.proposals
    written = json.loads((tmp_path / "cut" / "balance.json").read_text())
    assert written["proposals"][0]["changes"] == {k: list(v) for k, v in whole.proposals[0]["changes"].items()}
    copy = tmp_path / "cut" / "proposal-1" / "content" / "monsters.toml"
    assert copy.is_file() and "# " in copy.read_text()  # the content copy keeps its comments
    assert "Proposal 1" in (tmp_path / "cut" / "diff.md").read_text()


def test_knobs_auto_finds_the_planted_numbers_among_every_assumed_one(planted, tmp_path):
    """With no [[knob]] in the file, ``--knobs auto`` screens every assumed number at both
    ends of its swing: the bloodsucker's HP and dice are among the chosen knobs, with
    the standard tier's own kit (its AK-47's dice, its vest); a number no fight reads
    (Stalkeriada's, the journey's) is never one; and the top proposal lands in the band."""
    folder, targets = planted
    bare = tmp_path / "bare.toml"
    bare.write_text(targets.read_text().split("[[knob]]")[0])
    result = api.balance(bare, content=folder, quick=True, knobs="auto", out=tmp_path / "out")
    assert set(BLOODSUCKER) <= set(result.swings), sorted(result.swings)
    assert 2 < len(result.swings) <= 20 and all(v > 0 for v in result.swings.values())
    assert not [label for label in result.swings if label.startswith(("stalkeriada.toml", "journey.toml"))]
    top = result.proposals[0]
    assert top["targets"]["fight_survival.bloodsucker.standard"]["met"], top
    written = json.loads((tmp_path / "out" / "balance.json").read_text())
    assert {k["knob"] for k in written["knobs"] if k["auto"]} == set(result.swings)
    assert "Knobs chosen by `--knobs auto`" in (tmp_path / "out" / "diff.md").read_text()


def test_knobs_must_be_file_or_auto(planted, tmp_path):
    folder, targets = planted
    proc = zonesim("balance", targets, "--content", folder, "--knobs", "some", "--out", tmp_path / "out")
    assert proc.returncode == 2 and "--knobs: 'some'; give file" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("edit, message", [
    (("fight_survival.bloodsucker.standard", "fight_luck.bloodsucker"), "unknown metric"),
    (("fight_survival.bloodsucker.standard", "fight_survival.dragon.standard"), "matches no headline number"),
    (("band = [0.6, 0.8]", "band = [0.7, 0.7]"), "is empty"),
    (('key = "chimera.hp"', 'key = "chimera.name"'), "has no number"),
    (("bounds = [10, 60]\nstep = 2\n\n[[knob]]\nprice", "bounds = [-4, 60]\nstep = 2\n\n[[knob]]\nprice"),
     "limit"),
    (("budget = 24", "budget = 0"), "budget 0"),
    (("budget = 24", "budget = 24\nbatch = 0"), "batch 0"),
    (('price = "ak47"', 'price = "bfg"'), "unknown card"),
    (('file = "monsters.toml"\nkey = "chimera.hp"', 'file = "rules.toml"\nkey = "stalker.step_budget"'),
     "not an assumed [A] number"),  # a [G] number of the rulebook is no knob
])
def test_a_bad_balance_file_gets_one_line_and_exit_2_and_no_output(planted, tmp_path, edit, message):
    folder, targets = planted
    bad = tmp_path / "bad.toml"
    bad.write_text(targets.read_text().replace(*edit))
    assert bad.read_text() != targets.read_text()
    proc = zonesim("balance", bad, "--content", folder, "--quick", "--out", tmp_path / "out")
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_the_default_balance_file_writes_the_reports_finding_thresholds_as_bands():
    """sim/content/default/balance.toml: a fight target per monster and tier with the band
    [1 - kill_share, 1], a journey target per tier with [finish_below, 1] (report.toml
    [findings]); every knob an assumed number of monsters.toml."""
    import tomllib

    from sim.balance.spec import load_balance
    from sim.compare.metrics import make_plan, metric_names
    from sim.content import DEFAULT_DIR, load_content

    game = load_content()
    spec = load_balance(DEFAULT_DIR / "balance.toml", DEFAULT_DIR, game)
    findings = tomllib.loads((DEFAULT_DIR / "report.toml").read_text())["findings"]
    targets = spec.expand(metric_names(game, make_plan(game, quick=True, groups=spec.groups())))
    fights = [t for t in targets if t.metric.startswith("fight_survival.")]
    journeys = [t for t in targets if t.metric.startswith("journey_finish.")]
    assert len(fights) == len(game.monsters) * 4 and len(journeys) == 4 and len(targets) == len(fights) + 4
    assert all((t.low, t.high) == (1 - findings["kill_share"], 1.0) for t in fights)
    assert all((t.low, t.high) == (findings["finish_below"], 1.0) for t in journeys)
    assert spec.knobs and all(k.file == "monsters.toml" for k in spec.knobs)
