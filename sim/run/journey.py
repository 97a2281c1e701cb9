"""Journey scenarios: content + loadout + journey strategy -> kernel runs -> ``JourneyResult``."""

import time
from dataclasses import dataclass, field, replace

import numpy as np

import strategies
from sim.analysis.stats import mean_interval, wilson
from sim.content import Content
from sim.content.journey import EVENT_KINDS, FIND_KINDS, LEVEL_LISTS, JourneyContent, load_journey
from sim.content.loadout import Loadout, LoadoutError
from sim.kernels import fight as F
from sim.kernels import journey as J
from sim.kernels.route import next_hops
from sim.run.chunks import plan, run_chunks
from sim.run.fight import fight_template
from strategies.journey import ORDER_CHOICES, JourneyStrategy


def _hex_index(hexmap, at):
    col, row = at
    return row * hexmap.width + col


def location_hexes(hexmap, radius):
    """Z-29: the flag of every hex within ``radius`` steps of a site of the map
    (artefact sites and anomaly fields are the Zone's locations)."""
    inside = set()
    for site in hexmap.sites:
        ring = {site.at}
        for _ in range(radius):
            ring |= {n for at in ring for n in hexmap.neighbours(*at)}
        inside |= ring
    flags = np.zeros(hexmap.width * hexmap.height, np.int64)
    flags[[_hex_index(hexmap, at) for at in inside]] = 1
    return flags


def route_weight(cost, danger, danger_weight, seek_danger=0):
    """Z-39: what entering each hex weighs on a route: its cost and
    ``danger_weight`` steps per danger level away from ``seek_danger`` (0: he
    walks around danger; higher: a trophy hunter walks toward that level)."""
    return cost + danger_weight * np.abs(danger - seek_danger)


def map_arrays(hexmap, danger_weight, shops=None, location_radius=0, seek_danger=0):
    """Flat per-hex cost, Epicentre flag, danger, the shop of each hex (-1: none;
    a base trades only if ``shops`` lists it, Z-40), the location flag (Z-29) and
    the next-hop table (Z-35, Z-26, Z-39)."""
    n_hex = hexmap.width * hexmap.height
    cost, danger, epicentre = (np.array(a.ravel(), dtype=np.int64) for a in (hexmap.cost, hexmap.danger,
                                                                             hexmap.epicentre))
    base_of_hex, is_base = np.full(n_hex, -1, np.int64), np.zeros(n_hex, np.int64)
    for b, base in enumerate(hexmap.bases):
        is_base[_hex_index(hexmap, base.at)] = 1
        if shops is not None and base.id in shops:
            base_of_hex[_hex_index(hexmap, base.at)] = b
    hop, dist = next_hops(hexmap.neighbour_table(), route_weight(cost, danger, danger_weight, seek_danger))
    location = location_hexes(hexmap, location_radius) if hexmap.sites else np.zeros(n_hex, np.int64)
    return (cost, epicentre, danger, base_of_hex, is_base, location), hop, dist


def _banded(rows, extra):
    """``[lo, hi, weight, *extra(row)]`` per entry, as an int64 table (at least one row)."""
    table = [[r["min_danger"], r["max_danger"], r["weight"], *extra(r)] for r in rows]
    width = 3 + (len(table[0]) - 3 if table else 0)
    return np.array(table, dtype=np.int64).reshape(len(table), width) if table else np.zeros((0, 3), np.int64)


