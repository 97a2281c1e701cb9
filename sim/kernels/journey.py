"""Journeys over a hex map: days of movement, hex events, fights, orders, bases'
shops with finite decks, death and the replacement stalker, levels and the
asset limit, the order deck (Z-06, Z-08..Z-13, Z-25..Z-30, Z-34..Z-41, K-01..K-08).

The stalker's body (HP, carried healing items and explosives, firearm, armour,
reputation for escapes) is a fight view (``sim.kernels.fight``) laid out for
``max_group`` monsters, so every fight, trap and heal uses the fight kernel's
own rules. The rest of his state is the ``int64`` array ``js`` with the slots
below. Tables are ``int64`` arrays, one row per entry, with the column
constants below; hexes are numbered ``row * width + col``.

Random streams per trial: the fight's three (stalker, monster, escape), then
``EVENT`` (event kinds and variants, by ``pick``), ``TRAP``, ``SKILL`` and
``ORDERS`` (the order cards drawn from the deck, Z-41).
"""

import numpy as np
from numba import njit, prange, types

from sim.kernels import entry_point
from sim.kernels import fight as F
from sim.kernels.dice import skill_test
from sim.kernels.rng import die, mix, pick, roll, start_stream, trial_base

EVENT, TRAP, SKILL, ORDERS = 3, 4, 5, 6
N_JOURNEY_STREAMS = 7

# --- event kinds (rows of the event weight table, Z-39)
NOTHING, MONSTER, TRAP_EVENT, SKILL_EVENT, FIND = 0, 1, 2, 3, 4
# --- columns shared by every banded table: eligible danger levels and weight
LO, HI, WEIGHT = 0, 1, 2
G_SIZE, G_MONSTER0 = 3, 4                      # monster groups: size, monster indices
MN_HP, MN_DICE, MN_BONUS, MN_DEFENCE, MN_TROPHY = 0, 1, 2, 3, 4   # monsters
T_DICE, T_BONUS, T_AVOID_ON = 3, 4, 5          # traps
S_ATTRIBUTE, S_TARGET, S_DAMAGE_DICE, S_MISSED = 3, 4, 5, 6       # skill events (the attribute's index)
FD_KIND, FD_AMOUNT = 3, 4                      # finds
FIND_MONEY, FIND_ARTEFACT, FIND_ITEM = 0, 1, 2  # an item find's amount is the item's index
O_DEST, O_REWARD, O_PENALTY = 0, 1, 2          # orders (one row per card of the deck, Z-41)
MAX_ORDERS = 62  # cards of the order deck (kept as bits of an int64); sim.content.journey refuses more
L_XP, L_HP, L_INFLUENCE, L_POINTS = 0, 1, 2, 3  # levels 2..top (one row each): experience to reach, rewards (K-04)
# the shopping list (the starting loadout, in buying order): item, kind, wanted count, value, always, price, slot
P_ITEM, P_KIND, P_WANTED, P_VALUE, P_ALWAYS, P_PRICE, P_SLOT = range(7)
(K_FIREARM, K_MOD, K_BODY, K_HEAD, K_ESCAPE, K_MOVEMENT, K_AVOIDANCE, K_ONE_SHOT, K_LOCATION, K_HEAL,
 K_EXPL) = range(11)
D_ITEM, D_SLOT, D_WANTED = 0, 1, 2  # every item in discard order (K-05): item, view count slot (-1: a card), wanted

# --- setup vector: the run's constants
(SU_START_HEX, SU_STEP_BUDGET, SU_MONEY, SU_REPUTATION, SU_INFLUENCE, SU_REROLL_COST, SU_EXTRA_ONE_FAILS,
 SU_REPLACEMENT_MONEY, SU_RECOVER_LOOT, SU_AVOID_BASELINE, SU_XP_PER_HP, SU_XP_PER_ORDER, SU_INFLUENCE_PER_ORDER,
 SU_ASSET_LIMIT, SU_MODIFIER_CAP, SU_DAMAGE_BONUS, SU_HELICOPTER, SU_SPACE_GATE, SU_MILITARY_HEX,
 SU_ORDER_CHOICE, SU_INFLUENCE_PER_WIN, SU_SELL_PERMILLE, SU_INFLUENCE_PRICE, SU_ORDER_OFFER, SU_GOAL_ORDERS,
 SU_RESTOCK, SU_N_ATTRIBUTES, SU_ATTR0) = range(28)
# SU_SELL_PERMILLE: the selling price in thousandths of the price (Z-12); SU_INFLUENCE_PRICE: G of a price one
# Influence point pays (K-06; 0: none); SU_HELICOPTER / SU_SPACE_GATE: item
# indices (-1: not in the content); SU_MILITARY_HEX: -1 none; SU_ORDER_OFFER: order cards looked at when
# taking one (0: the whole deck); SU_GOAL_ORDERS: order cards held that reach the campaign's goal (Z-41);
# SU_RESTOCK: 1 tops the shopping list up at every base, 0 buys only to refit a replacement (strategy "restock");
# SU_ATTR0: the starting attributes (K-08), SU_N_ATTRIBUTES of them
MAX_ATTRIBUTES = 8
SETUP_SIZE = SU_ATTR0 + MAX_ATTRIBUTES

# --- journey state ``js``: the stalker (the second line is derived from what he owns) ...
HEX, MONEY, REP, TROPHY, ARTEFACT = range(5)
ESC_RED, MOVE, AVOID_ALWAYS, AVOID_ON, FIRE_DICE, FIRE_BONUS, DEFENCE, LOCATION_STEPS = range(5, 13)
# ... the loot caches of his dead predecessors (Z-10), the space gate used (Z-28) ...
N_CACHES, GATE_USED = 13, 14
# ... the campaign ...
(INFLUENCE, MISSED, ORDER, ORDERS_DONE, FIRST_DAY, DONE_DAY, DEATHS, KILLS, DEATH_DAY, XP, LEVEL,
 MISSIONS, LEVEL_HP_GAINED, SPENT) = range(15, 29)
