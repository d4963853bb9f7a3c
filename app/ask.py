"""The one façade every way of asking goes through (CLI, UI, reports): question -> Result."""
from __future__ import annotations

import dataclasses
import functools
import math
import re
import time
from pathlib import Path
from typing import Any, Optional

import duckdb

from app import catalog as catalog_mod
from app import followup
from app import intents
from app.intents import OutOfScope, _specs
from app.intents._common import (fmt_bytes, fmt_value, in_asked_unit, lower_is_better, systems_fitting, what_words,
                                 where)
from app.paths import MODELS, default_db
from app.result import Result
from app.rowcache import RowCache
from nlu.cues import (CONDITION_LINK_TYPES, COLLECTIVE_OPS, CONGESTION_CONDITIONS, LISTING as _LISTING, LOADED_AND_IDLE,
                      PAIR_WORDS, SAME_MEASURE, apply_cues, asks_advice)
from nlu.implied import IMPLIED_SYSTEM, only_system_note
from nlu.vocab import SPELLED_TERMS, TEENS, UNITS, in_spelled_term, join_spelled

NLU_DIR = MODELS / "nlu" / "build" / "current"


class StaleDatabase(FileNotFoundError):
    """The file is there but not the tables this version reads: every caller that reports a missing database
    (CLI, web UI) reports this the same way, with how to fix it."""


def _check_schema(con, path: Path) -> None:
    """A file written by an older hpcask lacks tables the planners read (the per-run summaries of schema 3): say
    how to bring it up to date rather than fail on the first question that needs one."""
    from ingest.schema import SCHEMA_VERSION
    try:
        row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except duckdb.Error:
        row = None
    if row is None or int(row[0]) < SCHEMA_VERSION:
        con.close()
        raise StaleDatabase(f"{path} was written by an older hpcask (schema {row[0] if row else 'unknown'}, this one "
                           f"reads {SCHEMA_VERSION}): rebuild it with `hpcask db build`, or load any file into it "
                           f"with `hpcask ingest`, which brings it up to date")


def default_model_dir() -> Path:
    return NLU_DIR