def shopping_tables(content: Content, loadout: Loadout, template, hexmap, shops):
    """The shopping list (the starting loadout in buying order), what each base
    sells, every item in discard order (K-05) and the decks left after the
    loadout (Z-11), as int64 arrays."""
    ids = list(content.items)
    items = content.items
    index = {item_id: k for k, item_id in enumerate(ids)}
    slots = {e.id: template[F.HEAL_N0] + k for k, e in enumerate(content.family("healing"))}
    slots |= {e.id: template[F.EXPL_N0] + k for k, e in enumerate(content.family("explosives"))}

    rows = []
    single = [(loadout.weapon, J.K_FIREARM, "dice"), *((m, J.K_MOD, "bonus") for m in loadout.mods),
              (loadout.body, J.K_BODY, "defence"), (loadout.head, J.K_HEAD, "defence"),
              (loadout.escape_item, J.K_ESCAPE, "reputation"), *((m, J.K_MOVEMENT, "steps") for m in loadout.movement),
              *((a, J.K_AVOIDANCE, "avoid_on") for a in loadout.avoidance),
              *((o, J.K_ONE_SHOT, None) for o in loadout.one_shot),
              *((m, J.K_LOCATION, "steps") for m in loadout.location)]
    for item_id, kind, value in single:
        if item_id:
            rows.append([index[item_id], kind, 1, items[item_id][value] if value else 0,
                         int(items[item_id].fields.get("always", False)), items[item_id]["price"], -1])
    for pairs, kind in ((loadout.healing, J.K_HEAL), (loadout.explosives, J.K_EXPL)):
        for item_id, n in pairs:
            rows.append([index[item_id], kind, n, 0, 0, items[item_id]["price"], slots[item_id]])
    plan = np.array(rows, dtype=np.int64).reshape(len(rows), 7)
    sells = np.zeros((len(hexmap.bases), len(ids)), np.int64)
    for b, base in enumerate(hexmap.bases):
        for item_id in shops.get(base.id, ()):
            sells[b, index[item_id]] = 1
    carried = loadout.cards()
    discard = sorted(ids, key=lambda i: (items[i]["price"], -index[i]))  # K-05: the cheapest first
    discards = np.array([[index[i], slots.get(i, -1), carried.get(i, 0)] for i in discard],
                        dtype=np.int64).reshape(len(discard), 3)
    deck0 = np.array([items[i]["deck"] - carried.get(i, 0) for i in ids], dtype=np.int64)
    return plan, sells, discards, deck0


def journey_tables(content: Content, journey: JourneyContent):
    """The kernel's event tables (Z-39), monsters and levels (K-04), as int64 arrays."""
    monster_ids = list(content.monsters)
    max_group = journey.settings["max_group"]
    monsters = np.array([[m["hp"], m["dice"], m["bonus"], m["defence"], m["trophy_price"]]
                         for m in content.monsters.values()], dtype=np.int64)
    groups = _banded(journey.monster_groups, lambda r: [len(r["monsters"])] + [
        monster_ids.index(m) for m in r["monsters"]] + [0] * (max_group - len(r["monsters"])))
    traps = _banded(journey.traps, lambda r: [r["dice"], r["bonus"], r["avoid_on"]])
    attributes = list(journey.attributes)
    skills = _banded(journey.skill_events, lambda r: [attributes.index(r["attribute"]), r["target"],
                                                      r["damage_dice"], r["missed_turns"]])
    item_ids = list(content.items)
    finds = _banded(journey.finds, lambda r: [FIND_KINDS.index(r["kind"]),
                                              item_ids.index(r["item"]) if r["kind"] == "item" else r["amount"]])
    weights = np.array([journey.events[k] for k in EVENT_KINDS], dtype=np.int64)
    levels = np.array([journey.settings[k] for k in LEVEL_LISTS], dtype=np.int64).T
    return tuple(np.ascontiguousarray(t) for t in (weights, groups, monsters, traps, skills, finds, levels))


def outcome_labels(goal_orders: int) -> dict:
    """The campaign probabilities' words, by key, as the CLI and the charts print them and the
    glossary defines them (Z-41: the goal is ``goal_orders`` order cards held at once)."""
    return {"p_complete": f"reached the goal ({goal_orders} order cards held)",
            "p_first_order": "completed at least one order", "p_no_death": "no stalker has died"}


