"""Scores of :mod:`repo_replay`'s sessions, and the table that shows them.

Two views of every replayed session, both from the same hook calls:

* ``session`` — the prompt and the Reads only, the session's first steps: what today's
  session mode measures (``bench/session_replay.py``), on these tasks;
* ``edits`` — the whole session, the ``PreToolUse`` and ``PostToolUse`` of every Edit
  (and Write) included.

The first view is a prefix of the second, so the hook saw exactly those calls in that
order (it cannot know what comes next) and the two differ only by what the edits added.
Steps the installed settings do not wire are never counted here; with ``--unwired``
they were sent anyway and make a third view, ``unwired``, apart from the result.

Figures per view: ``cited`` the share of a task's cited commits delivered at any step
(a cited commit is delivered when a memory imported from it reaches the model), mean
over tasks; ``tasks_hit`` tasks with at least one; ``mrr`` over delivery order (each
memory at its first delivery); ``commits`` distinct memories delivered per session;
``chars`` characters of context per session (every delivery counted), mean and median;
``precision`` cited memories delivered / memories delivered, over all sessions;
``first_step`` the step at which each delivered cited commit first arrived; and per
step, the hook's wall-clock milliseconds (p50, p95) as the host waits for it, beside a
bare interpreter of the same environment measured between the tasks.
"""

from __future__ import annotations

import math
import statistics
from functools import partial

import claude_host

STEPS = ("prompt", "read", "pre-edit", "post-edit", "pre-write", "post-write")
VIEWS = {"session": ("prompt", "read"), "edits": STEPS}
_EDIT_STEPS = {"pre-edit", "post-edit", "pre-write", "post-write"}