# ... the order deck (Z-41): cards in the deck and held (bit k: card k), the count held and the most ever held ...
DECK_MASK, HELD_MASK, HELD, MOST_HELD = range(29, 33)
REFIT = 33  # 1 from a death (Z-09) until the replacement holds his whole shopping list again
ATTR0 = 34  # the stalker's attributes (K-08), raised by level rewards (K-04)
REACH0 = ATTR0 + MAX_ATTRIBUTES  # the day the stalker in play first held 1, 2, ... order cards (0: never)
# ... then blocks at these offsets (``n_all`` items of items.toml, ``n_items`` consumable types):
OWN0 = REACH0 + MAX_ORDERS  # cards owned, per item; then the decks; then the loot caches
CH_HEX, CH_MONEY, CH_TROPHY, CH_ARTEFACT, CH_OWN0 = range(5)  # a cache: hex, loot, owned cards, then counts


@njit(inline="always", cache=True)
def blocks(n_all):
    """Offsets of the decks and of the first loot cache."""
    return OWN0 + n_all, OWN0 + 2 * n_all


@njit(inline="always", cache=True)
def cache_size(n_all, n_items):
    """Length of one loot cache (Z-10): hex, money, trophies, artefacts, cards, consumable counts."""
    return CH_OWN0 + n_all + n_items


@njit(inline="always", cache=True)
def state_size(n_all, n_items, n_caches):
    """Length of ``js`` for ``n_all`` items, ``n_items`` healing + explosive types
    and room for ``n_caches`` loot caches (one death a day at most: the days)."""
    return blocks(n_all)[1] + n_caches * cache_size(n_all, n_items)


@njit(inline="always", cache=True)
def _band_pick(rng, table, level):
    """Weighted choice (EVENT) among the rows eligible at danger ``level``; -1 if none."""
    total = 0
    for r in range(table.shape[0]):
        if table[r, LO] <= level <= table[r, HI]:
            total += table[r, WEIGHT]
    if total == 0:
        return -1
    x = pick(rng, EVENT, total)
    for r in range(table.shape[0]):
        if table[r, LO] <= level <= table[r, HI]:
            x -= table[r, WEIGHT]
            if x < 0:
                return r
    return -1


@njit(inline="always", cache=True)
def _event_kind(rng, weights, level):
    """Z-39: the event kind at danger ``level`` (no draw when every weight is 0)."""
    total = 0
    for k in range(weights.shape[0]):
        total += weights[k, level]
    if total == 0:
        return NOTHING
    x = pick(rng, EVENT, total)
    for k in range(weights.shape[0]):
        x -= weights[k, level]
        if x < 0:
            return k
    return NOTHING


@njit(inline="always", cache=True)
def _n_items(view):
    return view[F.N_HEAL] + view[F.N_EXPL]


@njit(inline="always", cache=True)
def _item_slot(view, i):
    """View offset of the carried count of item ``i`` (healing types, then explosives)."""
    return F.heal_n(view, i) if i < view[F.N_HEAL] else F.expl_n(view, i - view[F.N_HEAL])


@njit(cache=True)
def _wear(view, js, plan, setup):
    """Derive the stalker's kit from the loadout cards he owns and put it on the
    fight view (Z-15..Z-25, Z-29, Z-30, Z-32): the firearm and its modifiers
    (capped), head + body defence, the escape item, the best movement, location
    and avoidance item (one active, no stacking)."""
    js[FIRE_DICE], js[FIRE_BONUS], js[DEFENCE], js[ESC_RED], js[MOVE], js[LOCATION_STEPS] = 0, 0, 0, 0, 0, 0
    js[AVOID_ALWAYS], js[AVOID_ON] = 0, setup[SU_AVOID_BASELINE]
    mods = 0
    for r in range(plan.shape[0]):
        if js[OWN0 + plan[r, P_ITEM]] == 0:
            continue
        kind, value = plan[r, P_KIND], plan[r, P_VALUE]
        if kind == K_FIREARM:
            js[FIRE_DICE] = value
        elif kind == K_MOD:
            mods += value
        elif kind == K_BODY or kind == K_HEAD:
            js[DEFENCE] += value
        elif kind == K_ESCAPE:
            js[ESC_RED] = value
        elif kind == K_MOVEMENT:
            js[MOVE] = max(js[MOVE], value)
        elif kind == K_LOCATION:
            js[LOCATION_STEPS] = max(js[LOCATION_STEPS], value)
        elif kind == K_AVOIDANCE:
            js[AVOID_ON] = min(js[AVOID_ON], value)
            js[AVOID_ALWAYS] |= plan[r, P_ALWAYS]
    if js[FIRE_DICE] > 0:
        js[FIRE_BONUS] = min(setup[SU_MODIFIER_CAP], mods) + setup[SU_DAMAGE_BONUS]
    view[F.FIREARM_DICE] = js[FIRE_DICE]
    view[F.FIREARM_BONUS] = js[FIRE_BONUS]
    view[F.DEFENCE] = js[DEFENCE]
    view[F.REPUTATION] = max(0, js[REP] + js[ESC_RED])  # Z-32
    F.recount(view)