@dataclass
class JourneyResult:
    """Aggregates of many campaigns. A campaign is complete the day the stalker
    in play holds ``goal_orders`` order cards (Z-41); play goes on to ``days``."""

    seed: int
    trials: int
    days: int
    n_orders: int
    goal_orders: int
    counts: np.ndarray
    done_hist: np.ndarray
    first_hist: np.ndarray
    death_day_hist: np.ndarray
    orders_hist: np.ndarray
    deaths_hist: np.ndarray
    level_hist: np.ndarray
    sums: np.ndarray
    items_used: dict
    purchases: dict
    traffic: np.ndarray
    deaths_at: np.ndarray
    elapsed_s: float
    hex_steps: int = 0
    probabilities: dict = field(default_factory=dict)
    ci95: dict = field(default_factory=dict)

    def __post_init__(self):
        n = self.trials
        successes = {"p_complete": int(self.counts[0]), "p_no_death": int(self.counts[1]),
                     "p_first_order": n - int(self.first_hist[-1])}
        self.probabilities = {k: v / n for k, v in successes.items()}
        self.ci95 = {k: wilson(v, n) for k, v in successes.items()}

    def by_day(self):
        """Per day 1..days: P(the goal reached by then), P(first order done), P(no death yet), with 95% intervals."""
        import polars as pl

        n = self.trials
        columns = {"day": list(range(1, self.days + 1))}
        for name, hist, alive in (("p_complete", self.done_hist, False), ("p_first_order", self.first_hist, False),
                                  ("p_no_death", self.death_day_hist, True)):
            reached = np.cumsum(hist[1:self.days + 1])
            hits = n - reached if alive else reached
            columns[name] = (hits / n).tolist()
            bounds = [wilson(int(h), n) for h in hits]
            columns[name + "_lo"] = [b[0] for b in bounds]
            columns[name + "_hi"] = [b[1] for b in bounds]
        return pl.DataFrame(columns)

    def summary(self):
        """The JSON of ``zonesim journey --json``."""
        days = np.arange(self.done_hist.size)
        completed = int(self.counts[0])
        money_lo, money_hi = mean_interval(self.sums[0], self.sums[1], self.trials)
        done = self.done_hist[:-1]
        days_ci = mean_interval(float(done @ days[:-1]), float(done @ days[:-1] ** 2), completed)
        deaths_ci = mean_interval(self.sums[5], self.sums[6], self.trials)
        return {
            **self.probabilities,
            "ci95": {k: list(v) for k, v in self.ci95.items()},
            "mean_days_to_complete": float(self.done_hist[:-1] @ days[:-1]) / completed if completed else None,
            "days_to_complete": {int(d): int(c) for d, c in zip(days[:-1], self.done_hist[:-1]) if c},
            "mean_orders_done": self.sums[J.S_ORDERS] / self.trials,
            "mean_orders_held": float(self.orders_hist @ np.arange(self.orders_hist.size)) / self.trials,
            "mean_reputation": self.sums[J.S_REPUTATION] / self.trials,
            "mean_wealth": self.sums[J.S_WEALTH] / self.trials,
            "days_to_complete_ci95": list(days_ci) if completed > 1 else None,
            "mean_deaths": self.sums[5] / self.trials,
            "deaths_ci95": list(deaths_ci),
            "mean_money": self.sums[0] / self.trials,
            "money_ci95": [money_lo, money_hi],
            "mean_kills": self.sums[2] / self.trials,
            "mean_level": float(self.level_hist @ np.arange(self.level_hist.size)) / self.trials,
            "levels": {int(lv): int(c) for lv, c in enumerate(self.level_hist) if c},
            "mean_missions": self.sums[3] / self.trials,
            "mean_spent": self.sums[4] / self.trials,
            "purchases_per_journey": self.purchases,
            "items_used_per_journey": self.items_used,
            "trials": self.trials, "seed": self.seed, "days": self.days, "orders": self.n_orders,
            "goal_orders": self.goal_orders,
            "elapsed_s": self.elapsed_s,
            "hex_steps_per_s": self.hex_steps / self.elapsed_s if self.elapsed_s > 0 else None,
        }


_PREPARED = {}


def _prepared(content: Content, danger_weight, seek_danger=0):
    """The journey content and its map arrays for one route weighting (Z-39), read
    once per content folder state (its files' digest) so that runs of many
    loadouts (item values, loadout sweeps) pay for them once."""
    key = (str(content.directory), content.digest, danger_weight, seek_danger)
    if key not in _PREPARED:
        journey = load_journey(content)
        _PREPARED[key] = journey, map_arrays(journey.hexmap, danger_weight, journey.settings["shops"],
                                             journey.settings.get("location_radius", 0), seek_danger)
    return _PREPARED[key]


@dataclass
class _Inputs:
    """The kernel's arrays of one journey scenario."""

    args: tuple
    at: np.ndarray
    n_sums: int
    labels: list
    n_orders: int
    goal_orders: int
    shape: tuple


