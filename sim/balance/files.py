"""The files ``balance`` writes into its ``--out`` folder: ``balance.json``,
``diff.md``, one content copy per proposal and ``manifest.json``."""

import shutil
from pathlib import Path

from sim.balance.spec import with_values
from sim.run.results import atomic_write, command_line, manifest, write_json


def write_balance(out: Path, result):
    """balance.json, diff.md, one content copy per proposal (``proposal-N/content``,
    comments kept) and manifest.json."""
    knobs = {k.label: k for k in result.spec.knobs}
    for n, p in enumerate(result.proposals, 1):
        target = out / f"proposal-{n}" / "content"
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        with_values(result.folder, target, {knobs[label]: new for label, (_, new) in p["changes"].items()})
    atomic_write(out / "diff.md", lambda path: path.write_text(balance_markdown(result), encoding="utf-8"))
    write_json(out / "balance.json", result.to_json())
    write_json(out / "manifest.json", manifest(command_line(), content_dir=str(result.folder), seed=result.seed,
                                               balance=str(result.spec.path), elapsed_s=result.elapsed_s))


def balance_markdown(result) -> str:
    """The proposals as markdown: per proposal its changed numbers, then every target
    before and after with its 95% interval (fresh dice, full counts) and the paired
    change on those dice with its 95% interval, as ``zonesim report --baseline`` gives it."""
    def cell(v):
        lo, hi = v["ci95"]
        return f"{v['value']:.4g} [{lo:.4g}, {hi:.4g}]{' ✓' if v['met'] else ''}"

    def change(v):
        """The paired change on the same dice, as ``zonesim report --baseline`` shows it (* clear of 0)."""
        lo, hi = v["diff_ci95"]
        clear = lo == lo and (lo > 0 or hi < 0)
        return f"{v['diff']:+.4g} [{lo:+.4g}, {hi:+.4g}]{' *' if clear else ''}"

    lines = [f"# Balance proposals for {result.folder}", "",
             f"Targets of `{result.spec.path}`; {result.candidates} candidates searched (seed {result.seed}); "
             f"every number measured again on fresh dice (seed {result.seed + 1}) at the "
             f"{'quick' if result.quick else 'full'} counts of report.toml, 95% intervals; "
             f"✓ = in its band; *vs baseline*: the change on the same dice with its paired 95% interval, * when it "
             f"excludes 0. The baseline meets {result.baseline_met()} of {len(result.targets)} targets.", ""]
    if result.swings:
        lines += [f"Knobs chosen by `--knobs auto` ({len(result.swings)}, the largest swing on the targets' distance "
                  "to their bands first):", ""]
        lines += [f"- `{k.label}`: {k.base:g} in [{k.low:g}, {k.high:g}], swing {result.swings[k.label]:.3g}"
                  for k in sorted(result.spec.knobs, key=lambda k: -result.swings.get(k.label, -1))
                  if k.label in result.swings] + [""]
    if not result.proposals:
        lines.append("No candidate came closer to the bands than the content as it is.")
    for n, p in enumerate(result.proposals, 1):
        lines += [f"## Proposal {n}: {p['changed']} number{'s' if p['changed'] != 1 else ''} changed, "
                  f"{p['met']} of {len(result.targets)} targets met", ""]
        lines += [f"- `{label}`: {old} → {new}" for label, (old, new) in p["changes"].items()] + [""]
        shown = [t for t in result.targets if not (result.baseline[t.metric]["met"] and p["targets"][t.metric]["met"])]
        lines += ["| target | band | baseline | proposal | vs baseline |", "|---|---|---|---|---|"]
        lines += [f"| {t.metric} | [{t.low:g}, {t.high:g}] | {cell(result.baseline[t.metric])} | "
                  f"{cell(p['targets'][t.metric])} | {change(p['targets'][t.metric])} |" for t in shown]
        others = len(result.targets) - len(shown)
        if others:
            lines += ["", f"The other {others} target{'s are' if others != 1 else ' is'} met before and after "
                          "(balance.json holds every value)."]
        lines.append("")
    return "\n".join(lines) + "\n"