@njit(cache=True)
def _die_and_replace(view, js, plan, setup, n_all, deaths_at, day, orders, dist, rng):
    """Z-08..Z-10: money, loot, cards and items stay on the death hex as a loot
    cache (added to one already lying there; older caches elsewhere stay); the
    dead stalker's order cards, the active one too, go back to the deck; a
    replacement starts at the start base with the replacement money and nothing
    else, at level 1 with the starting attributes (K-04), and takes an order;
    the character's permanent bonuses stay (Z-06: max HP, damage, healing)."""
    n_items = _n_items(view)
    size = cache_size(n_all, n_items)
    js[DEATHS] += 1
    if js[DEATH_DAY] == 0:
        js[DEATH_DAY] = day
    deaths_at[js[HEX]] += 1
    at = blocks(n_all)[1]
    while at < blocks(n_all)[1] + js[N_CACHES] * size and js[at + CH_HEX] != js[HEX]:
        at += size
    if at == blocks(n_all)[1] + js[N_CACHES] * size:  # a new cache
        js[N_CACHES] += 1
        js[at:at + size] = 0
        js[at + CH_HEX] = js[HEX]
    js[at + CH_MONEY] += js[MONEY]
    js[at + CH_TROPHY] += js[TROPHY]
    js[at + CH_ARTEFACT] += js[ARTEFACT]
    for i in range(n_all):
        js[at + CH_OWN0 + i] += js[OWN0 + i]
        js[OWN0 + i] = 0
    for i in range(n_items):
        js[at + CH_OWN0 + n_all + i] += view[_item_slot(view, i)]
        view[_item_slot(view, i)] = 0
    js[HEX], js[MONEY], js[REP], js[TROPHY], js[ARTEFACT] = setup[SU_START_HEX], setup[SU_REPLACEMENT_MONEY], 0, 0, 0
    js[MISSED] = 0
    js[XP], js[LEVEL] = 0, 1  # a new stalker (K-04); Influence is the player's (K-06)
    for a in range(MAX_ATTRIBUTES):
        js[ATTR0 + a] = setup[SU_ATTR0 + a]
    view[F.MAX_HP] = view[F.MAX_HP] - js[LEVEL_HP_GAINED]
    js[LEVEL_HP_GAINED] = 0
    view[F.HP] = view[F.MAX_HP]
    _wear(view, js, plan, setup)
    js[DECK_MASK] |= js[HELD_MASK] | (np.int64(1) << js[ORDER])  # Z-09
    js[HELD_MASK], js[HELD] = 0, 0
    js[REFIT] = 1  # he buys his kit again (Z-09, Z-40), whether or not the player restocks
    _take_order(js, orders, dist, setup, rng)


@njit(cache=True)
def _recover_cache(view, js, plan, setup, n_all, k):
    """Z-10: the replacement takes loot cache ``k`` on reaching its hex; the
    later caches move up one place."""
    n_items = _n_items(view)
    size = cache_size(n_all, n_items)
    at = blocks(n_all)[1] + k * size
    js[MONEY] += js[at + CH_MONEY]
    js[TROPHY] += js[at + CH_TROPHY]
    js[ARTEFACT] += js[at + CH_ARTEFACT]
    for i in range(n_all):
        js[OWN0 + i] += js[at + CH_OWN0 + i]
    for i in range(n_items):
        view[_item_slot(view, i)] += js[at + CH_OWN0 + n_all + i]
    end = blocks(n_all)[1] + js[N_CACHES] * size
    for i in range(at, end - size):  # forward: each word moves down by ``size``
        js[i] = js[i + size]
    js[N_CACHES] -= 1
    _wear(view, js, plan, setup)


@njit(inline="always", cache=True)
def _goal(js, orders, dist, setup, cache0, size):
    """The goal and the loot cache it is (-1: the order's destination): with
    loot to recover (Z-10, the strategy's choice), the nearest cache (least route
    weight from here; the oldest on ties), else the order's destination."""
    if js[N_CACHES] == 0 or setup[SU_RECOVER_LOOT] == 0:
        return orders[js[ORDER], O_DEST], -1
    best = 0
    for k in range(1, js[N_CACHES]):
        if dist[js[cache0 + k * size + CH_HEX], js[HEX]] < dist[js[cache0 + best * size + CH_HEX], js[HEX]]:
            best = k
    return js[cache0 + best * size + CH_HEX], best


@njit(cache=True)
def _shop(view, js, plan, sells, base, setup, purchases):
    """Z-12, Z-40: sell trophies and artefacts, then surplus cards at half price,
    then buy the shopping list (the starting loadout) while the base sells it,
    its deck has a card (Z-11), the stalker wants more and can pay: money
    first, Influence the rest (K-06). A stalker who does not restock buys only
    to refit a replacement, until he holds the whole list. True if anything
    changed hands (Z-13)."""
    n_all = sells.shape[1]
    deck = blocks(n_all)[0]
    traded = False
    if js[TROPHY] + js[ARTEFACT] > 0:
        js[MONEY] += js[TROPHY] + js[ARTEFACT]
        js[TROPHY], js[ARTEFACT] = 0, 0
        traded = True
    for r in range(plan.shape[0]):  # Z-12: what he holds beyond his list sells at half price
        slot = plan[r, P_SLOT] if plan[r, P_KIND] >= K_HEAL else OWN0 + plan[r, P_ITEM]
        held = view if plan[r, P_KIND] >= K_HEAL else js
        while held[slot] > plan[r, P_WANTED]:
            held[slot] -= 1
            js[deck + plan[r, P_ITEM]] += 1
            js[MONEY] += plan[r, P_PRICE] * setup[SU_SELL_PERMILLE] // 1000
            traded = True
    if setup[SU_RESTOCK] == 0 and js[REFIT] == 0:
        return traded
    for r in range(plan.shape[0]):
        item, kind = plan[r, P_ITEM], plan[r, P_KIND]
        if sells[base, item] == 0:
            continue
        if kind == K_MOD and js[OWN0 + plan[0, P_ITEM]] == 0:
            continue  # modifiers only with the firearm they fit (Z-21)
        while js[deck + item] > 0 and _wants(view, js, plan, r, setup):
            points = _influence_needed(plan[r, P_PRICE] - js[MONEY], setup[SU_INFLUENCE_PRICE])
            if points > js[INFLUENCE]:
                break
            paid = max(0, plan[r, P_PRICE] - points * setup[SU_INFLUENCE_PRICE])
            js[INFLUENCE] -= points
            js[MONEY] -= paid
            js[SPENT] += paid
            purchases[item] += 1
            _take(view, js, plan, r, deck)
            traded = True
    if js[REFIT] != 0 and not _wants_any(view, js, plan, setup):
        js[REFIT] = 0
    return traded


