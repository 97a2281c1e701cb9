"""The default balance study (``zonesim report``): fights of every monster
against loadout tiers, item values and fair prices in fights and skirmishes,
price tuning, journeys on the default map, Stalkeriada matchups and tactical
skirmishes, written as ``report.md`` and ``report.html`` with charts and
parquet tables. Every figure states its trials, seed and the [A] values it
rests on. The study's settings are ``report.toml`` of the content folder."""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl

from sim.content.load import Content, ContentError, read_toml
from sim.content.loadout import Loadout
from sim.report.findings import (dominant_finding, journey_finding, matchup_findings, monster_findings,
                                 no_winner_finding, price_findings, seat_findings)
from sim.run.results import atomic_write, write_parquet

REPORT_FILE = "report.toml"
TRIAL_KEYS = ("fights", "values", "loadouts", "skirmish", "skirmish_values", "journeys", "stalkeriada",
              "stalkeriada_search", "tune", "tune_rounds")


@dataclass
class Section:
    """One part of the report: a title, paragraphs, tables and images, in order."""

    title: str
    blocks: list = field(default_factory=list)
    elapsed_s: float = 0.0
    findings: list = field(default_factory=list)  # ``sim.report.findings.Finding``s its numbers show
    idle: dict = field(default_factory=dict)  # context -> the cards of no use there

    def text(self, s):
        self.blocks.append(("p", s))

    def table(self, frame: pl.DataFrame, caption=""):
        self.blocks.append(("table", frame, caption))

    def image(self, path, caption):
        self.blocks.append(("image", path, caption))


@dataclass(frozen=True)
class Study:
    """``report.toml``: settings, trial counts (full or quick) and loadout tiers."""

    settings: dict
    trials: dict
    tiers: dict
    quick: bool = False
    findings: dict = field(default_factory=dict)  # [findings]: the thresholds of sim.report.findings
    client: object = field(default=None, repr=False, compare=False)
    """A Dask client (``--workers``/``--scheduler``) the steps run their chunks on; None: this machine."""
    campaigns: dict = field(default_factory=dict, repr=False, compare=False)
    """The economy step's campaign context (key ``"declared"``), whose kits and runs the fights view reuses."""


def load_study(content: Content, quick: bool) -> Study:
    """Read and check ``report.toml`` (one-line errors naming file and field)."""
    directory = Path(content.directory)
    path = directory / REPORT_FILE
    raw = read_toml(directory, REPORT_FILE)
    study, trials, tiers = raw.get("study", {}), raw.get("trials", {}), raw.get("tiers", {})
    for key in TRIAL_KEYS:
        pair = trials.get(key)
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(n, int) and n >= 1 for n in pair)):
            raise ContentError(f"{path}: trials.{key}: expected [full, quick], two whole numbers >= 1, got {pair!r}")
    if not tiers:
        raise ContentError(f"{path}: [tiers]: give at least one loadout tier, e.g. [tiers.standard] weapon = \"ak47\"")
    parsed = {name: _tier(content, path, name, spec) for name, spec in tiers.items()}
    for key in ("value_tier", "journey_tier"):
        if study.get(key) not in parsed:
            raise ContentError(f"{path}: study.{key}: '{study.get(key)}' is not a tier; use one of: {', '.join(parsed)}")
    for key in ("value_monsters", "skirmish_monsters"):
        for m in study.get(key, []):
            if m not in content.monsters:
                raise ContentError(f"{path}: study.{key}: unknown monster '{m}'; use one of: {', '.join(content.monsters)}")
    return Study(study, {k: v[1 if quick else 0] for k, v in trials.items()}, parsed, quick,
                 findings=_thresholds(path, raw.get("findings")))


def _thresholds(path, table) -> dict:
    """``[findings]`` of report.toml: every threshold of ``sim.report.findings.FINDINGS_KEYS``."""
    from sim.report.findings import FINDINGS_KEYS

    if not isinstance(table, dict):
        raise ContentError(f"{path}: [findings]: missing section; copy it from the default {REPORT_FILE}")
    out = {}
    for key, (kind, low) in FINDINGS_KEYS.items():
        value = table.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= low:
            raise ContentError(f"{path}: findings.{key}: expected a number above {low:g}, got {value!r}")
        out[key] = float(value)
    return out


def _tier(content, path, name, spec):
    healing = []
    for text in spec.get("stims", []):
        item_id, _, n = text.partition(":")
        healing.append((item_id, int(n or 1)))
    try:
        return Loadout(character=spec.get("character", "novice"), weapon=spec.get("weapon"),
                       mods=tuple(spec.get("mods", ())), head=spec.get("head"), body=spec.get("body"),
                       healing=tuple(healing)).validate(content)
    except ContentError as exc:
        raise ContentError(f"{path}: tiers.{name}: {exc}") from None


# --- the steps -----------------------------------------------------------------------

def fights_step(content, study, out):
    """Survival of every tier against every monster (one monster at a time)."""
    import strategies
    from sim.report.charts import survival_heatmap
    from sim.run.fight import simulate_fight

    s = Section("Fights: survival by monster and loadout tier")
    strategy, seed, n = strategies.get(study.settings["strategy"]), study.settings["seed"], study.trials["fights"]
    rows = []
    for monster in content.monsters:
        for tier, loadout in study.tiers.items():
            r = simulate_fight(content, loadout, [monster], strategy, trials=n, seed=seed)
            lo, hi = r.ci95["p_survive"]
            rows.append({"monster": monster, "tier": tier, "p_survive": r.probabilities["p_survive"],
                         "ci_low": lo, "ci_high": hi, "trials": n})
    frame = pl.DataFrame(rows)
    write_parquet(out / "fights.parquet", frame)
    provenance = (f"{n:,} fights per cell, seed {seed}, strategy {strategy.name} · assumed [A]: the bestiary "
                  f"(monsters.toml), weapon dice, armour, healing and prices (items.toml), base HP")
    atomic_write(out / "charts" / "fights_heatmap.png", lambda p: survival_heatmap(
        frame, list(content.monsters), list(study.tiers), "P(survive) by monster and loadout tier", provenance, p))
    s.text("Each cell is one stalker of the tier fighting one monster to the end (Z-15..Z-38) under the "
           f"`{strategy.name}` strategy; the number is P(survive) with its 95% Wilson interval half-width.")
    s.table(pl.DataFrame({"tier": list(study.tiers),
                          "loadout": [l.by_slot(character=True) for l in study.tiers.values()],
                          "price (G)": [l.cost(content) for l in study.tiers.values()]}), "The tiers")
    s.image("charts/fights_heatmap.png", provenance)
    s.findings += monster_findings(rows, study.findings["kill_share"], f"the survival heat map (one monster, fought "
                                   f"to the end), {n:,} fights, seed {seed}, {strategy.name}", s.title,
                                   content.display_names())
    player_strength(s, content, study, strategy, rows, out)
    return s