class Asker:
    """Holds one read-only database connection and the loaded models; answers many questions."""

    def __init__(self, db_path: Optional[Path] = None, model_dir: Optional[Path] = None,
                 extra_vocab: Optional[Path] = None, nlu=None, cached_queries: int = 512):
        """`nlu`: an already loaded NLU built on this database's catalog (the web UI shares one across sessions).
        `cached_queries`: how many planner queries' rows to remember (app.rowcache); 0 runs every query."""
        from nlu.pipeline import NLU
        from nlu.vocab import default_vocabulary
        self.db_path = Path(db_path or default_db())
        if not self.db_path.exists():
            raise FileNotFoundError(f"no database at {self.db_path}: run `hpcask db build` (or `make setup`)")
        self.con = duckdb.connect(str(self.db_path), read_only=True)
        _check_schema(self.con, self.db_path)
        self.cat = catalog_mod.load(self.con)
        self.rows = RowCache(self.con, cached_queries)   # same SQL + parameters on this snapshot: same rows
        mdir = Path(model_dir or default_model_dir())
        if not (mdir / "labels.json").exists():
            raise FileNotFoundError(f"no trained model at {mdir}: run `hpcask retrain` (or `make setup`)")
        if extra_vocab is None and (mdir / "extra_vocabulary.yaml").exists():
            extra_vocab = mdir / "extra_vocabulary.yaml"  # words taught by `hpcask retrain --vocab`
        self.nlu = nlu or NLU(mdir, catalog=self.cat, extra_vocab=extra_vocab)
        intents.modules()   # the planners and what they import (networkx ...): at startup, not in the first answer
        default_vocabulary()   # the written forms answers use ("PyTorch"): 130 ms of YAML, also not in an answer

    def close(self) -> None:
        self.con.close()

    def ask(self, question: str, *, context: Optional[dict[str, Any]] = None, transcript: Optional[str] = None,
            qid: Optional[str] = None) -> Result:
        t0 = time.perf_counter()
        u = self.nlu.understand(question)
        carried = followup.carry(u, context, question)  # "and on the DGX-2?": previous intent and slots
        res = Result(question=question, intent=u.intent, confidence=round(u.confidence, 4), slots=dict(u.slots),
                     transcript=transcript, id=qid)
        res.timings_ms = {"asr": None, "nlu": round(u.ms, 2)}
        if getattr(u, "spelled", None) or getattr(u, "asked", None):
            # typos as read, and without what the reader left out after the question (a reason, what the answer need
            # not hold: no part of what is asked)
            res.read_as = repaired(u.asked or question, u.spelled)
        if carried:
            res.notes.append(carried)
        res.notes.extend(getattr(u, "notes", []))
        try:
            self._answer_unsure(res, u, context)
        except OutOfScope as e:
            if res.intent != "out_of_scope":
                res.understood_intent = res.intent
            res.intent, res.answer, res.rows, res.chart = "out_of_scope", str(e), [], {"kind": "none"}
        res.timings_ms["total"] = round((time.perf_counter() - t0) * 1000, 2)
        return res

    @functools.cached_property
    def _system_names(self) -> frozenset[tuple[str, ...]]:
        return system_name_words(self.nlu.vocab)

    @functools.cached_property
    def _system_name_words(self) -> frozenset[str]:
        """Every word of a loaded system's names: a well-known machine's name among them is no unknown machine."""
        return frozenset(w for name in self._system_names for w in name)

    def speech(self):
        """The speech recogniser, loaded on first use (asr.transcribe.Transcriber; $HPCASK_ASR_MODEL picks
        "finetuned", "tiny.en", "base" or a directory; default: the fine-tuned model, else tiny.en + hints)."""
        if getattr(self, "_speech", None) is None:
            import os

            from asr import build as asr_build
            from asr.transcribe import Transcriber
            name = os.environ.get("HPCASK_ASR_MODEL") or ("finetuned" if asr_build.present() else "tiny.en")
            self._speech = Transcriber(name)
        return self._speech

    def ask_audio(self, audio, *, context: Optional[dict[str, Any]] = None, qid: Optional[str] = None) -> Result:
        """A spoken question (a file path, or the bytes of a recording in any common format): transcribe, then
        ask(). Unusable audio (unreadable, empty, silent, too long, no words) gives a Result whose `error` says
        why, not an exception, so a UI can show it like any answer."""
        from asr.audio import AudioError
        t0 = time.perf_counter()
        try:
            tr = self.speech().transcribe(audio)
        except AudioError as e:
            res = Result(question="", intent="out_of_scope", answer=f"I could not use that recording: {e}",
                         error=str(e), id=qid)
            res.timings_ms = {"asr": round((time.perf_counter() - t0) * 1000, 2), "nlu": None, "total": None}
            return res
        res = self.ask_transcript(tr, context=context, qid=qid)
        res.timings_ms["asr"] = tr.timings_ms["total"]
        res.timings_ms["total"] = round((time.perf_counter() - t0) * 1000, 2)
        return res

    def ask_transcript(self, tr, *, context: Optional[dict[str, Any]] = None, qid: Optional[str] = None) -> Result:
        """Answer a transcript (asr.transcribe.Transcript). When the text opens with a hesitation ("um p2p BW
        matrix in link") and cannot be answered, the text decoded without hesitations ("yme p2p BW matrix in
        link"), if it scored within HESITATION_READ_GAP, is read instead: the speech model often hears a short
        system name at the start of a question as "um". Then, when the text is understood as a question the data
        cannot answer ("DGX2D2D latency from one byte to 256 MB": no such system), the beam's other hypotheses
        within ALTERNATIVE_READ_GAP are read in turn, and the first the data answers as the same kind of question
        is taken ("DGX-2D2D latency ..."): a misheard name or value, not another question. A hypothesis read as
        another intent is never taken, nor one for a text the reader did not understand at all ("grafana
        dashboard for the DGX-2?" is not "graphanodash board for the DGX-2 topology"). Last, a text refused with
        commas in it is read once without them (a pause heard as a comma can cut a question in two). A refusal of
        all stays the first text's."""
        res = self.ask(tr.text, context=context, transcript=tr.text, qid=qid)
        free, gap = getattr(tr, "hesitation_free", None), getattr(tr, "hesitation_gap", None)
        if res.intent == "out_of_scope" and free and gap is not None and gap <= HESITATION_READ_GAP:
            other = self.ask(free, context=context, transcript=free, qid=qid)
            if other.intent != "out_of_scope":
                other.notes.append(f"heard “{tr.text}”, which cannot be answered; read the opening sound as a "
                                   f"word, not a hesitation: “{free}”")
                return other
        meant = res.understood_intent if res.intent == "out_of_scope" else res.intent
        if meant and meant != "out_of_scope" and not res.slots.get("system") and free and gap is not None \
                and gap <= NAMED_READ_GAP:
            # "um GPU0 -> GPU2 PCIe uni bw" ("which system?"), decoded without the hesitation as "Yme GPU0 -> ...":
            # a question that names no machine, whose opening sound the other decode heard as one, is asked about
            # that machine when it is read as the same kind of question and answered
            other = self.ask(free, context=context, transcript=free, qid=qid)
            if other.intent == meant and other.slots.get("system") and other.rows:
                other.notes.append(f"heard “{tr.text}”, which names no machine; read the opening sound as the "
                                   f"machine's name: “{free}”")
                return other
        if res.intent == "out_of_scope" and res.understood_intent:
            for text, gap in getattr(tr, "alternatives", None) or []:
                if gap > ALTERNATIVE_READ_GAP:
                    break
                other = self.ask(text, context=context, transcript=text, qid=qid)
                if other.intent == res.understood_intent:
                    other.notes.append(f"heard “{tr.text}”, which the data cannot answer; read the speech model's "
                                       f"next hypothesis, which it can: “{text}”")
                    return other
        if res.intent == "out_of_scope" and "," in tr.text:
            # "what does the database hold, for the call graph profiler cluster": the speech model writes a pause
            # as a comma, which can cut a question in two; read without the pauses, once, where that is answered
            plain = re.sub(r"\s*,\s*", " ", tr.text).strip()
            other = self.ask(plain, context=context, transcript=plain, qid=qid)
            if other.intent != "out_of_scope":
                other.notes.append(f"heard “{tr.text}”, which cannot be answered; read without the pauses the "
                                   f"speech model wrote as commas: “{plain}”")
                return other
        if getattr(tr, "corrections", None):   # asr.correct rewrote near-misses of vocabulary terms
            res.notes.append("heard “" + tr.raw_text + "”; read " + ", ".join(
                f"“{c.heard}” as “{c.surface}”" for c in tr.corrections))
        return res

    def _answer_unsure(self, res: Result, u, context: Optional[dict[str, Any]]) -> None:
        """"how long does a barrier take on the xmp64": when the question model is unsure and the words name
        something stored, the likeliest in-scope intent is tried; if the data cannot answer it that way (no trace
        of the XMP-64), the next likeliest, up to three."""
        notes, slots, ranked, read = list(res.notes), dict(res.slots), list(u.ranked), u.intent
        first: Optional[OutOfScope] = None
        for attempt in range(3):
            try:
                self._answer(res, dataclasses.replace(u, ranked=ranked), context)
                if u.note_as:
                    res.understood_intent = u.note_as[0]    # what the reader understood, before the data
                return
            except OutOfScope as e:
                if e.final:
                    raise
                first = first or e       # the likeliest reading's reason is the one to tell
                tried = e.tried_as
                if tried is None and attempt == 0 and u.intent != "out_of_scope":
                    # a confident reading the data cannot answer ("how long does a barrier take on the xmp64"
                    # read as a trace question: no trace of the XMP-64): a runner-up the words also allow
                    runner = next(((i, p) for i, p in ranked if i not in (u.intent, "out_of_scope")
                                   and _words_allow(i, u.slots, _said(res))), None)
                    if runner is None or runner[1] < RUNNER_UP_FLOOR:
                        raise
                    if u.intent == "size_sweep" and _SIZE_AXIS_ASKED.search(_said(res) or ""):
                        # "how does Azure's congestion impact change with message size": the size axis asked for
                        # is the question; another reading would drop it, so the sweep's refusal is the answer
                        raise
                    tried = u.intent
                    u = dataclasses.replace(u, intent="out_of_scope", note_as=(u.intent, str(e)))
                elif tried is None or attempt == 2:
                    if u.note_as:
                        res.intent = read   # the refusal keeps what the reader understood
                    raise first
                ranked = [(i, p) for i, p in ranked if i != tried]
                res.notes, res.slots, res.intent = list(notes), dict(slots), read

    def _answer(self, res: Result, u, context: Optional[dict[str, Any]]) -> None:
        from nlu.pipeline import CONFIDENCE_FLOOR
        unsure = u.intent == "out_of_scope" or u.confidence < CONFIDENCE_FLOOR
        backed = self._data_backed(u) if unsure else None
        try:
            self._answer_as(res, u, context, backed, unsure)
        except OutOfScope as e:
            e.tried_as = backed[0] if backed else None   # the runner-up loop of _answer_unsure skips it next
            raise

    def _answer_as(self, res: Result, u, context: Optional[dict[str, Any]],
                   backed: Optional[tuple[str, str]], unsure: bool) -> None:
        # (not a request for work: "start profiling rank zero now and stream the trace" names a rank and a stream)
        traced = (u.intent != "trace_breakdown" or unsure) and not asks_advice(" ".join(u.tokens).lower()) \
            and self._names_trace_events(_said(res), res.slots)
        if traced:
            # "how much time is spent in GammaBetaBackward", "memset time rank 0": the words name events of the
            # loaded traces (or a rank and a kind of event), whatever the question model read
            res.notes.append(f"read as a trace question: {traced}")
            u = dataclasses.replace(u, intent="trace_breakdown")
            res.intent, backed, unsure = u.intent, None, False
        untraced = self._untraced_system(u, _said(res), res.slots) if not traced else None
        if untraced:
            # "how long does a gemm kernel take on the Titan RTX": no trace of it is loaded and no word asks for one;
            # the kernels DeepBench timed are measurements
            res.notes.append(f"no trace of {self.cat.name(res.slots['system'])} is loaded and the question asks "
                             f"for none: read as {untraced}")
            u = dataclasses.replace(u, intent=untraced)
            res.intent = u.intent
            res.slots = dict(res.slots)
            apply_cues(untraced, u.tokens, res.slots)   # what the words mean for that reading ("what fraction of")
        from nlu.implied import implied_by_intent
        from nlu.pipeline import part_of_an_app
        if backed:
            u = dataclasses.replace(u, intent=backed[0])
            res.intent = u.intent
            res.slots = dict(res.slots)
            implied_by_intent(u.intent, res.slots, self.cat)   # what the reader could not infer without the intent
        # a tagged system name nobody knows ("Frontier") ends here; a mis-tagged common phrase ("the same
        # board") carries no capital letter or digit and is ignored: the planner then asks which system
        unknown_sys = [s for slot, s in u.unresolved
                       if (_looks_like_name(s, _said(res)) if slot == "system"
                           else _ACCELERATOR_MODEL.fullmatch(s.strip(" -,.?")))
                       and not part_of_an_app(s, self.cat)
                       and not _part_of_a_known_system(s, self._system_names)
                       and not _names_a_paper(s, self.cat.source_words, self._system_name_words)
                       and not (u.intent == "trace_breakdown" and _TRACE_PLACE.match(s.strip()))]
        # a machine the data lacks named in words the tagger left untagged ("stack up against Frontier's"): a
        # well-known machine's name that is no word of any loaded system's name
        unknown_sys += [w for w in dict.fromkeys(re.findall(r"[A-Za-z][A-Za-z0-9]+", _said(res)))
                        if w.lower() in OTHER_MACHINES and w.lower() not in self._system_name_words
                        and not any(w.lower() in x.lower() for x in unknown_sys)]
        if u.described and not res.slots.get("system"):
            # "what's the power draw of the AMD machine": a description that fits a few machines, asked back
            words, fits = u.described[0]
            raise OutOfScope(f"Which system? “{words}” fits " + ", ".join(self.cat.name(x) for x in fits)
                             + ": name one.")
        if unsure and not backed:
            if unknown_sys and "system" not in res.slots:   # "what is the nvlink bandwidth on aurora"
                raise OutOfScope(f"I have no data for {_shown(unknown_sys[0])!r}. "
                                 + self.cat.describe() + ".")
            sid, link = res.slots.get("system"), res.slots.get("link_type")
            if isinstance(sid, str) and isinstance(link, str) and res.slots.get("metric") == "bandwidth" \
                    and self.cat.link_rate(sid, link) == "unrated":
                # "what bandwidth does an XLink of the XMP-64 carry": the links are stored, their rate nowhere
                raise OutOfScope(f"No source in the data states how fast the {link} links of {self.cat.name(sid)} "
                                 f"are; ask for its topology to see how they are wired.")
            raise OutOfScope("I can't answer that from the loaded performance data. "
                             + self.cat.describe() + "; ask about their topology, bandwidth, latency, "
                             "collectives, scaling, congestion or traces.")
        if u.intent == "trace_breakdown" and res.slots.get("metric") == "time":
            # "where does the time go in the trace": a breakdown is of time; the slot narrows nothing
            del res.slots["metric"]
        if u.intent == "trace_breakdown" and "app" not in res.slots:
            named = trace_name_in(_said(res), self.cat.trace_names)
            if named:   # "what % of gpu time is ncclDevKernel_AllReduce": the top list of the events so named
                word, category = named
                res.slots["app"] = word
                if category != "kernel" and "trace_cat" not in res.slots:
                    res.slots["trace_cat"] = category     # "the time per ProfilerStep": annotations, not kernels
                res.notes.append(f"{word!r} is part of {category} names in the loaded traces: the top list counts "
                                 "only those")
                unknown_sys = [x for x in unknown_sys if x.lower().replace(" ", "") not in word.lower()]
        well_known = [x for x in unknown_sys
                      if any(w.lower() in OTHER_MACHINES for w in re.findall(r"[A-Za-z0-9]+", x))]
        if unknown_sys and not _names_group(u.intent, _said(res), self.cat) and (
                "system" not in res.slots or well_known and any(n.startswith(IMPLIED_SYSTEM) for n in res.notes)):
            # "what would an MI300X node score on in-place all-reduce busbw": a machine known not to be loaded is
            # asked about; the one loaded machine that has the measure was only implied, never named (a part of a
            # loaded machine, "two IPUs of a C2 board", is no other machine)
            raise OutOfScope(f"I have no data for {_shown((well_known or unknown_sys)[0])!r}. "
                             + self.cat.describe() + ".")
        other = [x for x in unknown_sys if not _describes(x, self.cat.name(str(res.slots.get("system"))))]
        if other and res.slots.get("system") and not res.slots.get("compare_with") and (
                u.intent == "compare_systems" or _COMPARING.search(_said(res))
                or (_set_against(other[0], _said(res)) and not res.slots.get("nominal"))):
            # "should I buy H200s or MI300X": one side is known, the other has no data (not "with which system?")
            raise OutOfScope(f"I have no data for {_shown(other[0])!r}, so {self.cat.name(res.slots['system'])} "
                             "cannot be compared with it. " + self.cat.describe() + ".")
        if u.intent == "congestion" and res.slots.get("link_type") and _link_absent(res.slots, self.cat):
            # "how bad does on-chip IPU latency get under load": a link word the graph lacks names a case of the
            # experiment ("on-chip (same IPU)"), which the congestion planner finds by its label in the question
            res.notes.append(f"{res.slots['link_type']} is no link of {self.cat.name(res.slots['system'])}: "
                             "read as the name of a case")
            res.slots = {k: v for k, v in res.slots.items() if k != "link_type"}
        if res.slots.get("link_type") == "OnChip" and u.intent not in ("topology", "link_efficiency") \
                and _link_absent(res.slots, self.cat):
            # "IPU on-chip broadcast bandwidth vs destination tiles": on-chip is where the transfer stays (inside
            # one device), not a link of the system's graph to filter on
            res.notes.append(f"on-chip: within one device; {self.cat.name(res.slots['system'])} stores no on-chip "
                             "links, so no link is filtered on")
            res.slots = {k: v for k, v in res.slots.items() if k != "link_type"}
        absent = generation = None
        try:
            checked = _check_link_type(res.slots, self.cat)
            mode = checked == "mode"
            if checked and not mode:
                generation = checked
        except OutOfScope as e:
            if u.intent != "topology" or res.slots.get("metric") not in (None, "count") \
                    or not _ASKS_WHETHER.search(_said(res).lower()):
                # "Draw the NVLink topology of the Titan RTX desktop", "how many NVSwitches sit between Yme's GPUs":
                # the thing asked for is not there, which the refusal says with the links that are
                raise
            # "titan rtx system - is there any nvlink at all?": the stored graph answers no, and the graph it does
            # have is the rest of the answer (a refusal would leave the asker guessing)
            absent, mode = str(e), False
            res.notes.append(f"no {res.slots['link_type']} link is stored for "
                             f"{self.cat.name(res.slots['system'])}: its whole graph is shown")
        if mode and u.intent == "link_efficiency" \
                and res.slots.get("metric") != "efficiency":
            u = dataclasses.replace(u, intent="metric_lookup")   # a measured mode has no link to rate against
            res.intent = u.intent
        slots = dict(res.slots)
        if context and "system" not in slots and context.get("system") and u.intent != "list_data":
            slots["system"] = context["system"]
            res.notes.append(f"system taken from the previous question: {self.cat.name(context['system'])}")
            for k in ("metric", "operation", "msg_bytes", "condition"):
                if k not in slots and context.get(k) is not None:
                    slots[k] = context[k]
        res.slots = slots  # what was understood (and carried over); planner defaults go to notes
        if absent:
            slots = {k: v for k, v in slots.items() if k != "link_type"}
        if u.intent == "compare_systems" and slots.get("metric") in (None, "speedup", "time", "throughput") \
                and (_HOW_MUCH_FASTER.search(_said(res)) or slots.get("metric") == "speedup") \
                and self._states_a_speedup_over(slots):
            # "how much faster is the Graphcore system than a V100 at generating random numbers", "ipu prng speedup
            # vs v100": the document
            # states that ratio itself (4.9x), which is the answer; setting two throughputs of different settings
            # side by side is not
            u = dataclasses.replace(u, intent="metric_lookup")
            res.intent = u.intent
            res.notes.append(f"the speedup over {', '.join(self.cat.name(x) for x in slots['compare_with'])} that "
                             "the document states")
            slots = {**{k: v for k, v in slots.items() if k != "compare_with"}, "metric": "speedup"}
        mod = intents.get(u.intent)
        beyond = self._beyond_parts(slots) if u.intent == "trace_breakdown" else None
        if u.intent == "scaling" and slots.get("count") is None \
                and self._parts_of(str(slots.get("system")), str(slots.get("count_kind"))) == 1:
            # "how does the Titan RTX's MD5Hash rate scale from 1 to 4 GPUs": a curve on a machine with one GPU,
            # whose one measured count is no curve (Yme "from 1 to 8 GPUs" still draws its four)
            end = _count_span_end(_said(res), slots.get("count_kind"))
            if getattr(self.cat.systems.get(str(slots.get("system"))), "kind", None) in _ONE_BOX_KINDS:
                beyond = self._beyond_parts({**slots, "count": end or 2})   # ("... with GPU count": more than one)
            elif end:
                # "Summit's memcpy bandwidth from 1 to 4 GPUs": its stored parts are one node's GPU, not the
                # machine's, so it is not said to have one; what was stored is at one count only
                beyond = self._one_count_only(slots, end)
        if beyond:
            # "allreduce time for 64 h200s": a trace of the node's own GPUs says nothing about 64 of them
            raise OutOfScope(beyond)
        t = time.perf_counter()
        try:
            self._run(res, mod, slots)
        except OutOfScope as first:
            beyond = self._beyond_parts(slots)
            if beyond and self._answered_on_parts_had(res, mod, slots, beyond):
                pass    # "the H200 node has 4 GPUs, right? ...": corrected, and answered on the GPUs it has
            elif beyond:
                # "all-reduce across 2 GPUs on the Titan RTX desktop": the machine has one; a run on fewer devices
                # answers another question, so no count is relaxed away
                raise OutOfScope(beyond) from first
            else:
                # Too specific for the data? Drop the least essential detail, one at a time, and say so.
                before = (res.sql, res.params, res.rows, res.answer, res.chart, list(res.notes))
                other_precisions = self._other_precisions(slots)
                for kind, dropped, value, relaxed in _alternatives(u.intent, slots, u.readings,
                                                                   self._nearest_size(slots), self._app_as_op(slots),
                                                                   self._counted_in_parts(slots),
                                                                   bool(other_precisions), self._op_as_app(slots)):
                    try:
                        self._run(res, mod, relaxed)
                    except OutOfScope:
                        continue
                    if kind == "drop" and dropped == "app" and not self._kin_to_app(value, slots, res.rows):
                        # "resnet50 time on the dgx-2": an all-reduce time is no answer to it
                        res.sql, res.params, res.rows, res.answer, res.chart, res.notes = before
                        continue
                    if kind == "alias":
                        # "all gather bandwidth on the h200": the number, then the word it was read as (opening with
                        # "No bandwidth is stored" read as a refusal)
                        res.answer = f"{res.answer.rstrip('.')} ({value} as the tools name it: {relaxed['metric']})."
                        res.notes.append(f"no data for {value}: answered with {relaxed['metric']}")
                    elif kind == "op_alias":
                        res.answer = f"No {value} copy measurement matches that; {OPERATION_ALIASES[value][1]}: " \
                                     f"{res.answer}"
                        res.notes.append(f"no data for operation {value}: answered with {relaxed['operation']}")
                    elif kind == "nearest":
                        if u.intent in _ONE_SIZE_INTENTS and not _same_size(relaxed["msg_bytes"], value):
                            # "allreduce busbw at 3 MB": 2 and 4 MiB were measured, 3 MiB never; a number at 4 MiB
                            # answers another question, so say which sizes were measured instead (1e6 bytes is 1 MiB
                            # in the other unit, and is answered there)
                            res.sql, res.params, res.rows, res.answer, res.chart, res.notes = before
                            refusal = OutOfScope(self._unmeasured_size(slots, value))
                            refusal.final = True
                            raise refusal from first
                        alias = relaxed.get("metric") != slots.get("metric")
                        near = fmt_bytes(relaxed["msg_bytes"])
                        if near.replace(".0 ", " ") == fmt_bytes(value):
                            near = f"{relaxed['msg_bytes']:,} bytes"   # 64 MiB + 4 B (DeepBench) is no "64.0 MiB"
                        res.answer = (f"Nothing was measured at {fmt_bytes(value)}; the nearest measured size is "
                                      f"{near}"
                                      + (f", and the tools call {slots['metric']} {relaxed['metric']}" if alias else "")
                                      + f": {res.answer}")
                        res.notes.append(f"no data at {fmt_bytes(value)}: answered at the nearest measured size, "
                                         f"{near}"
                                         + (f", with {relaxed['metric']}" if alias else ""))
                    elif kind == "ranks":
                        n = relaxed.get("count")
                        res.notes.append((f"{n} {value} read as {n} GPUs" if n is not None else
                                          f"{value} read as GPUs") + " (one process per GPU); no counts of ranks are "
                                         "stored")
                        res.slots = relaxed
                    elif kind == "parts":
                        res.notes.append(f"{value} {slots['count_kind']} read as the {relaxed['count']} "
                                         f"{relaxed['count_kind']} they were stored as (the {slots['count_kind']} "
                                         "count is kept beside each row)")
                        res.slots = relaxed
                    elif kind == "as_operation":
                        res.answer = f"Nothing matches app {value}; read as the operation {relaxed['operation']}: " \
                                     f"{res.answer}"
                        res.notes.append(f"no data for app {value}: read as the operation {relaxed['operation']}")
                        res.slots = relaxed
                    elif kind == "as_app":
                        res.notes.append(f"no {value} rows match that: read as the program {relaxed['app']}, whose "
                                         f"rows there are stored under their own operation names")
                        res.slots = relaxed
                    elif kind == "reading":
                        what = dropped.replace("_", " ")
                        if {value, relaxed[dropped]} <= STATED_FIGURES and dropped == "condition":
                            # "peak ... according to the spec sheet": nominal and spec are one figure to the asker
                            res.notes.append(f"condition {value} read as {relaxed[dropped]} (both a stated figure)")
                        else:
                            res.answer = f"Nothing matches {what} {value}; your words also name {what} " \
                                         f"{relaxed[dropped]}: {res.answer}"
                            res.notes.append(f"no data for {what} {value}: read as {relaxed[dropped]}")
                        res.slots = relaxed
                    elif kind == "drop" and dropped == "condition" and value in STATED_FIGURES and res.rows and all(
                            r.get("condition") in STATED_FIGURES for r in res.rows):
                        # "on paper" read as nominal where the document states the figure as theoretical: one
                        # stated figure to the asker
                        res.notes.append(f"condition {value} read as {res.rows[0].get('condition')} (both a stated "
                                         "figure)")
                    elif kind == "drop" and _in_quoted_label(value, res.notes):
                        # "p100 hbm2 bandwidth spec": HBM2 is a word of the row's label the lookup quoted, no condition
                        res.notes.append(f"{value} is a word of the label quoted, not a stored "
                                         f"{dropped.replace('_', ' ')}")
                    else:
                        what = f"size {fmt_bytes(value)}" if dropped == "msg_bytes" and isinstance(value, int) \
                            else f"the pair {value.replace('-', ' -> ').upper()}" if dropped == "pair" \
                            else f"{dropped.replace('_', ' ')} {value}"
                        res.answer = f"Nothing matches {what}; without that: {res.answer}"
                        res.notes.append(f"no data for {what}: answered without it")
                    break
                else:
                    if not self._as_stored_metric(res, u.intent, slots):
                        cond, sid = slots.get("condition"), slots.get("system")
                        if _experiment_condition(slots) and isinstance(sid, str) and sid in self.cat.systems \
                                and cond not in self.cat.conditions.get(sid, set()):
                            # the condition kept (never relaxed) is what the system lacks: say so, not "try fewer"
                            raise OutOfScope(f"{self.cat.name(sid)} has no measurements with {cond.replace('_', ' ')}; "
                                             f"its stored conditions: "
                                             f"{', '.join(sorted(self.cat.conditions.get(sid, set()))) or 'none'}.") \
                                from first
                        if other_precisions:
                            # "ipu fp64 flops": the precision kept (never relaxed for a rate) is what the system
                            # lacks: say which it has, not "try fewer"
                            raise OutOfScope(f"{self.cat.name(str(slots['system']))} has no {slots['precision']} "
                                             f"{slots['metric']} stored; its {slots['metric']} are at "
                                             f"{', '.join(other_precisions)}.") from first
                        raise first
        premise = self._premise_count_wrong(res, slots)
        if premise:
            res.notes.append(premise)
        if backed:
            res.notes.append(backed[1])
        if absent and res.answer:
            res.answer = f"{absent} {res.answer}"
        if generation and res.answer:
            res.answer = f"{generation}: {res.answer}"
            res.notes.append(f"{generation}: answered for the links it has")
        res.timings_ms["sql"] = round((time.perf_counter() - t) * 1000, 2)

    def _other_precisions(self, slots: dict[str, Any]) -> list[str]:
        """The precisions a system stores its FLOP or throughput rates at, where the one asked for is none of them
        (empty otherwise, or where the system or metric is unknown)."""
        sid, metric, prec = slots.get("system"), slots.get("metric"), slots.get("precision")
        if not (isinstance(sid, str) and metric in ("flops", "throughput") and isinstance(prec, str)):
            return []
        stored = [p for (p,) in self.con.execute(
            "SELECT DISTINCT precision FROM measurements WHERE system_id = ? AND metric = ? AND precision IS NOT NULL "
            "ORDER BY precision", [sid, metric]).fetchall()]
        return stored if stored and prec not in stored else []

    def _names_trace_events(self, question: str, slots: dict[str, Any]) -> Optional[str]:
        """What in the question names trace events ('' / None for nothing): an event's name as written in code
        ("ncclDevKernel_AllReduce", "GammaBetaBackward"), or a rank with a kind of event ("memset time rank 0"),
        where no system is named or the one named has traces."""
        sid = slots.get("system")
        if sid and not getattr(self.cat.systems.get(sid), "n_events", 0):
            return None
        if any(slots.get(k) for k in ("compare_with", "msg_bytes", "src", "dst")):
            return None
        named = trace_name_in(question, self.cat.trace_names)
        if named and not any(self.nlu.norm.named(k, named[0]) for k in ("operation", "metric", "system", "library")):
            # (not a word the vocabulary knows: "AllReduce" is the operation, whatever kernels it names)
            return f"{named[0]!r} is part of {named[1]} names in the loaded traces"
        if _RANK_EVENT.search(question):
            return "a rank and a kind of event are named"
        if _STREAM_SAID.search(question):
            return "a CUDA stream is named"
        return None

    def _app_owner(self, slots: dict[str, Any], question: str) -> Optional[str]:
        """The system that stores the app, library or operation the question names, when the system read from it
        does not, and of those that do one shares the most words with the question ("sqa v100": the SQA test
        machine with Tesla V100-SXM2, not the Tohoku GV100 SQA baseline)."""
        sid = slots.get("system")
        if not isinstance(sid, str) or slots.get("compare_with"):
            return None
        for k in ("app", "library", "operation"):
            v = slots.get(k)
            owners = (self.cat.owners.get((k, v.lower()), set()) if k != "operation" else
                      {x for x, ops in self.cat.operations.items() if v in ops}) if isinstance(v, str) else set()
            if owners and sid not in owners:
                said = set(re.findall(r"[a-z0-9]{3,}", question.lower())) - _PLAIN_NAME_WORDS

                def shared(x: str) -> int:
                    return len(said & set(re.findall(r"[a-z0-9]{3,}", f"{x} {self.cat.name(x)}".lower())))
                top = max(shared(x) for x in owners)
                named = [x for x in owners if shared(x) == top]
                # and more of them than the system read ("Lassen ... V100s" stays Lassen)
                if top > shared(sid) and len(named) == 1:
                    return named[0]
        return None

    def _untraced_system(self, u, question: str, slots: dict[str, Any]) -> Optional[str]:
        """The likeliest other reading of a trace question about a system no trace is loaded for, when no word of
        it says trace or profile ("kernel" alone is also what DeepBench and SHOC time); None otherwise."""
        from nlu.cues import SIZE_WORD, TRACE_WORD
        sid = slots.get("system")
        if u.intent != "trace_breakdown" or not sid or sid not in self.cat.systems \
                or self.cat.systems[sid].n_events or TRACE_WORD.search(question) or _BREAKDOWN.search(question):
            return None
        # a link's efficiency only where a link or a bandwidth is named ("what fraction of the makespan is
        # initialization ... on Gemini" has "fraction" and no link)
        linked = slots.get("link_type") or slots.get("metric") in ("bandwidth", "busbw", "algbw", "efficiency")
        # a curve over counts only where a count or its axis is named ("what percentage of gemm kernels ran on
        # tensor cores on yme" is one stored share)
        counted = slots.get("count_kind") or _OVER_COUNT_WORDS.search(question)
        # the inventory only where no measure is named or a word lists ("learning steps needed on zen for the
        # stars problem" names the count stored), a graph only where one is stored and a curve over sizes only where
        # a size or its words are said
        listed = _inventory_fits(slots, question)
        sized = slots.get("msg_bytes") or SIZE_WORD.search(question.lower())
        # a grid of pairs only where a pair or its ends are named, machines side by side only where two are
        paired = slots.get("src") or slots.get("dst") or PAIR_WORDS.search(question.lower())
        # a congestion comparison only where a condition or a word of load is said ("by how much do the better
        # kernels cut the FV update time" compares code versions, not loads)
        congested = slots.get("condition") or _LOAD_WORDS.search(question.lower())
        return next((i for i, _ in u.ranked if i not in ("trace_breakdown", "out_of_scope")
                     and (linked or i != "link_efficiency") and (counted or i != "scaling")
                     and (listed or i != "list_data") and (sized or i != "size_sweep")
                     and (paired or i != "pair_matrix") and (slots.get("compare_with") or i != "compare_systems")
                     and (congested or i != "congestion")
                     and (i != "topology" or (self.cat.systems[sid].n_links and not any(
                         slots.get(k) for k in ("operation", "metric", "app"))))), "metric_lookup")

    def _data_backed(self, u) -> Optional[tuple[str, str]]:
        """"wat is the gtx980 maxflops sp": the question model doubts it is a question about the data, yet the
        words name a known system and something measured on it. Then the likeliest in-scope intent is tried
        (the planner still refuses if nothing matches); a question naming no measured thing stays out of scope.
        Returns (intent, note) or None."""
        sid, metric, op = u.slots.get("system"), u.slots.get("metric"), u.slots.get("operation")
        if not sid or sid not in self.cat.systems or any(sl == "system" for sl, _ in u.unresolved):
            return None
        if all(i == "out_of_scope" for i, _p in u.ranked):
            return None    # the reader ruled out every other reading ("if we swapped ... how much faster would")
        if metric is None and op is None and u.note_as is None:
            kind = _counted_part(u.tokens, self.cat.components.get(sid, set()))
            if kind:   # "how many gpus does yme have": its parts are in the stored topology
                return "topology", (f"the question model was unsure ({u.confidence:.0%} for {u.intent}); read as "
                                    f"topology, since the {kind}s of {self.cat.name(sid)} are in its stored graph")
        if u.slots.get("link_type") and metric in (None, "bandwidth") and not any(
                u.slots.get(k) for k in ("operation", "src", "dst", "app", "msg_bytes", "condition", "count")) \
                and not _SHARE_ASKED.search(" ".join(u.tokens)):
            # "what is the IPU-Link bandwidth?": nothing measured is named, only a kind of link; its rated bandwidth
            # is in the stored graph (a lookup cannot filter its rows by a link and gave the system's top number);
            # where no source states the rate of that kind of link ("what bandwidth does an XLink of the XMP-64
            # carry") the graph has no answer either, and the question stays refused
            rate = self.cat.link_rate(sid, u.slots["link_type"])
            if rate != "rated":
                return None if metric == "bandwidth" and rate == "unrated" else ("topology", (
                    f"the question model was unsure ({u.confidence:.0%} for {u.intent}); read as topology: "
                    f"the {u.slots['link_type']} links are in the graph"))
            return "topology", (f"the question model was unsure ({u.confidence:.0%} for {u.intent}); read as "
                                f"topology: the rated bandwidth of {u.slots['link_type']} links is in the graph")
        cond = u.slots.get("condition")
        if not (metric in self.cat.metrics.get(sid, set()) or op in self.cat.operations.get(sid, set())
                or cond in self.cat.conditions.get(sid, set())):
            return None
        in_scope = [i for i, _p in u.ranked if i != "out_of_scope"]
        # the reader's own reading first, where it is one about the data ("titan rtx gddr6 bw spec": its rules
        # read a stated figure, though the model leaned to a link's efficiency)
        if u.intent != "out_of_scope" and u.intent in in_scope:
            in_scope.remove(u.intent)
            in_scope.insert(0, u.intent)
        # a reading the words give nothing to work on is no fallback ("the power draw of the H200s during an
        # all-reduce": no link, no efficiency, so no link's efficiency)
        in_scope = [i for i in in_scope if _words_allow(i, u.slots, " ".join(u.tokens))]
        best = in_scope[0] if in_scope else None
        if best == "list_data" and len(in_scope) > 1 and (op or metric) \
                and not _LISTING.search(" ".join(u.tokens).lower()):
            # "wat is the gtx980 maxflops sp": one measured thing named and no word asking what is there, so the
            # number, not the inventory ("xmp64 latency vs message lines", refused as a curve: not the inventory
            # either)
            best = in_scope[1]
        if best == "size_sweep" and isinstance(u.slots.get("msg_bytes"), int) and "metric_lookup" in in_scope \
                and not u.slots.get("size_range") and not _CURVE_OF_SIZES.search(" ".join(u.tokens).lower()):
            # "nccl-tests reports an algbw column; what does it read for broadcast at 64 MB": one size and no word
            # of a curve is the value there, whichever reading the doubting model put first
            best = "metric_lookup"
        if best is None:
            return None
        if u.note_as:
            first, why = u.note_as
            return best, f"read as {best}: as {first} the data cannot answer it ({why.split('.')[0]})"
        held = next(x for x, have in ((metric, self.cat.metrics), (op, self.cat.operations),
                                      (cond, self.cat.conditions)) if x in have.get(sid, set()))
        return best, (f"the question model was unsure ({u.confidence:.0%} for {u.intent}); read as {best}, "
                      f"since {self.cat.name(sid)} holds {held}")

    def _counted_in_parts(self, slots: dict[str, Any]) -> Optional[tuple[int, str]]:
        """"reduce efficiency on 16 IPUs": the IPU paper's rows count tiles (19456 on 16 IPUs) and keep the IPU
        count beside, in params. The (count, kind) the system stores for the asked count of the asked kind when
        exactly one such pair exists, and no row counts that kind itself; None otherwise."""
        n, kind, sid, metric = (slots.get(k) for k in ("count", "count_kind", "system", "metric"))
        if not isinstance(n, int) or isinstance(n, bool) or not isinstance(kind, str) or not isinstance(sid, str) \
                or not isinstance(metric, str):
            return None
        sql = ("SELECT DISTINCT count, count_kind FROM measurements WHERE system_id = $system AND metric = $metric "
               "AND count IS NOT NULL AND count_kind IS DISTINCT FROM $kind "
               "AND TRY_CAST(params->>$kind AS DOUBLE) = $n")
        params: dict[str, Any] = {"system": sid, "metric": metric, "kind": kind, "n": n}
        if isinstance(slots.get("operation"), str):
            sql += " AND operation = $operation"
            params["operation"] = slots["operation"]
        found = self.con.execute(sql, params).fetchall()
        return (int(found[0][0]), str(found[0][1])) if len(found) == 1 else None

    def _parts_of(self, sid: str, kind: str) -> int:
        """How many GPUs or IPUs ("gpus", "ipus") the system's stored parts hold (gpu0, gpu1, ...)."""
        return sum(1 for c in self.cat.components.get(sid, set()) if re.fullmatch(kind[:-1] + r"\d+", c))

    def _premise_count_wrong(self, res: Result, slots: dict[str, Any]) -> Optional[str]:
        """"the DGX-2 has 8 GPUs, right? ...": where the machine has more parts than the asker said it has and the
        question was answered at the count said, the note says how many it has."""
        kind, sid, n = slots.get("count_kind"), slots.get("system"), slots.get("count")
        if kind not in ("gpus", "ipus") or not isinstance(sid, str) or not isinstance(n, int) \
                or not _COUNT_AS_PREMISE.search(_said(res).lower()):
            return None
        have = self._parts_of(sid, kind)
        word = kind[:-1].upper()
        return (f"{self.cat.name(sid)} has {have} {word}s, not {n}: the answer is for {n} {word}s as asked"
                if have > n else None)

    def _answered_on_parts_had(self, res: Result, mod, slots: dict[str, Any], beyond: str) -> bool:
        """"the H200 node has 4 GPUs, right? what's its allreduce busbw": a count said as what the machine has is the
        asker's belief about it, not the run asked for; where the machine has fewer, the question is answered on all
        it has, with the correction in the notes. False (nothing run) where the count is the run asked for."""
        kind, sid = slots.get("count_kind"), slots.get("system")
        if not _COUNT_AS_PREMISE.search(_said(res).lower()) or kind not in ("gpus", "ipus") or not isinstance(sid, str):
            return False
        have = self._parts_of(sid, kind)
        without = {k: v for k, v in slots.items() if k not in ("count", "count_kind")}
        for tried in ({**slots, "count": have}, without):    # a pair's copy stores no count at all
            try:
                self._run(res, mod, tried)
            except OutOfScope:
                continue
            said = beyond.replace(", so nothing was measured on", ", not").rstrip(".")
            res.answer = f"{said}: {res.answer}"
            res.notes.append(f"{said}: the count read as what you took the machine to have, not the run asked for")
            return True
        return False

    def _beyond_parts(self, slots: dict[str, Any]) -> Optional[str]:
        """Why a count of GPUs or IPUs cannot be had on the system, when its stored parts are fewer than the count
        asked; None otherwise (also where the system stores no such parts: then nothing is known)."""
        n, kind, sid = slots.get("count"), slots.get("count_kind"), slots.get("system")
        if not isinstance(n, int) or isinstance(n, bool) or kind not in ("gpus", "ipus") or not isinstance(sid, str):
            return None
        part = kind[:-1]
        have = self._parts_of(sid, kind)
        if not have or n <= have:
            return None
        most = self._most_counted(sid, kind)
        if most is not None and most > have:
            return None    # Chifflot stores one node's 2 GPUs and runs on 12: its parts are a node's, not the cluster's
        word = part.upper()
        return (f"{self.cat.name(sid)} has {have} {word}{'s' if have != 1 else ''}, so nothing was measured on "
                f"{n} {word}s.")

    def _most_counted(self, sid: str, kind: str) -> Optional[int]:
        """The largest count of `kind` ("gpus") any measurement on the system was made at (None: none counted)."""
        return self.con.execute("SELECT max(count) FROM measurements WHERE system_id = $system AND count_kind = $kind",
                                {"system": sid, "kind": kind}).fetchone()[0]

    def _one_count_only(self, slots: dict[str, Any], end: int) -> Optional[str]:
        """Why a curve to `end` devices cannot be drawn where the system stores runs on one device at most (None
        where it stores more, or nothing of that kind)."""
        sid, kind = str(slots.get("system")), str(slots.get("count_kind"))
        most = self._most_counted(sid, kind)
        if most is None or most > 1 or end <= most:
            return None
        word = kind[:-1].upper()
        return (f"{self.cat.name(sid)} was measured on {most} {word} only, so nothing was measured on {end} {word}s "
                "and no curve over the count can be drawn.")

    def _unmeasured_size(self, slots: dict[str, Any], size: int) -> str:
        """"Nothing was measured at 3 MiB for all-reduce busbw on the H200 pair; the measured sizes nearest it are
        2 MiB and 4 MiB.": the refusal of a size between (or beyond) the measured ones, with where to ask."""
        sizes = self._measured_sizes(slots)
        below = max((x for x in sizes if x < size), default=None)
        above = min((x for x in sizes if x > size), default=None)
        what = what_words(slots.get("operation"), slots.get("metric")).replace("_", " ")
        head = f"Nothing was measured at {fmt_bytes(size)}" + (f" for {what}" if what else "") + \
            f" on {self.cat.name(slots['system'])}"
        if below is not None and above is not None:
            return f"{head}; the measured sizes nearest it are {fmt_bytes(below)} and {fmt_bytes(above)}."
        if above is not None:
            return f"{head}; the smallest measured size is {fmt_bytes(above)}."
        return f"{head}; the largest measured size is {fmt_bytes(below)}."

    def _measured_sizes(self, slots: dict[str, Any]) -> list[int]:
        """The message sizes stored for the slots' system (and operation and count, where given)."""
        sid, op = slots.get("system"), slots.get("operation")
        if not isinstance(sid, str):
            return []
        sql = "SELECT DISTINCT msg_bytes FROM measurements WHERE system_id = $system AND msg_bytes > 0"
        params: dict[str, Any] = {"system": sid}
        if isinstance(op, str):
            sql += " AND operation = $operation"
            params["operation"] = op
        count = slots.get("count")
        if isinstance(count, int) and not isinstance(count, bool):
            # "at 64 MB on 16 GPUs": DeepBench's 16-GPU runs stop at 64 MiB + 4 B, while 64 MiB itself was
            # measured on up to 6 GPUs only
            sql += " AND count = $count"
            params["count"] = count
        return [r[0] for r in self.con.execute(sql, params).fetchall()]

    def _nearest_size(self, slots: dict[str, Any]) -> Optional[int]:
        """"allreduce busbw at 1000 bytes on the h200 pair": 1 KiB was measured. The stored message size nearest
        the asked one (by ratio; the smaller on a tie) for the system and operation, when the asked size itself was
        never measured there; None otherwise. A number at one size is answered there only within a tenth
        (`_same_size`), and refused with the sizes measured otherwise; answering at the largest size instead (what
        dropping the size does) would be a number for another question."""
        n = slots.get("msg_bytes")
        if not isinstance(n, int) or n <= 0:
            return None
        sizes = self._measured_sizes(slots)
        if not sizes or n in sizes:
            return None
        return min(sizes, key=lambda x: (abs(math.log(x / n)), x))

    def _common_size(self, slots: dict[str, Any], conditions: list[str]) -> Optional[int]:
        """The largest message size (the smallest, for a latency) measured under every one of `conditions` for the
        slots' system, operation, metric, direction and endpoints; None where no size is shared or none is stored."""
        sid = slots.get("system")
        if not isinstance(sid, str) or len(conditions) < 2:
            return None
        keys = ("system", "operation", "metric", "direction", "src", "dst")
        cond, params = where({k: slots[k] for k in keys if isinstance(slots.get(k), str)}, keys)
        sql = (f"SELECT m.msg_bytes FROM measurements m{cond} AND m.msg_bytes > 0 AND "
               "list_contains($conditions, m.condition) GROUP BY m.msg_bytes HAVING count(DISTINCT m.condition) = $n")
        params.update(conditions=list(conditions), n=len(set(conditions)))
        sizes = [r[0] for r in self.con.execute(sql, params).fetchall()]
        if not sizes:
            return None
        return min(sizes) if slots.get("metric") == "latency" else max(sizes)

    def _app_as_op(self, slots: dict[str, Any]) -> Optional[str]:
        """"deepbench gemm times on the dgx-2": GEMM is a SHOC program there and DeepBench's gemm an operation.
        The operation of the same name stored for the system, when the question named an app and no operation."""
        app, sid = slots.get("app"), slots.get("system")
        if not isinstance(app, str) or slots.get("operation") or not isinstance(sid, str):
            return None
        want = _APP_AS_OPERATION.get(app.lower(), app.lower())
        return next((op for op in sorted(self.cat.operations.get(sid, ())) if op.lower() == want), None)

    def _op_as_app(self, slots: dict[str, Any]) -> Optional[str]:
        """"the q t c time on four GPUs of the DGX-2 inside a single NUMA node": the program's name read as its
        operation (qtc), where the rows under the settings asked are the program's under another operation name
        (the paper's listing stores QTC's "compute"). The app of that name stored for the system, when the question
        named an operation and no app."""
        op, sid = slots.get("operation"), slots.get("system")
        if not isinstance(op, str) or slots.get("app") or not isinstance(sid, str):
            return None
        ops = self.cat.app_ops.get(sid, {}).get(op.lower())
        if not ops or ops == {op}:
            return None
        return next((a for a in sorted(self.cat.apps) if a.lower() == op.lower()), None)

    def _kin_to_app(self, app: Any, slots: dict[str, Any], rows: list[dict[str, Any]]) -> bool:
        """Is an answer found without the asked app still about it? Yes when the question names an operation
        (the number is that operation's), when an app stored for the system extends the asked name ("lenet5":
        lenet5_mnist on Chifflot), or when the top row's operation is one the asked app measured there."""
        if slots.get("operation") or not rows:
            return True
        want = str(app).lower()
        apps = self.cat.app_ops.get(str(slots.get("system")), {})
        op = rows[0].get("operation")
        kin = [a for a in apps if a != want and (a.startswith(want) or want.startswith(a))]
        if kin and (op is None or any(op in apps[a] for a in kin)):
            # ... but "gemm fp16 time" answered with a convolution is no answer, though DeepBench's gemm_bench
            # extends "gemm": the number must be of an operation the kin app measured
            return True
        return op in apps.get(want, set())

    def _states_a_speedup_over(self, slots: dict[str, Any]) -> bool:
        """Whether the first system stores a speedup of the operation asked over one of the others named (its
        row's baseline in params)."""
        sid, others = slots.get("system"), [x for x in slots.get("compare_with") or () if isinstance(x, str)]
        if not isinstance(sid, str) or not others or "speedup" not in self.cat.metrics.get(sid, set()):
            return False
        op = slots.get("operation") if isinstance(slots.get("operation"), str) else None
        n = self.con.execute(
            "SELECT count(*) FROM measurements WHERE system_id = $sid AND metric = 'speedup' "
            "AND ($op IS NULL OR operation = $op) AND list_contains($others, coalesce(params->>'baseline_system', "
            "params->>'compared_to', params->>'baseline'))", {"sid": sid, "op": op, "others": others}).fetchone()[0]
        return n > 0

    def _as_stored_metric(self, res: Result, intent: str, slots: dict[str, Any]) -> bool:
        """"lassen amoebanet f214 efficiency 2048 gpus": no link carries it, but a paper states the efficiency
        itself. "lulesh slowdown from sampling": no congestion pair, but the paper states the slowdown. A
        link-efficiency or congestion question whose metric is stored as measured is answered as a lookup (or, with
        other systems named, as a comparison)."""
        sid = slots.get("system")
        if intent not in ("link_efficiency", "congestion") or not sid \
                or slots.get("metric") not in self.cat.metrics.get(sid, set()):
            return False
        if intent == "congestion" and (not slots.get("condition") or (
                slots["condition"] not in CONGESTION_CONDITIONS and LOADED_AND_IDLE.search(_said(res).lower()))) \
                and slots["metric"] not in EFFECT_METRICS:
            # "how do the traffic patterns on the xmp sixty four affect latency": a plain latency ignores what
            # the question is about; a stated condition or a metric that is itself the effect does not, unless the
            # load pair is said beside a condition of another kind ("ri2 jointbert text query latency idle vs
            # under load": the text query is a condition of RI2's runs, and its latency says nothing of a load)
            return False
        if intent == "link_efficiency" and slots.get("link_type"):
            # "lassen nvlink2 efficiency": a training efficiency stored for Lassen says nothing about its NVLink2
            return False
        looked = dict(slots)
        # with other systems named, the stored values are set side by side rather than looked up on each
        plain = "compare_systems" if [x for x in slots.get("compare_with") or () if x != sid] else "metric_lookup"
        try:
            self._run(res, intents.get(plain), looked)
        except OutOfScope:
            return False
        # a question about congestion answered with the effect a paper states ("ipu gather slowdown congestion") is
        # still the congestion question (a slowdown from sampling or offloading is a plain lookup)
        res.intent = intent if intent == "congestion" and plain == "metric_lookup" \
            and slots["metric"] in EFFECT_METRICS and _CONGESTION_SAID.search(_said(res)) else plain
        against = "link" if intent == "link_efficiency" else "congestion pair"
        res.notes.append(f"no {against} to set {slots['metric']} against: the {slots['metric']} stored as measured")
        return True

    def _run(self, res: Result, mod, slots: dict[str, Any]) -> None:
        systems = [slots["system"]] + [x for x in slots.get("compare_with") or [] if x != slots["system"]] \
            if slots.get("system") else []
        if mod.NAME in PER_SYSTEM and len(systems) > 1:
            self._run_each(res, mod, slots, systems)
            return
        if mod.NAME == "compare_systems" and len(systems) > 1 \
                and not any(slots.get(k) for k in ("metric", "operation", "app", "operations", "library")):
            heads = [op for op in HEADLINE_OPERATIONS
                     if all(op in self.cat.operations.get(x, set()) for x in systems)][:3]
            if len(heads) > 1:
                self._overview(res, mod, slots, heads)
                return
        ops = slots.get("operations") or []
        if ops == "collectives":   # "all collectives on the h200 pair": the ones stored for the system
            ops = [o for o in COLLECTIVE_OPS if o in self.cat.operations.get(str(slots.get("system")), set())]
            if not ops:
                raise OutOfScope(f"No collectives are stored for {self.cat.name(str(slots.get('system')))}.")
        ops = [o for o in ops if isinstance(o, str)]
        if mod.NAME in PER_OPERATION and len(ops) > 1:
            self._run_each(res, mod, slots, ops, key="operation")
            return
        one = slots.get("system") if isinstance(slots.get("system"), str) and not slots.get("compare_with") else None
        # "with peer access enabled vs disabled", "pinned vs pageable" (each as the system stores it: pinned_wc)
        conds = [self.cat.stored_condition(one, c) for c in slots.get("conditions") or [] if isinstance(c, str)]
        if mod.NAME in PER_OPERATION and len(conds) > 1:
            self._run_each(res, mod, slots, conds, key="condition")
            return
        # "uni vs bi", "what are algbw and busbw", "busbw 64M vs 1G": each value looked up
        for many, key, kind in (("directions", "direction", str), ("metrics", "metric", str),
                                ("sizes", "msg_bytes", int)):
            values = [x for x in slots.get(many) or [] if isinstance(x, kind)]
            if mod.NAME in PER_OPERATION and len(values) > 1:
                self._run_each(res, mod, slots, values, key=key)
                return
        plan, rows, answer = self._plan_and_answer(res, mod, slots)
        if mod.NAME == "metric_lookup" and rows and fmt_value(rows[0]["value"], rows[0]["unit"]) in answer:
            # "... in MB/s": the number quoted, also in the unit asked for
            said = in_asked_unit(_said(res), rows[0]["value"], rows[0]["unit"])
            answer = f"{answer} That is {said}." if said else answer
        res.sql, res.params, res.rows, res.answer = plan.sql, plan.params, rows, answer
        res.chart = plan.chart  # some intents complete the chart (graph, highlight) from the rows
        res.notes = [n for n in res.notes if not n.startswith("no data for")] + plan.notes
        left = [self.cat.name(x) for x in systems[1:] if x in self.cat.systems]
        if left and mod.NAME not in SEVERAL_SYSTEMS:
            # a graph, a pair matrix, a link table or a trace is drawn for one system: say who was left out
            res.notes.append(f"answered for {self.cat.name(systems[0])} only (a {mod.NAME.replace('_', ' ')} "
                             f"answer covers one system); ask again for {', '.join(left)}")

    def _overview(self, res: Result, mod, slots: dict[str, Any], heads: list[str]) -> None:
        """"How do the DGX-2 and Yme stack up?": no measure named, so the headline measures stored on all of the
        systems are each compared (a list of every operation they share would leave the asker to pick)."""
        done = []
        for op in heads:
            try:
                plan, rows, answer = self._plan_and_answer(res, mod, dict(slots, operation=op))
            except OutOfScope:
                continue
            done.append((op, plan, [dict(r, series=what_words(op, None)) for r in rows], answer))
        if not done:
            raise OutOfScope("Which metric or operation should I compare? Measured on all of them: "
                             + ", ".join(heads) + ".")
        first = done[0][1]
        res.sql, res.params, res.chart = first.sql, first.params, first.chart
        res.rows = [r for *_, rs, _ in done for r in rs]
        res.answer = " ".join(answer for *_, answer in done)
        res.notes.append("no measure named: the headline measures stored on all of them are compared ("
                         + ", ".join(what_words(op, None) for op, *_ in done) + "); name one for the rest")

    def _plan_and_answer(self, res: Result, mod, slots: dict[str, Any]):
        if not slots.get("system") and mod.NAME in ONE_SYSTEM_NEEDED and (any(
                isinstance(slots.get(k), str) and (k, slots[k].lower()) in self.cat.owners for k in ("app", "library"))
                or isinstance(slots.get("link_type"), str) and len(self.cat.link_owners(slots["link_type"])) == 1):
            fits = systems_fitting(slots, self.cat)
            if len(fits) == 1:
                # "max error of PSDNS at 256 GPUs, compressed vs baseline", "how close do the IPU-Links get to their
                # peak": no system named, and one alone stores what the words name (an application, a kind of link
                # only one machine has); answered for it, and said
                slots = dict(slots, system=fits[0])
                res.notes.append(only_system_note(self.cat.name(fits[0])))
        cond, sid = slots.get("condition"), slots.get("system")
        if isinstance(cond, str):
            # the user's word for a setting, as the system's data (or, comparing systems, all data) stores it
            # ("pinned" -> "pinned_wc")
            one = sid if isinstance(sid, str) and not slots.get("compare_with") else \
                [x for x in [sid, *(slots.get("compare_with") or [])] if isinstance(x, str)] or None
            slots = dict(slots, condition=self.cat.stored_condition(one, cond))
        sid = slots.get("system") if isinstance(slots.get("system"), str) else None
        if sid and mod.NAME in ("size_sweep", "metric_lookup") \
                and (_CROSSOVER.search(_said(res) or "") or slots.get("metric") == "crossover_msg_size") \
                and "crossover_msg_size" in self.cat.metrics.get(sid, set()):
            # "at what message size does the compressed all-to-all start paying off": the size the document states
            mod = intents.get("metric_lookup")
            slots = {k: v for k, v in slots.items() if k not in ("msg_bytes", "threshold", "aggregate")}
            slots["metric"] = "crossover_msg_size"
            res.intent = mod.NAME
            res.slots = {**res.slots, "metric": "crossover_msg_size"}    # what the words were read as asking
            res.notes.append("read as the crossover size the document states")
        elif sid and mod.NAME == "compare_systems" and _CROSSOVER.search(_said(res) or "") \
                and slots.get("metric") in (None, "message_size", "msg_size", "size") \
                and "crossover_msg_size" in self.cat.metrics.get(sid, set()):
            # "compare lassen and longhorn on the crossover message size": the size each document states
            slots = {k: v for k, v in slots.items() if k not in ("msg_bytes", "threshold")}
            slots["metric"] = "crossover_msg_size"
            res.notes.append("read as the crossover size the documents state")
        owner = self._app_owner(slots, _said(res)) if mod.NAME != "topology" else None
        if mod.NAME == "topology" and isinstance(slots.get("operation"), str) and isinstance(sid, str) \
                and slots["operation"] not in self.cat.operations.get(sid, set()):
            # "d g x one p one hundred hybrid cube mesh: show me the connection graph": a graph is the same whatever
            # runs over it, so a word read as an operation the system never ran ("mesh") neither narrows it nor
            # sends the question to a system that ran it
            slots = {k: v for k, v in slots.items() if k != "operation"}
        if owner:
            # "SQA on the V100": the one V100 system that ran SQA, not the reference V100 of another paper
            what = slots.get("app") or slots.get("library") or slots.get("operation")
            res.notes.append(f"{self.cat.name(slots['system'])} has no {what} data; {self.cat.name(owner)}, which "
                             "the question's words also name, has")
            slots = dict(slots, system=owner)
        if mod.NAME in _TOOL_FILTERED and not slots.get("tool"):
            # "the SHOC host-to-device bandwidth of Yme and Mini Summit": only the rows of the tool named, when it ran
            # on a system asked about (a system it did not run on is said)
            tool = self.cat.tool_named(_said(res))
            if tool and not slots.get("app") and ("app", tool.lower()) in self.cat.owners \
                    and len(self.cat.owners[("app", tool.lower())]) > len(self.cat.owners.get(("tool", tool), ())):
                # "h200x2 vs dgx2 cuda-samples p2p bw": the CUDA sample also ran inside another suite (Tartan runs it
                # on the DGX-2), so its rows are the app's, whichever tool wrote them
                slots = dict(slots, app=tool)
                tool = None
            if tool and str(slots.get("app") or "").lower() == tool.lower():
                # "SU3_Bench GFLOP/s on PIUMA": the app named, which other tools' rows (a simulator's) hold too
                tool = None
            asked = [x for x in [slots.get("system"), *(slots.get("compare_with") or [])] if isinstance(x, str)]
            ran = self.cat.owners.get(("tool", tool), set()) if tool else set()
            if ran & set(asked):
                slots = dict(slots, tool=tool)
                if set(asked) - ran:
                    res.notes.append(f"{tool} did not run on " + ", ".join(self.cat.name(x) for x in asked
                                                                             if x not in ran))
        if _specs.wanted(slots):
            # "how much memory does each GPU have": what a part is, stated in the components table, whichever intent
            # (lookup, comparison, or topology for counts and link interfaces) the question carries
            mod = _specs
        plan = self._plan_of(mod, slots, res)
        rows = self.rows.rows(plan)
        if mod is _specs and not rows and slots.get("spec") == "links" and isinstance(sid, str) \
                and sid in self.cat.systems and self.cat.systems[sid].n_links:
            # "how many envy links does each GPU on Yme have": no document states a GPU's link interfaces, but the
            # stored connection graph holds its links, counted there
            mod = intents.get("topology")
            slots = {k: v for k, v in slots.items() if k not in ("spec", "part", "metric")}
            res.intent = mod.NAME
            res.notes.append("no link interfaces per part are stated: the links counted in the connection graph")
            plan = self._plan_of(mod, slots, res)
            rows = self.rows.rows(plan)
        return plan, rows, mod.answer(rows, plan, self.cat)

    def _plan_of(self, mod, slots: dict[str, Any], res: Result):
        """The intent module's plan; a planner that reads words no slot carries ("the ISC 2022 systems") gets the
        question too."""
        return mod.plan(slots, self.cat, question=_said(res)) if getattr(mod, "WANTS_QUESTION", False) \
            else mod.plan(slots, self.cat)

    def _run_each(self, res: Result, mod, slots: dict[str, Any], systems: list[str], key: str = "system") -> None:
        """"allreduce bandwidth vs message size on the DGX-2 and Yme": an intent that answers for one system is
        asked once per system named, and the answers go together (one curve per system in the chart). A system
        the data cannot answer it for is said in the notes; only when none can is the question refused. With
        key="operation" the same for operations set side by side on one system ("d2h vs h2d bandwidth"), with
        key="condition" for both settings of a switch ("peer access enabled vs disabled")."""
        done, refused = [], []
        if key == "condition" and mod.NAME == "metric_lookup" and slots.get("msg_bytes") is None:
            # "p2p on vs off bandwidth gpu0 to gpu1 on yme": each setting's own default size (Scope's 8 GiB with peer
            # access, Tartan's 256 MiB without) would set two different copies side by side; both at one size
            size = self._common_size(slots, systems)
            if size is not None:
                slots = dict(slots, msg_bytes=size)
                res.notes.append(f"no size given: {fmt_bytes(size)}, the "
                                 f"{'smallest' if slots.get('metric') == 'latency' else 'largest'} size measured with "
                                 f"every setting compared")
        name = (lambda v: self.cat.name(v)) if key == "system" else (lambda v: what_words(v, None)) \
            if key == "operation" else fmt_bytes if key == "msg_bytes" else (lambda v: str(v).replace("_", " "))
        for sid in systems:
            one = {k: v for k, v in slots.items() if k not in _SIDE_BY_SIDE}
            one[key] = sid
            if key == "system" and mod.NAME == "list_data":
                one["_named"] = list(systems)   # every machine the question named: a tool's name may be in theirs
            try:
                plan, rows, answer = self._plan_and_answer(res, mod, one)
            except OutOfScope as e:
                refused.append((sid, str(e)))
                continue
            done.append((sid, plan, [dict(r) for r in rows], answer))   # copies: the row cache keeps its own
        if not done:
            raise OutOfScope(refused[0][1])
        rows = []
        for sid, plan, rs, _ in done:
            label = name(sid).split(" (")[0]
            for r in rs:
                if key == "system":
                    r["system_id"] = sid
                if "series" in plan.chart or mod.NAME == "scaling":    # the curve's name says whose it is
                    r["series"] = label if r.get("series") in (None, "default") else f"{label}: {r['series']}"
            rows += rs
        first = done[0][1]
        res.sql, res.params, res.rows = first.sql, first.params, rows
        res.answer = " ".join(answer for *_, answer in done)
        apart: list[str] = []
        if key in ("operation", "condition", "msg_bytes", "direction") and mod.NAME == "metric_lookup" \
                and len(done) > 1:
            # "which collective is fastest at 1 MB": the best of the operations' answers leads, and is said
            firsts = [(sid, rs[0]) for sid, _, rs, _ in done if rs and rs[0].get("value") is not None]
            # settings of one switch are set against each other only like for like (the best conv time with tensor
            # cores on is fp16, off fp32: two different problems)
            # (a copy's two directions are alike at one size and count, whichever tool timed each)
            alike = key not in _ALIKE or all(len({r.get(c) for _, r in firsts}) == 1 for c in _ALIKE[key])
            if not alike:
                apart.append("the settings' best values were measured at different settings (not like for like): "
                             "no ratio is given")
            if alike and len({r.get("unit") for _, r in firsts}) == 1 \
                    and len({r.get("metric") for _, r in firsts}) == 1:
                low = lower_is_better(firsts[0][1].get("metric"))
                best_op, best = (min if low else max)(firsts, key=lambda f: f[1]["value"])
                res.answer += (f" Of these, {name(best_op)} has the {'lowest' if low else 'highest'} "
                               f"{best.get('metric')}: {fmt_value(best['value'], best.get('unit') or '')}")
                worst = (max if low else min)(firsts, key=lambda f: f[1]["value"])[1]["value"]
                if len(firsts) == 2 and worst and best["value"]:
                    ratio = worst / best["value"] if low else best["value"] / worst
                    res.answer += (f", {ratio:,.3g}x lower than the other" if low else f", {ratio:,.3g}x the other") \
                        if ratio >= 1.1 else \
                        f", {100 * (ratio - 1):.1f}% {'lower' if low else 'higher'} than the other"
                res.answer += "."
                res.rows = [r for r in rows if r.get(key) == best_op] + [r for r in rows if r.get(key) != best_op]
        res.chart = dict(first.chart, **{_CHART_KEY.get(key, f"{key}s"): [sid for sid, *_ in done]})
        if mod.NAME in DRAWN_APART:
            # a graph or a grid per system, side by side: each keeps its own (nodes, edges, unit, highlight)
            res.chart["parts"] = [dict(plan.chart, system=sid) for sid, plan, *_ in done]
        if mod.NAME == "scaling":
            res.chart["series"] = "series"      # one line per system
        notes = [n for n in res.notes if not n.startswith("no data for")]
        for sid, plan, _, _ in done:
            notes += [f"{name(sid)}: {n}" for n in plan.notes]
        notes += [f"{name(sid)}: not answered ({why.split('. ')[0].rstrip('.')})" for sid, why in refused]
        notes.append(f"one query per {key}; the statement shown is the first's ({name(done[0][0])})")
        notes += apart
        res.notes = notes


