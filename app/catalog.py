"""What the database holds, read once per connection: the planner's defaults and the NLU's words.

New data brings new words: systems, aliases, components, operations, metrics and conditions come
from here, so a freshly ingested cluster can be asked about without retraining by hand.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Optional

from nlu.cues import CONGESTION_CONDITIONS


@dataclass
class SystemInfo:
    system_id: str
    name: str
    aliases: list[str]
    kind: str | None
    n_components: int = 0
    n_links: int = 0
    n_measurements: int = 0
    n_events: int = 0
    n_runs: int = 0


# words for a figure the documents state rather than measure, in the order one is taken for another (the same
# conditions as app.intents._common.STATED, which imports the catalog)
_STATED_WORDS = ("spec", "theoretical", "nominal", "vendor_claim")
_NOT_TOOLS = {"paper", "stream", "tau", "pebs", "sniper", "caliper", "gem5"}
# tools people name by the project they come from ("the CUDA samples", "OSU micro-benchmarks"), as the runs store them
_TOOL_ALIASES = ((re.compile(r"\bcuda[- ]samples?\b", re.I), "p2pBandwidthLatencyTest"),
                 (re.compile(r"\bnccl[- ]tests\b", re.I), "nccl-tests"),
                 (re.compile(r"\bosu micro[- ]?benchmarks?\b|\bomb\b", re.I), "osu"))


@dataclass
class Catalog:
    systems: dict[str, SystemInfo] = field(default_factory=dict)
    metrics: dict[str, set[str]] = field(default_factory=dict)      # system -> metrics measured
    operations: dict[str, set[str]] = field(default_factory=dict)   # system -> operations measured
    conditions: dict[str, set[str]] = field(default_factory=dict)   # system -> conditions
    components: dict[str, set[str]] = field(default_factory=dict)   # system -> component ids
    apps: set[str] = field(default_factory=set)
    owners: dict[tuple[str, str], set[str]] = field(default_factory=dict)  # (slot, value) -> systems with it
    # (system, metric, operation, condition) measured: planners answer "is there such a row?" without a query
    combos: set[tuple[str, str, str | None, str | None]] = field(default_factory=set)
    app_ops: dict[str, dict[str, set[str]]] = field(default_factory=dict)  # system -> lower(app) -> operations
    lib_ops: dict[str, dict[str, set[str]]] = field(default_factory=dict)  # system -> lower(library) -> operations
    # source collections (datasets/curated/<name>, datasets/raw/<name>) -> systems, joined over the seed document
    # they were transcribed from: "the ISC 2022 papers", "the TUM thesis" name a group, not a system
    groups: dict[str, set[str]] = field(default_factory=dict)
    # system -> words of its processors' labels ("NVIDIA V100 0" -> nvidia, v100): "the V100s on Lassen" names
    # Lassen's GPUs, not a second system
    part_words: dict[str, set[str]] = field(default_factory=dict)
    # run id -> the tool that produced it: planners that narrow rows in Python name each row's tool without
    # joining runs in every query (the join doubles a simple query's planning time)
    run_tools: dict[int, str] = field(default_factory=dict)
    run_experiments: dict[int, str | None] = field(default_factory=dict)   # run id -> its experiment name
    # system -> component id -> kind, label, parent and the per-GPU NVLink rate its attrs state: the topology
    # planner reads links with one plain query and names their ends from here
    parts: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    # the names of the complete events (kernels, ops, copies) in the loaded traces: "ncclDevKernel_AllReduce" in a
    # trace question names kernels, not an unknown system
    trace_names: dict[str, set[str]] = field(default_factory=dict)   # name -> its event categories
    # system -> (metric, operation, condition) -> measurements stored: how many rows a question's query may fetch
    volume: dict[str, dict[tuple[str, str | None, str | None], int]] = field(default_factory=dict)
    # system -> the words of its curated rows' labels (LABEL_KEYS): a question word outside them can pick no row,
    # so a lookup fetches labels only where one may
    label_words: dict[str, set[str]] = field(default_factory=dict)
    # words of the documents the data was transcribed from, by their short names ("Hey CAI", "Hy-Fi", "CC paper")
    # and their collections ("gpu_interconnects_tum2019"): a question naming a paper names no machine
    source_words: set[str] = field(default_factory=set)
    # a proceedings paper's short name ("Hey CAI", "m-Cubes") -> the systems its rows cite it for: "the Hey CAI
    # client machines" names that paper's machines as a group, as a collection's name does
    papers: dict[str, set[str]] = field(default_factory=dict)
    # system -> its name, aliases, vendor and description as one text: "the Power9 box with only two V100s" is
    # matched against what the descriptions say (nlu/described.py)
    about: dict[str, str] = field(default_factory=dict)
    # system -> the link types (lower case) whose rate a source states, on a link or as a GPU's per-link NVLink
    # rate: "what bandwidth does an XLink carry" has no answer in the graph where no link of its kind has one
    rated_links: dict[str, set[str]] = field(default_factory=dict)
    # combos grouped by system, and len(combos) when they were (see _combos_of)
    _by_system: Optional[tuple[int, dict[str, list[tuple[str, str | None, str | None]]]]] = field(
        default=None, init=False, repr=False, compare=False)

    def _combos_of(self, system: str) -> list[tuple[str, str | None, str | None]]:
        """(metric, operation, condition) stored for one system. The reader asks of one system about once a
        question, and a scan of every system's combinations (some thousands) took a fifth of a millisecond; they
        are grouped by system once, again if more were added since."""
        if self._by_system is None or self._by_system[0] != len(self.combos):
            by: dict[str, list[tuple[str, str | None, str | None]]] = {}
            for s, m, o, c in self.combos:
                by.setdefault(s, []).append((m, o, c))
            self._by_system = (len(self.combos), by)
        return self._by_system[1].get(system, [])

    def op_metrics(self, system: str, operation: str | None, condition: str | None = None) -> set[str]:
        """Metrics stored for one operation on one system (any operation when None), under one condition if
        given."""
        return {m for (m, o, c) in self._combos_of(system) if (operation is None or o == operation)
                and (condition is None or c == condition)}

    def metric_ops(self, system: str, metric: str) -> set[str]:
        """Operations stored with one metric on one system (op_metrics the other way round)."""
        return {o for (m, o, _c) in self._combos_of(system) if m == metric and o}

    def rows_at_most(self, system: str, metric: str | None, operation: str | None,
                     condition: str | None = None) -> int:
        """How many measurements of the system have this metric, operation and condition (None: any): an upper
        bound on the rows a question about them fetches."""
        return sum(n for (m, op, cond), n in self.volume.get(system, {}).items()
                   if metric in (None, m) and operation in (None, op) and condition in (None, cond))

    def link_family(self, link_type: str) -> list[str]:
        """Stored link types (lower case) that are this type or a generation of it: "NVLink" is also the
        DGX-1's NVLink1 and the DGX-2's NVLink2, "PCIe" also PCIe3 and PCIe4."""
        want = re.sub(r"[^a-z0-9]", "", link_type.lower())
        out = []
        for slot, value in self.owners:
            have = re.sub(r"[^a-z0-9]", "", value)
            if slot == "link_type" and (have == want or (have.startswith(want) and have[len(want):].isdigit())):
                out.append(value)
        return sorted(out)

    @cached_property
    def app_words(self) -> frozenset[str]:
        """The words of the stored applications' names ("vegas_fA" -> vegas, fa), worked out once: a question's
        "integrand fA" names an application's variant, no machine."""
        return _name_words(self.apps, r"[_\-\s|]+")

    @cached_property
    def tool_words(self) -> frozenset[str]:
        """The words of the names of the tools that made the stored runs ("DeepBench", "nccl-tests" -> nccl,
        tests): "list DeepBench runs" names a benchmark, no machine, however the tagger read it."""
        return _name_words(set(self.run_tools.values()), r"[_\-\s|+()]+")

    def tool_named(self, question: str) -> Optional[str]:
        """A benchmark tool the question names by its name ("SHOC", "nccl-tests", "mgbench"), as the runs store it;
        tool names that are also plain words of a question ("the paper", "a stream") are never read as one."""
        named = self.tools_named(question)
        return named[0] if named else None

    def tools_named(self, question: str) -> list[str]:
        """Every tool the question names, longest name first, by name before by alias: "shoc, scope or
        nccl-tests?" offers three, which a listing takes as options rather than as one tool to narrow to."""
        said = (question or "").lower()
        named = []
        for tool in sorted(set(self.run_tools.values()), key=lambda t: (-len(t), t)):
            low = tool.lower()
            if low in _NOT_TOOLS or len(low) < 3 or not re.fullmatch(r"[a-z0-9][a-z0-9+\-_]*", low):
                continue
            if re.search(r"(?<![\w-])" + re.escape(low) + r"(?![\w-])", said):
                named.append(tool)
            elif low.isalpha() and len(low) <= 4 and re.search(r"(?<![\w-])" + " ".join(low) + r"(?![\w-])", said):
                named.append(tool)   # "o s u micro benchmark results": a short name spelled out, as a transcript
        if named:
            return named
        tools = set(self.run_tools.values())
        return [tool for rx, tool in _TOOL_ALIASES if tool in tools and rx.search(said)][:1]

    def slowdown_without_congestion(self, sid: str) -> bool:
        """The system ran under no congestion condition but its document states slowdown factors (the DGX-1 V100's
        full duplex against one direction, remote offloading on the T4s): what slows it down is that factor, for the
        reader and the congestion planner alike."""
        return "slowdown" in self.metrics.get(sid, set()) and not self.conditions.get(sid, set()) & CONGESTION_CONDITIONS

    def held(self, slot: str, sid: str) -> set[str]:
        """The values of `slot` the system's rows hold (its link types, its libraries, ...)."""
        return {v for (sl, v), owners in self.owners.items() if sl == slot and sid in owners}

    def link_rate(self, sid: str, link_type: str) -> str:
        """How one machine's links of a kind (any generation of it) stand: "rated" where a source states their rate,
        "unrated" where its graph holds them but states no rate ("an XLink of the XMP-64"), "absent" where it has
        none. The reader, the asker and their refusals all decide by this one answer."""
        family = set(self.link_family(link_type))
        if family & self.rated_links.get(sid, set()):
            return "rated"
        return "unrated" if family & self.held("link_type", sid) else "absent"

    def link_owners(self, link_type: str) -> set[str]:
        """Systems with links of this type or of a generation of it, so "which systems have NVLink" is not
        the one node whose links are stored as plain NVLink."""
        return {sid for value in self.link_family(link_type) for sid in self.owners[("link_type", value)]}

    def stored_condition(self, sid: "str | list[str] | None", cond: str) -> str:
        """"pinned" on the DGX-2, where Scope's pinned copies are stored as pinned_wc (write-combined): the one
        condition of that family stored for the system (sid None: for any system, when none stores the condition
        itself; a list: for those systems); else the condition as asked."""
        sids = [sid] if isinstance(sid, str) else list(sid or self.conditions)
        have = set().union(*(self.conditions.get(x, set()) for x in sids))
        kin = [c for c in have if c.startswith(f"{cond}_")] if cond not in have else []
        if not kin and cond not in have and cond in _STATED_WORDS:
            # "the theoretical memory bandwidth of the GTX 980": a stated figure, whichever word the document used
            # for it (the seed-003 specs are stored as "spec")
            kin = [c for c in _STATED_WORDS if c in have][:1]
        return kin[0] if len(kin) == 1 else cond

    def name(self, system_id: str) -> str:
        s = self.systems.get(system_id)
        return s.name if s else system_id

    def describe(self, limit: int = 12) -> str:
        """One sentence of what is loaded, for out-of-scope answers."""
        ranked = sorted(self.systems.values(), key=lambda s: -(s.n_measurements + s.n_links))
        names = ", ".join(s.name for s in ranked[:limit])
        more = f" and {len(ranked) - limit} more" if len(ranked) > limit else ""
        return f"The database covers {len(ranked)} systems ({names}{more})"