def player_strength(s: Section, content, study, strategy, rows, out):
    """How much of each survival is the player's: the study strategy's survival beside the
    optimal player's (``sim.analysis.optimal``, exact: the escape try, Z-33, the weapon each
    round, Z-18, the stimulators at each death check, Z-08), and beside the optimal player
    who may not escape (restricted play: the fight to the end played best); the strategy's
    exact where its chain solves it."""
    from sim.run.fight import chain_solves, exact_fight, optimal_fight

    solvable = all(chain_solves(strategy.name, loadout) for loadout in study.tiers.values())
    table = []
    for r in rows:
        loadout = study.tiers[r["tier"]]
        best = optimal_fight(content, loadout, [r["monster"]])[1]
        staying = optimal_fight(content, loadout, [r["monster"]], may_escape=False)[1]
        mine = (exact_fight(content, loadout, [r["monster"]], strategy).probabilities["p_survive"] if solvable
                else r["p_survive"])
        table.append({"monster": r["monster"], "tier": r["tier"], "strategy": strategy.name, "p_survive": mine,
                      "p_optimal_no_escape": staying.p_survive, "p_optimal": best.p_survive,
                      "gap": best.p_survive - mine, "optimal_tries_escape": best.tries_escape})
    frame = pl.DataFrame(table)
    write_parquet(out / "player_strength.parquet", frame)
    fight = content.rules["fight"]
    start = content.rules["stalker"]["start_reputation"]
    escapes = sum(t["optimal_tries_escape"] for t in table)
    how = "exactly, by its Markov chain" if solvable else f"on {study.trials['fights']:,} fights"
    s.text(f"**How strong is the player.** Every survival above is the `{strategy.name}`'s; in the table below it "
           f"is measured {how}, beside the optimal player's. The optimal player, solved exactly (`zonesim "
           "encounter --strategy optimal --exact`: the escape try (Z-33), the weapon each round (Z-18) and the stimulators at each death check (Z-08) that make his "
           f"survival largest), survives {_span_text([t['p_optimal'] for t in table])} of these fights and tries the "
           f"escape in {escapes} of {len(table)}. At the starting reputation "
           f"({start}, `rules.toml` [stalker] start_reputation [A]) an escape roll succeeds on a d6 at or above the "
           f"reputation, and a reputation at or below {fight['escape_auto_max']} always escapes (Z-33, "
           "escape_auto_max [A]): where the gap is large, the heat map measures a fight the rules let a stalker "
           "leave, not the monster. The optimal player who may not escape (restricted play) plays the fight to "
           f"the end best: {_play_gap(max(t['p_optimal_no_escape'] - t['p_survive'] for t in table), strategy.name)}")
    widest = frame.sort("gap", descending=True).head(8)
    shown = widest.drop("strategy").with_columns(pl.col("gap", "p_survive", "p_optimal", "p_optimal_no_escape").round(4))
    s.table(shown.rename({"p_survive": f"{strategy.name} survives", "p_optimal_no_escape": "optimal, no escape",
                          "p_optimal": "optimal survives", "optimal_tries_escape": "optimal tries the escape"}),
            f"The widest gaps between the optimal player and `{strategy.name}` (all {len(table)}: "
            "player_strength.parquet)")


def _span_text(shares) -> str:
    """``97.1% to 100.0%``, or one share where all are alike to the digit shown."""
    low, high = f"{min(shares):.1%}", f"{max(shares):.1%}"
    return low if low == high else f"{low} to {high}"


def _play_gap(gap, name) -> str:
    """What the fight to the end played best adds to ``name``'s play of it."""
    if gap < 5e-5:
        return f"he survives no more than the `{name}`, who plays it as well as it can be played."
    return f"he survives up to {gap:.2%} more than the `{name}`, whose play of it costs that much."


TIER_COLUMNS = ["item", "price", "effect", "value_g", "value_low", "value_high", "plays_low", "plays_high",
                "upgrade_g", "reservation_g", "verdict"]
ECONOMY_COLUMNS = ["item", "family", "price", "effect", "value_g", "value_low", "value_high", "plays_low",
                   "plays_high", "upgrade_g", "reservation_g", "verdict"]


def _with_bounds(frame):
    """``frame`` with its value interval as ``value_low`` and ``value_high``, and the
    value's lowest and highest over the plausible plays as ``plays_low`` and ``plays_high``."""
    return frame.with_columns(pl.col("value_g_ci95").list.get(0).alias("value_low"),
                              pl.col("value_g_ci95").list.get(1).alias("value_high"),
                              pl.col("value_g_spread").list.get(0).alias("plays_low"),
                              pl.col("value_g_spread").list.get(1).alias("plays_high"))


def value_section(s: Section, result, out, stem, title, assumed):
    """The values of ``result`` (``sim.economy.value``) into section ``s``: the
    method in a paragraph, one table per tier (its kit and rate), the overall
    table and the chart; the tables written as ``STEM.parquet`` and ``STEM_tiers.parquet``."""
    from sim.report.charts import economy_chart

    table = result.table()
    write_parquet(out / f"{stem}.parquet", table)
    write_parquet(out / f"{stem}_tiers.parquet", result.tier_table())
    caption = result.caption()
    atomic_write(out / "charts" / f"{stem}.png", lambda p: economy_chart(table, title, caption, p))
    s.text(f"**Context:** {caption}.")
    unit = result.rate["unit"]
    s.text(f"A card's value is what it does, in G at one exchange rate per tier. Each tier's kit is bought once by "
           f"the shopper on selection trials and then frozen; a card's effect is its paired change in {unit} on the "
           "valuation trials (a card that takes a slot: in its slot against the kit with no card of its kind; a "
           "consumable: one copy at the margin the kit faces, the n-th held copy against n-1, another strength in "
           "place of a held one, else the first on top), each side played by the family's strongest strategy for "
           "it (the tier's own kit by the tier's). The tier's rate is the kit's cards' effects over their prices, "
           "every held copy counted, so they are worth together what they cost together, and no price of a card "
           "the tier does not buy enters a value. *Upgrade*: over the card of its kind the kit holds. "
           "*Reservation*: the most the tier's buyer would pay at today's prices of the others (its value less "
           "the best surplus of a card of its kind). "
           "*Plays low / high*: the value's lowest and highest under each play the shopper could as well have "
           "picked: both kit choices, and each strategy of the family not clearly worse with the kit (within 2 "
           "standard errors on the selection trials); overall, with one tier's play changed at a time. "
           "Verdicts, read from the intervals: *under-priced* / *over-priced* (the price below / above the 95% "
           "value interval with its ends rounded to the nearest price step), *fair*, *worth nothing here* (left "
           "at home: its effect interval lies at or below 0), *no use here* (its effect interval holds 0: nothing "
           "measured says it changes the outcome; or its value interval lies under half a price step), *not valued* (with the reason). A star marks the kit's cards.")
    for tier in result.tiers:
        d = tier.describe()
        agreement = d["agreement"]
        stable = ("the kit is given" if agreement["pinned"] else "a second choice on other dice buys the same kit"
                  if agreement["agree"] else f"a second choice on other dice differs in {', '.join(agreement['differ'])} "
                  "(the intervals span both)")
        spent = "" if d["unspent"] is None else f", {d['unspent']:,} G unspent"
        rows = _with_bounds(pl.DataFrame(tier.rows, infer_schema_length=None))
        idle = rows.filter(pl.col("verdict") == "no use here")["item"].to_list()
        shown = rows.filter(pl.col("verdict") != "no use here").with_columns(
            pl.when(pl.col("in_kit")).then(pl.col("item") + "*").otherwise(pl.col("item")).alias("item"))
        s.table(shown.select(TIER_COLUMNS).sort("value_g", descending=True, nulls_last=True),
                f"{tier.label}: {d['strategy']} {'plays' if agreement['pinned'] else 'buys'} {d['kit']} "
                f"({d['kit_cost']:,} G{spent}; {d['outcome']:.4g} {unit}); {tier.rate_text().split(': ', 1)[1]}; "
                f"{stable}" + (f"; as plausible: {others}" if (others := tier.other_plays()) else "")
                + (f"; no use here: {', '.join(idle)}" if idle else "")
                + (f"; played by another strategy: {sides}" if (sides := tier.other_strategies()) else ""))
    from sim.economy.value import rate_text

    rate = result.rate
    s.text(f"**Overall:** a card's mean effect over {', '.join(rate['tiers']) or 'no tier'} at one rate, set so that "
           f"the cards the tiers buy are worth together what they cost together: "
           f"{rate_text('overall', rate['rate'], unit, rate['reason']).split(': ', 1)[1]}.")
    verdicts = table["verdict"].value_counts().sort("verdict")
    s.text("Verdicts overall: " + ", ".join(f"{v} {n}" for v, n in verdicts.iter_rows()) + ".")
    s.image(f"charts/{stem}.png", caption + " · assumed [A]: " + assumed)
    s.table(_with_bounds(table).select(ECONOMY_COLUMNS).sort("value_g", descending=True, nulls_last=True),
            f"Every card overall · {caption}")


