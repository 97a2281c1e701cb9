"""The files a run writes into its ``--out`` folder: tidy parquet tables, PNG
charts that name their trials, seed and assumed [A] values, and
``manifest.json`` (the command, the versions, the summary and the files)."""

from pathlib import Path

import polars as pl

from sim.report.charts import (economy_chart, fight_chart, journey_curves_chart, loadouts_chart, matrix_chart,
                               skirmish_chart, skirmish_distance_chart, stalkeriada_games_chart,
                               stalkeriada_wins_chart, tune_chart)
from sim.run.results import atomic_write, command_line, manifest, write_json, write_parquet

INTERVAL_SCHEMA = {"metric": pl.Utf8, "value": pl.Float64, "ci_lo": pl.Float64, "ci_hi": pl.Float64}


def assumed_text(assumed) -> str:
    """``['items.toml: ak47.dice', ...]`` as ``'ak47 (dice, price); ...'``, or "none"."""
    groups = {}
    for a in assumed:
        entry, _, field = a.split(": ", 1)[1].rpartition(".")
        groups.setdefault(entry, []).append(field)
    return "; ".join(f"{e} ({', '.join(f)})" for e, f in groups.items()) or "none"


def table_assumed(table) -> str:
    """The [A] values of a mode's table (``stalkeriada.toml``, ``skirmish.toml``) as ``table.field`` names."""
    return ", ".join(a.split(": ", 1)[1] for a in table.assumed)


def write_encounter(out: Path, game, fight, strategy: dict):
    """manifest.json, encounter.parquet (tidy metrics), encounter_hist.parquet, charts/encounter.png;
    ``strategy``: the player's name and parameters."""
    scenario = {"character": fight.loadout.character, **fight.loadout.columns(), "reputation": fight.loadout.reputation,
                "monsters": ",".join(fight.monsters), "strategy": strategy["name"]}
    rows = [{"metric": k, "value": fight.probabilities[k], "ci_lo": fight.ci95[k][0], "ci_hi": fight.ci95[k][1]}
            for k in fight.probabilities]
    rows += [{"metric": "mean_rounds", "value": fight.mean_rounds, "ci_lo": None, "ci_hi": None},
             {"metric": "mean_hp_left", "value": fight.mean_hp_left, "ci_lo": None, "ci_hi": None}]
    rows += [{"metric": f"used_per_fight:{k}", "value": v, "ci_lo": None, "ci_hi": None}
             for k, v in fight.items_used.items()]
    metrics = pl.DataFrame(rows, schema=INTERVAL_SCHEMA).with_columns(
        *(pl.lit(v).alias(k) for k, v in scenario.items()),
        pl.lit(fight.trials, dtype=pl.Int64).alias("trials"),
        pl.lit(fight.seed, dtype=pl.Int64).alias("seed"),
    )
    files = ["manifest.json", "encounter.parquet", "charts/encounter.png"]
    write_parquet(out / "encounter.parquet", metrics)
    if fight.trials:
        hist = pl.DataFrame({
            "kind": ["hp_left"] * fight.hp_hist.size + ["rounds"] * fight.rounds_hist.size,
            "value": list(range(fight.hp_hist.size)) + list(range(fight.rounds_hist.size)),
            "count": [int(c) for c in fight.hp_hist] + [int(c) for c in fight.rounds_hist],
        })
        write_parquet(out / "encounter_hist.parquet", hist)
        files.append("encounter_hist.parquet")
    provenance = (f"{'exact solution' if not fight.trials else f'{fight.trials:,} fights, seed {fight.seed}'}"
                  f" · content {game.digest[:12]} · rests on assumed [A] values of: {assumed_text(fight.assumed)}")
    atomic_write(out / "charts" / "encounter.png", lambda p: fight_chart(fight, fight.title(), provenance, p))
    write_json(out / "manifest.json", manifest(
        command_line(), seed=fight.seed, trials=fight.trials, exact=fight.trials is None,
        content_dir=str(game.directory), content_hash=game.digest,
        strategy=strategy, scenario=scenario, elapsed_s=fight.elapsed_s, summary=fight.summary(), files=files,
    ))