_LOAD_WORDS = re.compile(r"\b(congest\w*|load(ed)?|contention|background traffic|congestor|cc|quiet|idle)\b")


# a count stated as what the machine has, the asker's belief rather than the run asked for ("the H200 node has 4 GPUs,
# right?", "with its eight GPUs", "which has 16 GPUs")
_COUNT_AS_PREMISE = re.compile(r"\b(has|have|had|with its|comes with|contains?|holds?)( got)? (only |just |all |"
                               r"exactly )?(\d+|two|three|four|five|six|eight|twelve|sixteen|thirty-two) (gpus|ipus|"
                               r"g p us|i p us)\b")


# machines whose stored parts are the whole machine (a desktop, one server), not one node of many
_ONE_BOX_KINDS = {"workstation", "gpu_server", "cpu_server"}


def _count_span_end(said: str, kind: Any) -> Optional[int]:
    """The upper end of a range of counts said ("from 1 to 4 GPUs", "1-4 gpus", "between one and four g p us"),
    when it counts the kind given."""
    if kind not in ("gpus", "ipus"):
        return None
    said = re.sub(r"\b([gi]) p u(s?)\b", r"\1pu\2", said.lower())
    said = re.sub(r"(\w) ?, (to|through|and) ", r"\1 \2 ", said)   # "from one, to 4 GPUs": a pause heard as a comma
    words = r"\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|thirty[- ]two|sixty[- ]four"
    m = re.search(rf"\b({words}) ?(?:to|-|through|and) ?({words}) ({kind[:-1]}s?)\b", said)
    if not m:
        return None
    end = m.group(2)
    return int(end) if end.isdigit() else _NUMBER_WORDS.get(end.replace("-", " "))


