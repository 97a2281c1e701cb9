"""Render the speed figures of the README and the docs from one stored file.

    python scripts/readme_figures.py           # rewrite every figures block
    python scripts/readme_figures.py --check   # exit 1 if a block differs from its render

Every number the README and the docs show about speed or time lives in
``docs/dev/bench-results.json``, copied there from a run of the bench named beside
it. Each page holds blocks

    <!-- figures:NAME:start -->
    ...
    <!-- figures:NAME:end -->

whose text is ``RENDER[NAME](results)``; this script rewrites them, and
``tests/infra/test_readme.py`` fails when one differs from its render. To change a
figure, edit the JSON (or a renderer) and run the script: never edit a block.
"""

import argparse
import difflib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "dev" / "bench-results.json"
PAGES = ("README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md")
                              if "<!-- figures:" in p.read_text(encoding="utf-8")))
BLOCK = re.compile(r"(<!-- figures:(?P<name>[a-z-]+):start -->\n)(?P<body>.*?)(<!-- figures:(?P=name):end -->)", re.S)


def rate(x):
    """A rate as people read it: 33.3 M, 21,109, 463.7."""
    if x >= 1e6:
        return f"{x / 1e6:.1f} M"
    if x >= 1000 or float(x).is_integer():
        return f"{x:,.0f}"
    return f"{x:,.1f}"


def ratio(a, b):
    return f"{round(a / b):,}x"


def duration(seconds):
    """Whole seconds as ``4 min 30 s``."""
    minutes, s = divmod(int(round(seconds)), 60)
    if not minutes:
        return f"{s} s"
    return f"{minutes} min {s} s" if s else f"{minutes} min"


def seconds(x):
    """A measured time as read: ``0.06 s``, ``3.60 s``, ``1 min 17 s``."""
    return duration(x) if x >= 10 else f"{x:.2f} s"


def command_time(r, command):
    """The time ``bench-results.json``'s ``commands`` gives ``command``."""
    return next(c["time"] for c in r["commands"] if c["command"] == command)


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def render_report_time(r):
    """The README's set-up section: how long the main job takes."""
    rep = r["report"]
    return (f"On 2 cores the whole study takes {duration(rep['warm_s'])} once the kernels are compiled "
            f"(peak {rep['warm_peak_gb']} GB); the very first run also compiles them and takes "
            f"{duration(rep['cold_s'])} (peak {rep['cold_peak_gb']} GB). `zonesim report --quick` drafts it "
            f"in about {duration(rep['quick_s'])}.")


def render_compile_first(r):
    """The tutorial, getting started, the FAQ, Jupyter and the explorer: the first run compiles."""
    kernels = {c["kernels"]: c["seconds"] for c in r["compile_s"]}
    fight = kernels["fights"] + kernels["fight decisions"]
    return (f"The first command that simulates compiles the kernels it uses into `~/.cache/zonesim/`, once: "
            f"{duration(fight)} for a fight, {duration(sum(kernels.values()))} for every kernel of every mode "
            f"(one core, `python bench/first_run.py`). Later runs load them from the cache at once, and a new "
            f"version of zonesim, or of numba, compiles again.")


def render_report_quick(r):
    """The tutorial and getting started: how long the first report takes."""
    rep = r["report"]
    return (f"`zonesim report --quick` takes about {duration(rep['quick_s'])} once the kernels are compiled; "
            f"without `--quick` the full study takes {duration(rep['warm_s'])} on 2 cores.")


def render_journey_speed(r):
    """docs/guide/long-runs.md: when a journey run is worth a checkpoint."""
    return (f"On 2 cores, 3 million journey campaigns take "
            f"{command_time(r, 'zonesim journey --trials 3000000')} (`--trials 30000000`, ten times as many, is "
            f"worth a checkpoint).")


def render_sensitivity_time(r):
    """docs/guide/compare-and-sensitivity.md: what a sensitivity run costs."""
    return (f"Every swing is 20 batches of campaigns: two files' assumed numbers (`--files "
            f"monsters.toml,rules.toml`, 36 numbers) take "
            f"{command_time(r, 'zonesim sensitivity --quick --files monsters.toml,rules.toml')} on the quick "
            f"counts, every assumed number of the content (195) about five times that.")


def render_card_values_time(r):
    """The explorer and the balance guide: what valuing every card on the campaigns costs."""
    e = r["economy"]
    return (f"Valuing every card on the journey campaigns takes {duration(e['value_full_s'])} on 2 cores "
            f"({duration(e['value_quick_s'])} at the quick counts, `python bench/economy.py`).")


def render_explore(r):
    """docs/guide/explore.md: how fast the explorer answers an edit."""
    e = r["explore"]
    rows = [(row["from"], row["to"], seconds(row["median_s"]), "" if row["worst_s"] is None else seconds(row["worst_s"]))
            for row in e["rows"]]
    return f"From `python {e['bench']}` ({e['scenario']}):\n\n" + table(("from", "to", "median", "worst"), rows)