@njit(cache=True)
def _wants_any(view, js, plan, setup):
    """Whether any shopping-list entry wants one more card (a modifier only with its firearm)."""
    for r in range(plan.shape[0]):
        if plan[r, P_KIND] == K_MOD and js[OWN0 + plan[0, P_ITEM]] == 0:
            continue
        if _wants(view, js, plan, r, setup):
            return True
    return False


@njit(inline="always", cache=True)
def _influence_needed(short, rate):
    """K-06: Influence points (each worth ``rate`` G) that pay a shortfall of
    ``short`` G; more than any stalker holds when Influence buys nothing."""
    if short <= 0:
        return 0
    if rate <= 0:
        return 1 << 62
    return (short + rate - 1) // rate


@njit(cache=True)
def _asset_limit(view, js, plan, setup, discards, n_all):
    """K-05: above the limit of cards at the end of a day, cards go back to their
    decks, any card (the strategy's choice): first those held beyond the wanted
    count (no use, Z-20, Z-24, Z-25), then any, the cheapest first."""
    limit = setup[SU_ASSET_LIMIT]
    if limit < 0:
        return
    deck = blocks(n_all)[0]
    cards = 0
    for r in range(discards.shape[0]):
        cards += js[OWN0 + discards[r, D_ITEM]] if discards[r, D_SLOT] < 0 else view[discards[r, D_SLOT]]
    if cards <= limit:
        return
    for keep in (1, 0):  # the wanted count kept, then nothing kept
        for r in range(discards.shape[0]):
            held = js if discards[r, D_SLOT] < 0 else view
            slot = OWN0 + discards[r, D_ITEM] if discards[r, D_SLOT] < 0 else discards[r, D_SLOT]
            while cards > limit and held[slot] > keep * discards[r, D_WANTED]:
                held[slot] -= 1
                js[deck + discards[r, D_ITEM]] += 1
                cards -= 1
    _wear(view, js, plan, setup)


@njit(inline="always", cache=True)
def top_level(levels):
    """K-04: the last level of the track; ``levels`` has one row per level from 2."""
    return levels.shape[0] + 1


@njit(cache=True)
def _gain_xp(view, js, levels, setup, xp):
    """K-04: experience, then every level reached, rewards top to bottom (max HP,
    Influence, attribute points: each to the lowest attribute, the first on
    ties, the strategy's choice); past the top level (the table's last row: 12)
    each further step (the last gap again) is a completed mission."""
    js[XP] += xp
    top = top_level(levels)
    last, gap = levels[top - 2, L_XP], levels[top - 2, L_XP] - levels[top - 3, L_XP]
    while True:
        level = js[LEVEL] + 1
        needed = levels[level - 2, L_XP] if level <= top else last + (level - top) * gap
        if js[XP] < needed:
            return
        js[LEVEL] = level
        if level > top:
            js[MISSIONS] += 1
            continue
        reward = levels[level - 2, L_HP]
        view[F.MAX_HP] += reward
        view[F.HP] += reward
        js[LEVEL_HP_GAINED] += reward
        js[INFLUENCE] += levels[level - 2, L_INFLUENCE]
        for _ in range(levels[level - 2, L_POINTS]):
            low = ATTR0
            for a in range(ATTR0 + 1, ATTR0 + setup[SU_N_ATTRIBUTES]):
                if js[a] < js[low]:
                    low = a
            js[low] += 1


@njit(cache=True)
def _fight_group(view, js, params, asks, rng, fns, groups, g, monsters, levels, setup, used):
    """A monster event: the fight kernel's fight against group ``g`` (Z-38). True if dead."""
    escape, target, weapon, heal, rescue = fns
    size = groups[g, G_SIZE]
    view[F.N_MON] = size
    view[F.N_ALIVE] = size
    view[F.ROUND] = 0
    view[F.TARGET] = 0
    for i in range(size):
        m = groups[g, G_MONSTER0 + i]
        view[F.mon_hp(view, i)] = monsters[m, MN_HP]
        o = F.mon_slot(view, i)
        view[o + F.M_MAX_HP] = monsters[m, MN_HP]
        view[o + F.M_DICE] = monsters[m, MN_DICE]
        view[o + F.M_BONUS] = monsters[m, MN_BONUS]
        view[o + F.M_DEFENCE] = monsters[m, MN_DEFENCE]
    outcome = F.fight_once(view, params, asks, rng, escape, target, weapon, heal, rescue, used)
    if outcome == F.WIN:
        js[KILLS] += size
        hp_killed = 0
        for i in range(size):
            m = groups[g, G_MONSTER0 + i]
            js[TROPHY] += monsters[m, MN_TROPHY]
            hp_killed += monsters[m, MN_HP]
        js[INFLUENCE] += setup[SU_INFLUENCE_PER_WIN]  # K-06
        _gain_xp(view, js, levels, setup, setup[SU_XP_PER_HP] * hp_killed)  # K-08
    return outcome == F.DEATH


