"""Question sets for batch reports: a text file, a YAML/JSON file with sections, or a named preset.

A report is only as good as its list, and a list is usually written by hand, so every way it can be wrong
(not text, bad YAML, an entry with no question, a missing audio file) stops with a message that names the
file and the entry before any model is loaded or any question is asked.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import yaml

from app.paths import DATASETS

PRESETS_DIR = DATASETS / "reports"
STRUCTURED = {".yaml", ".yml", ".json"}
MAX_BYTES = 5 * 1024 * 1024   # a question list, not a data file: anything bigger was given by mistake
MAX_QUESTION_CHARS = 1000
ENTRY_KEYS = {"text", "question", "audio", "title", "id"}
TOP_KEYS = {"title", "description", "systems", "questions", "sections"}


class QuestionsError(ValueError):
    """The questions file (or preset) cannot be used; the message says where and why."""


@dataclass
class Question:
    """One entry of a report: typed text or an audio file, with the title and section it is shown under."""
    id: str
    text: Optional[str] = None
    audio: Optional[Path] = None
    title: Optional[str] = None
    section: Optional[str] = None

    @property
    def label(self) -> str:
        return self.title or self.text or (self.audio.name if self.audio else self.id)


@dataclass
class QuestionSet:
    title: Optional[str]
    questions: list[Question] = field(default_factory=list)
    source: Optional[Path] = None
    description: Optional[str] = None
    systems: list[str] = field(default_factory=list)  # system ids a preset covers (checked by the tests)

    @property
    def sections(self) -> list[str]:
        """Section names in first-seen order (None-section questions are shown under 'Questions')."""
        seen: list[str] = []
        for q in self.questions:
            s = q.section or ""
            if s not in seen:
                seen.append(s)
        return seen


def load_questions(path: Path) -> list[Question]:
    return load_question_set(path).questions


def load_question_set(path: Path) -> QuestionSet:
    """Read a .txt (one question per line, '#' comments) or a .yaml/.yml/.json question file."""
    path = Path(path)
    text = _read_text(path)
    if path.suffix.lower() in STRUCTURED:
        data = _parse_structured(path, text)
        qs = _from_structured(path, data)
    else:
        qs = _from_lines(path, text)
    if not qs.questions:
        raise QuestionsError(f"{path}: no questions in the file")
    return qs


def list_presets() -> list[str]:
    return sorted(p.stem for p in PRESETS_DIR.glob("*.yaml"))


def preset_path(name: str) -> Path:
    if name not in list_presets():  # also keeps a name like "../x" from reaching the file system
        raise QuestionsError(f"unknown preset {name!r}; available: {', '.join(list_presets()) or '(none)'}")
    return PRESETS_DIR / f"{name}.yaml"


def load_preset(name: str) -> QuestionSet:
    return load_question_set(preset_path(name))


# ---------------------------------------------------------------------------------------------- reading

def _read_text(path: Path) -> str:
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise QuestionsError(f"{path}: is a folder, not a questions file")
        if size > MAX_BYTES:
            raise QuestionsError(f"{path}: {size:,} bytes is too big for a questions file "
                                 f"(at most {MAX_BYTES:,}); is it the right file?")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise QuestionsError(f"{path}: no such file") from None
    except PermissionError:
        raise QuestionsError(f"{path}: not readable (permission denied)") from None
    except OSError as e:
        raise QuestionsError(f"{path}: cannot read: {e.strerror or e}") from None
    if b"\x00" in raw:
        raise QuestionsError(f"{path}: not a text file (it contains NUL bytes); give a .txt with one question "
                             f"per line, or a .yaml/.json question list")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise QuestionsError(f"{path}: not UTF-8 text (invalid byte 0x{raw[e.start]:02x} at offset {e.start})") from None


def _parse_structured(path: Path, text: str) -> Any:
    if path.suffix.lower() == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise QuestionsError(f"{path}: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        what = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise QuestionsError(f"{path}: invalid YAML{where}: {what}") from None


def _from_lines(path: Path, text: str) -> QuestionSet:
    qs = QuestionSet(title=None, source=path)
    for n, line in enumerate(text.splitlines(), 1):
        q = line.strip()
        if not q or q.startswith("#"):
            continue
        _check_text(q, f"{path}: line {n}")
        qs.questions.append(Question(id=f"q{len(qs.questions) + 1}", text=q))
    return qs


def _from_structured(path: Path, data: Any) -> QuestionSet:
    """Accepted shapes: a list of entries; {title, questions: [...]}; {title, sections: [{title, questions}]}."""
    if isinstance(data, list):
        data = {"questions": data}
    if not isinstance(data, dict):
        raise QuestionsError(f"{path}: expected a list of questions or a mapping with 'questions' or 'sections', "
                             f"got {type(data).__name__}")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise QuestionsError(f"{path}: unknown top-level key(s) {', '.join(sorted(map(str, unknown)))} "
                             f"(allowed: {', '.join(sorted(TOP_KEYS))})")
    for key in ("title", "description"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise QuestionsError(f"{path}: '{key}' must be text")
    systems = data.get("systems") or []
    if not isinstance(systems, list) or not all(isinstance(x, str) for x in systems):
        raise QuestionsError(f"{path}: 'systems' must be a list of system ids")
    qs = QuestionSet(title=data.get("title"), source=path, description=data.get("description"), systems=systems)
    blocks: list[tuple[Optional[str], Any, str]] = []
    if "questions" in data:
        blocks.append((None, data["questions"], "questions"))
    sections = data.get("sections", [])
    if not isinstance(sections, list):
        raise QuestionsError(f"{path}: 'sections' must be a list of {{title, questions}}")
    for i, sec in enumerate(sections, 1):
        if not isinstance(sec, dict) or not isinstance(sec.get("title"), str) or "questions" not in sec:
            raise QuestionsError(f"{path}: section {i} needs a 'title' (text) and 'questions' (a list)")
        extra = set(sec) - {"title", "questions", "description"}
        if extra:
            raise QuestionsError(f"{path}: section {i} ({sec['title']!r}): unknown key(s) "
                                 f"{', '.join(sorted(map(str, extra)))}")
        blocks.append((sec["title"], sec["questions"], f"section {i} ({sec['title']!r})"))
    for section, entries, where in blocks:
        if not isinstance(entries, list):
            raise QuestionsError(f"{path}: {where}: 'questions' must be a list")
        for j, entry in enumerate(entries, 1):
            qs.questions.append(_entry(path, entry, f"{path}: {where}, question {j}", section,
                                       len(qs.questions) + 1))
    ids = [q.id for q in qs.questions]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise QuestionsError(f"{path}: duplicate question id(s): {', '.join(dup)}")
    return qs


def _entry(path: Path, entry: Any, where: str, section: Optional[str], n: int) -> Question:
    if isinstance(entry, str):
        _check_text(entry.strip(), where)
        return Question(id=f"q{n}", text=entry.strip(), section=section)
    if not isinstance(entry, dict):
        raise QuestionsError(f"{where}: expected text or a mapping with 'text' or 'audio', got {type(entry).__name__}")
    unknown = set(entry) - ENTRY_KEYS
    if unknown:
        raise QuestionsError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))} "
                             f"(allowed: {', '.join(sorted(ENTRY_KEYS))})")
    text = entry.get("text", entry.get("question"))
    audio = entry.get("audio")
    if (text is None) == (audio is None):
        raise QuestionsError(f"{where}: needs exactly one of 'text' or 'audio'")
    for key in ("title", "id"):
        if entry.get(key) is not None and not isinstance(entry[key], (str, int)):
            raise QuestionsError(f"{where}: '{key}' must be text")
    q = Question(id=str(entry.get("id") or f"q{n}"), title=_opt_str(entry.get("title")), section=section)
    if text is not None:
        if not isinstance(text, str):
            raise QuestionsError(f"{where}: 'text' must be text")
        _check_text(text.strip(), where)
        q.text = text.strip()
    else:
        if not isinstance(audio, str) or not audio.strip():
            raise QuestionsError(f"{where}: 'audio' must be a file path")
        p = Path(audio)
        q.audio = p if p.is_absolute() else (path.parent / p)  # relative to the questions file
        if not q.audio.is_file():
            raise QuestionsError(f"{where}: audio file {q.audio} does not exist")
    return q


def _check_text(q: str, where: str) -> None:
    if not q:
        raise QuestionsError(f"{where}: empty question")
    if len(q) > MAX_QUESTION_CHARS:
        raise QuestionsError(f"{where}: question of {len(q)} characters (at most {MAX_QUESTION_CHARS}); "
                             f"is this a question list?")


def _opt_str(v: Any) -> Optional[str]:
    return None if v is None else str(v)