def render_speed(r):
    """The README's speed table: each kernel against its plain-Python reference."""
    rows = [(k["mode"], f"{rate(k['kernel'])} {k['unit']}/s", f"{rate(k['reference'])} {k['unit']}/s",
             ratio(k["kernel"], k["reference"])) for k in r["kernels"]]
    return table(("", "numba kernel, 2 threads", "plain-Python reference, 1 core", "ratio"), rows)


def render_kernels(r):
    """docs/dev/benchmarks.md: the kernels with their scenarios and benches."""
    rows = [(k["mode"], k["unit"] + "/s", f"{k['kernel']:,}", f"{k['reference']:,}", ratio(k["kernel"], k["reference"]),
             f"`python {k['bench']}`", k["scenario"]) for k in r["kernels"]]
    return table(("mode", "unit", "kernel, 2 threads", "reference, 1 core", "ratio", "bench", "scenario"), rows)


def render_fight_ceiling(r):
    """docs/dev/benchmarks.md: the fight kernel against the bare duel, the tight loop and the RNG limit."""
    f = r["fight_ceiling"]
    goals = f["goals"]
    speeds = table(("", "fights/s"), [
        ("numba kernel, 2 threads", f"{f['kernel']:,}"),
        ("bare duel, 2 threads", f"{f['bare_duel']:,} ({f['bare_duel'] / f['kernel']:.2f}x the kernel)"),
        ("plain-Python reference, 1 core", f"{f['reference']:,}"),
        ("tight plain-Python loop, 1 core", f"{f['tight_loop']:,}"),
        (f"RNG limit: {f['rng_d6_per_s']:,} d6/s over about {f['d6_per_fight']} d6 a fight", f"{f['rng_limit']:,}"),
    ])
    goals_table = table(("", "kernel", "bare duel", "goal"), [
        ("times the reference", ratio(f["kernel"], f["reference"]), ratio(f["bare_duel"], f["reference"]),
         f"{goals['times_reference']}x"),
        ("times the tight loop", ratio(f["kernel"], f["tight_loop"]), ratio(f["bare_duel"], f["tight_loop"]),
         f"{goals['times_tight_loop']}x"),
        ("share of the RNG limit", f"{f['kernel'] / f['rng_limit']:.0%}", f"{f['bare_duel'] / f['rng_limit']:.0%}",
         f"{goals['share_of_rng_limit']:.0%}"),
    ])
    return (f"One run of `python bench/fight.py`, {f['measured']}, 2 threads.\n\n" + speeds + "\n\n"
            + goals_table)


def render_fight_ladder(r):
    """docs/dev/benchmarks.md: the rungs from the bare duel up to the fight kernel, each against the one below."""
    f = r["fight_ladder"]
    rungs = f["rungs"]
    bare = rungs[0]["fights_per_s"]
    rows = [(k + 1, x["rung"], f"{x['fights_per_s']:,}", f"{x['fights_per_s'] / bare:.0%}",
             "" if k == 0 else f"{x['fights_per_s'] / rungs[k - 1]['fights_per_s'] - 1:+.0%}")
            for k, x in enumerate(rungs)]
    return (f"`python {f['bench']}`, {f['measured']}: {f['scenario']}.\n\n"
            + table(("", "rung", "fights/s", "of the bare duel", "on the rung below"), rows))


def render_first_run(r):
    """docs/dev/benchmarks.md: the main job on an empty and on a warm kernel cache."""
    rep = r["report"]
    return table(("`zonesim report`", "wall", "peak memory"), [
        ("empty kernel cache (compiles every kernel it uses)", duration(rep["cold_s"]), f"{rep['cold_peak_gb']} GB"),
        ("warm kernel cache", duration(rep["warm_s"]), f"{rep['warm_peak_gb']} GB"),
        ("`--quick`, warm cache", f"about {duration(rep['quick_s'])}", ""),
    ])


def render_compile(r):
    """docs/dev/benchmarks.md: compile time of each kernel group on an empty cache."""
    return table(("kernels", "compile, empty cache, one core"), [(c["kernels"], duration(c["seconds"]))
                                                                   for c in r["compile_s"]])


def render_commands(r):
    """docs/dev/benchmarks.md: whole commands."""
    return table(("command", "work", "time"), [(f"`{c['command']}`", c["what"], c["time"]) for c in r["commands"]])