@njit(cache=True)
def _hurt(view, params, rescue, damage, used):
    """Damage outside a fight, then the Z-08 death check. True if dead."""
    if damage > 0:
        view[F.HP] -= damage
        if view[F.HP] <= 0:
            return F._death_check(view, params, rescue, used)
    return False


@njit(cache=True)
def _trap(view, js, params, rng, rescue, traps, t, setup, used):
    """Z-30, Z-39: avoided by item or a d6 (an item's threshold is stated against
    the content's baseline), else dice damage through armour. True if dead."""
    if js[AVOID_ALWAYS] != 0:
        return False
    threshold = traps[t, T_AVOID_ON] - (setup[SU_AVOID_BASELINE] - js[AVOID_ON])
    if die(rng, TRAP, 6) >= threshold:
        return False
    damage = roll(rng, TRAP, traps[t, T_DICE], 6) + traps[t, T_BONUS] - view[F.DEFENCE]
    return _hurt(view, params, rescue, damage, used)


@njit(cache=True)
def _skill_event(view, js, params, rng, rescue, skills, s, setup, used):
    """K-01..K-03, K-06..K-08: a skill test on the stalker's attribute, one
    Influence re-roll, then damage and missed turns. True if dead."""
    extra_one_fails = setup[SU_EXTRA_ONE_FAILS] != 0
    value, target = js[ATTR0 + skills[s, S_ATTRIBUTE]], skills[s, S_TARGET]
    passed, _ = skill_test(rng, SKILL, value, 0, target, extra_one_fails)
    if not passed and js[INFLUENCE] >= setup[SU_REROLL_COST]:
        js[INFLUENCE] -= setup[SU_REROLL_COST]
        passed, _ = skill_test(rng, SKILL, value, 0, target, extra_one_fails)
    if passed:
        return False
    if _hurt(view, params, rescue, roll(rng, SKILL, skills[s, S_DAMAGE_DICE], 6), used):
        return True
    js[MISSED] += skills[s, S_MISSED]
    return False


@njit(inline="always", cache=True)
def _hex_event(view, js, params, asks, rng, fns, level, events, plan, n_all, setup, used):
    """Z-39: draw and resolve the event of a hex of danger ``level`` (``events``: the
    first seven ``tables``). True if dead."""
    weights, groups, monsters, traps, skills, finds, levels = events
    kind = _event_kind(rng, weights, level)
    if kind == MONSTER:
        g = _band_pick(rng, groups, level)
        if g >= 0:
            return _fight_group(view, js, params, asks, rng, fns, groups, g, monsters, levels, setup, used)
    elif kind == TRAP_EVENT:
        t = _band_pick(rng, traps, level)
        if t >= 0:
            return _trap(view, js, params, rng, fns[4], traps, t, setup, used)
    elif kind == SKILL_EVENT:
        s = _band_pick(rng, skills, level)
        if s >= 0:
            return _skill_event(view, js, params, rng, fns[4], skills, s, setup, used)
    elif kind == FIND:
        f = _band_pick(rng, finds, level)
        if f >= 0 and finds[f, FD_KIND] == FIND_ITEM:
            _found_item(view, js, plan, finds[f, FD_AMOUNT], setup, n_all)
        elif f >= 0:
            js[MONEY if finds[f, FD_KIND] == FIND_MONEY else ARTEFACT] += finds[f, FD_AMOUNT]
    return False


@njit(inline="always", cache=True)
def _wants(view, js, plan, r, setup):
    """Whether the stalker wants one more of shopping-list entry ``r`` (never a
    space gate once one was used: it is out of the game, Z-28)."""
    if js[GATE_USED] != 0 and plan[r, P_ITEM] == setup[SU_SPACE_GATE]:
        return False
    held = view[plan[r, P_SLOT]] if plan[r, P_KIND] >= K_HEAL else js[OWN0 + plan[r, P_ITEM]]
    return held < plan[r, P_WANTED]


@njit(cache=True)
def _take(view, js, plan, r, deck):
    """One card of entry ``r`` from its deck into the stalker's hands."""
    js[deck + plan[r, P_ITEM]] -= 1
    if plan[r, P_KIND] >= K_HEAL:
        view[plan[r, P_SLOT]] += 1
    else:
        js[OWN0 + plan[r, P_ITEM]] += 1


@njit(cache=True)
def _found_item(view, js, plan, item, setup, n_all):
    """Z-11, Z-14: a found card comes from its deck; kept if the shopping list
    wants it, otherwise put straight back (nothing changes)."""
    deck = blocks(n_all)[0]
    if js[deck + item] <= 0:
        return
    for r in range(plan.shape[0]):
        if plan[r, P_ITEM] == item and _wants(view, js, plan, r, setup):
            _take(view, js, plan, r, deck)
            _wear(view, js, plan, setup)
            return