def objective_section(s: Section, result, out):
    """Every card's value under each objective of economy.toml, one column each
    (written as ``economy_objectives.parquet``)."""
    from sim.economy.objective import g_amount

    table = result.objective_table()
    write_parquet(out / "economy_objectives.parquet", table)
    objectives = result.by_objective["objectives"]
    rates = "; ".join(f"**{o['describe']}**, " + ("no rate" if o["g_per_unit"] is None else
                                                  f"1 = {g_amount(o['g_per_unit'])} G") for o in objectives)
    s.text("**What each card buys.** The rulebook gives no victory condition, so what a campaign is played for is "
           f"an assumption [A] (economy.toml `[objectives]`). The same kits and campaigns, scored by each objective, "
           f"each at its own rate per tier: {rates}. A card can be worth much under one objective and little under "
           "another: the column says what it buys.")
    columns = ["item", "price", *(f"{o['name']}_g" for o in objectives)]
    s.table(table.select(columns).sort(columns[2], descending=True, nulls_last=True),
            f"Value in G under each objective · {result.caption()}")


def other_objectives(result) -> dict:
    """``{card: "Under the other objectives it is worth 1,234 G (wealth), ..."}`` from ``by_objective``."""
    used = result.context.objective.name
    names = [o["name"] for o in result.by_objective["objectives"] if o["name"] != used]
    out = {}
    for row in result.by_objective["rows"]:
        worth = [f"{row[f'{n}_g']:,.0f} G ({n})" for n in names if row[f"{n}_g"] is not None]
        if worth:
            out[row["item"]] = f"Under the other objectives it is worth {', '.join(worth)}."
    return out


def shapley_section(s: Section, result, out):
    """Each tier's kit shared among its cards by Shapley value, beside the one-removed
    values (written as ``shapley.parquet``)."""
    from sim.economy.shapley import kit_shares

    frame = kit_shares(result)
    write_parquet(out / "shapley.parquet", frame)
    s.text("**Kit-mates.** A card's value above is what removing it from the kit costs, so two cards that need each "
           "other (a flashlight and a fast mover) are each credited with their joint effect, and two that stand in "
           "for each other (two kinds of grenade) with little. The Shapley share is a card's effect averaged over "
           "every order the kit could have been bought in, exact over every sub-kit on the same campaigns; the "
           "shares add up to the kit's whole effect (the kit against none), and in G, at that whole effect over the "
           "kit's cost, to the kit's cost.")
    shown = frame.filter(pl.col("reason").is_null()).with_columns(
        pl.col("share_g_ci95").list.get(0).alias("share_g_low"), pl.col("share_g_ci95").list.get(1).alias("share_g_high"))
    s.table(shown.select("tier", "item", "count", "price", "share", "share_g", "share_g_low", "share_g_high",
                         "removal_effect", "value_g"),
            f"Shapley shares of each tier's kit · {result.caption()}")
    for row in frame.filter(pl.col("reason").is_not_null()).iter_rows(named=True):
        s.text(f"{row['tier']}: no Shapley shares ({row['reason']}).")


def economy_step(content, study, out):
    """Whole-game item values in G over the declared context (economy.toml)."""
    from sim.economy.context import declared, load_context
    from sim.economy.value import value_cards, values_by_objective

    s = Section("Item economy: what every card is worth in G")
    result = value_cards(declared(content, load_context(content, quick=study.quick), client=study.client))
    study.campaigns["declared"] = result.context
    value_section(s, result, out, "economy", "Value of every card in G beside its price (journey campaigns)",
                  "the event tables, monster groups and order deck (journey.toml), the bestiary (monsters.toml), "
                  "item numbers and prices (items.toml), the objective (economy.toml)")
    by_objective = values_by_objective(result)
    objective_section(s, by_objective, out)
    shapley_section(s, result, out)
    campaign_player_section(s, result, out)
    ctx = result.context
    s.findings += price_findings(result.items, study.findings["price_factor"], f"the journey campaigns "
                                 f"(economy.toml, the {ctx.objective.name} objective), {ctx.trials:,} campaigns "
                                 f"a kit, seed {ctx.seed}", s.title, other_objectives(by_objective),
                                 content.display_names(), step=ctx.price_step)
    s.idle["the journey campaigns"] = _idle(result)
    return s


def campaign_player_section(s: Section, result, out):
    """How strong is the campaign's player: each tier's kit played by the strategy its values
    were measured with and by the tuned player (``sim.run.player``: searched for the kit and
    the objective on other dice), paired on the valuation campaigns."""
    import strategies
    from sim.analysis.stats import Z95
    from sim.run.journey import campaign_outcomes
    from sim.run.player import tuned_player

    ctx, table = result.context, []
    for tier in result.tiers:
        kit, name = tier.choice.kit, tier.choice.strategy
        player = tuned_player(ctx.content, kit, ctx.objective, goal=ctx.goal_orders, days=ctx.days, seed=ctx.seed)
        scores = [ctx.objective.score(campaign_outcomes(ctx.content, kit, strategy, days=ctx.days, seed=ctx.seed,
                                                        first=0, n=ctx.trials), ctx.days, ctx.goal_orders)
                  for strategy in (strategies.get(name, mode="journey"), player.strategy)]
        diff = scores[1] - scores[0]
        half = Z95 * float(diff.std(ddof=1)) / math.sqrt(diff.size)
        table.append({"tier": tier.label, "kit": kit.describe(), "strategy": name, "outcome": float(scores[0].mean()),
                      "tuned": float(scores[1].mean()), "gain": float(diff.mean()),
                      "gain_low": float(diff.mean()) - half, "gain_high": float(diff.mean()) + half,
                      "tuned_player": player.strategy.description.removeprefix("tuned: ")})
    frame = pl.DataFrame(table)
    write_parquet(out / "campaign_player.parquet", frame)
    unit = ctx.objective.unit
    gains = ", ".join(f"{t['gain']:+.2f} [{t['gain_low']:+.2f}, {t['gain_high']:+.2f}] at {t['tier']}" for t in table)
    s.text(f"**How strong is the player.** Every value above is a built-in strategy's: each kit is played by the "
           f"strongest of economy.toml's family. The tuned player (`--strategy tuned`, docs: guide/strategies.md) "
           f"is searched for each tier's kit and the {ctx.objective.name} objective on dice these campaigns never "
           f"use; on the same {ctx.trials:,} campaigns a kit (seed {ctx.seed}) he changes the {unit} by {gains}. "
           "A card's value is its effect over the kit's; where a stronger player gains alike with and without "
           "it, the value stands, and `zonesim value --mode journey --kit KIT --items CARD --strategy tuned` "
           "measures one card with him on both sides.")
    s.table(frame.drop("kit").with_columns(pl.col("outcome", "tuned", "gain", "gain_low", "gain_high").round(2))
            .rename({"strategy": "played by", "outcome": unit, "tuned": "tuned player", "tuned_player": "what he does"}),
            "Each tier's kit: its strategy and the tuned player, paired (campaign_player.parquet)")


