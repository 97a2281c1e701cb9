"""Sweeps on a local Dask cluster give bit-identical numbers to the same run on
one machine (loadouts, item values, tuning, journeys, skirmishes, Stalkeriada),
and bad cluster options exit 2."""

import json

import pytest

import strategies
from sim.content.loadout import Loadout
from sim.run.distributed import cluster
from sim.run.loadouts import enumerate_loadouts, evaluate_loadouts, monster_mix
from tests.conftest import zonesim


@pytest.fixture(scope="module")
def client():
    with cluster(workers=2) as c:
        yield c


def test_loadouts_on_a_cluster_equal_the_local_run(content, client):
    loadouts = enumerate_loadouts(content, budget=1000, max_count=1)
    groups = monster_mix(content, ["snork", "blind_dog"])
    tactician = strategies.get("tactician")
    local = evaluate_loadouts(content, loadouts, groups, tactician, trials=500, seed=4)
    remote = evaluate_loadouts(content, loadouts, groups, tactician, trials=500, seed=4, client=client, batch=64)
    assert len(loadouts) > 200 and (local.survivors == remote.survivors).all()
    assert local.table().drop("index").equals(remote.table().drop("index"))


def _fight_context(content, client=None):
    from sim.economy.context import load_context, scenario

    return scenario(content, load_context(content), mode="fight", monsters=["bloodsucker"], budgets=(1500,),
                    trials=20_000, seed=6, client=client)


def test_item_values_on_a_cluster_equal_the_local_run(content, client):
    """Kits run as the cluster's tasks; every value, interval and kit is the same."""
    from sim.economy.value import value_cards

    local = value_cards(_fight_context(content))
    remote = value_cards(_fight_context(content, client))
    assert local.to_json()["items"] == remote.to_json()["items"]
    assert local.tiers[0].choice.kit == remote.tiers[0].choice.kit


@pytest.mark.slow  # the loadouts on a cluster (above) and `journey --workers` (below) cover both halves
def test_cli_workers_give_the_same_json():
    args = ("loadouts", "--budget", 800, "-m", "flesh", "--trials", 1000, "--json")
    here, there = zonesim(*args), zonesim(*args, "--workers", 2, process=True)
    assert here.returncode == 0 and there.returncode == 0, there.stderr
    a, b = json.loads(here.stdout), json.loads(there.stdout)
    for key in ("loadouts", "front", "best_per_step"):
        assert a[key] == b[key], key


@pytest.mark.parametrize("args,expect", [(("--workers", 0), "--workers"),
                                         (("--workers", 2, "--scheduler", "tcp://127.0.0.1:9"), "one of them"),
                                         (("--scheduler", "tcp://127.0.0.1:9"), "cannot reach")])
def test_bad_cluster_options_exit_2(args, expect):
    proc = zonesim("value", "-m", "snork", "--weapon", "ak47", "--trials", 100, *args)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert expect in proc.stderr


@pytest.mark.slow  # tuning measures through the item values' tasks, checked on a cluster above
def test_tuning_on_a_cluster_equals_the_local_run(content, client):
    from sim.economy.tune import tune_prices

    local = tune_prices(_fight_context(content), rounds=2)
    remote = tune_prices(_fight_context(content, client), rounds=2)
    assert local.history == remote.history and local.values.items == remote.values.items


TIMING = ("elapsed_s", "hex_steps_per_s", "skirmishes_per_s", "player_turns_per_s")


def _numbers(summary):
    return {k: v for k, v in summary.items() if k not in TIMING}


def test_journeys_on_a_cluster_equal_the_local_run(content, client):
    from sim.run.journey import simulate_journey

    kwargs = dict(days=20, trials=5000, seed=8)
    loadout = Loadout(weapon="ak47", healing=(("stimulator", 1),))
    cautious = strategies.get("cautious", mode="journey")
    local = simulate_journey(content, loadout, cautious, **kwargs)
    remote = simulate_journey(content, loadout, cautious, chunk=700, client=client, **kwargs)
    assert _numbers(local.summary()) == _numbers(remote.summary())
    assert (local.traffic == remote.traffic).all() and (local.deaths_at == remote.deaths_at).all()


@pytest.mark.slow
def test_skirmishes_on_a_cluster_equal_the_local_run(content, client):
    from sim.content.skirmish import load_arena, load_skirmish, make_setup, parse_member
    from sim.run.skirmish import simulate_skirmish

    sk = load_skirmish(content)
    setup = make_setup(content, sk, [parse_member(content, "novice:ak47,vest,stimulator*2")], ["snork"],
                       load_arena(sk, None, None), "kite", None)
    kite = strategies.get("kite", mode="skirmish")
    local = simulate_skirmish(setup, kite, trials=4000, seed=3)
    remote = simulate_skirmish(setup, kite, trials=4000, seed=3, chunk=900, client=client)
    assert _numbers(local.summary()) == _numbers(remote.summary()) and (local.tally == remote.tally).all()


@pytest.mark.slow
def test_stalkeriada_on_a_cluster_equals_the_local_run(content, client):
    from sim.run.stalkeriada import round_robin, simulate_stalkeriada

    players = ["cautious", "rush", "jelly"]
    local = simulate_stalkeriada(content, players, games=400, seed=2, rotate_seats=True)
    remote = simulate_stalkeriada(content, players, games=400, seed=2, rotate_seats=True, chunk=250, client=client)
    assert _numbers(local.summary()) == _numbers(remote.summary()) and (local.tally == remote.tally).all()
    here = round_robin(content, players, 2, games=200, seed=5)
    there = round_robin(content, players, 2, games=200, seed=5, chunk=150, client=client)
    assert here.table.equals(there.table)


def test_cli_journey_with_workers_gives_the_same_json():
    args = ("journey", "--weapon", "ak47", "--trials", 3000, "--chunk", 500, "--seed", 4, "--json")
    here, there = zonesim(*args), zonesim(*args, "--workers", 2, process=True)
    assert here.returncode == 0 and there.returncode == 0, there.stderr
    assert _numbers(json.loads(here.stdout)) == _numbers(json.loads(there.stdout))
    noise = [line for line in there.stderr.splitlines() if not line.startswith("zonesim: ")]
    assert noise == [] and "error" not in there.stderr  # the cluster's own logs and warnings stay quiet


def test_a_content_travels_with_its_files_when_the_worker_cannot_see_its_folder(tmp_path):
    """A tuning's temporary copy, or a folder on another machine: the pickled
    content carries its TOML files, and a worker without the folder rebuilds it
    from them (the same digest, the same changed prices)."""
    import pickle
    import shutil
    from dataclasses import replace
    from types import MappingProxyType

    from sim.content import load_content
    from sim.content.load import DEFAULT_DIR

    folder = tmp_path / "copy"
    shutil.copytree(DEFAULT_DIR, folder)
    edited = (folder / "stalkeriada.toml").read_text().replace("ozk = 500", "ozk = 501", 1)
    (folder / "stalkeriada.toml").write_text(edited)
    content = load_content(folder)
    repriced = replace(content, items=MappingProxyType({**content.items, "glonass": replace(
        content.items["glonass"], fields=MappingProxyType({**content.items["glonass"].fields, "price": 777}))}))
    blob = pickle.dumps(repriced)
    shutil.rmtree(folder)
    there = pickle.loads(blob)
    assert there.directory != folder and there.digest == content.digest
    assert (there.directory / "stalkeriada.toml").read_text() == edited
    assert there.items["glonass"]["price"] == 777
    assert pickle.loads(pickle.dumps(load_content())).directory == DEFAULT_DIR  # a folder it sees is used as is