_NUMBER_WORDS = {**UNITS, **TEENS, "thirty two": 32, "sixty four": 64}


def _said(res: Result) -> str:
    """The question as the phrase rules should read it: with its typos repaired where the reader repaired any
    ("tiles congesiton" is "tiles congestion" to the congestion planner as it was to the model)."""
    return res.read_as or res.question


def repaired(question: str, spelled: list[tuple[str, str]]) -> str:
    """The question with each repaired word written as read, as whole words only."""
    for typed, read in spelled:
        question = re.sub(rf"(?<![\w-]){re.escape(typed)}(?![\w-])", read, question)
    return question


def _in_quoted_label(value: Any, notes: list[str]) -> bool:
    """Whether a dropped slot value's words are all words of the document label a lookup picked its row by."""
    from app.intents.metric_lookup import LABEL_NOTE
    label = next((n[len(LABEL_NOTE):] for n in notes if n.startswith(LABEL_NOTE)), None)
    want = catalog_mod.label_words(value) if isinstance(value, str) else set()
    return bool(label and want) and want <= catalog_mod.label_words(label)


def _words_allow(intent: str, slots: dict[str, Any], question: str = "") -> bool:
    """Whether a runner-up intent has something to work on in the question's slots: a link's efficiency needs a
    link (its type or two ends) or the efficiency asked for; "the xmp64 barrier compared with the IPU's" is no
    link question, however the model ranks it. The inventory needs `_inventory_fits` ("xmp64 latency vs message
    lines": a curve the data cannot draw, not a list of what is there)."""
    if intent == "link_efficiency":
        return bool(slots.get("link_type") or slots.get("metric") == "efficiency"
                    or (slots.get("src") and slots.get("dst")))
    if intent == "list_data":
        return _inventory_fits(slots, question)
    if intent == "topology":
        # "what percent of InfiniBand EDR does Longhorn reach": a share of a rate asked, which the graph's rates
        # alone do not give
        return not _SHARE_ASKED.search(question)
    if intent == "metric_lookup" and slots.get("metric") == "efficiency" and slots.get("link_type") \
            and not slots.get("app") and not slots.get("operation"):
        # "what percent of nvlink2 peak do Lassen's gpus reach": a link's share of its rate; a stored efficiency of
        # something else (Lassen's training efficiency) answers another question
        return False
    return True


