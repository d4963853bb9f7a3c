"""`hpcask db stats`: what is loaded, per system."""
from __future__ import annotations

from pathlib import Path

from ingest.loader import connect

STATS_SQL = """
SELECT s.system_id, s.name,
  (SELECT count(*) FROM components c WHERE c.system_id = s.system_id) AS components,
  (SELECT count(*) FROM links l WHERE l.system_id = s.system_id) AS links,
  (SELECT count(*) FROM runs r WHERE r.system_id = s.system_id) AS runs,
  (SELECT count(*) FROM measurements m WHERE m.system_id = s.system_id) AS measurements,
  (SELECT count(*) FROM trace_events t JOIN runs r USING (run_id) WHERE r.system_id = s.system_id) AS trace_events
FROM systems s ORDER BY s.system_id
"""


def stats(db: Path) -> dict:
    con = connect(db, read_only=True)
    try:
        cur = con.execute(STATS_SQL)
        cols = [d[0] for d in cur.description]
        systems = [dict(zip(cols, r)) for r in cur.fetchall()]
        totals = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                  for t in ("systems", "components", "links", "runs", "measurements", "trace_events", "files")}
    finally:
        con.close()
    return {"database": str(db), "totals": totals, "systems": systems}


def format_stats(s: dict) -> str:
    w = max([len(r["system_id"]) for r in s["systems"]] + [9])
    lines = [f"{s['database']}", f"{'system':{w}s} {'comp':>6s} {'links':>6s} {'runs':>6s} {'meas':>8s} {'events':>10s}  name"]
    for r in s["systems"]:
        lines.append(f"{r['system_id']:{w}s} {r['components']:6d} {r['links']:6d} {r['runs']:6d} "
                     f"{r['measurements']:8d} {r['trace_events']:10d}  {r['name']}")
    t = s["totals"]
    lines.append(f"{'total':{w}s} {t['components']:6d} {t['links']:6d} {t['runs']:6d} {t['measurements']:8d} "
                 f"{t['trace_events']:10d}  ({t['systems']} systems, {t['files']} raw files)")
    return "\n".join(lines)