def _idle(result) -> list:
    """The cards of no use anywhere in ``result``."""
    return [r["item"] for r in result.items if r["verdict"] == "no use here"]


def economy_fights_step(content, study, out):
    """Card values in G in the fights sub-view: the monsters the campaigns meet, fought out."""
    from sim.economy.context import declared, load_context
    from sim.economy.value import value_cards

    s = Section("Item economy in fights: what every card is worth against the monsters the campaigns meet")
    result = value_cards(declared(content, load_context(content, quick=study.quick), view="fights",
                                  client=study.client, campaign=study.campaigns.get("declared")))
    s.text("The same budget tiers on another outcome: the chance to survive one monster encounter, the monster "
           "groups weighted by how often each tier's campaigns meet them (their hex entries and the event tables "
           "of journey.toml, Z-39), every fight fought to its end (a runner at reputation 0 escapes every fight, "
           "Z-33). The fight kit is bought on survival by the same shopper, and the rate is its own, so these "
           "values say what cards are worth if fights were the whole game. Each encounter starts with the whole "
           "kit, so explosives and stimulators are fresh in every fight; over a campaign they run out: for "
           "single-use cards these values are an upper bound, and no finding rests on this view alone (the "
           "campaign's own values above count every card as it is spent).")
    mix = pl.DataFrame([{"tier": t.label, **{g: f"{r:.2f} ({sh:.0%})" for g, r, sh in
                                              zip(t.mix.labels(), t.mix.per_campaign, t.mix.shares)}}
                        for t in result.tiers])
    s.table(mix, "Monster encounters per campaign of each tier's campaign kit and strategy (share of encounters)")
    value_section(s, result, out, "economy_fights", "Value of every card in G in fights against the campaigns' "
                  "monsters, beside its price", "the event tables and monster groups (journey.toml), the bestiary "
                  "(monsters.toml), item numbers and prices (items.toml)")
    s.idle["fights against the campaigns' monsters"] = _idle(result)
    return s


def _scenario(content, study, **options):
    """A scenario context of ``sim.economy.context`` with the study's seed and strategy."""
    from sim.economy.context import load_context, scenario

    return scenario(content, load_context(content, quick=study.quick), seed=study.settings["seed"],
                    client=study.client, **options)


def values_step(content, study, out):
    """Card values in one fight with the value tier's loadout, and the pairs that interact."""
    import strategies
    from sim.economy.synergy import synergies, synergy_pairs
    from sim.economy.value import value_cards
    from sim.run.fight import FightMeasure

    s = Section("Item values in one fight (a narrow view: one loadout, one monster)")
    base, monsters = study.tiers[study.settings["value_tier"]], study.settings["value_monsters"]
    strategy, seed, n = study.settings["strategy"], study.settings["seed"], study.trials["values"]
    result = value_cards(_scenario(content, study, mode="fight", monsters=monsters, loadout=base,
                                   strategies=(strategy,), trials=n))
    s.text(f"The {study.settings['value_tier']} loadout ({base.by_slot(character=True)}) as it is, against "
           f"{' + '.join(monsters)}, {n:,} paired fights per kit.")
    value_section(s, result, out, "values", "Value of every card in G in one fight, beside its price",
                  "prices (items.toml), the bestiary, weapon and armour numbers")
    s.idle[f"one fight against {' + '.join(monsters)}"] = _idle(result)
    pairs = synergies(content, base, FightMeasure(content, tuple(monsters), strategies.get(strategy)),
                      synergy_pairs(content, base), trials=n, seed=seed)
    write_parquet(out / "synergy.parquet", pairs)
    s.text("Synergy: how much more two changes are worth together than the sum of their worths alone, on the same "
           "dice. Read `synergy_log_odds` (with its 95% interval over 20 paired batches): the interaction on the "
           "log-odds of survival, a scale that does not saturate. exp of it is the factor by which the pair "
           "multiplies the odds of surviving beyond what each does alone (+0.4: 1.5 times the odds). Above 0: "
           "complements, worth buying together; below 0: substitutes, the second adds less once the first is "
           "there. `synergy` is the same interaction in survival probability; near certain survival it is "
           "negative for almost every pair, because nothing can add more than what is left to 1, so it says "
           "little about the cards.")
    s.table(pairs, "Pairs that interact: the firearm's modifiers (Z-21), Doktor (Z-03) with each stimulator, "
                   "each escape item with two more reputation (Z-32, Z-33)")
    return s


def loadouts_step(content, study, out):
    """Every loadout within the study's budget: the Pareto front and the best per budget step."""
    import strategies
    from sim.report.charts import loadouts_chart
    from sim.run.loadouts import best_per_step, enumerate_loadouts, evaluate_loadouts, monster_mix

    s = Section("Loadouts: what each budget buys")
    budget, step = study.settings["loadout_budget"], study.settings["loadout_step"]
    monsters, strategy = study.settings["value_monsters"], strategies.get(study.settings["strategy"])
    seed, n = study.settings["seed"], study.trials["loadouts"]
    loadouts = enumerate_loadouts(content, budget=budget, max_count=1)
    result = evaluate_loadouts(content, loadouts, monster_mix(content, monsters), strategy, trials=n, seed=seed,
                               client=study.client)
    table = result.table()
    steps = best_per_step(table, step, budget)
    write_parquet(out / "loadouts.parquet", table)
    write_parquet(out / "loadouts_steps.parquet", steps)
    provenance = (f"{len(loadouts):,} loadouts costing up to {budget:,} G (at most one of each stimulator and "
                  f"explosive), {n:,} fights each on common dice, seed {seed}, strategy {strategy.name}, vs "
                  f"{' + '.join(monsters)} · assumed [A]: prices (items.toml), the bestiary, weapon and armour numbers")
    atomic_write(out / "charts" / "loadouts.png", lambda p: loadouts_chart(
        table, steps, f"Survival vs cost of every loadout up to {budget:,} G", provenance, p))
    front = table.filter(pl.col("pareto")).sort("cost")
    s.text(f"Every legal loadout a novice can buy with {budget:,} G fights {' + '.join(monsters)} on the same "
           f"{n:,} trials. {front.height} of the {table.height:,} are on the Pareto front: no cheaper loadout "
           "survives as often.")
    s.image("charts/loadouts.png", provenance)
    s.table(steps.select("budget", "cost", "survival", "ci_low", "ci_high", "description"),
            f"The best loadout within each {step:,} G step")
    return s


