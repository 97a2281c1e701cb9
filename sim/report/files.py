"""The files a run writes into its ``--out`` folder: tidy parquet tables, PNG
charts that name their trials, seed and assumed [A] values, and
``manifest.json`` (the command, the versions, the summary and the files)."""

import sys
from pathlib import Path

import polars as pl

from sim.report.charts import (economy_chart, fight_chart, journey_curves_chart, loadouts_chart, matrix_chart,
                               skirmish_chart, skirmish_distance_chart, stalkeriada_games_chart,
                               stalkeriada_wins_chart, tune_chart)
from sim.run.results import atomic_write, manifest, write_json, write_parquet

INTERVAL_SCHEMA = {"metric": pl.Utf8, "value": pl.Float64, "ci_lo": pl.Float64, "ci_hi": pl.Float64}


def command_line() -> list:
    """The command that started this run, as the manifest records it."""
    return ["zonesim", *sys.argv[1:]]


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


def write_encounter(out: Path, game, fight, strategy):
    """manifest.json, encounter.parquet (tidy metrics), encounter_hist.parquet, charts/encounter.png."""
    scenario = {"character": fight.loadout.character, **fight.loadout.columns(), "reputation": fight.loadout.reputation,
                "monsters": ",".join(fight.monsters), "strategy": strategy.name}
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
        strategy={"name": strategy.name, "params": dict(zip(strategy.param_names, strategy.params.tolist()))},
        scenario=scenario, elapsed_s=fight.elapsed_s, summary=fight.summary(), files=files,
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
    atomic_write(charts / "journey_curves.png", lambda p: journey_curves_chart(by_day, title, provenance, p))
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
    """tune.parquet, tune_rounds.parquet, the price chart, the tuned content and manifest.json."""
    history = result.history_frame()
    write_parquet(out / "tune.parquet", result.table())
    write_parquet(out / "tune_rounds.parquet", history)
    atomic_write(out / "charts" / "tune.png", lambda p: tune_chart(
        history, "Card prices across tuning rounds (toward their value in G)", result.values.caption(), p))
    result.context.write_prices(out / "content", result.prices, result.kits)
    write_json(out / "manifest.json", manifest(
        command_line(), content_dir=str(game.directory), content_hash=game.digest,
        files=["manifest.json", "tune.parquet", "tune_rounds.parquet", "charts/tune.png", "content/"],
        **{k: v for k, v in result.to_json().items() if k != "prices"}))


def write_pace(out: Path, game, result):
    """The content with the paced Stalkeriada prices in ``content/``, and manifest.json."""
    from sim.economy.tune import write_paced

    write_paced(Path(game.directory), out / "content", result.prices)
    write_json(out / "manifest.json", manifest(command_line(), content_dir=str(game.directory),
                                               content_hash=game.digest, files=["manifest.json", "content/"],
                                               **result.to_json()))


def write_comparison(out: Path, comparison):
    """compare.parquet, content_diff.parquet, charts/compare.png and manifest.json."""
    from sim.compare.charts import diff_chart

    rows, plan = comparison.rows, comparison.plan
    table = pl.DataFrame([{"name": r["name"], "unit": r["unit"], "base": r["base"], "new": r["new"], "diff": r["diff"],
                           "ci_low": r["diff_ci95"][0], "ci_high": r["diff_ci95"][1],
                           "significant": r["significant"], "size": r["size"]} for r in rows],
                         schema_overrides={k: pl.Float64 for k in ("base", "new", "diff", "ci_low", "ci_high")})
    write_parquet(out / "compare.parquet", table)
    diff = pl.DataFrame([{k: d[k] if k in ("file", "key") else repr(d[k]) for k in d}
                         for d in comparison.content_diff],
                        schema={"file": pl.String, "key": pl.String, "base": pl.String, "new": pl.String})
    write_parquet(out / "content_diff.parquet", diff)
    atomic_write(out / "charts" / "compare.png", lambda p: diff_chart(
        rows, f"NEW - BASE: {comparison.fields_changed()} of the content changed", comparison.provenance(), p))
    write_json(out / "manifest.json", manifest(
        command_line(), base=str(comparison.base), new=str(comparison.new), seed=plan.seed, quick=comparison.quick,
        groups=list(plan.groups), elapsed_s=comparison.elapsed_s))