_SHARE_ASKED = re.compile(r"\b(percent(age)?|fraction|proportion|efficien\w*)\b|%", re.I)


def _inventory_fits(slots: dict[str, Any], question: str) -> bool:
    """Whether a reading as the inventory can answer the question: no measure is named, or a word asks what is
    stored (a runner-up or another reading of a question the data cannot answer as first read)."""
    return not slots.get("metric") or bool(_LISTING.search(question.lower()))


# the slots that hold values a question set side by side (each asked by _run_each, never passed on to a planner)
_SIDE_BY_SIDE = ("compare_with", "operations", "conditions", "sizes", "metrics", "directions")
# the chart's name for the values a question set side by side, where the column's plural is no word
_CHART_KEY = {"msg_bytes": "sizes", "direction": "directions"}
# what must be the same for the values set side by side to be given a ratio (else the answer says why not)
_ALIKE = {"condition": ("msg_bytes", "count", "precision", "app", "direction"),
          "direction": ("msg_bytes", "count", "precision")}
# intents that answer for one system: several named ("on the DGX-2 and Yme") are asked one by one (_run_each)
# what "how do X and Y compare" is answered with when no measure is named, in this order (the first three that every
# system compared stores): transfers between devices and with the host, the collectives, then compute
HEADLINE_OPERATIONS = ("p2p", "h2d", "d2h", "allreduce", "broadcast", "alltoall", "maxspflops", "maxdpflops", "gemm",
                       "triad", "communication", "training", "inference", "prng", "conv", "compute")