def write_journey(out: Path, game, journey, strategy):
    """manifest.json, journey.parquet, journey_days.parquet, journey_hexes.parquet and three charts."""
    from sim.content.journey import load_journey
    from sim.report.hexmap import draw_map

    hexmap = load_journey(game).hexmap
    summary = journey.summary()
    rows = [{"metric": k, "value": v, "ci_lo": journey.ci95[k][0], "ci_hi": journey.ci95[k][1]}
            for k, v in journey.probabilities.items()]
    rows += [{"metric": k, "value": float(summary[k]) if summary[k] is not None else None, "ci_lo": None,
              "ci_hi": None} for k in ("mean_days_to_complete", "mean_orders_done", "mean_deaths", "mean_kills")]
    rows.append({"metric": "mean_money", "value": summary["mean_money"], "ci_lo": summary["money_ci95"][0],
                 "ci_hi": summary["money_ci95"][1]})
    write_parquet(out / "journey.parquet", pl.DataFrame(rows, schema=INTERVAL_SCHEMA).with_columns(
        pl.lit(strategy.name).alias("strategy"), pl.lit(journey.trials).alias("trials"),
        pl.lit(journey.seed).alias("seed"), pl.lit(journey.days).alias("days")))
    by_day = journey.by_day()
    write_parquet(out / "journey_days.parquet", by_day)
    write_parquet(out / "journey_hexes.parquet", pl.DataFrame({
        "col": [c for r in range(hexmap.height) for c in range(hexmap.width)],
        "row": [r for r in range(hexmap.height) for _ in range(hexmap.width)],
        "terrain": [hexmap.terrain_ids[t] for t in hexmap.terrain.ravel()],
        "danger": hexmap.danger.ravel().astype(int), "visits": journey.traffic.ravel(),
        "deaths": journey.deaths_at.ravel()}))
    provenance = (f"{journey.trials:,} campaigns of {journey.days} days, seed {journey.seed} · strategy "
                  f"{strategy.name} · content {game.digest[:12]} · event tables, monster groups and orders are "
                  "assumed [A] (journey.toml)")
    title = journey.title(hexmap.name)
    charts = out / "charts"
    atomic_write(charts / "journey_curves.png", lambda p: journey_curves_chart(by_day, title, provenance, p,
                                                                               journey.goal_orders))
    atomic_write(charts / "journey_deaths.png", lambda p: draw_map(
        hexmap, p, title=f"Where stalkers die · {title}", provenance=provenance,
        heat=journey.deaths_at * 1000.0 / journey.trials, heat_label="deaths per 1,000 campaigns"))
    atomic_write(charts / "journey_traffic.png", lambda p: draw_map(
        hexmap, p, title=f"Where stalkers walk · {title}", provenance=provenance,
        heat=journey.traffic / journey.trials, heat_label="visits per campaign"))
    write_json(out / "manifest.json", manifest(
        command_line(), seed=journey.seed, trials=journey.trials, days=journey.days,
        content_dir=str(game.directory), content_hash=game.digest,
        strategy={"name": strategy.name, "fight": strategy.fight, "danger_weight": strategy.danger_weight,
                  "recover_loot": strategy.recover_loot},
        elapsed_s=journey.elapsed_s, summary=summary,
        files=["manifest.json", "journey.parquet", "journey_days.parquet", "journey_hexes.parquet",
               "charts/journey_curves.png", "charts/journey_deaths.png", "charts/journey_traffic.png"],
    ))


def skirmish_title(result) -> str:
    return f"Skirmish · {' + '.join(result.names)} · {result.strategy}"


def skirmish_provenance(result, game, sk, arena_name) -> str:
    assumed = ", ".join(a.split(": ", 1)[1] for a in sk.assumed if "monsters." not in a and "characters." not in a)
    return (f"{result.trials:,} skirmishes, seed {result.seed} · strategy {result.strategy} · arena {arena_name} · "
            f"content {game.digest[:12]} · assumed [A] (skirmish.toml): {assumed}, and the monsters' and "
            "characters' tactical numbers")