@njit(cache=True)
def _take_order(js, orders, dist, setup, rng):
    """Z-41: the stalker looks at an offer of order cards (the whole deck, or
    ``SU_ORDER_OFFER`` cards drawn one by one on ``ORDERS``) and takes one, the
    strategy's choice: the earliest in file order, or the one nearest to him
    (least route weight from here; the earliest on ties). The others stay in
    the deck. ``ORDER`` is -1 when the deck is empty."""
    deck = js[DECK_MASK]
    n = 0
    for k in range(orders.shape[0]):
        n += (deck >> k) & 1
    if n == 0:
        js[ORDER] = -1
        return
    offer = deck
    if 0 < setup[SU_ORDER_OFFER] < n:
        offer = 0
        for j in range(setup[SU_ORDER_OFFER]):
            x = pick(rng, ORDERS, n - j)  # the x-th card of the deck not drawn yet, in file order
            for k in range(orders.shape[0]):
                if (deck >> k) & 1 and not (offer >> k) & 1:
                    if x == 0:
                        offer |= np.int64(1) << k
                        break
                    x -= 1
    best = -1
    for k in range(orders.shape[0]):
        if not (offer >> k) & 1:
            continue
        if best < 0 or (setup[SU_ORDER_CHOICE] != 0
                        and dist[orders[k, O_DEST], js[HEX]] < dist[orders[best, O_DEST], js[HEX]]):
            best = k
    js[DECK_MASK] = deck & ~(np.int64(1) << best)
    js[ORDER] = best


@njit(cache=True)
def _complete_order(view, js, orders, dist, levels, setup, day, rng):
    """Z-41: the order pays its reward and +1 reputation (harder escapes, Z-33),
    experience and Influence (K-06, K-08); its card is held; the campaign's goal
    is reached the day ``SU_GOAL_ORDERS`` cards are held; the next order is taken."""
    k = js[ORDER]
    js[MONEY] += orders[k, O_REWARD]
    js[REP] += 1
    view[F.REPUTATION] = max(0, js[REP] + js[ESC_RED])
    js[INFLUENCE] += setup[SU_INFLUENCE_PER_ORDER]
    _gain_xp(view, js, levels, setup, setup[SU_XP_PER_ORDER])
    js[ORDERS_DONE] += 1
    js[HELD_MASK] |= np.int64(1) << k
    js[HELD] += 1
    if js[FIRST_DAY] == 0:
        js[FIRST_DAY] = day
    if js[HELD] > js[MOST_HELD]:
        js[MOST_HELD] = js[HELD]
        js[REACH0 + js[HELD] - 1] = day
    if js[HELD] == setup[SU_GOAL_ORDERS] and js[DONE_DAY] == 0:
        js[DONE_DAY] = day
    _take_order(js, orders, dist, setup, rng)


# ``_nrt=False``: a campaign allocates no array, so numba's reference counting is
# switched off here; with it, every helper's array arguments cost an atomic
# increment and decrement per call (bench/journey.py).
@njit(cache=True, _nrt=False)
def journey_once(view, js, params, asks, rng, fns, days, hexes, hop, dist, orders, tables, vectors,
                 used, traffic, deaths_at, purchases):
    """One campaign of up to ``days`` days (Z-34: a day's steps; Z-29 location
    steps; K-07 missed turns; Z-13 a trade ends the day; K-05 the asset limit at
    the end of a day)."""
    cost, epicentre, danger, base_of_hex, is_base, location = hexes
    plan, sells, discards, events = tables[7], tables[8], tables[9], tables[:7]
    setup = vectors[0]
    n_all = sells.shape[1]
    cache0, size = blocks(n_all)[1], cache_size(n_all, _n_items(view))
    js[DECK_MASK] = (np.int64(1) << orders.shape[0]) - 1
    _take_order(js, orders, dist, setup, rng)
    for day in range(1, days + 1):
        if js[ORDER] < 0:  # every order card is held: nothing is left to do
            return
        if js[MISSED] > 0:  # K-07: a missed day: no movement, events, experience or limits
            js[MISSED] -= 1
            continue
        if _fly(js, orders, dist, setup, is_base, n_all, size):
            _wear(view, js, plan, setup)
            _asset_limit(view, js, plan, setup, discards, n_all)
            continue
        penalty = orders[js[ORDER], O_PENALTY]
        budget = setup[SU_STEP_BUDGET] + js[MOVE] - penalty  # Z-25, Z-41
        epicentre_limit = min(setup[SU_STEP_BUDGET], budget)  # Z-26
        spent, location_left = 0, js[LOCATION_STEPS]  # Z-29: steps only for moves into a location hex
        while True:
            goal, k = _goal(js, orders, dist, setup, cache0, size)
            if js[HEX] == goal:
                if k >= 0:
                    _recover_cache(view, js, plan, setup, n_all, k)
                    continue
                _complete_order(view, js, orders, dist, tables[6], setup, day, rng)
                if js[ORDER] < 0:  # every card held: the day's asset limit (K-05), then nothing is left to do
                    _asset_limit(view, js, plan, setup, discards, n_all)
                    return
                continue
            base = base_of_hex[js[HEX]]
            if base >= 0 and _shop(view, js, plan, sells, base, setup, purchases):
                _wear(view, js, plan, setup)
                break  # Z-13: trading ends the day's steps
            n = hop[goal, js[HEX]]
            if epicentre[n] != 0:
                from_location, limit = 0, epicentre_limit  # Z-26: no equipment steps
            else:
                from_location, limit = min(location_left, cost[n]) if location[n] != 0 else 0, budget
            if spent + cost[n] - from_location > limit:  # Z-34, Z-35: the move waits for tomorrow
                break
            spent += cost[n] - from_location
            location_left -= from_location
            js[HEX] = n
            traffic[n] += 1
            if _hex_event(view, js, params, asks, rng, fns, danger[n], events, plan, n_all, setup, used):
                _die_and_replace(view, js, plan, setup, n_all, deaths_at, day, orders, dist, rng)
                break
            if js[MISSED] > 0:
                break  # K-07: the day ends at once, no Experience phase, no asset limit
            view[F.IN_COMBAT] = 0
            F._heal_phase(view, params, fns[3], used)  # Z-31: medkits between events
        if js[MISSED] == 0:
            _asset_limit(view, js, plan, setup, discards, n_all)