_PROCESSOR_KINDS = {"gpu", "cpu", "ipu", "accelerator"}


# The params keys whose values are a document's own words for what one curated row is ("HBM2 memory bandwidth
# per GPU", "Off-chip (2 hops)", "marginal latency per additional hop"); the raw parsers' keys (a benchmark's
# name, a listing's section) are not labels a person says.
LABEL_KEYS = ("quantity", "spec", "item", "journey", "scope", "parameter", "entry", "pattern", "config", "problem",
              "integrand")
LABEL_SQL = "concat_ws(' | ', replace(m.condition, '_', ' '), " \
    + ", ".join(f"m.params->>'{k}'" for k in LABEL_KEYS) + ")"


def _name_words(names, split: str) -> frozenset[str]:
    """The lower-case words (two letters or more) of some names, split where `split` matches."""
    return frozenset(p for name in names for p in re.split(split, str(name).lower()) if len(p) > 1)


def label_words(text: str | None) -> set[str]:
    """Lower-case words, a plural's s dropped: "hops" says what "Off-chip (2 hops)" says."""
    out = set()
    for w in re.split(r"[^a-z0-9]+", (text or "").lower()):
        if w:
            out.add(w[:-1] if len(w) > 3 and w.endswith("s") else w)
    return out


def load(con) -> Catalog:
    cat = Catalog()
    for sid, name, aliases, kind, vendor, description in con.execute(
            "SELECT system_id, name, aliases, kind, vendor, description FROM systems").fetchall():
        cat.systems[sid] = SystemInfo(sid, name, list(aliases or []), kind)
        cat.about[sid] = " ".join([name, *(aliases or []), vendor or "", description or ""])
    for table, attr in (("components", "n_components"), ("links", "n_links"),
                        ("measurements", "n_measurements"), ("runs", "n_runs")):
        for sid, n in con.execute(f"SELECT system_id, count(*) FROM {table} GROUP BY 1").fetchall():
            if sid in cat.systems:
                setattr(cat.systems[sid], attr, n)
    # one pass over the trace events: each system's count, and which trace tools it has. A trace tool is named
    # after its library (pytorch_profiler): "PyTorch traces" are the H200's, though only RI2's measurements say
    # pytorch
    for sid, tool, n in con.execute("""SELECT r.system_id, r.tool, sum(t.n_events) FROM trace_run_stats t
                                       JOIN runs r USING (run_id) GROUP BY 1, 2""").fetchall():
        if sid in cat.systems:
            cat.systems[sid].n_events += n
        cat.owners.setdefault(("trace_tool", tool), set()).add(sid)
        cat.owners.setdefault(("trace_library", re.split(r"[_\-]", tool.lower())[0]), set()).add(sid)
    for name, category in con.execute("SELECT DISTINCT name, cat FROM trace_events WHERE ph = 'X' "
                                      "AND name IS NOT NULL AND cat IS NOT NULL AND cat <> 'Trace'").fetchall():
        cat.trace_names.setdefault(name, set()).add(category)
    for sid, metric, op, cond, n in con.execute(
            "SELECT system_id, metric, operation, condition, count(*) FROM measurements GROUP BY ALL").fetchall():
        cat.volume.setdefault(sid, {})[(metric, op, cond)] = n
        cat.metrics.setdefault(sid, set()).add(metric)
        cat.combos.add((sid, metric, op, cond))
        if op:
            cat.operations.setdefault(sid, set()).add(op)
        if cond:
            cat.conditions.setdefault(sid, set()).add(cond)
    for sid, label in con.execute(f"SELECT DISTINCT system_id, {LABEL_SQL} FROM measurements m").fetchall():
        if label:
            cat.label_words.setdefault(sid, set()).update(label_words(label))
    for sid, cid, kind, label, parent, nvl in con.execute(
            "SELECT system_id, component_id, kind, label, parent, "
            "TRY_CAST(json_extract_string(attrs, '$.nvlink_gbps_per_dir') AS DOUBLE) FROM components").fetchall():
        cat.components.setdefault(sid, set()).add(cid)
        cat.parts.setdefault(sid, {})[cid] = {"kind": kind, "label": label, "parent": parent,
                                              "nvlink_gbps_per_dir": nvl}
        if kind in _PROCESSOR_KINDS and label:
            cat.part_words.setdefault(sid, set()).update(
                w for w in re.split(r"[^a-z0-9]+", label.lower()) if len(w) >= 3 and not w.isdigit())
    for sid, app, op in con.execute("SELECT DISTINCT system_id, lower(app), operation FROM measurements "
                                    "WHERE app IS NOT NULL AND operation IS NOT NULL").fetchall():
        cat.app_ops.setdefault(sid, {}).setdefault(app, set()).add(op)
    for sid, lib, op in con.execute("SELECT DISTINCT system_id, lower(library), operation FROM measurements "
                                    "WHERE library IS NOT NULL AND operation IS NOT NULL").fetchall():
        cat.lib_ops.setdefault(sid, {}).setdefault(lib, set()).add(op)
    _load_groups(con, cat)
    for run_id, tool, experiment, sid in con.execute("SELECT run_id, tool, experiment, system_id FROM runs").fetchall():
        cat.run_tools[run_id] = tool
        cat.run_experiments[run_id] = experiment
        cat.owners.setdefault(("tool", tool), set()).add(sid)
    cat.apps = {a for (a,) in con.execute("SELECT DISTINCT app FROM measurements WHERE app IS NOT NULL").fetchall()}
    for sid, link in con.execute("SELECT DISTINCT system_id, lower(link_type) FROM links "
                                 "WHERE bw_gbps_per_dir IS NOT NULL").fetchall():
        cat.rated_links.setdefault(sid, set()).add(link)
    for sid, link in con.execute("SELECT DISTINCT system_id, lower(link_type) FROM links "
                                 "WHERE lower(link_type) LIKE 'nvlink%'").fetchall():
        if any(p["nvlink_gbps_per_dir"] for p in cat.parts.get(sid, {}).values()):
            cat.rated_links.setdefault(sid, set()).add(link)
    for slot, sql in (("app", "SELECT DISTINCT 'app', lower(app), system_id FROM measurements WHERE app IS NOT NULL"),
                      ("library", "SELECT DISTINCT 'library', lower(library), system_id FROM measurements "
                                  "WHERE library IS NOT NULL"),
                      ("link_type", "SELECT DISTINCT 'link_type', lower(link_type), system_id FROM links"),
                      ("count_kind", "SELECT DISTINCT 'count_kind', count_kind, system_id FROM measurements "
                                     "WHERE count_kind IS NOT NULL")):
        for sl, value, sid in con.execute(sql).fetchall():
            cat.owners.setdefault((sl, value), set()).add(sid)
    return cat