def write_skirmish(out: Path, game, sk, result, sweep, sweep_trials, arena_name):
    """manifest.json, skirmish_*.parquet, the outcomes chart and the distance sweep's chart."""
    tables = {"outcomes": result.proportions(), "means": result.means(), "ap": result.ap_spending(),
              "rounds": result.rounds(), "sweep": sweep}
    for name, frame in tables.items():
        write_parquet(out / f"skirmish_{name}.parquet", frame)
    title = skirmish_title(result)
    provenance = skirmish_provenance(result, game, sk, arena_name)
    atomic_write(out / "charts" / "skirmish.png", lambda p: skirmish_chart(
        tables["outcomes"], tables["ap"], title, provenance, p))
    sweep_note = provenance.replace(f"{result.trials:,} skirmishes", f"{sweep_trials:,} skirmishes per point")
    atomic_write(out / "charts" / "skirmish_distance.png", lambda p: skirmish_distance_chart(
        sweep, f"{title} · survival vs starting distance and terrain", sweep_note, p))
    write_json(out / "manifest.json", manifest(
        command_line(), seed=result.seed, trials=result.trials, strategy=result.strategy,
        fighters=list(result.names), arena=arena_name, content_dir=str(game.directory),
        content_hash=game.digest, elapsed_s=result.elapsed_s, summary=result.summary(),
        files=["manifest.json", *(f"skirmish_{n}.parquet" for n in tables), "charts/skirmish.png",
               "charts/skirmish_distance.png"]))


def write_stalkeriada(out: Path, game, sc, result):
    """manifest.json, stalkeriada_*.parquet and two charts."""
    tables = {"wins": result.win_rates(), "seats": result.seat_rates(), "seat_advantage": result.seat_advantage(),
              "lengths": result.lengths(), "players": result.per_player(), "deaths": result.deaths(),
              "items": result.items(), "money": result.money_curves(), "places": result.places()}
    for name, frame in tables.items():
        write_parquet(out / f"stalkeriada_{name}.parquet", frame)
    title = f"Stalkeriada · {' vs '.join(result.players)}"
    rotated = " (every seat order on the same dice)" if result.rotations > 1 else ""
    provenance = (f"{result.games:,} games, seed {result.seed}{rotated} · round cap {result.round_cap} · "
                  f"content {game.digest[:12]} · assumed [A]: {table_assumed(sc)}")
    atomic_write(out / "charts" / "stalkeriada_wins.png", lambda p: stalkeriada_wins_chart(
        tables["wins"], tables["seat_advantage"], title, provenance, p))
    atomic_write(out / "charts" / "stalkeriada_games.png", lambda p: stalkeriada_games_chart(
        tables["lengths"], tables["money"], tables["deaths"], title, provenance, p))
    write_json(out / "manifest.json", manifest(
        command_line(), seed=result.seed, games=result.games, rotate_seats=result.rotations > 1,
        content_dir=str(game.directory), content_hash=game.digest, players=list(result.players),
        elapsed_s=result.elapsed_s, summary=result.summary(),
        files=["manifest.json", *(f"stalkeriada_{n}.parquet" for n in tables), "charts/stalkeriada_wins.png",
               "charts/stalkeriada_games.png"]))


def write_matrix(out: Path, game, sc, matrix):
    """manifest.json, stalkeriada_matrix.parquet and the matrix chart of a round robin."""
    write_parquet(out / "stalkeriada_matrix.parquet", matrix.table)
    provenance = (f"{matrix.games:,} games per set and seat order, seed {matrix.seed} · sets of {matrix.set_size} · "
                  f"content {game.digest[:12]} · assumed [A]: {table_assumed(sc)}")
    atomic_write(out / "charts" / "stalkeriada_matrix.png", lambda p: matrix_chart(
        matrix.rate, matrix.names, matrix.low, matrix.high, f"Stalkeriada round robin · sets of {matrix.set_size}",
        provenance, p))
    write_json(out / "manifest.json", manifest(
        command_line(), seed=matrix.seed, games_per_set=matrix.games, set_size=matrix.set_size,
        players=list(matrix.names), content_dir=str(game.directory), content_hash=game.digest,
        elapsed_s=matrix.elapsed_s,
        files=["manifest.json", "stalkeriada_matrix.parquet", "charts/stalkeriada_matrix.png"]))