@njit(inline="always", cache=True)
def _fly(js, orders, dist, setup, is_base, n_all, size):
    """Z-27, Z-28 at the start of a day: a helicopter call to the military base
    when that is the goal (the card goes back to its deck), else a space gate to
    the goal's base if none was used yet (Z-28, once per game: the card leaves
    the game and no gate is used, bought or kept again). True if he flew: the
    day is over."""
    goal = _goal(js, orders, dist, setup, blocks(n_all)[1], size)[0]
    if js[HEX] == goal:
        return False
    heli, gate = setup[SU_HELICOPTER], setup[SU_SPACE_GATE]
    if heli >= 0 and js[OWN0 + heli] > 0 and goal == setup[SU_MILITARY_HEX]:
        js[OWN0 + heli] -= 1
        js[blocks(n_all)[0] + heli] += 1
    elif gate >= 0 and js[OWN0 + gate] > 0 and js[GATE_USED] == 0 and is_base[goal] != 0:
        js[OWN0 + gate] -= 1
        js[GATE_USED] = 1
    else:
        return False
    js[HEX] = goal
    return True


DEATH_CAP = 10
"""Deaths per trial are counted exactly up to this, the rest in the last bin."""


@njit(cache=True)
def _block_arrays(template, vectors, n_items, days):
    """A parallel block's working arrays: the fight view, the journey state ``js`` and the dice streams."""
    return (template.copy(), np.zeros(state_size(vectors[1].size, n_items, days), np.int64),
            np.zeros(F.RNG_SIZE, np.uint64))


@njit(cache=True)
def _campaign(view, js, rng, template, params, asks, fns, days, hexes, hop, dist, orders, tables, vectors, at, t,
              seed_mixed, trial):
    """Campaign ``trial``: a fresh stalker (``_start``) on its own dice streams, keyed
    by (seed, trial) (DESIGN "Randomness"); the items used, traffic, deaths by hex
    and purchases go to the tally ``t`` (sections at ``at``)."""
    _start(view, template, js, tables[7], vectors[0], vectors[1])
    base = trial_base(seed_mixed, trial)
    for stream in range(N_JOURNEY_STREAMS):
        start_stream(rng, stream, base, stream)
    rng[F.TRIAL_BASE] = base
    rng[F.ESCAPE_KEYED] = 1
    journey_once(view, js, params, asks, rng, fns, days, hexes, hop, dist, orders, tables, vectors,
                 t[at[T_USED]:at[T_TRAFFIC]], t[at[T_TRAFFIC]:at[T_DEATHS_AT]], t[at[T_DEATHS_AT]:at[T_PURCHASES]],
                 t[at[T_PURCHASES]:at[T_END]])


@njit(cache=True)
def _start(view, template, js, plan, setup, deck0):
    """A fresh stalker at the start base with the loadout's cards (Z-01, Z-07);
    the decks hold what the loadout did not take (Z-11)."""
    view[:] = template
    js[:] = 0
    n_all = deck0.size
    deck = blocks(n_all)[0]
    for i in range(n_all):
        js[deck + i] = deck0[i]
    for r in range(plan.shape[0]):
        if plan[r, P_KIND] < K_HEAL:
            js[OWN0 + plan[r, P_ITEM]] = 1
    js[HEX] = setup[SU_START_HEX]
    js[MONEY] = setup[SU_MONEY]
    js[REP] = setup[SU_REPUTATION]
    js[INFLUENCE] = setup[SU_INFLUENCE]
    js[LEVEL] = 1
    js[ATTR0:REACH0] = setup[SU_ATTR0:SU_ATTR0 + MAX_ATTRIBUTES]
    _wear(view, js, plan, setup)


# --- the tally: one int64 array of sections, at the offsets ``at[T_...]`` (``at[T_END]`` its length)
(T_COUNTS, T_DONE_DAY, T_FIRST_DAY, T_DEATH_DAY, T_ORDERS, T_DEATHS, T_LEVEL, T_USED, T_TRAFFIC, T_DEATHS_AT,
 T_PURCHASES, T_END) = range(12)
# --- the float sums
S_MONEY, S_MONEY_SQ, S_KILLS, S_MISSIONS, S_SPENT, S_DEATHS, S_DEATHS_SQ, S_ORDERS, S_REPUTATION, S_WEALTH = range(10)
N_SUMS = 10
BLOCK = 50  # campaigns per parallel block, so that even the economy's batches of 60 to 1,000 use every core

_TABLES = types.Tuple((types.int64[:, ::1],) * 10)
_VECTORS = types.UniTuple(types.int64[::1], 2)
_HEXES = types.UniTuple(types.int64[::1], 6)
_RUN_SIG = types.void(
    types.int64, types.int64, types.int64, types.int64, types.int64[::1], types.float64[::1], types.int64,
    types.UniTuple(F.DecisionType, 5), _HEXES, types.int64[:, ::1], types.int64[:, ::1], types.int64[:, ::1],
    _TABLES, _VECTORS, types.int64[::1], types.int64[::1], types.float64[::1],
)