def write_sensitivity(out: Path, sensitivity):
    """sensitivity.parquet, charts/tornado.png and manifest.json."""
    from sim.compare.charts import tornado_chart

    rows = sensitivity.parameters
    f = lambda v: None if v is None else float(v)  # noqa: E731
    table = pl.DataFrame([{"file": r["file"], "key": r["key"], "base": f(r["base"]), "low": f(r["low"]),
                           "high": f(r["high"]), "effect_low": f(r["effect_low"]),
                           "effect_low_ci_low": f(r["effect_low_ci95"][0]),
                           "effect_low_ci_high": f(r["effect_low_ci95"][1]), "effect_high": f(r["effect_high"]),
                           "effect_high_ci_low": f(r["effect_high_ci95"][0]),
                           "effect_high_ci_high": f(r["effect_high_ci95"][1])} for r in rows],
                         schema_overrides={"base": pl.Float64, "low": pl.Float64, "high": pl.Float64})
    write_parquet(out / "sensitivity.parquet", table)
    atomic_write(out / "charts" / "tornado.png", lambda p: tornado_chart(
        rows, sensitivity.metric, sensitivity.base_value, f"What {sensitivity.metric} hangs on: the assumed numbers "
        "by swing", sensitivity.provenance(), p))
    write_json(out / "manifest.json", manifest(
        command_line(), content_dir=str(sensitivity.folder), seed=sensitivity.seed, quick=sensitivity.quick,
        metric=sensitivity.metric, elapsed_s=sensitivity.elapsed_s))


def write_balance(out: Path, result):
    """balance.json, diff.md, one content copy per proposal (``proposal-N/content``,
    comments kept) and manifest.json."""
    from sim.balance.spec import with_values

    knobs = {k.label: k for k in result.spec.knobs}
    for n, p in enumerate(result.proposals, 1):
        target = out / f"proposal-{n}" / "content"
        if target.exists():
            import shutil

            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        with_values(result.folder, target, {knobs[label]: new for label, (_, new) in p["changes"].items()})
    atomic_write(out / "diff.md", lambda path: path.write_text(balance_markdown(result), encoding="utf-8"))
    write_json(out / "balance.json", result.to_json())
    write_json(out / "manifest.json", manifest(command_line(), content_dir=str(result.folder), seed=result.seed,
                                               balance=str(result.spec.path), elapsed_s=result.elapsed_s))


def balance_markdown(result) -> str:
    """The proposals as markdown: per proposal its changed numbers, then every target
    before and after with its 95% interval (fresh dice, full counts)."""
    def cell(v):
        lo, hi = v["ci95"]
        return f"{v['value']:.4g} [{lo:.4g}, {hi:.4g}]{' ✓' if v['met'] else ''}"

    lines = [f"# Balance proposals for {result.folder}", "",
             f"Targets of `{result.spec.path}`; {result.candidates} candidates searched (seed {result.seed}); "
             f"every number measured again on fresh dice (seed {result.seed + 1}) at the "
             f"{'quick' if result.quick else 'full'} counts of report.toml, 95% intervals; "
             f"✓ = in its band. The baseline meets {result.baseline_met()} of {len(result.targets)} targets.", ""]
    if not result.proposals:
        lines.append("No candidate came closer to the bands than the content as it is.")
    for n, p in enumerate(result.proposals, 1):
        lines += [f"## Proposal {n}: {p['changed']} number{'s' if p['changed'] != 1 else ''} changed, "
                  f"{p['met']} of {len(result.targets)} targets met", ""]
        lines += [f"- `{label}`: {old} → {new}" for label, (old, new) in p["changes"].items()] + [""]
        shown = [t for t in result.targets if not (result.baseline[t.metric]["met"] and p["targets"][t.metric]["met"])]
        lines += ["| target | band | baseline | proposal |", "|---|---|---|---|"]
        lines += [f"| {t.metric} | [{t.low:g}, {t.high:g}] | {cell(result.baseline[t.metric])} | "
                  f"{cell(p['targets'][t.metric])} |" for t in shown]
        lines += ["", f"The other {len(result.targets) - len(shown)} targets are met before and after (balance.json "
                      "holds every value).", ""]
    return "\n".join(lines) + "\n"