PER_SYSTEM = {"size_sweep", "scaling", "list_data", "topology", "pair_matrix", "metric_lookup", "link_efficiency"}
# intents asked once per operation when several are set side by side on one system ("d2h vs h2d bandwidth")
PER_OPERATION = {"metric_lookup", "size_sweep"}
# intents that answer for one named system: with none named, the one system that stores what the words name is taken
ONE_SYSTEM_NEEDED = {"metric_lookup", "size_sweep", "scaling", "pair_matrix", "link_efficiency", "congestion"}
# ... of which these draw one picture per system, side by side (a graph or a grid cannot share axes)
DRAWN_APART = {"topology", "pair_matrix"}
# intents whose planners answer several systems themselves, or ask one by one
SEVERAL_SYSTEMS = PER_SYSTEM | {"compare_systems", "congestion"}


# Details a question may over-specify, least essential first; system, metric and operation stay.
# a runner-up intent is tried when the likeliest one finds no data only if the model gave it at least this
RUNNER_UP_FLOOR = 0.15
# How far (in the speech model's ranking score) the hesitation-free text may sit below a transcript opening with
# "um"/"uh" and still be read when the transcript cannot be answered. Chosen on the first spoken set (0.05 to 1.0
# gave the same three questions from 0.2 up; bench/RESULTS.md, speech); the second set has no such question.
HESITATION_READ_GAP = 0.2
# ... and how far it may sit below when it names the machine the hesitation's reading lacks (the opening sound was
# the name): measured on the seven read sets (session 45), the questions rescued had gaps 0.22-0.47
NAMED_READ_GAP = 0.5
# How far below the transcript (same score) the beam's other hypotheses may sit and still be read when the
# transcript is understood but cannot be answered. Measured on both spoken sets (bench/RESULTS.md, session 39):
# from 0.2 up the same questions change (first set 3 of 220 gained; second set 3 of 270 gained, 1 lost); 0.05-0.15
# gave fewer.
ALTERNATIVE_READ_GAP = 0.2
RELAXABLE = ("precision", "msg_bytes", "count", "count_kind", "direction", "condition", "app", "library", "aggregate")
# metrics that are themselves the effect of a condition: stored as such, they answer a congestion question
EFFECT_METRICS = {"slowdown", "congestion_impact", "latency_increase", "throughput_drop", "overhead"}
RELAXING_INTENTS = {"metric_lookup", "size_sweep", "pair_matrix", "scaling", "compare_systems", "congestion",
                    "link_efficiency"}