def _doc(source: str | None) -> str | None:
    """'003_ae0665ac963c4d81.txt §2.3.1' -> '003_ae0665ac963c4d81.txt' (the seed document a row came from)."""
    head = (source or "").split(" ", 1)[0]
    return head if head.endswith(".txt") else None


def _load_groups(con, cat: Catalog) -> None:
    """Collections by the folder their runs were read from; a system described by a document (its `source`)
    joins every collection transcribed from that document, so link-only systems belong somewhere too."""
    by_doc: dict[str, set[str]] = {}
    for sid, path, source in con.execute("SELECT DISTINCT system_id, source_file, source FROM runs").fetchall():
        parts = (path or "").split("/")
        if len(parts) >= 3 and parts[0] == "datasets":
            cat.groups.setdefault(parts[2], set()).add(sid)
            if _doc(source):
                by_doc.setdefault(_doc(source), set()).add(parts[2])
    for sid, source in con.execute("SELECT system_id, source FROM systems").fetchall():
        for group in by_doc.get(_doc(source) or "", ()):
            cat.groups[group].add(sid)
    for sid, source in con.execute("SELECT DISTINCT system_id, source FROM runs WHERE source IS NOT NULL").fetchall():
        for m in _PAPER_NAME.finditer(source):
            cat.source_words |= set(re.findall(r"[a-z]+|\d+", m.group(1).lower()))
            cat.papers.setdefault(m.group(1), set()).add(sid)
    for group in cat.groups:
        cat.source_words |= set(re.findall(r"[a-z]+|\d+", group.lower()))


# a paper of a proceedings volume as the sources name it: "002_....txt pp. 87-108 (Hey CAI)"
_PAPER_NAME = re.compile(r"pp\. \d+-\d+ \(([^)]+)\)")
