"""Two runs of ``benchmarks/throughput.py`` side by side: steps per second of every case before
and after a change, their ratio, and the batched state per game.

Why. A refactor of the engines must leave them as fast as they were. ``throughput.py`` runs its
cases interleaved, so one run is fair within itself; two runs (one of each checkout, one after
the other on the same idle machine) compare as well as one machine allows, which this page shows
with the load averages of both.

    python benchmarks/compare_throughput.py BEFORE.json AFTER.json --name NAME \
        --before-label REV --after-label REV

writes ``benchmarks/results/NAME.json`` and ``NAME.md`` (``results_page.py`` rewrites the page
from the JSON; a new NAME is listed there).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def _key(row: dict) -> tuple:
    return (row["library"], row["env"], row["loop"])


def compare(before: dict, after: dict) -> list[dict]:
    old = {_key(r): r for r in before["results"]}
    rows = []
    for r in after["results"]:
        o = old.get(_key(r))
        if o is None:
            continue
        rows.append(
            {
                "library": r["library"],
                "env": r["env"],
                "loop": r["loop"],
                "before": o["steps_per_s"],
                "after": r["steps_per_s"],
                "ratio": r["steps_per_s"] / o["steps_per_s"],
            }
        )
    return rows


def memory(before: dict, after: dict) -> list[dict]:
    old = {m["env"]: m for m in before.get("memory", [])}
    return [
        {
            "env": m["env"],
            "batch": m["batch"],
            "before": old[m["env"]]["state_bytes_per_game"],
            "after": m["state_bytes_per_game"],
        }
        for m in after.get("memory", [])
        if m["env"] in old
    ]


def report(data: dict) -> str:
    """The page of a saved comparison (``NAME.json``)."""
    return markdown(data["rows"], data["memory"], data["meta"], data["labels"])


def markdown(rows, mem, meta: dict, labels) -> str:
    lines = [
        f"# Engine throughput before and after: {labels[0]} and {labels[1]}",
        "",
        "| env | case | before (steps/s) | after (steps/s) | after / before |",
        "|---|---|---:|---:|---:|",
    ]
    for r in rows:
        env = r["env"] if r["library"] == "deckzoo" else f"{r['env']} ({r['library']})"
        lines.append(
            f"| {env} | {r['loop']} | {r['before']:,.0f} | {r['after']:,.0f} | {r['ratio']:.2f} |"
        )
    if mem:
        lines += [
            "",
            "| env | batched state a game, bytes (B) before | after |",
            "|---|---:|---:|",
        ]
        lines += [
            f"| {m['env']} | {m['before']:.0f} ({m['batch']}) | {m['after']:.0f} |" for m in mem
        ]
    lines += [
        "",
        "## How it was made",
        "",
        how_made(labels, meta["before"], meta["after"]),
        "",
    ]
    return "\n".join(lines)


def how_made(labels, mb: dict, ma: dict) -> str:
    return (
        f"`python benchmarks/throughput.py` once on each checkout ({labels[0]}, then "
        f"{labels[1]}), one after the other on the same machine with nothing else running, then "
        "`python benchmarks/compare_throughput.py`. Each run interleaves its own cases in short "
        "slices; the two runs are not interleaved with each other, so a ratio within a few "
        "percent of 1 is the same speed. Load averages (start, end): before "
        f"{_load(mb, 'start')}, {_load(mb, 'end')}; after {_load(ma, 'start')}, "
        f"{_load(ma, 'end')}; {mb.get('cpus', '?')} CPUs ({mb.get('cpu_model', '?')}). The "
        "OpenSpiel rows measure the same library twice: their ratio is the noise between the runs."
    )


def _load(meta: dict, when: str) -> str:
    value = meta.get(f"loadavg_{when}")
    return f"{value[0]:.2f}" if isinstance(value, (list, tuple)) else str(value)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("before", type=Path, help="throughput.json of the checkout before")
    p.add_argument("after", type=Path, help="throughput.json of the checkout after")
    p.add_argument("--name", required=True, help="results page name (NAME.md, NAME.json)")
    p.add_argument("--before-label", default="before", help="what the first run measured")
    p.add_argument("--after-label", default="after", help="what the second run measured")
    p.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    args = p.parse_args(argv)
    before, after = json.loads(args.before.read_text()), json.loads(args.after.read_text())
    rows, mem = compare(before, after), memory(before, after)
    labels = (args.before_label, args.after_label)
    args.out.mkdir(parents=True, exist_ok=True)
    data = {"labels": labels, "rows": rows, "memory": mem,
            "meta": {"before": before["meta"], "after": after["meta"]}}  # fmt: skip
    (args.out / f"{args.name}.json").write_text(json.dumps(data, indent=1) + "\n")
    (args.out / f"{args.name}.md").write_text(report(data))


if __name__ == "__main__":
    main()
