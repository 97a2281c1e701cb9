"""What changed, and what to change: two content sets compared on common dice, the sensitivity to the assumed numbers, the balance solver."""

from pathlib import Path


def compare(base, new, *, quick=False, seed=None, only=(), threads=None, scheduler=None, workers=None, out=None,
            resume=False):
    """What moved between content folders (or report folders) ``base`` and ``new``, on the
    same dice (``zonesim compare``): the content diff and every headline number of the
    groups ``only`` (default all: fights, journeys, skirmish, stalkeriada, economy) with
    its paired 95% interval. A ``ContentComparison``.

        >>> c = compare(content_path(), "tougher", quick=True, only=["fights"])
        >>> c.content_diff, c.moved()
    """
    import time

    from sim.compare.diff import content_diff, resolve_content
    from sim.compare.metrics import ContentComparison, make_plan, measure, paired
    from sim.content import load_content as load
    from sim.options import check_out_folder, check_seed, run_params, set_threads
    from sim.run.chunks import checkpoints
    from sim.run.distributed import cluster

    check_seed(seed)
    base_dir, new_dir = resolve_content(base, "BASE"), resolve_content(new, "NEW")
    base_content, new_content = load(base_dir), load(new_dir)
    check_out_folder(out)
    plan = make_plan(base_content, quick=quick, seed=seed, **({"groups": tuple(only)} if only else {}))
    store = checkpoints(out, run_params("compare", new_content, base_hash=base_content.digest, quick=quick,
                                        seed=plan.seed, groups=list(plan.groups)), resume)
    set_threads(threads)
    start = time.perf_counter()
    diff = content_diff(base_dir, new_dir)
    with cluster(scheduler, workers) as client:
        rows = paired(measure(base_content, plan, client, store, "base"),
                      measure(new_content, plan, client, store, "new"))
    comparison = ContentComparison(base_dir, new_dir, diff, rows, plan, quick, time.perf_counter() - start)
    if out is not None:
        from sim.compare.files import write_comparison

        write_comparison(Path(out), comparison)
    return comparison


def sensitivity(*, metric="journey_finish", files=(), quick=False, seed=None, threads=None, out=None, resume=False,
                content=None, on_progress=None):
    """Which assumed [A] numbers of the content (of ``files`` only, if given) the metric
    hangs on (``zonesim sensitivity``): each swung to its low and high value alone, on
    the same dice, with paired 95% intervals, largest swing first. A ``Sensitivity``.

        >>> s = sensitivity(metric="fight_survival", files=["monsters.toml"], quick=True)
        >>> s.hangs_on()
    """
    import time

    from sim.compare.diff import resolve_content
    from sim.compare.metrics import make_plan
    from sim.compare.sensitivity import Sensitivity, assumed_parameters, check_metric
    from sim.compare.sensitivity import sensitivity as swing_each
    from sim.content import DEFAULT_DIR
    from sim.content import load_content as load
    from sim.options import check_out_folder, check_seed, run_params, set_threads
    from sim.run.chunks import checkpoints

    check_seed(seed)
    folder = resolve_content(content, "--content") if content is not None else DEFAULT_DIR
    game = load(folder)
    plan = make_plan(game, quick=quick, seed=seed, groups=("fights",))
    check_metric(metric, game, plan)
    params = assumed_parameters(folder, list(files) or None)
    check_out_folder(out)
    store = checkpoints(out, run_params("sensitivity", game, metric=metric, files=",".join(files), quick=quick,
                                        seed=plan.seed), resume)
    set_threads(threads)
    start = time.perf_counter()
    base, rows = swing_each(folder, plan, metric, params, on_progress=on_progress, store=store)
    result = Sensitivity(metric, base.value, plan.seed, rows, folder, quick, time.perf_counter() - start)
    if out is not None:
        from sim.compare.files import write_sensitivity

        write_sensitivity(Path(out), result)
    return result


def balance(targets, *, content=None, budget=None, quick=False, seed=None, out=None, resume=False, threads=None,
            scheduler=None, workers=None, knobs="file", on_progress=None):
    """Proposed changes that bring the headline numbers into the bands of the balance
    file ``targets`` (``zonesim balance``): a ``BalanceResult`` with the baseline and
    the proposals, each target measured again at the full counts on fresh dice. With
    ``scheduler`` or ``workers`` the candidates of a batch are measured side by side
    on a Dask cluster, with the same proposals. ``knobs="auto"``: the 20 assumed
    numbers with the largest swing on the targets join the file's knobs.

        >>> b = balance("balance.toml", budget=30, quick=True)
        >>> b.proposals[0]["changes"]
    """
    from sim.balance.solve import solve
    from sim.balance.spec import load_balance
    from sim.compare.diff import resolve_content
    from sim.compare.metrics import make_plan, metric_names
    from sim.content import DEFAULT_DIR
    from sim.content import load_content as load
    from sim.errors import UsageProblem
    from sim.options import check_out_folder, check_seed, run_params, set_threads
    from sim.run.chunks import checkpoints

    check_seed(seed)
    if knobs not in ("file", "auto"):
        raise UsageProblem(f"--knobs: {knobs!r}; give file (the balance file's [[knob]] tables) or auto (those "
                           "and the assumed numbers that move the targets most)")
    folder = resolve_content(content, "--content") if content is not None else DEFAULT_DIR
    game = load(folder)
    spec = load_balance(Path(targets), folder, game, budget=budget, auto=knobs == "auto")
    seed = spec.seed if seed is None else seed
    search_plan = make_plan(game, quick=True, seed=seed, groups=spec.groups())
    full_plan = search_plan if quick else make_plan(game, quick=False, seed=seed, groups=spec.groups())
    matched = spec.expand(metric_names(game, search_plan))
    check_out_folder(out)
    set_threads(threads)
    store = checkpoints(out, run_params("balance", game, balance=Path(targets).read_text(encoding="utf-8"),
                                        budget=spec.budget, quick=quick, seed=seed, knobs=knobs), resume)
    storage = None if store is None else f"sqlite:///{store.folder / 'study.db'}"
    from dataclasses import replace

    from sim.run.distributed import cluster

    with cluster(scheduler, workers) as client:
        result = solve(folder, replace(spec, seed=seed), matched, search_plan, full_plan, storage, resume=resume,
                       quick=quick, on_progress=on_progress, client=client, auto=knobs == "auto")
    if out is not None:
        from sim.balance.files import write_balance

        write_balance(Path(out), result)
    return result