def skirmish_step(content, study, out):
    """Tactical skirmishes: the three strategies, a distance-terrain sweep, item values."""
    from sim.content.skirmish import load_arena, load_skirmish, make_setup
    from sim.report.charts import skirmish_distance_chart
    from sim.economy.value import value_cards
    import strategies
    from sim.run.skirmish import simulate_skirmish, terrain_sweep

    s = Section("Tactical skirmishes")
    sk = load_skirmish(content)
    arena = load_arena(sk)
    base, monsters = study.tiers[study.settings["value_tier"]], study.settings["skirmish_monsters"]
    seed, n = study.settings["seed"], study.trials["skirmish"]
    rows = []
    for name in ("hold", "kite", "rush"):
        strat = strategies.get(name, mode="skirmish")
        r = simulate_skirmish(make_setup(content, sk, [base], monsters, arena, name), strat, trials=n, seed=seed,
                              client=study.client)
        p = r.proportions().row(3, named=True)
        means = {row["measure"]: row["mean"] for row in r.means().iter_rows(named=True)}
        rows.append({"strategy": name, "p_survive": p["value"], "ci_low": p["ci_low"], "ci_high": p["ci_high"],
                     "mean_rounds": means["rounds"], "damage_dealt": means["damage_dealt"],
                     "damage_taken": means["damage_taken"]})
    frame = pl.DataFrame(rows)
    write_parquet(out / "skirmish.parquet", frame)
    best = strategies.get(frame.sort("p_survive", descending=True)["strategy"][0], mode="skirmish")
    sweep_n = max(1, n // 5)
    sweep = terrain_sweep(lambda a, d: make_setup(content, sk, [base], monsters, a, best.name, d), best, arena,
                          [2, 4, 6, 8, 10], trials=sweep_n, seed=seed, client=study.client)
    write_parquet(out / "skirmish_sweep.parquet", sweep)
    assumed = "; ".join(a.split(": ", 1)[1] for a in sk.assumed if a.split(": ", 1)[1].startswith("rules."))
    provenance = (f"{sweep_n:,} skirmishes per point, seed {seed}, strategy {best.name}, "
                  f"{base.by_slot(character=True)} vs {' + '.join(monsters)} · assumed [A] (skirmish.toml): {assumed}, "
                  "and every "
                  "stalker's and monster's tactical numbers")
    atomic_write(out / "charts" / "skirmish_distance.png", lambda p: skirmish_distance_chart(
        sweep, "Skirmish survival vs starting distance and terrain", provenance, p))
    vn = study.trials["skirmish_values"]
    values = value_cards(_scenario(content, study, mode="skirmish", monsters=monsters, loadout=base,
                                   strategies=(best.name,), trials=vn))
    table = _with_bounds(values.table())
    write_parquet(out / "skirmish_values.parquet", table)
    s.idle[f"a skirmish against {' + '.join(monsters)}"] = _idle(values)
    s.text(f"One stalker ({base.by_slot(character=True)}) against {' + '.join(monsters)} on the built-in 15x15 arena, "
           f"{n:,} skirmishes per strategy, seed {seed} (rules A-01..A-07, M-01..M-08).")
    s.table(frame, "Survival by strategy, with 95% Wilson intervals")
    s.image("charts/skirmish_distance.png", provenance)
    tier = values.tiers[0]
    s.table(table.filter(pl.col("value_g").is_not_null()).sort("value_g", descending=True).head(8)
            .select("item", "price", "effect", "value_g", "value_low", "value_high", "verdict"),
            f"The eight most valuable cards in skirmishes ({best.name}, the loadout as it is, {vn:,} paired "
            f"skirmishes per kit, seed {seed}; {tier.rate_text()})")
    return s


def tune_step(content, study, out):
    """Price tuning in one fight: the study's budget buys the kit, every card to its value."""
    from sim.economy.tune import tune_prices
    from sim.report.charts import tune_chart

    s = Section("Price tuning in one fight (a narrow view)")
    monsters, budget = study.settings["value_monsters"], study.settings["tune_budget"]
    n, rounds = study.trials["tune"], study.trials["tune_rounds"]
    ctx = _scenario(content, study, mode="fight", monsters=monsters, strategies=(study.settings["strategy"],),
                    budgets=(budget,), trials=n)
    result = tune_prices(ctx, rounds=rounds)
    history = result.history_frame()
    write_parquet(out / "tune.parquet", result.table())
    provenance = f"{result.values.caption()} · the prices are the [A] values of items.toml"
    atomic_write(out / "charts" / "tune.png", lambda p: tune_chart(history, "Card prices across tuning rounds",
                                                                   provenance, p))
    moves = len(result.history) - 1
    state = ("converged: every moving price lies in its value interval, the kit held" if result.converged else
             "had not converged (a price still lies outside its value interval)")
    tier = result.values.tiers[0]
    check = result.kit_check[tier.label]
    after = ("" if not check.get("clearly_better") else
             f" At the tuned prices the shopper would buy {check['would_buy']} instead ({check['gain']:+.4f} survival, "
             f"standard error {check['gain_se']:.4f}): at prices equal to values he is nearly indifferent between "
             "kits, so the tuning holds the one it started from.")
    s.text(f"Every card's price moves to its value in G against {' + '.join(monsters)}, the {budget:,} G buyer's kit "
           f"({tier.choice.kit.describe()}) held: {moves} move{'s' * (moves != 1)}; the tuning {state}. At the tuned "
           f"prices that kit survives {tier.outcome:.4f} of the fights and {tier.rate_text().split(': ', 1)[1]}."
           f"{after} `zonesim tune --out DIR` writes the tuned content as a copy to diff.")
    s.image("charts/tune.png", provenance)
    changed = result.table().filter(pl.col("new_price") != pl.col("old_price"))
    s.table(changed.select("item", "old_price", "new_price", "value_g", "fair_low", "fair_high", "verdict"),
            "Prices the tuning moved, with the value interval at the new prices")
    return s


def journeys_step(content, study, out):
    """Campaigns on the default map: completion, survival and where stalkers die."""
    from sim.content.journey import load_journey
    from sim.report.hexmap import draw_map
    import strategies
    from sim.run.journey import simulate_journey

    s = Section("Journeys on the default map")
    loadout, seed = study.tiers[study.settings["journey_tier"]], study.settings["seed"]
    n, days = study.trials["journeys"], study.settings["journey_days"]
    strat = strategies.get("cautious", mode="journey")
    result = simulate_journey(content, loadout, strat, days=days, trials=n, seed=seed, client=study.client)
    hexmap = load_journey(content).hexmap
    rows = [{"measure": k, "value": v, "ci_low": result.ci95[k][0], "ci_high": result.ci95[k][1]}
            for k, v in result.probabilities.items()]
    frame = pl.DataFrame(rows)
    write_parquet(out / "journeys.parquet", frame)
    provenance = (f"{n:,} campaigns of {days} days, seed {seed}, strategy {strat.name}, "
                  f"{loadout.by_slot(character=True)} · "
                  "assumed [A]: event tables, monster groups, traps and orders (journey.toml), the danger grid")
    atomic_write(out / "charts" / "journey_deaths.png", lambda p: draw_map(
        hexmap, p, title=f"Where stalkers die · {hexmap.name}", provenance=provenance,
        heat=result.deaths_at * 1000.0 / n, heat_label="deaths per 1,000 campaigns"))
    s.text(f"A stalker with {loadout.by_slot(character=True)} draws orders from the content's deck for {days} days "
           f"({strat.name} strategy); the goal is {result.goal_orders} order cards held at once, and a death sends "
           "them back to the deck (Z-09, Z-41).")
    s.table(frame, "Completion and survival, with 95% Wilson intervals")
    s.image("charts/journey_deaths.png", provenance)
    low, high = result.ci95["p_complete"]
    s.findings += journey_finding(result.probabilities["p_complete"], low, high, study.findings["finish_below"],
                                  study.settings["journey_tier"], f"the report's journey, {n:,} campaigns of {days} "
                                  f"days, seed {seed}, {strat.name}, {loadout.by_slot(character=True)}", s.title)
    return s


def stalkeriada_step(content, study, out):
    """A round robin of the four shipped Stalkeriada strategies, in pairs."""
    from sim.content.stalkeriada import load_stalkeriada
    from sim.report.charts import matrix_chart
    from sim.run.stalkeriada import DEFAULT_PLAYERS, round_robin

    from sim.run.stalkeriada import simulate_stalkeriada

    s = Section("Stalkeriada matchups")
    names, seed, n = list(DEFAULT_PLAYERS), study.settings["seed"], study.trials["stalkeriada"]
    table = simulate_stalkeriada(content, names, games=n, seed=seed, rotate_seats=True, client=study.client)
    wins = table.win_rates()
    none = wins.filter(pl.col("strategy") == "(no winner)").row(0, named=True)
    length = table.length_summary()
    s.text(f"**No winner in {none['win_rate']:.1%} of games** [{none['ci_low']:.1%}, {none['ci_high']:.1%}] at the "
           f"full table ({', '.join(names)}; {table.games:,} games, every seat order, seed {seed}): nobody buys "
           f"an exit visa (S-05) within the round cap of {table.round_cap:,} rounds. "
           + ("Every game runs to that cap" if length["mean"] >= table.round_cap else
              f"Games last {length['mean']:.0f} rounds on average (median {length['median']:.0f})")
           + ": a game goes on until every player has bought his "
           "visa (S-05), so one player who never does keeps it to the cap. Sold loot leaves play (S-06, S-14, "
           "S-21), so the money in a game is bounded; the visa's price (stalkeriada.toml) against the loot prices "
           "sets whether anyone can finish. `zonesim tune --mode stalkeriada --objective target-finish=0.5` finds "
           "the visa price (or, with `--move loot`, the loot prices) at which half the games have a winner.")
    shown = table.per_player().select("strategy", "mean_place", "p_last").join(
        wins.select("strategy", "win_rate", "ci_low", "ci_high"), on="strategy", how="left")
    s.table(shown.select(pl.col("strategy").alias("Strategy"),
                         pl.format("{}% [{}%, {}%]", *(pl.col(c).mul(100).round(1) for c in
                                                       ("win_rate", "ci_low", "ci_high"))).alias("Won (95% interval)"),
                         pl.col("mean_place").round(2).alias("Mean place"),
                         pl.col("p_last").mul(100).round(1).alias("Placed last (%)")),
        f"The full table: finished first (win rate), mean place (S-05: by finishing order, then by money at the cap) "
        f"and the share placed last · {table.games:,} games, seed {seed}")
    full_table = (f"the full Stalkeriada table ({', '.join(names)}), {table.games:,} games, every seat order, "
                  f"seed {seed}")
    s.findings += no_winner_finding(none["win_rate"], none["ci_low"], none["ci_high"], length["mean"],
                                    study.findings["no_winner_above"], full_table, s.title, cap=table.round_cap)
    s.findings += seat_findings(table.seat_advantage().to_dicts(), none["win_rate"], study.findings["seat_gap"],
                                full_table, s.title)
    tuned_table_section(s, content, names, n, seed, study.client, out)
    search_table_section(s, content, names, study.trials["stalkeriada_search"], seed, study.client, out)
    rr = round_robin(content, names, 2, games=n, seed=seed, client=study.client)
    write_parquet(out / "stalkeriada_matrix.parquet", rr.table)
    s.findings += matchup_findings(names, rr.rate, rr.low, rr.high, study.findings["never_wins_below"],
                                   f"Stalkeriada pairs, {n:,} games per pair and seat order, seed {seed}", s.title)
    sc = load_stalkeriada(content)
    provenance = (f"{n:,} games per pair and seat order, seed {seed} · assumed [A]: "
                  + ", ".join(a.split(": ", 1)[1] for a in sc.assumed))
    atomic_write(out / "charts" / "stalkeriada_matrix.png", lambda p: matrix_chart(
        rr.rate, names, rr.low, rr.high, "Stalkeriada: row's win rate against column (pairs)", provenance, p))
    s.text("Every pair of the shipped strategies plays with both seat orders on the same dice; a cell is the row "
           "strategy's win rate in games against the column strategy (no-winner games count as not won).")
    s.image("charts/stalkeriada_matrix.png", provenance)
    from sim.economy.context import load_context
    from sim.economy.value import value_cards
    import strategies

    players = [strategies.get(p, mode="stalkeriada") for p in names]
    values = value_cards(_scenario(content, study, mode="stalkeriada", strategies=players[:1],
                                   opponents=tuple(players[1:]), trials=max(2 * load_context(content).batches, n)))
    table = _with_bounds(values.table())
    write_parquet(out / "stalkeriada_values.parquet", table)
    tier = values.tiers[0]
    s.table(_with_bounds(pl.DataFrame(tier.rows, infer_schema_length=None)).select(
        "item", "count", "price", "effect", "value_g", "value_low", "value_high", "reservation_g", "verdict"),
        f"Shop items to `{names[0]}` at the full table, by restricted play: his win rate with each against the same "
        f"planner with it banned from his shopping list (one copy at the margin), on the same games and seats (20 "
        f"paired batches, {values.context.trials:,} games per seat order, seed {seed}); it buys "
        f"{tier.choice.kit.describe()}; the rate is what {values.context.handicap:,} G more at the start buys "
        f"(economy.toml's [stalkeriada] handicap): {tier.rate_text()}")
    return s


def tuned_table_section(s: Section, content, names, n, seed, client, out):
    """How strong is the Stalkeriada player: the planner tuned against the shipped field
    (``sim.run.tuned_planner``) seated with it, every seat order: his win rate against a
    fair share, and whether games end with him at the table."""
    import strategies
    from sim.analysis.stats import wilson
    from sim.run.stalkeriada import simulate_stalkeriada
    from sim.run.tuned_planner import tuned_planner

    field = [strategies.get(p, mode="stalkeriada") for p in names]
    planner = tuned_planner(content, field, seed=seed)
    setting = planner.strategy.description.split(": ", 1)[1]
    table = simulate_stalkeriada(content, [planner.strategy, *field], games=n, seed=seed, rotate_seats=True,
                                 client=client)
    wins = table.win_rates()
    write_parquet(out / "stalkeriada_tuned.parquet", wins)
    mine, none = wins.row(0, named=True), wins.row(-1, named=True)
    fair, decided = 1 / (len(field) + 1), mine["games"] - none["wins"]
    share, (low, high) = mine["wins"] / max(1, decided), wilson(mine["wins"], decided)
    verdict = "he dominates this field" if low > fair else "no setting of the planner dominates this field"
    pace = ("Even with him at the table most games end with no winner: within the planner family it is the rules "
            "(the visa's price against the loot, S-05, S-06), not the shipped settings, that keep the games going "
            "to the cap" if none["ci_low"] > 0.5 else "With him at the table at most half the games end with no "
            "winner")
    s.text(f"**How strong is the player.** The planner tuned against these {len(field)} (`zonesim stalkeriada "
           f"--players tuned,{','.join(names)}`: the shipped settings, then Optuna's TPE over every planner "
           f"parameter, on games the table never plays; his setting: {setting}) wins {mine['win_rate']:.1%} [{mine['ci_low']:.1%}, "
           f"{mine['ci_high']:.1%}] of the games at the table of {len(field) + 1} ({n:,} games per seat order, "
           f"seed {seed}), and {share:.0%} [{low:.0%}, {high:.0%}] of those that end with a winner, where a fair "
           f"share is {fair:.0%}, so {verdict}. Nobody "
           f"finishes in {none['win_rate']:.1%} [{none['ci_low']:.1%}, {none['ci_high']:.1%}] of the games at that "
           "table. "
           f"{pace}.")
    s.findings += dominant_finding(share, low, high, fair, setting, f"the tuned planner's Stalkeriada table (tuned, "
                                   f"{', '.join(names)}), {n:,} games per seat order, seed {seed}", s.title)


def search_table_section(s: Section, content, names, n, seed, client, out):
    """The search player (``strategies.stalkeriada.search_player``) seated with the shipped
    field, every seat order: his win rate beside the best shipped setting's at that table,
    and whether games end with him there."""
    import strategies
    from sim.run.stalkeriada import simulate_stalkeriada
    from strategies.stalkeriada import SEARCH_MENU, search_player

    player = search_player(SEARCH_MENU)
    field = [strategies.get(p, mode="stalkeriada") for p in names]
    table = simulate_stalkeriada(content, [player, *field], games=n, seed=seed, rotate_seats=True, client=client)
    wins = table.win_rates()
    write_parquet(out / "stalkeriada_search.parquet", wins)
    mine, none = wins.row(0, named=True), wins.row(-1, named=True)
    best = max(wins.rows(named=True)[1:-1], key=lambda r: r["win_rate"])
    verdict = ("he wins clearly more often than" if mine["ci_low"] > best["ci_high"] else
               "he wins clearly less often than" if mine["ci_high"] < best["ci_low"] else "he is not told apart from")
    s.text(f"**The search player.** `zonesim stalkeriada --players search,{','.join(names)}` seats a player who "
           f"{player.description}. He wins {mine['win_rate']:.1%} [{mine['ci_low']:.1%}, "
           f"{mine['ci_high']:.1%}] of the games ({n:,} games per seat order, seed {seed}); {verdict} the best "
           f"shipped setting at that table, {best['strategy']}, {best['win_rate']:.1%} [{best['ci_low']:.1%}, "
           f"{best['ci_high']:.1%}]. Nobody finishes in {none['win_rate']:.1%} [{none['ci_low']:.1%}, "
           f"{none['ci_high']:.1%}] of these games: "
           + ("a search over the shipped settings does not bring the games to an end either" if none["ci_low"] > 0.5
              else "with him at the table at most half the games end with no winner")
           + " (docs: guide/strategies.md, the search player).")


STEPS = (("item economy", economy_step), ("item economy in fights", economy_fights_step), ("fights", fights_step),
         ("item values", values_step), ("loadouts", loadouts_step),
         ("skirmishes", skirmish_step),
         ("tuning", tune_step), ("journeys", journeys_step), ("Stalkeriada", stalkeriada_step))
"""The steps written for the modes with ``report_steps`` (``sim.modes``)."""
STEP_KERNELS = {"item economy in fights": "fight", "fights": "fight", "item values": "fight",
                "loadouts": "fight", "skirmishes": "skirmish", "tuning": "fight", "Stalkeriada": "stalkeriada"}
"""The ``sim.run.warmup`` group (a mode) of kernels each step needs beyond the first step's (the journey's)."""


def headline_step(mode, content, study, out):
    """A mode's headline numbers (``Mode.headline``) at the study's count, each with its 95% interval:
    the section of a mode the report has no steps written for."""
    from sim.modes import resolve
    from sim.run.headline import BATCHES, LAST, Plan, no_check

    group = resolve(mode.headline)
    plan = Plan(study, None, study.settings["seed"], (group.name,), tuple(content.monsters))
    numbers = group(content, plan)
    numbers.advance(LAST, no_check)
    readings = numbers.read(LAST)
    frame = pl.DataFrame([{"number": r.measured.name, "unit": r.measured.unit, "value": r.measured.value,
                           "ci_low": r.ci[0], "ci_high": r.ci[1], "trials": r.trials} for r in readings])
    write_parquet(out / f"{mode.name}_headline.parquet", frame)
    s = Section(group.title)
    s.text(f"{mode.description[:1].upper()}{mode.description[1:]}. Its headline numbers (`zonesim compare --only "
           f"{group.name}`), each with its 95% interval over {BATCHES} batches.")
    s.table(frame, f"{mode.name}: {readings[0].trials if readings else 0:,} {mode.trial}s per number, "
                   f"seed {plan.seed}")
    return s


def steps() -> list:
    """Every step in order: ``STEPS``, then a headline section for each mode of ``sim.modes.MODES``
    with headline numbers and no steps of its own (a mode registered later joins)."""
    from functools import partial

    from sim.modes import MODES

    return [*STEPS, *((mode.name, partial(headline_step, mode)) for mode in MODES.values()
                      if mode.headline and not mode.report_steps)]


def run_study(content: Content, out: Path, *, quick=False, on_step=None, client=None, store=None, warmup=None):
    """Run every step into ``out`` (on the Dask ``client`` if given); returns the sections and the study.
    With a checkpoint ``store`` (``sim.run.chunks.Checkpoints``) each finished step's section is kept, and
    a resumed run takes the kept ones (their charts are in ``out`` already) instead of running them again.
    A ``sim.run.warmup.Warmup`` compiling the later steps' kernels is waited for before each step that
    needs its group."""
    study = replace(load_study(content, quick), client=client)
    sections, todo = [], steps()
    for k, (label, step) in enumerate(todo):
        if on_step:
            on_step(k, len(todo), label)
        name = f"step-{k:02d}.pickle"
        section = store.load_object(name) if store is not None else None
        if section is None:
            if warmup is not None:
                warmup.wait(STEP_KERNELS.get(label, label))
            start = time.perf_counter()
            section = step(content, study, out)
            section = section[0] if isinstance(section, tuple) else section
            section.elapsed_s = time.perf_counter() - start
            if store is not None:
                store.save_object(name, section)
        sections.append(section)
    if on_step:
        on_step(len(todo), len(todo), "done")
    return sections, study


# --- writing -------------------------------------------------------------------------------

G_COLUMNS = ("price", "fair", "value_g", "value_low", "value_high", "upgrade_g", "reservation_g", "cost")


def in_g(column: str) -> bool:
    """Whether a table column holds amounts in G (prices, values, costs, shares in G, the
    plausible plays' values, a value under an objective: ``speed_g``)."""
    return any(k in column for k in G_COLUMNS) or column.endswith("_g") or "_g_" in column or column.startswith(
        "plays_")


def _fmt(v, column="", whole=False):
    """A cell: amounts in G (``in_g``) and the cells of a column of ``whole`` numbers as whole
    numbers, other floats to 4 digits."""
    if isinstance(v, int) and not isinstance(v, bool) and in_g(column):
        return f"{v:,}"
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        if math.isinf(v):
            return "unbounded"
        return f"{v:,.0f}" if whole or in_g(column) else f"{v:.4f}"
    return "" if v is None else str(v)


ID = re.compile(r"(?<![\w.])[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?![\w.])")  # a word, not part of a dotted key
HEADING_WORDS = {"ci": "95%", "a": "A", "b": "B"}


def named(text: str, names: dict) -> str:
    """``text`` with every card or monster id in it (a key of ``names``) as its display name; an id
    inside a dotted key (``bloodsucker.hp``, a headline number's name) stays."""
    return ID.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def heading(column: str, names: dict) -> str:
    """A table column's heading for people: a card or monster id as its display name, a
    data column's name in words (``value_g_low`` "value low (G)", ``ci_high`` "95% high",
    ``p_survive`` "P(survive)")."""
    shown = named(column, names)
    if shown != column or "_" not in column:
        return shown
    words = column.split("_")
    bound = words.pop() if words[-1] in ("low", "high") and len(words) > 1 else ""
    if words[-1] == "g" and len(words) > 1:
        words.pop()
    unit = " (G)" if in_g(column) else ""
    if words[0] == "p" and len(words) > 1:
        text = f"P({' '.join(words[1:])})"
    else:
        text = " ".join(HEADING_WORDS.get(w, w) for w in words)
    return text + (f" {bound}" if bound else "") + unit


def _markdown_table(frame, names=None):
    """A Markdown table; numeric columns aligned right, one precision per column (whole where
    every number in it reaches 100); headings and text cells name cards and monsters by their
    display names (``names``, by id) and data columns in words (``heading``)."""
    names = names or {}
    numeric = [dtype.is_numeric() for dtype in frame.dtypes]
    whole = {c: n and all(abs(v) >= 100 for v in frame[c].drop_nulls().drop_nans() if math.isfinite(v))
             if frame[c].dtype.is_float() else False for c, n in zip(frame.columns, numeric)}
    head = ("| " + " | ".join(heading(c, names) for c in frame.columns) + " |\n|"
            + "".join("---:|" if n else "---|" for n in numeric) + "\n")

    def cell(v, c):
        text = _fmt(v, c, whole[c])
        return (named(text, names) if isinstance(v, str) else text).replace("|", "\\|")

    return head + "".join("| " + " | ".join(cell(v, c) for v, c in zip(row, frame.columns)) + " |\n"
                          for row in frame.iter_rows())


SHOWN = 12
"""Findings listed open in the first section; the rest are folded under them."""


def first_look(sections, study, names=None) -> tuple[Section, list]:
    """"What to look at first": every step's findings and the cards of no use in
    every context, ranked (``sim.report.findings``), each linked to its section and
    naming its context in words (``context_names``), each context stated in full once
    under the list; then how the findings are chosen."""
    from sim.report.findings import no_use_finding, rank
    from sim.report.html import slug

    idle = {context: cards for s in sections for context, cards in s.idle.items()}
    home = next((s.title for s in sections if s.idle), "")
    found = rank([f for s in sections for f in s.findings] + no_use_finding(idle, home, names))
    s = Section("What to look at first")
    t = study.findings
    where = context_names(dict.fromkeys(f.context for f in found))
    lines = [f"{k}. {f.sentence} (in {where[f.context]}; [evidence](#{slug(f.section)}))"
             for k, f in enumerate(found, 1)]
    if not found:
        s.text("Nothing crosses a threshold.")
    s.text("\n".join(lines[:SHOWN]))
    if lines[SHOWN:]:  # folded away but readable with scripts off; all of them are in findings.json
        s.text(f"<details><summary>{len(lines) - SHOWN} more findings</summary>\n\n" + "\n".join(lines[SHOWN:])
               + "\n\n</details>")
    if where:
        s.text("Measured in " + "; ".join(f"**{name}**: {c}" for c, name in where.items()) + ".")
    s.text(f"The findings of this report, largest first, each from the numbers of the section it links to: cards "
           f"priced more than {t['price_factor']:g} times their value (or under 1/{t['price_factor']:g} of it), "
           f"cards of no use in any context, monsters that kill more than {t['kill_share']:.0%} of a tier's "
           f"stalkers, journey tiers that finish under {t['finish_below']:.0%} of the time, Stalkeriada games "
           f"without a winner above {t['no_winner_above']:.0%}, seat bias beyond {t['seat_gap']:.0%} and "
           f"strategies that win every matchup or almost none ({REPORT_FILE} `[findings]`). Within a kind they "
           "rank by how far past its threshold each lies; the kinds take turns, the largest first. Brackets are "
           "95% intervals; `findings.json` holds the same list.")
    s.findings = found
    return s, found


def context_names(contexts) -> dict:
    """``{context: its name in words}``: a context's words before its first comma, colon or
    parenthesis ("the journey campaigns"), numbered where two would read alike."""
    names = {}
    for context in contexts:
        name = re.split(r" \(|,|:", context, maxsplit=1)[0]
        alike = sum(n == name or n.startswith(f"{name} (") for n in names.values())
        names[context] = f"{name} ({alike + 1})" if alike else name
    return names


def write_report(out: Path, sections, header: dict, names=None) -> tuple[Path, Path]:
    """``report.md`` and, rendered from it, the self-contained ``report.html``
    (``sim.report.html``); each caption appears once, under its chart or above its table;
    the tables name cards and monsters by ``names`` (display names by id)."""
    from sim.report.html import render

    md = [f"# {header['title']}\n", f"{header['intro']}\n"]
    for s in sections:
        md.append(f"## {s.title}\n")
        for block in s.blocks:
            if block[0] == "p":
                md.append(block[1] + "\n")
            elif block[0] == "table":
                _, frame, caption = block
                md.append((f"*{caption}*\n\n" if caption else "") + _markdown_table(frame, names))
            else:
                _, path, caption = block
                md.append(f"![chart: {Path(path).stem.replace('_', ' ')}]({path})\n\n*{caption}*\n")
    text = "\n".join(md)
    md_path = atomic_write(out / "report.md", lambda p: p.write_text(text, encoding="utf-8"))
    page = render(text, out, header["title"])
    html_path = atomic_write(out / "report.html", lambda p: p.write_text(page, encoding="utf-8"))
    return md_path, html_path