def _journey_inputs(content: Content, loadout: Loadout, strategy: JourneyStrategy, days) -> _Inputs:
    """Compile the scenario for ``J.run_journeys``: everything but the seed and the trial range."""
    journey, (hexes, hop, dist) = _prepared(content, strategy.danger_weight, strategy.seek_danger)
    hexmap = journey.hexmap
    fight = strategies.get(strategy.fight)
    if strategy.fight_params:
        if len(strategy.fight_params) != len(fight.params):
            raise strategies.StrategyError(
                f"journey strategy {strategy.name}: fight_params has {len(strategy.fight_params)} values; fight "
                f"strategy {fight.name} takes {len(fight.params)} ({', '.join(fight.param_names) or 'unnamed'})")
        fight = replace(fight, params=np.array(strategy.fight_params, dtype=np.float64))
    max_group = journey.settings["max_group"]
    template, labels = fight_template(content, loadout, [next(iter(content.monsters))] * max_group)
    template[F.HP] = template[F.MAX_HP]  # a journey starts at full health
    rules, stalker = content.rules["stalker"], loadout.stalker(content)  # Z-01, Z-07
    setup = np.zeros(J.SETUP_SIZE, np.int64)
    setup[J.SU_START_HEX] = _hex_index(hexmap, hexmap.point(journey.settings["start_base"]))
    setup[J.SU_STEP_BUDGET] = stalker.step_budget
    setup[J.SU_MONEY] = stalker.money
    setup[J.SU_REPUTATION] = stalker.reputation
    setup[J.SU_INFLUENCE] = journey.settings["influence_start"]
    setup[J.SU_REROLL_COST] = journey.settings["reroll_cost"]
    setup[J.SU_EXTRA_ONE_FAILS] = int(journey.settings["extra_one_fails"])
    setup[J.SU_REPLACEMENT_MONEY] = rules["replacement_money"]
    setup[J.SU_RECOVER_LOOT] = int(strategy.recover_loot)
    setup[J.SU_RESTOCK] = int(strategy.restock)
    setup[J.SU_AVOID_BASELINE] = rules["avoid_on"]  # Z-30
    progression = journey.settings
    setup[J.SU_ASSET_LIMIT] = progression.get("asset_limit", -1)
    setup[J.SU_MODIFIER_CAP] = content.rules["fight"]["modifier_cap"]
    setup[J.SU_DAMAGE_BONUS] = content.characters[loadout.character]["damage_bonus"]
    item_ids = list(content.items)
    for slot, effect in ((J.SU_HELICOPTER, "to_military_base"), (J.SU_SPACE_GATE, "to_any_base")):  # Z-27, Z-28
        setup[slot] = next((item_ids.index(e.id) for e in content.family("one_shot") if e["effect"] == effect), -1)
    military = journey.settings.get("military_base")
    setup[J.SU_MILITARY_HEX] = _hex_index(hexmap, hexmap.point(military)) if military else -1
    setup[J.SU_XP_PER_HP] = progression["xp_per_monster_hp"]
    setup[J.SU_XP_PER_ORDER] = progression["xp_per_order"]
    setup[J.SU_INFLUENCE_PER_ORDER] = progression["influence_per_order"]
    setup[J.SU_INFLUENCE_PER_WIN] = progression.get("influence_per_win", 0)
    setup[J.SU_INFLUENCE_PRICE] = progression.get("influence_price", 0)
    setup[J.SU_SELL_PERMILLE] = round(content.rules["market"]["sell_fraction"] * 1000)
    setup[J.SU_N_ATTRIBUTES] = len(journey.attributes)  # K-08
    setup[J.SU_ATTR0:J.SU_ATTR0 + len(journey.attributes)] = list(journey.attributes.values())
    plan, sells, discards, deck0 = shopping_tables(content, loadout, template, hexmap, journey.settings["shops"])
    tables = journey_tables(content, journey) + (plan, sells, discards)
    setup[J.SU_ORDER_CHOICE] = ORDER_CHOICES.index(strategy.order_choice)
    setup[J.SU_ORDER_OFFER] = journey.settings.get("order_offer", 0)  # Z-41
    setup[J.SU_GOAL_ORDERS] = journey.settings["goal_orders"]
    orders = np.array([[_hex_index(hexmap, hexmap.point(o["destination"])), o["reward"], o["step_penalty"]]
                       for o in journey.orders], dtype=np.int64)
    n_orders, n_hex = len(journey.orders), hexes[0].size
    top_level = len(journey.settings["level_xp"]) + 1  # K-04
    sizes = {J.T_COUNTS: 2, J.T_DONE_DAY: days + 2, J.T_FIRST_DAY: days + 2, J.T_DEATH_DAY: days + 2,
             J.T_ORDERS: n_orders + 1, J.T_DEATHS: J.DEATH_CAP + 1, J.T_LEVEL: top_level + 1,
             J.T_USED: len(labels), J.T_TRAFFIC: n_hex, J.T_DEATHS_AT: n_hex, J.T_PURCHASES: len(content.items)}
    at = np.concatenate([[0], np.cumsum([sizes[k] for k in range(J.T_END)])]).astype(np.int64)
    args = (days, template, fight.param_vector(), fight.asks(), fight.decisions(), hexes, hop, dist, orders, tables,
            (setup, deck0), at)
    return _Inputs(args, at, J.N_SUMS, labels, n_orders, journey.settings["goal_orders"],
                   (hexmap.height, hexmap.width))