# What tools call the metric a person names: nccl-tests reports a collective's bandwidth as algbw (and busbw),
# SHOC and DeepBench report GFLOP/s where people say throughput, Tartan calls a copy's time its latency, and the
# ISC 2022 congestion-control paper (seed 002, Eqs. 1-2) reports a slowdown under congestion as its congestion
# impact (congested over uncongested latency or runtime).
METRIC_ALIASES = {**SAME_MEASURE, "bandwidth": ("algbw", "busbw"), "time": ("latency",), "latency": ("time",),
                  "slowdown": ("congestion_impact",), "congestion_impact": ("slowdown",),
                  # a tool's runtime overhead stored as the factor time with it / time without (call-graph study)
                  "overhead": ("slowdown",)}


# app names that are a stored operation under another word: SHOC's "Reduction" program, the IPU's "reduce"
_APP_AS_OPERATION = {"reduction": "reduce"}

# A transfer people name one way that a tool measured under its own name, and how the answer says so: a
# GPU-to-GPU "p2p" bandwidth over message sizes is, on a node without a copy-size sweep, nccl-tests' sendrecv
# (a send/receive pair between two GPUs, the library's point-to-point test).
OPERATION_ALIASES = {"p2p": ("sendrecv", "the point-to-point test of nccl-tests (sendrecv, NCCL send/receive "
                                         "between two GPUs) is"),
                     # "heatmap of d2d bandwidth among the GPUs of heid": Tartan stores a GPU's copy to itself as
                     # d2d, and a copy from one GPU to another as p2p
                     "d2d": ("p2p", "between two GPUs a device-to-device copy is the peer-to-peer (p2p) one")}


def _counted_part(words: list[str], components: set[str]) -> Optional[str]:
    """The component kind a "how many ... " question counts, when the system's graph has that kind ("gpus" -> gpu)."""
    lw = [w.lower() for w in words]
    starts = [i + 2 for i, (a, b) in enumerate(zip(lw, lw[1:])) if a == "how" and b == "many"]
    if not starts:
        return None
    kinds = {c.rstrip("0123456789") for c in components}
    # what is counted follows "how many" ("how many gpus", "how many of the NVSwitches"), before the verb: in "how many
    # kilowatt-hours does the IPU system use" the IPUs are not counted
    for w in lw[starts[0]:starts[0] + 4]:
        if w in _COUNT_STOPS:
            break
        k = w[:-1] if w.endswith("s") else w
        if k in kinds and k != "host":
            return k
    return None


_COUNT_STOPS = {"does", "do", "did", "is", "are", "was", "were", "has", "have", "can", "will", "would", "sit", "in", "on"}


# conditions that all mean "the figure a vendor or paper states" rather than a measurement: reading one as another
# needs no "nothing matches" preamble (a note still says so)
STATED_FIGURES = frozenset({"nominal", "spec", "theoretical"})


# counts of processes, which GPU benchmarks run one per GPU
RANK_KINDS = ("ranks", "processes")



# words that ask for values over message sizes, not at the one size said
# a change along the message sizes asked for in words ("change with message size", "vary across transfer sizes")
_SIZE_AXIS_ASKED = re.compile(r"\b(chang\w*|var(y|ies|ied)|grows?|scales?|evolv\w*|behaves?|trends?|depends?( on)?) "
                              r"(with|over|across|by|as|on) (the |increasing |growing |larger )?(message|msg|transfer|"
                              r"buffer|payload) sizes?\b", re.I)
_CURVE_OF_SIZES = re.compile(r"\b(sweep\w*|curves?|plot\w*|chart\w*|graph\w*|trends?|grows?|growing|increas\w*|"
                             r"scal\w*|(over|across|by|vs\.?|versus|against) (the |all |every )?(message |msg |transfer "
                             r")?sizes?|up to|from \S+( \S+)? (to|until|till))\b")

# a number (or a matrix, a ranking, a share of a link's rate) at one message size: another size answers another
# question; a curve over sizes or counts shows the sizes either side anyway
_ONE_SIZE_INTENTS = {"metric_lookup", "link_efficiency", "compare_systems", "pair_matrix"}


def _same_size(measured: int, asked: int) -> bool:
    """Within 10%: the asked size in the other unit (1e6 bytes for 1 MiB, "1 GB" for 1 GiB) or a tool's odd size
    (DeepBench's 64 MiB + 4 B) is the size measured; 3 MiB is not 4 MiB."""
    return abs(math.log(measured / asked)) <= math.log(1.1)


def _alternatives(intent: str, slots: dict[str, Any], readings: Optional[dict[str, list[Any]]] = None,
                  nearest: Optional[int] = None, app_op: Optional[str] = None,
                  parts: Optional[tuple[int, str]] = None, unstored_precision: bool = False,
                  op_app: Optional[str] = None):
    """Ways to answer a question the data cannot answer as asked, as (kind, slot, asked value, slots): the same
    metric under the name its tool uses; another value the question's own words give a slot ("share of
    VASP's runtime" read as time: share); the nearest measured message size (`nearest`), under the asked
    metric or its tool's name; an app read as the system's operation of the same name (`app_op`), or an operation
    as the app of that name (`op_app`); then the question with one over-specified detail dropped."""
    aliases = METRIC_ALIASES.get(slots.get("metric"), ()) if intent in RELAXING_INTENTS else ()
    for alt in aliases:
        yield "alias", "metric", slots["metric"], {**slots, "metric": alt}
    if intent in RELAXING_INTENTS:
        for k, alts in (readings or {}).items():
            if slots.get(k) is not None:
                for alt in alts:
                    yield "reading", k, slots[k], {**slots, k: alt}
    if intent in RELAXING_INTENTS and slots.get("count_kind") in RANK_KINDS:
        # "8 ranks" of nccl-tests or OSU: one process per GPU, and the tools store the GPUs
        yield "ranks", "count_kind", slots["count_kind"], {**slots, "count_kind": "gpus"}
    if intent in RELAXING_INTENTS and parts:
        # "on 16 IPUs", stored as 19456 tiles with the IPU count beside (_counted_in_parts)
        yield "parts", "count", slots["count"], {**slots, "count": parts[0], "count_kind": parts[1]}
    if intent in RELAXING_INTENTS and app_op:
        yield "as_operation", "app", slots["app"], \
            {**{k: v for k, v in slots.items() if k != "app"}, "operation": app_op}
    if intent in RELAXING_INTENTS and op_app:
        yield "as_app", "operation", slots["operation"], \
            {**{k: v for k, v in slots.items() if k != "operation"}, "app": op_app}
    if intent in RELAXING_INTENTS and nearest and slots.get("msg_bytes") is not None:
        for metric in (slots.get("metric"), *aliases):
            near = {**slots, "msg_bytes": nearest}
            if metric is not None:
                near["metric"] = metric
            yield "nearest", "msg_bytes", slots["msg_bytes"], near
    op_alias = OPERATION_ALIASES.get(slots.get("operation")) if intent in RELAXING_INTENTS else None
    if op_alias:
        for metric in (slots.get("metric"), *aliases):   # nccl-tests call a send/receive bandwidth algbw
            alt = {**slots, "operation": op_alias[0]}
            if metric is not None:
                alt["metric"] = metric
            yield "op_alias", "operation", slots["operation"], alt
    for k, v, relaxed in _relaxations(intent, slots, unstored_precision):
        yield "drop", k, v, relaxed


# a load or a congestion-control setting (and tensor cores for a kernel: _experiment_condition) is the experiment
# itself: a value without it ("ipu7 to ipu10 latency under load" answered with the idle latency, a GTX 980 GEMM
# without the tensor cores it lacks) answers another question, so it is never dropped to find rows
_EXPERIMENT_CONDITIONS = {"under_load", "cc_on", "cc_off"}


def _experiment_condition(slots: dict[str, Any]) -> bool:
    """The condition asked for is the experiment itself (_EXPERIMENT_CONDITIONS; tensor cores for a GEMM,
    convolution or RNN kernel, not for a collective they play no part in)."""
    cond = slots.get("condition")
    kernel = {str(slots.get("operation") or "").lower(), str(slots.get("app") or "").lower()} & {"gemm", "conv", "rnn"}
    return cond in _EXPERIMENT_CONDITIONS or (cond == "tensor_cores_on" and bool(kernel))


def _relaxations(intent: str, slots: dict[str, Any], unstored_precision: bool = False):
    # only when the asked metric is known: a relaxed answer must still be the number asked for
    if intent not in RELAXING_INTENTS or not slots.get("system") or not slots.get("metric"):
        return
    order = RELAXABLE
    if slots.get("metric") in ("flops", "throughput") and slots.get("precision"):
        # "titan rtx vs gtx980 fp64 spec": a FLOP rate at another precision is another number (mixed is 30x fp64);
        # the measured fp64 rate stands in for a spec sheet's sooner than the spec sheet's mixed-precision one; "ipu
        # fp64 flops" on a machine with no FP64 rate at all (`unstored_precision`) is not answered with its FP32 one
        order = tuple(k for k in RELAXABLE if k != "precision") + (() if unstored_precision else ("precision",))
    for k in order:
        if k == "condition" and _experiment_condition(slots):
            continue
        if slots.get(k) is not None:
            gone = {k, "count_kind"} if k == "count" else {k}   # "2 GPUs" goes as a whole
            yield k, slots[k], {x: v for x, v in slots.items() if x not in gone}
    if intent in ("pair_matrix", "link_efficiency") and (slots.get("src") or slots.get("dst")):
        # "IPU5, IPU4, IPU6: latencies between all of them": the grid they are in, when that pair is not stored;
        # "what share of the IPU-Link peak does IPU0 -> IPU1 reach": the pairs measured over that link
        ends = "-".join(str(slots[k]) for k in ("src", "dst") if slots.get(k))
        yield "pair", ends, {x: v for x, v in slots.items() if x not in ("src", "dst")}


_DEFAULT: Optional[Asker] = None


def ask(question: str, **kw) -> Result:
    """Module-level convenience over a lazily created default Asker."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Asker()
    return _DEFAULT.ask(question, **kw)


# words of a curve over counts: scaling, a speedup, counts, more or fewer devices
_OVER_COUNT_WORDS = re.compile(r"\bscal\w*|\bspeed ?-?ups?\b|\bcounts?\b|\b(more|fewer|number of) (gpus|ipus|nodes|"
                               r"cores|ranks|processes)\b", re.I)


# whether something is there at all ("is there any NVLink", "does Yme have an NVSwitch"): a graph answers that
_ASKS_WHETHER = re.compile(r"\b(is there|are there|does\b.{0,60}\bha(ve|s)|do\b.{0,60}\bhave|any|at all|whether|"
                           r"if (it|they) ha(s|ve)|has it got|have they got)\b")


def _link_absent(slots: dict[str, Any], cat) -> bool:
    """The system's stored graph has no link of the type named (nor a switch of that name)."""
    lt, sid = str(slots.get("link_type") or ""), slots.get("system")
    if not lt or not sid or not cat.systems.get(sid) or not cat.systems[sid].n_links:
        return False
    theirs = cat.held("link_type", sid)
    switch = any(lt.lower() in c.lower() for c in cat.components.get(sid, ()))
    return not switch and not any(v.startswith(lt.lower()) or lt.lower().startswith(v) for v in theirs)


def _check_link_type(slots: dict[str, Any], cat) -> Optional[str]:
    """"InfiniBand bandwidth between the H200 nodes": a link the system does not have cannot be measured on
    it, and answering with some other bandwidth would be a confident wrong number. Returns "mode" where the link
    named is a mode the GPUs were measured in (the slots then name the condition), the sentence that corrects the
    premise where the system has another generation of that link (the slots then name the family), else None."""
    lt, sid = slots.get("link_type"), slots.get("system")
    mode = CONDITION_LINK_TYPES.get(str(slots.get("condition")))
    if not lt and mode and isinstance(sid, str) and not slots.get("compare_with") \
            and slots["condition"] not in cat.conditions.get(sid, set()) \
            and cat.held("link_type", sid) and cat.link_rate(sid, mode) == "absent":
        # "What Tartan NVLink-mode bandwidth does the Titan RTX desktop reach?": a mode over a link the machine
        # lacks was never measured there; its other figures answer another question (with a second machine named,
        # "Titan" may be a mishearing of "Tartan" and the other machine's rows answer)
        raise OutOfScope(f"{cat.name(sid)} has no {mode} links in the loaded topology, so nothing was measured "
                         f"there in {mode} mode; its links are {', '.join(sorted(cat.held('link_type', sid)))}.")
    if _link_absent(slots, cat):   # "NVSwitch" is a component, not a link type: present
        mode = lt.lower()
        if str(slots.get("condition") or "").lower().removeprefix("with_") == mode or (
                not slots.get("condition") and mode in cat.conditions.get(sid, set())):
            # "PCIe-mode latency on the Mini Summit", "mini summit gpu1 to gpu0 pcie bandwidth": a mode its GPUs
            # were measured in (Tartan's forced-PCIe runs), not a link the stored graph has
            del slots["link_type"]
            slots["condition"] = mode
            return "mode"
        base = re.sub(r"\s*\d+(\.\d+)?$", "", str(lt))
        held = [v for v in cat.link_family(base) if v in cat.held("link_type", sid)] if base != lt else []
        if held:
            # "the Mini Summit GPUs are joined by NVLink 1.0, aren't they? how efficient are those links": another
            # generation of the same link is what it has; the premise is corrected and the links it has answer
            slots["link_type"] = base
            shown = [re.sub(r"^nvlink", "NVLink", re.sub(r"^pcie", "PCIe", v)) for v in held]   # as printed
            return f"{cat.name(sid)} has {', '.join(shown)} links, not {lt}"
        raise OutOfScope(f"{cat.name(sid)} has no {lt} links in the loaded topology; its links are "
                         f"{', '.join(sorted(cat.held('link_type', sid)))}.")