def render_strategy_passing(r):
    """docs/decisions/strategy-passing.md: the two ways of passing strategies, measured."""
    def secs(x):
        return f"{x:.2f} s" if x < 1 else f"{x:.1f} s"

    rows = [(s["passing"], s["cache"], secs(s["import_s"]), secs(s["first_fighter_s"]), secs(s["first_runner_s"]),
             rate(s["fights_per_s"])) for s in r["strategy_passing"]["rows"]]
    return table(("passing", "numba cache", "import", "first call, fighter", "first call, runner",
                  "fighter fights/s"), rows)


def render_economy(r):
    """The item economy's whole commands on the default content, against their goals."""
    e = r["economy"]
    goals = e["goals"]
    return table(("`zonesim ...`", "time, 2 cores", "goal"), [
        ("`value --quick`", duration(e["value_quick_s"]), duration(goals["value_quick_s"])),
        ("`value`", duration(e["value_full_s"]), duration(goals["value_full_s"])),
        ("`value --view fights --quick`", duration(e["value_fights_quick_s"]), ""),
        (f"`tune` ({e['tune_moves']} price moves)", duration(e["tune_s"]), duration(goals["tune_s"])),
    ])


def render_economy_rates(r):
    """The README's economy section: the tiers' exchange rates at the full counts."""
    e = r["economy"]
    tiers = [f"{g:,} G at {tier}" for tier, g in e["rates_g_per_day"].items()]
    return (f"On the default content (`zonesim value`, seed 1, the speed objective), 1 day to spare reaching the "
            f"goal is worth {', '.join(tiers[:-1])} "
            f"and {tiers[-1]}; {e['overall_g_per_day']:,} G overall.")


def render_balance(r):
    """The README's balance section: the default solve's top proposal, the targets it moves."""
    b = r["balance"]
    top = b["top"]
    changes = ", ".join(f"`{label.split(':', 1)[1]}` {old} → {new}" for label, (old, new) in top["changes"].items())
    rows = [(f"`{row['metric']}`", f"[{row['band'][0]:g}, {row['band'][1]:g}]",
             f"{row['before']:.3f}" + (" ✓" if row["before_met"] else ""),
             f"{row['after']:.3f}" + (" ✓" if row["after_met"] else "")) for row in top["rows"]]
    return (f"{changes}: {top['met']} of {b['targets']} targets met (the content as it is: {b['baseline_met']}); "
            f"{b['candidates']} candidates over {b['knobs']} knobs, {b['candidates_per_min']:.0f} a minute, "
            f"{duration(b['total_s'])} in all on 2 cores (goal {duration(b['goal_s'])}).\n\n"
            + table(("target", "band", "before", "after"), rows)
            + f"\n\nThe other {b['targets'] - len(rows)} targets are met before and after.")


RENDER = {
    "report-time": render_report_time,
    "speed": render_speed,
    "kernels": render_kernels,
    "fight-ceiling": render_fight_ceiling,
    "fight-ladder": render_fight_ladder,
    "first-run": render_first_run,
    "compile": render_compile,
    "commands": render_commands,
    "strategy-passing": render_strategy_passing,
    "economy": render_economy,
    "economy-rates": render_economy_rates,
    "balance": render_balance,
    "compile-first": render_compile_first,
    "report-quick": render_report_quick,
    "journey-speed": render_journey_speed,
    "sensitivity-time": render_sensitivity_time,
    "card-values-time": render_card_values_time,
    "explore": render_explore,
}


def load():
    return json.loads(RESULTS.read_text(encoding="utf-8"))


def rendered(text, results):
    """``text`` with every figures block replaced by its render."""
    def fill(match):
        name = match.group("name")
        if name not in RENDER:
            raise SystemExit(f"readme_figures: unknown block {name!r}; known: {', '.join(RENDER)}")
        return match.group(1) + RENDER[name](results).rstrip("\n") + "\n" + match.group(4)

    return BLOCK.sub(fill, text)


def blocks(text):
    """The names of the figures blocks in ``text``, in order."""
    return [m.group("name") for m in BLOCK.finditer(text)]


def stale(root=ROOT):
    """``{page: (current text, rendered text)}`` for every page whose blocks differ from their render."""
    results = load()
    out = {}
    for page in PAGES:
        text = (root / page).read_text(encoding="utf-8")
        new = rendered(text, results)
        if new != text:
            out[page] = (text, new)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if a block is stale")
    args = parser.parse_args(argv)
    used = {name for page in PAGES for name in blocks((ROOT / page).read_text(encoding="utf-8"))}
    if used != set(RENDER):
        print(f"readme_figures: blocks never shown: {sorted(set(RENDER) - used)}", file=sys.stderr)
        return 1
    changed = stale()
    for page, (old, new) in changed.items():
        if args.check:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), page, page))
        else:
            (ROOT / page).write_text(new, encoding="utf-8")
            print(f"readme_figures: rewrote {page}")
    if args.check and changed:
        print(f"readme_figures: stale figures in {', '.join(changed)}; run `python scripts/readme_figures.py`",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