@dataclass
class JourneyWork:
    """One chunk of campaigns of a scenario (picklable, for clusters): ``{tally, sums, elapsed_s}``."""

    content: Content
    loadout: Loadout
    strategy: JourneyStrategy
    days: int
    seed: int
    _inputs: _Inputs = field(default=None, repr=False, compare=False)

    def __getstate__(self):
        return {**self.__dict__, "_inputs": None}

    def inputs(self) -> _Inputs:
        if self._inputs is None:
            self._inputs = _journey_inputs(self.content, self.loadout, self.strategy, self.days)
        return self._inputs

    def __call__(self, chunk):
        k = self.inputs()
        tally, sums = np.zeros(k.at[J.T_END], np.int64), np.zeros(k.n_sums)
        start = time.perf_counter()
        J.run_journeys(self.seed, chunk.start, chunk.n, *k.args, tally, sums)
        return {"tally": tally, "sums": sums, "elapsed_s": np.float64(time.perf_counter() - start)}


def simulate_journey(content: Content, loadout: Loadout, strategy: JourneyStrategy, *, days, trials, seed,
                     chunk=1 << 16, trial_start=0, on_progress=None, client=None, store=None) -> JourneyResult:
    """Monte Carlo campaigns ``trial_start ..`` of ``days`` days over the journey content's map and orders,
    in chunks (here or on a Dask ``client``; finished chunks kept in ``store``, ``sim.run.chunks``)."""
    if trials < 1:
        raise LoadoutError(f"--trials: {trials}; give at least 1 trial")
    if days < 1:
        raise LoadoutError(f"--days: {days}; give at least 1 day")
    work = JourneyWork(content, loadout, strategy, days, seed)
    total = run_chunks(work, plan(trials, chunk, first=trial_start), client=client, store=store,
                       on_progress=on_progress)[0]
    return journey_result(content, work.inputs(), total, seed=seed, trials=trials, days=days)


def campaign_outcomes(content: Content, loadout: Loadout, strategy: JourneyStrategy, *, days, seed, first,
                      n) -> np.ndarray:
    """Per campaign ``first .. first + n - 1`` (the dice of ``simulate_journey``), one
    row of the columns ``sim.kernels.journey.OUT_*``: order completions, cards
    held, reputation, wealth (Z-12), deaths, kills, the goal's day, then the day
    1, 2, ... order cards were first held (0: never; Z-09, Z-41)."""
    k = _recent_inputs(content, loadout, strategy, days)
    out = np.zeros((n, J.OUT_REACH0 + k.n_orders), np.int64)
    J.campaign_outcomes(seed, first, n, *k.args, out)
    return out


_RECENT, RECENT_INPUTS = {}, 256


def _recent_inputs(content: Content, loadout: Loadout, strategy: JourneyStrategy, days) -> _Inputs:
    """``_journey_inputs``, kept for the last ``RECENT_INPUTS`` scenarios asked for: the
    economy runs a kit's screen, the rest of its trials and its valuation one after
    the other. The content object is kept with its entry, so its id names it."""
    key = (id(content), loadout, strategy, days)
    if key not in _RECENT:
        if len(_RECENT) >= RECENT_INPUTS:
            del _RECENT[next(iter(_RECENT))]
        _RECENT[key] = content, _journey_inputs(content, loadout, strategy, days)
    return _RECENT[key][1]


def journey_result(content: Content, k: _Inputs, total, *, seed, trials, days) -> JourneyResult:
    """A ``JourneyResult`` from the summed chunk aggregates ``total``."""
    tally, sums, at = total["tally"], total["sums"], k.at
    section = lambda s: tally[at[s]:at[s + 1]]  # noqa: E731
    traffic = section(J.T_TRAFFIC)
    return JourneyResult(
        seed=seed, trials=trials, days=days, n_orders=k.n_orders, goal_orders=k.goal_orders, counts=section(J.T_COUNTS),
        done_hist=section(J.T_DONE_DAY), first_hist=section(J.T_FIRST_DAY), death_day_hist=section(J.T_DEATH_DAY),
        orders_hist=section(J.T_ORDERS), deaths_hist=section(J.T_DEATHS), level_hist=section(J.T_LEVEL), sums=sums,
        items_used={lb: int(v) / trials for lb, v in zip(k.labels, section(J.T_USED)) if v},
        purchases={i: int(v) / trials for i, v in zip(content.items, section(J.T_PURCHASES)) if v},
        traffic=traffic.reshape(k.shape), deaths_at=section(J.T_DEATHS_AT).reshape(k.shape),
        elapsed_s=float(total["elapsed_s"]), hex_steps=int(traffic.sum()),
    )