def _names_group(intent: str, question: str, cat) -> bool:
    """"List the ISC 2022 systems": the unknown "system" is a source collection list_data can narrow to."""
    if intent != "list_data":
        return False
    from app.intents.list_data import group_in
    return group_in(question, cat) is not None


# words of many systems' names, which tell none apart
_PLAIN_NAME_WORDS = {"node", "nodes", "gpu", "gpus", "system", "systems", "machine", "test", "with", "the", "and",
                     "nvidia", "intel", "ibm", "cluster", "desktop", "reference", "baseline"}
# "where does the compressed all-to-all start paying off": the message size a document states as the crossover
_CROSSOVER = re.compile(r"\bcross ?-?overs?\b|\bstarts? (paying|to pay) of+\b|\bbreak[- ]?even\b|"
                        r"\b(which|what) (message |msg |transfer )?size\b.{0,60}\bpays? of+\b|"
                        r"\bbegins? to (win|pay off|help)\b|\bstarts? (winning|to win|helping|to help)\b|"
                        r"\bbeats? (the )?(baseline|uncompressed)\b|\bstarts? (to beat|beating)\b", re.I)
# planners whose queries can keep one tool's rows (_common.where_plus); metric_lookup narrows by the tool itself
_TOOL_FILTERED = ("compare_systems", "pair_matrix", "scaling")
# what only a trace can answer, without the word trace: "a kernel-level time breakdown for the DGX-2 runs"
_BREAKDOWN = re.compile(r"\bbreak ?down\b|\bbreak(s|ing)? down\b|\bkernel[- ]level\b|\bper[- ]kernel\b|"
                        r"\bwhere (does|did) (the |its )?time go\b|\bidle\b|"
                        # "top kernels on the DGX-2": a ranking of the kernels a trace records
                        r"\b(top|longest|slowest|heaviest|hottest|most expensive)( \d+| ten| five)? kernels\b", re.I)
# places inside a trace that a tagger may take for a system's name: "rank1", "stream 7"
_TRACE_PLACE = re.compile(r"^(rank|stream|tid|pid|thread|device|gpu) ?\d+$", re.I)
# "what runs on stream 17": a CUDA stream of the traces
_STREAM_SAID = re.compile(r"\bstreams? \d+\b", re.I)
# a rank of a trace with a kind of its events: "memset time rank 0", "top ops on rank1 by cpu time"
_RANK_EVENT = re.compile(r"(?=.*\brank ?(\d+|zero|one|two|three|four|five|six|seven)\b)(?=.*\b(kernels?|ops?|memsets?|"
                         r"memcpys?|annotations?|streams?|cpu time|nccl|n c c l|idle|busy|utili[sz]\w*|breakdown|"
                         r"(cuda )?runtime api|api calls?)\b)", re.I)


def trace_name_in(question: str, names: dict[str, set[str]]) -> Optional[tuple[str, str]]:
    """(word, category): the longest word of the question written as an identifier (an underscore, '::' or a
    capital inside a word: "ncclDevKernel_AllReduce", "at::native::vectorized_elementwise_kernel", "ProfilerStep")
    that is part of a loaded trace event's name, and the first category of intents.trace_breakdown.TRACE_CATS
    (kernels first) that such events have; None if no word is. Plain words ("allreduce", "kernel") are left to the
    tagger: most event names contain them."""
    from app.intents.trace_breakdown import TRACE_CATS
    found = []
    for w in re.findall(r"[A-Za-z_][\w:.<>]*\w", question):
        if len(w) < 5 or not ("_" in w or "::" in w or re.search(r"[a-z][A-Z]", w)):
            continue
        low = w.lower()
        cats = {c for n, cs in names.items() if low in n.lower() for c in cs}
        cats = [c for c in TRACE_CATS if c in cats]
        if cats:
            found.append((w, cats[0]))
    return max(found, key=lambda f: len(f[0])) if found else None


# words that set two things side by side: with an unknown system as one side, no comparison can be answered
_COMPARING = re.compile(r"\b(compare[sd]?|comparison|versus|than|or|stacks? up against|next to|relative to|"
                        r"alongside)\b|"
                        # "would an MI300X node beat the H200 pair" (not a method that "beats the baseline")
                        r"\b(beats?|outperforms?|outpaces?)\b(?! (the |a |an |its )?(baselines?|references?|defaults?|"
                        r"uncompressed|original))|"
                        r"\bvs\.? (an? |the )?\w*\d|"
                        # "b200 pair allreduce as fast as h200 pair?", "does an A100 keep up with the DGX-2"
                        r"\bas (\w+ ){1,2}as\b|\b(match(es)?|keeps? up with|on (a )?par with|rivals?)\b", re.I)


# an accelerator's model number ("a100", "MI300X", "GH200", "L40S"): a name of hardware whatever slot the tagger gave
# it ("compare the h200 with an a100" tagged "a100" as a metric); known ones resolve and never reach this. A pattern,
# not nlu.pipeline's _GPU_MODEL (the closed list of models a count may be of): the names asked about are open-ended
_ACCELERATOR_MODEL = re.compile(r"(?:a|b|h|k|l|p|t|v|gb|gh|mi|rtx)\s?\d{2,4}[a-z]?", re.I)


def _set_against(span: str, question: str) -> bool:
    """"deepbench gemm times on an AMD MI250X vs the dgx-2": the unknown name stands on one side of a "vs"; "does
    the H200 pair beat an HGX B200": after what it is to beat (not "ZFP-OPT beat the baseline", a method)."""
    name = re.escape(span.strip(" -,.?"))
    return bool(name) and bool(re.search(rf"{name}\W+(vs\.?|versus|against)\b|\b(vs\.?|versus|against|beats?|"
                                         rf"outperforms?)\W+(an?\s+|the\s+)?{name}", question, re.I))


def _describes(span: str, name: str) -> bool:
    """"the xeon 6148 cluster" beside "Xeon Gold 6148 EDR InfiniBand cluster": words of the known system's name,
    not a second system."""
    said = {w for w in re.findall(r"[a-z0-9]+", span.lower()) if len(w) > 1} - {"the", "an", "cluster", "node",
                                                                                "system"}
    words = set(re.findall(r"[a-z0-9]+", name.lower()))
    if any(re.search(r"\d", w) and w not in words for w in said):
        return False   # "a DGX A100" beside the DGX-2: a model number the known name lacks names another machine
    return bool(said & words)


# machines and accelerators people ask about that no loaded document measures: named as unknown systems even when
# typed in lower case ("frontier hpl rmax", "an AMD GPU, for instance an MI300X"), where a lower-case span the tagger
# took for a system is otherwise ignored
OTHER_MACHINES = frozenset("""frontier aurora fugaku sierra perlmutter polaris lumi leonardo elcapitan selene juwels
jureca piz daint pizdaint mira sequoia tianhe sunway taihulight jupiter alps crusher tsubame abci hawk
archer archer2 cori edison stampede stampede2 frontera blue waters bluewaters titan
mi100 mi210 mi250 mi250x mi300 mi300a mi300x mi325x mi355x gaudi gaudi2 gaudi3 tpu tpus b100 b200 gb200
gh200""".split())


def _shown(name: str) -> str:
    """An unknown machine's words as the refusal quotes them: "MI300X node" for the tagger's "MI300X node 's"."""
    return re.sub(r"\s*'s$", "", name.strip(" -,.?"))


# the analysis tools our users name beside their data (../shared/research/anchors.md): a tool, not a machine
ANALYSIS_TOOLS = frozenset({"hta", "perfetto", "nsys", "nsight", "hatchet", "thicket", "inam", "osu inam",
                            "tensorboard", "vtune", "hpctoolkit", "tau", "caliper", "score-p", "scalasca", "vampir"})
# compressors the compression papers name ("ZFP compression cut alltoall latency ... on Lassen"): no machine either
COMPRESSORS = frozenset({"zfp", "zfp-opt", "mpc", "sz", "cusz", "sz3", "nvcomp", "lz4", "zstd", "fpzip"})


def system_name_words(vocab) -> frozenset[tuple[str, ...]]:
    """Every form of every known system's name as its lower-case words ("in-house cluster": in, house, cluster)."""
    return frozenset(tuple(re.findall(r"[a-z0-9]+", s.lower())) for c in vocab.canonicals("system")
                     for s in vocab.surfaces("system", c))


def _names_a_paper(span: str, words: set[str], machine_words: frozenset[str] = frozenset()) -> bool:
    """"the Hey CAI paper", "the 2019 TUM thesis": the name of a document the data was transcribed from (its words
    in the sources' paper names or collections), no machine nobody knows; "Hey CAI client": the paper's name with a
    word of its machines' names ("Client-1"), its machines said as a group."""
    ws = [w for w in re.findall(r"[a-z]+|\d+", span.lower()) if w not in _DOCUMENT_WORDS]
    paper = [w for w in ws if w in words and w.isalpha() and len(w) > 2 and w not in machine_words]
    return bool(ws) and (all(w in words for w in ws) or bool(paper) and all(w in words or w in machine_words
                                                                             for w in ws))


_DOCUMENT_WORDS = {"the", "a", "an", "paper", "papers", "thesis", "report", "study", "article", "s"}


def _part_of_a_known_system(span: str, names: frozenset[tuple[str, ...]]) -> bool:
    """"In House vs Azure": words of a known system's name, in its order, are that system said in part, not a
    machine nobody knows, however a transcript capitalised them (the speech model writes "In House" for the
    in-house cluster). A machine named as one the data lacks ("Titan" beside "Titan RTX") stays unknown."""
    ws = tuple(w for w in re.findall(r"[a-z0-9]+", span.lower()) if w != "the")
    if not ws or any(w in OTHER_MACHINES or len(w) == 1 for w in ws):
        return False          # letters said one by one ("the A one hundred d g x") are no words of a name
    n = len(ws)
    return any(name[i:i + n] == ws for name in names for i in range(len(name) - n + 1))


# a ratio of speeds asked for ("how much faster is X than Y", "how many times quicker")
_HOW_MUCH_FASTER = re.compile(r"\bhow (much|many times) (faster|quicker|better)\b|\bspeed ?up (of|over)\b", re.I)
_CONGESTION_SAID = re.compile(r"\bcongest\w*|\bcontention\b", re.I)
# the parts and mechanisms of any machine that questions write in capitals: never a machine's name
_ARCHITECTURE_TERMS = frozenset({"numa", "smp", "dram", "sram", "hbm", "hbm2", "hbm2e", "hbm3", "ddr4", "ddr5", "cpu",
                                 "cpus", "gpu", "gpus", "dma", "rdma", "mmu", "iommu", "tlb", "llc", "l1", "l2", "l3",
                                 "simd", "avx", "avx2", "avx512", "numa-node", "socket", "sockets"})


# words people spell letter by letter that name no machine: processors, and the software or memory they run with
def _looks_like_name(span: str, question: str) -> bool:
    words = [w for w in span.split() if w.lower() not in {"the", "a", "an", "our", "my", "this", "that"}]
    if not words or " ".join(w.lower() for w in words) in ANALYSIS_TOOLS | COMPRESSORS:
        return False
    if all(w.lower().strip(".,;:?!") in _ARCHITECTURE_TERMS for w in words):
        return False      # "from a GPU on one NUMA node": a part of every machine, written in capitals, no machine
    if "".join(w.lower() for w in words) in OTHER_MACHINES or any(w.lower() in OTHER_MACHINES for w in words):
        return True
    if "".join(w.lower() for w in words) in SPELLED_TERMS or in_spelled_term(span, question):
        return False      # "top twenty c p u ops", "c u d a runtime calls": a term spelled out, no machine's name
    if sum(len(w) == 1 and w.isalpha() for w in words) >= 2:
        return True       # spelled out letter by letter: "the A one hundred d g x"
    if re.search(re.escape(words[-1]) + r"\s+(preconditioners?|precondtioners?|solvers?|schemes?|methods?|algorithms?|"
                 r"variants?|kernels?|formats?|layouts?)\b", question, re.I):
        return False      # "with the RAS preconditioner": the name of a method, no machine
    # as written in the question (the tokens may have been lower-cased by the tagger's input)
    written = [m.group(0) for w in words for m in [re.search(re.escape(w), question, re.I)] if m]
    return any(any(c.isupper() or c.isdigit() for c in w) for w in written)