def percentile(values: list[float], share: float) -> float | None:
    """The nearest-rank percentile of ``values`` (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[max(0, math.ceil(share * len(ordered)) - 1)], 1)


def deliveries(
    row: dict, steps: tuple[str, ...], unwired: bool = False
) -> list[tuple[str, str, str]]:
    """``[(key, step, commit)]`` in the order the model first got each, over the calls
    of ``steps`` (wired ones; ``unwired`` adds the others); ``commit`` is the
    abbreviated hash a delivery names (``""``: none) and the key is that commit, else
    the memory id, so one commit told twice (a history memory, then a line-level
    delivery) is one delivery."""
    order: dict[str, tuple[str, str]] = {}
    for call in row["calls"]:
        if call["step"] in steps and (call["wired"] or unwired):
            commits = call.get("commits") or [""] * len(call["ids"])
            for memory, commit in zip(call["ids"], commits):
                order.setdefault(commit[:7] or memory, (call["step"], commit))
    return [(memory, step, commit) for memory, (step, commit) in order.items()]


def score(row: dict, cited: dict[str, list[str]], steps: tuple[str, ...],
          unwired: bool = False) -> dict:  # fmt: skip
    """One session's figures in one view. A cited commit is delivered by a memory
    imported from it (``cited``'s ids) or by one naming it (its ``commit``)."""
    order = deliveries(row, steps, unwired)
    rank = {memory: i for i, (memory, _step, _commit) in enumerate(order)}
    step_of = {memory: step for memory, step, _commit in order}
    matched = {
        sha: set(ids) | {m for m, _s, c in order if len(c) >= 7 and sha.startswith(c)}
        for sha, ids in cited.items()
    }
    got: dict[str, str | None] = {}
    for sha, ids in matched.items():
        hits = [m for m in ids if m in rank]
        got[sha] = step_of[min(hits, key=rank.__getitem__)] if hits else None
    wanted = set().union(*matched.values()) if matched else set()
    first = min((rank[m] for m in wanted if m in rank), default=None)
    calls = [c for c in row["calls"] if c["step"] in steps and (c["wired"] or unwired)]
    return {
        "cited": sum(1 for s in got.values() if s) / (len(cited) or 1),
        "hit": any(got.values()),
        "mrr": 0.0 if first is None else 1.0 / (first + 1),
        "commits": len(order),
        "relevant_delivered": sum(1 for m, _s, _c in order if m in wanted),
        "chars": sum(c["chars"] for c in calls),
        "got": got,
    }


def view(rows: list[dict], relevant: dict[str, dict], steps: tuple[str, ...],
         unwired: bool = False) -> dict:  # fmt: skip
    """One view's figures over every session (module docstring)."""
    scored = [score(r, relevant[r["id"]]["cited"], steps, unwired) for r in rows]
    n = len(scored) or 1
    chars = [s["chars"] for s in scored] or [0]
    delivered = sum(s["commits"] for s in scored)
    first_step = dict.fromkeys(steps, 0)
    for s in scored:
        for step in s["got"].values():
            if step:
                first_step[step] += 1
    return {
        "cited": round(sum(s["cited"] for s in scored) / n, 4),
        "tasks_hit": sum(1 for s in scored if s["hit"]),
        "mrr": round(sum(s["mrr"] for s in scored) / n, 4),
        "commits": round(delivered / n, 2),
        "chars_mean": round(statistics.mean(chars), 1),
        "chars_median": round(statistics.median(chars), 1),
        "precision": round(sum(s["relevant_delivered"] for s in scored) / delivered, 4) if delivered else None,
        "first_step": first_step,
    }  # fmt: skip


def latency(rows: list[dict]) -> dict[str, dict]:
    """Per step: wired hook calls, p50 and p95 milliseconds; ``bare``: the interpreter."""
    out = {}
    for step in STEPS:
        ms = [
            c["ms"]
            for r in rows
            for c in r["calls"]
            if c["step"] == step and c["wired"] and c["ms"]
        ]
        if ms:
            out[step] = {"calls": len(ms), "p50": percentile(ms, 0.5), "p95": percentile(ms, 0.95)}
    bare = [r["bare_ms"] for r in rows if r.get("bare_ms")]
    out["bare"] = {"calls": len(bare), "p50": percentile(bare, 0.5), "p95": percentile(bare, 0.95)}
    return out


def tasks(rows: list[dict], relevant: dict[str, dict]) -> list[dict]:
    """Per task, for failure analysis: each cited commit and the step it first reached
    the model at in the whole session (None: never), or why it could not."""
    out = []
    for row in rows:
        rel = relevant[row["id"]]
        full = score(row, rel["cited"], STEPS)
        out.append({
            "id": row["id"], "prompt": row["prompt"], "files": row["files"],
            "cited": {sha[:12]: ("no memory" if sha in rel["missing"] else
                                 "obsolete" if sha in rel["obsolete"] else step)
                      for sha, step in full["got"].items()},
            "commits": full["commits"], "chars": full["chars"],
        })  # fmt: skip
    return out


def report(rows: list[dict], relevant: dict[str, dict], meta: dict, imported: dict,
           handlers: list[dict]) -> dict:  # fmt: skip
    """The run's report (JSON-ready)."""
    meta = {k: v for k, v in meta.items() if k != "handlers"}
    out: dict = {"meta": meta, "tasks": len(rows),
                 "import": {k: imported.get(k) for k in ("commits", "added", "obsoleted", "future_commits")},
                 "wired": sorted({f"{h['event']}[{h['matcher']}]" if h["matcher"] else h["event"]
                                  for h in handlers})}  # fmt: skip
    for name, steps in VIEWS.items():
        out[name] = view(rows, relevant, steps)
    sent = [c for r in rows for c in r["calls"]]
    if any(not c["wired"] and c["calls"] for c in sent):
        out["unwired"] = view(rows, relevant, STEPS, unwired=True)
    out["latency"] = latency(rows)
    counts = (
        {k: sum(r["counts"].get(k, 0) for r in rows) for k in rows[0]["counts"]} if rows else {}
    )
    edited = {p for r in rows for p in r["files"]}
    out["replay"] = {
        **counts,
        "steps": len(sent),
        "not_wired": {s: sum(1 for c in sent if c["step"] == s and not c["wired"])
                      for s in STEPS if any(c["step"] == s and not c["wired"] for c in sent)},
        "fail_open_notes": sum(len(c["notes"]) for c in sent),
        "note_samples": sorted({n for c in sent for n in c["notes"]})[:3],
        "cited_without_memory": sum(len(relevant[r["id"]]["missing"]) for r in rows),
        "cited_obsolete": sum(len(relevant[r["id"]]["obsolete"]) for r in rows),
        # what git status showed after the session besides the agent's edits and what
        # init and install wrote: the hook files memhooks keeps, and anything else
        "hook_files_written": sum(1 for r in rows for line in r["status_after"]
                                  if line.endswith("MEMHOOKS.md") and line[3:] != "MEMHOOKS.md"),
        "stray_files": sorted({line[3:] for r in rows for line in r["status_after"]
                               if line[3:] not in edited and not line.endswith("MEMHOOKS.md")
                               and not line[3:].startswith(".claude/")})[:20],
    }  # fmt: skip
    out["per_task"] = tasks(rows, relevant)
    return out


def bucket(where: str) -> str:
    """:func:`repo_blame.analyze`'s answer, with the read-lines rank cut at 5."""
    if where.startswith("owns read lines (rank "):
        return "owns read lines, top 5" if int(where[22:-1]) <= 5 else "owns read lines, below 5"
    return where


def add_analysis(rep: dict, where: dict[str, dict[str, str]]) -> None:
    """Put :mod:`repo_blame`'s answer beside each cited commit of ``rep["per_task"]``,
    and per answer how many cited commits the whole session delivered
    (``rep["where"]``: ``{answer: [delivered, cited]}``)."""
    totals: dict[str, list[int]] = {}
    for task in rep["per_task"]:
        task["where"] = where[task["id"]]
        for sha, step in task["cited"].items():
            slot = totals.setdefault(bucket(where[task["id"]][sha]), [0, 0])
            slot[0] += step in STEPS
            slot[1] += 1
    rep["where"] = dict(sorted(totals.items(), key=lambda kv: -kv[1][1]))


def _fmt(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.1f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _first(step: str, view: dict) -> str:
    return _fmt(view["first_step"].get(step))


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}".removeprefix("0")


def table(rep: dict, base: dict | None = None) -> str:
    """The report as text: the views side by side (``base``'s first when given)."""
    columns = []
    if base:
        columns += [
            (f"{base['meta']['memhooks'].split()[0][:8]} {name}", base[name]) for name in VIEWS if name in base
        ]
    columns += [(name, rep[name]) for name in (*VIEWS, "unwired") if name in rep]
    rows = [
        ("cited commits delivered (share)", lambda v: _share(v["cited"])),
        ("tasks with >= 1 cited delivered", lambda v: _fmt(v["tasks_hit"])),
        ("MRR (delivery order)", lambda v: _share(v["mrr"])),
        ("commits delivered per session", lambda v: _fmt(v["commits"])),
        ("characters per session (mean)", lambda v: _fmt(v["chars_mean"])),
        ("characters per session (median)", lambda v: _fmt(v["chars_median"])),
        ("precision (cited / delivered)", lambda v: _share(v["precision"])),
    ]
    rows += [(f"  first delivered at {s}", partial(_first, s)) for s in STEPS]
    width = max(len(label) for label, _ in rows) + 2
    col = max(14, *(len(name) + 2 for name, _ in columns))
    meta = rep["meta"]
    lines = [
        (
            f"{rep['tasks']} tasks; split {meta['split'][:12]}; memhooks {meta['memhooks']} "
            f"(code {meta['code']}); settings {meta['env'] or 'defaults'}; {rep['date']}; "
            f"load {rep['load_during']} during (1-min mean), {rep['load_end']} at end"
        ),
        f"wired by agents install: {', '.join(rep['wired'])}",
        "",
        "".ljust(width) + "".join(name.rjust(col) for name, _ in columns),
    ]
    for label, get in rows:
        lines.append(label.ljust(width) + "".join(get(v).rjust(col) for _, v in columns))
    lines.append("")
    lines.append("hook ms (wall, as the host waits)   calls      p50      p95")
    for step, lat in rep["latency"].items():
        lines.append(f"  {step:<34}{lat['calls']:>5}{_fmt(lat['p50']):>9}{_fmt(lat['p95']):>9}")
    if "where" in rep:
        lines.append("where git places the cited commits (delivered / cited, whole session):")
        lines += [f"  {name:<34}{got:>5} / {n}" for name, (got, n) in rep["where"].items()]
    lines.append(f"replay: {rep['replay']}")
    return "\n".join(lines)


def show(row: dict, relevant: dict) -> str:
    """One session step by step (``--show``): each call and the first line of each
    memory it delivered, ``*`` marking a cited commit's, ``=`` one delivered before."""
    wanted = {m for ids in relevant["cited"].values() for m in ids}
    lines = [f"{row['id']} {row['prompt']!r}; cites {', '.join(s[:12] for s in relevant['cited'])}"]
    seen: set[str] = set()
    for call in row["calls"]:
        ms = "-" if call["ms"] is None else f"{call['ms']:.0f} ms"
        wired = "" if call["wired"] else " (not wired)"
        lines.append(
            f"{call['step']:<10} {call['event']} {call['tool'] or ''}{wired}: {ms}, {call['chars']} chars"
        )
        for memory in claude_host.memories(call.get("text", "")):
            mark = "*" if memory["id"] in wanted else "=" if memory["id"] in seen else " "
            seen.add(memory["id"])
            first = str(memory.get("text", "")).split("\n", 1)[0][:90]
            lines.append(f"    {mark} {memory['id']}  {first}")
    return "\n".join(lines)