def write_loadouts(out: Path, game, search):
    """manifest.json, loadouts.parquet, loadouts_steps.parquet, loadouts_groups.parquet, charts/loadouts.png."""
    result, summary = search.result, search.summary()
    files = {"loadouts.parquet": search.table, "loadouts_steps.parquet": search.steps,
             "loadouts_groups.parquet": result.by_group()}
    for name, frame in files.items():
        write_parquet(out / name, frame)
    provenance = (f"{search.table.height:,} loadouts x {result.trials:,} fights per monster group on the same dice, "
                  f"seed {result.seed} · strategy {result.strategy} · intervals: weighted mean of the groups' Wilson "
                  f"bounds · content {game.digest[:12]} · rests on assumed [A] values of: "
                  f"{assumed_text(search.assumed)}")
    atomic_write(out / "charts" / "loadouts.png", lambda p: loadouts_chart(search.table, search.steps,
                                                                           search.title(), provenance, p))
    write_json(out / "manifest.json", manifest(
        command_line(), seed=result.seed, trials=result.trials, content_dir=str(game.directory),
        content_hash=game.digest, strategy=result.strategy, elapsed_s=result.elapsed_s,
        summary={k: v for k, v in summary.items() if k != "loadouts"},
        files=["manifest.json", *files, "charts/loadouts.png"]))


def write_values(out: Path, game, result, stem="value"):
    """``STEM.parquet`` (overall), ``STEM_tiers.parquet``, ``charts/STEM.png``, ``manifest.json``
    and, with pairs measured, ``synergy.parquet``; with Shapley shares, ``shapley.parquet``."""
    write_parquet(out / f"{stem}.parquet", result.table())
    write_parquet(out / f"{stem}_tiers.parquet", result.tier_table())
    atomic_write(out / "charts" / f"{stem}.png", lambda p: economy_chart(
        result.table(), f"Value of every card in G beside its price ({result.context.mode})", result.caption(), p))
    write_json(out / "manifest.json", manifest(
        command_line(), content_dir=str(game.directory), content_hash=game.digest,
        files=["manifest.json", f"{stem}.parquet", f"{stem}_tiers.parquet", f"charts/{stem}.png"],
        context=result.to_json()["context"]))
    if result.synergy is not None:
        write_parquet(out / "synergy.parquet", result.synergy)
    if result.shapley is not None:
        write_parquet(out / "shapley.parquet", result.shapley)


def write_tune(out: Path, game, result):
    """tune.parquet, tune_rounds.parquet, the price chart, diff.md, the tuned content and manifest.json."""
    history = result.history_frame()
    write_parquet(out / "tune.parquet", result.table())
    write_parquet(out / "tune_rounds.parquet", history)
    atomic_write(out / "charts" / "tune.png", lambda p: tune_chart(
        history, "Card prices across tuning rounds (toward their value in G)", result.values.caption(), p))
    atomic_write(out / "diff.md", lambda p: p.write_text(result.to_markdown(), encoding="utf-8"))
    result.context.write_prices(out / "content", result.prices, rates=result.rates, kits=result.kits)
    write_json(out / "manifest.json", manifest(
        command_line(), content_dir=str(game.directory), content_hash=game.digest,
        files=["manifest.json", "tune.parquet", "tune_rounds.parquet", "charts/tune.png", "diff.md", "content/"],
        **{k: v for k, v in result.to_json().items() if k != "prices"}))


def write_pace(out: Path, game, result):
    """The content with the paced Stalkeriada prices in ``content/``, and manifest.json."""
    from sim.economy.tune import write_paced

    write_paced(Path(game.directory), out / "content", result.prices)
    write_json(out / "manifest.json", manifest(command_line(), content_dir=str(game.directory),
                                               content_hash=game.digest, files=["manifest.json", "content/"],
                                               **result.to_json()))