@entry_point(_RUN_SIG, parallel=True)
def run_journeys(seed, trial_start, n_trials, days, template, params, asks, fns, hexes, hop, dist, orders, tables,
                 vectors, at, tally, sums):
    """Campaign trials ``trial_start ..``; adds to ``tally`` (sections at ``at``):
    campaigns that reached the goal and with no death, histograms of the goal's
    day, first order day and first death day (``days + 1``: never), of order
    cards held at the end, deaths (``DEATH_CAP`` and more in the last bin) and final level, items used,
    per-hex traffic and deaths, purchases per item; and to ``sums`` (``S_*``).
    Integer sums (money as exact floats): the same for any thread count or chunking."""
    n_blocks = (n_trials + BLOCK - 1) // BLOCK
    tally_b = np.zeros((n_blocks, tally.size), np.int64)
    sums_b = np.zeros((n_blocks, sums.size), np.float64)
    seed_mixed = mix(np.uint64(seed))
    n_items = at[T_TRAFFIC] - at[T_USED]
    for b in prange(n_blocks):
        view, js, rng = _block_arrays(template, vectors, n_items, days)
        t, s = tally_b[b], sums_b[b]
        first = trial_start + b * BLOCK
        for trial in range(first, min(trial_start + n_trials, first + BLOCK)):
            _campaign(view, js, rng, template, params, asks, fns, days, hexes, hop, dist, orders, tables, vectors,
                      at, t, seed_mixed, trial)
            t[at[T_COUNTS]] += js[DONE_DAY] > 0
            t[at[T_COUNTS] + 1] += js[DEATHS] == 0
            for section, day in ((T_DONE_DAY, js[DONE_DAY]), (T_FIRST_DAY, js[FIRST_DAY]),
                                 (T_DEATH_DAY, js[DEATH_DAY])):
                t[at[section] + (day if day > 0 else days + 1)] += 1
            t[at[T_ORDERS] + js[HELD]] += 1
            t[at[T_DEATHS] + min(js[DEATHS], DEATH_CAP)] += 1
            t[at[T_LEVEL] + min(js[LEVEL], top_level(tables[6]))] += 1
            s[S_MONEY] += js[MONEY]
            s[S_MONEY_SQ] += js[MONEY] * js[MONEY]
            s[S_KILLS] += js[KILLS]
            s[S_MISSIONS] += js[MISSIONS]
            s[S_SPENT] += js[SPENT]
            s[S_DEATHS] += js[DEATHS]
            s[S_DEATHS_SQ] += js[DEATHS] * js[DEATHS]
            s[S_ORDERS] += js[ORDERS_DONE]
            s[S_REPUTATION] += js[REP]
            s[S_WEALTH] += wealth(view, js, tables[7], vectors[0])
    tally += tally_b.sum(axis=0)
    sums += sums_b.sum(axis=0)


# --- a campaign's outcomes (the columns of ``campaign_outcomes``): order completions, cards held, reputation
# and wealth at the end, deaths, kills, the goal's day (0: never), then the day 1, 2, ... cards were first held
(OUT_ORDERS, OUT_HELD, OUT_REPUTATION, OUT_WEALTH, OUT_DEATHS, OUT_KILLS, OUT_GOAL_DAY, OUT_REACH0) = range(8)


@njit(cache=True)
def wealth(view, js, plan, setup):
    """Z-12: money, trophies and artefacts at their value, and every card and
    item he holds at its selling price (what lies in loot caches is not his)."""
    total = js[MONEY] + js[TROPHY] + js[ARTEFACT]
    for r in range(plan.shape[0]):
        held = view[plan[r, P_SLOT]] if plan[r, P_KIND] >= K_HEAL else js[OWN0 + plan[r, P_ITEM]]
        total += held * (plan[r, P_PRICE] * setup[SU_SELL_PERMILLE] // 1000)
    return total


_OUTCOMES_SIG = types.void(
    types.int64, types.int64, types.int64, types.int64, types.int64[::1], types.float64[::1], types.int64,
    types.UniTuple(F.DecisionType, 5), _HEXES, types.int64[:, ::1], types.int64[:, ::1], types.int64[:, ::1],
    _TABLES, _VECTORS, types.int64[::1], types.int64[:, ::1],
)


@entry_point(_OUTCOMES_SIG, parallel=True)
def campaign_outcomes(seed, trial_start, n_trials, days, template, params, asks, fns, hexes, hop, dist, orders,
                      tables, vectors, at, out):
    """Campaign trials ``trial_start ..`` on the dice of ``run_journeys``: row ``i``
    of ``out`` holds the ``OUT_*`` outcomes of trial ``trial_start + i`` (Z-09,
    Z-12, Z-41), with one reach day per order card of the deck."""
    n_blocks = (n_trials + BLOCK - 1) // BLOCK
    seed_mixed = mix(np.uint64(seed))
    n_items = at[T_TRAFFIC] - at[T_USED]
    n_orders = orders.shape[0]
    for b in prange(n_blocks):
        view, js, rng = _block_arrays(template, vectors, n_items, days)
        t = np.zeros(at[T_END], np.int64)  # the campaigns' tallies, not read here
        first = trial_start + b * BLOCK
        for trial in range(first, min(trial_start + n_trials, first + BLOCK)):
            _campaign(view, js, rng, template, params, asks, fns, days, hexes, hop, dist, orders, tables, vectors,
                      at, t, seed_mixed, trial)
            row = out[trial - trial_start]
            row[OUT_ORDERS], row[OUT_HELD], row[OUT_REPUTATION] = js[ORDERS_DONE], js[HELD], js[REP]
            row[OUT_WEALTH] = wealth(view, js, tables[7], vectors[0])
            row[OUT_DEATHS], row[OUT_KILLS], row[OUT_GOAL_DAY] = js[DEATHS], js[KILLS], js[DONE_DAY]
            row[OUT_REACH0:OUT_REACH0 + n_orders] = js[REACH0:REACH0 + n_orders]
