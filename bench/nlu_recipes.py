"""Training-recipe study for the question model: many trainings on a GPU node, each scored here through the
whole reader, the planners and the database.

Why: one CPU training takes about 7 minutes here, and two draws of the same recipe differ by a few points,
as much as most single changes to the generator or the recipe. On a GPU node one training takes ~20 s, so a
change is judged on several data draws and seeds instead of one.

Three steps; the middle one runs on the GPU machine, which has torch and transformers but neither duckdb
nor spaCy, and receives at most 64 MiB (hence the encoder ships trimmed to the word pieces in use):

  1. here: `.venv/bin/python bench/nlu_recipes.py prep --draws 13,14,15`
     writes var/recipes/ship: training draws of the generator (one per seed), the exact words the reader
     hands the model for every question of both evaluation sets, and the base encoder
  2. GPU:  `python3 bench/nlu_recipes.py train base.13=draw:13 base.14=draw:14 e5.13=draw:13,epochs:5 ...`
     (run with `carry: var/recipes`); trains each recipe with nlu.train and writes the model's outputs on
     the evaluation words to $OUT/recipes*.npz
  3. here: `.venv/bin/python bench/nlu_recipes.py score DIR [DIR ...] [--write]`
     replays those outputs through the real reader (nlu.pipeline, with the model call answered from the
     file), planners and database: the same scores as `hpcask eval`, per training and per recipe (mean and
     spread over its trainings); --write replaces the "nlu-recipes" section of bench/RESULTS.md

Recipe keys: draw (generator seed), mix (a second draw added), n (only the first n questions of each
draw; the generator shuffles), seed (training seed), epochs, lr, bs, ls (label smoothing), ema (weight-average decay, 0 = off), read (the read sets shipped by `prep --read-sets`: "all", or "no-NAME" for all but one, held out); defaults are models/nlu/train_config.json. A recipe's name is GROUP.K: scores are
averaged per GROUP.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SHIP = REPO / "var" / "recipes" / "ship"
SETS = ("questions", "holdout")
MAX_WORDS = 64


# ---------------------------------------------------------------- step 1 (here)
def prep(draws: list[str], n_per_intent: int, examples: Optional[Path] = None, speech: int = 0,
         set_names: tuple[str, ...] = SETS, read_sets: tuple[str, ...] = ()) -> None:
    """examples: extra labelled questions (e.g. ASR transcripts from asr.nlu_examples) shipped as draw "x".
    speech: also score the first N evaluation questions as the installed speech model hears them (the cached
    evaluation audio of bench/asr.py, unseen voices), as a third set "speech". set_names: the sets scored.
    read_sets: hand-written sets whose misses have been read, shipped as intent-only training draws "r.NAME"
    (the reader's words and the intent meant; no slot tags, so the tag loss skips them; recipe key `read`)."""
    import duckdb
    import torch
    from app import catalog as catalog_mod
    from app.ask import default_model_dir
    from app.paths import default_db
    from nlu import generate, surface
    from nlu.evaluate import load_named
    from nlu.model import base_encoder_dir
    from nlu.pipeline import NLU
    from nlu.train import label_space
    from transformers import AutoModel, AutoTokenizer
    SHIP.mkdir(parents=True, exist_ok=True)
    dbp = Path(default_db())
    con = duckdb.connect(str(dbp), read_only=True)
    surface.use_extra_vocabulary(None, db=dbp)
    data = {}
    from nlu.templates import templates
    for d in draws:   # "13": the generator as it is; "w13": with nlu/templates_written.txt as well
        seed, written = int(d.lstrip("w")), d.startswith("w")
        data[d] = [[e.tokens, e.tags, e.intent] for e in generate.generate(
            con, n_per_intent, seed=seed, templates=templates(written=True) if written else None)]
        print(f"draw {d}: {len(data[d])} questions")
    if examples:
        from nlu.retrain import extra_examples
        data["x"] = [[e.tokens, e.tags, e.intent] for e in extra_examples(examples)]
        print(f"draw x: {len(data['x'])} questions from {examples}")
    sets: dict[str, list[dict]] = {name: load_named(name) for name in set_names}
    if speech:
        from asr.speech_eval import eval_audio
        from asr.transcribe import Transcriber
        tr = Transcriber("finetuned")
        heard = []
        for c in eval_audio(sets["questions"][:speech]):
            heard.append({**c.item, "text": tr.transcribe(c.audio).text, "written": c.item["text"]})
        sets["speech"] = heard
    # the words understand() gives the model, recorded from the real reader (spelling repair included)
    nlu = NLU(default_model_dir(), catalog=catalog_mod.load(con))
    seen: list[list[str]] = []
    real = nlu._infer
    nlu._infer = lambda words: (seen.append(list(words)), real(words))[1]
    for name in read_sets:
        rows = []
        for it in load_named(name):
            seen.clear()
            nlu.understand(it["text"])
            if seen:
                rows.append([seen[0], [], it["intent"]])
        data[f"r.{name}"] = rows
        print(f"draw r.{name}: {len(rows)} questions, intent only")
    evals = {}
    for name, items in sets.items():
        rows = []
        for it in items:
            seen.clear()
            nlu.understand(it["text"])
            rows.append([it["text"], seen[0] if seen else [], it["intent"]])
        evals[name] = rows
    (SHIP / "sets.json").write_text(json.dumps(sets))
    commit = subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty"], capture_output=True,
                            text=True).stdout.strip()
    json.dump({"draws": data, "evals": evals, "labels": label_space(), "commit": commit,
               "n_per_intent": n_per_intent}, gzip.open(SHIP / "data.json.gz", "wt"))
    enc_dir = base_encoder_dir()
    tok = AutoTokenizer.from_pretrained(str(enc_dir), local_files_only=True)
    enc = AutoModel.from_pretrained(str(enc_dir), local_files_only=True)
    ids: set[int] = set()
    words = [r[0] for d in data.values() for r in d] + [r[1] for e in evals.values() for r in e if r[1]]
    for b in range(0, len(words), 512):
        for row in tok(words[b:b + 512], is_split_into_words=True)["input_ids"]:
            ids.update(row)
    ids.update(tok.all_special_ids)
    order = sorted(ids)
    sd = enc.state_dict()
    table = sd.pop("embeddings.word_embeddings.weight")
    sd = {k: v.half() for k, v in sd.items()}
    sd["__rows"], sd["__ids"], sd["__vocab"] = table[order].half(), torch.tensor(order), torch.tensor(table.shape[0])
    torch.save(sd, SHIP / "encoder_trim.pt")
    enc.config.save_pretrained(str(SHIP / "encoder"))
    tok.save_pretrained(str(SHIP / "encoder"))
    print(f"wrote {SHIP} ({len(order)} of {table.shape[0]} word pieces in use; commit {commit})")


# ---------------------------------------------------------------- step 2 (GPU node)
def _full_encoder(tmp: Path) -> Path:
    """The trimmed encoder back as a Hugging Face directory (unused word pieces are zero: never looked up)."""
    import shutil
    import torch
    from transformers import AutoConfig, AutoModel
    out = tmp / "encoder"
    shutil.copytree(SHIP / "encoder", out, dirs_exist_ok=True)
    cfg = AutoConfig.from_pretrained(str(out))
    enc = AutoModel.from_config(cfg)
    sd0 = torch.load(SHIP / "encoder_trim.pt")
    sd = {k: v.float() for k, v in sd0.items() if not k.startswith("__")}
    table = torch.zeros(int(sd0["__vocab"]), cfg.hidden_size)
    table[sd0["__ids"]] = sd0["__rows"].float()
    sd["embeddings.word_embeddings.weight"] = table
    missing, _ = enc.load_state_dict(sd, strict=False)
    if [m for m in missing if "position_ids" not in m]:
        raise SystemExit(f"encoder weights missing: {missing}")
    enc.save_pretrained(str(out))
    return out


def parse_recipe(spec: str, defaults: dict) -> tuple[str, dict]:
    name, _, rest = spec.partition("=")
    r = {"draw": None, "mix": None, "seed": defaults["seed"], "epochs": defaults["epochs"], "lr": defaults["lr"],
         "bs": defaults["batch_size"], "ls": 0.0, "n": 0, "ema": 0.0, "read": None}
    for kv in filter(None, rest.split(",")):
        k, _, v = kv.partition(":")
        if k not in r:
            raise SystemExit(f"unknown recipe key {k!r} in {spec!r} (keys: {', '.join(r)})")
        r[k] = float(v) if k in ("lr", "ls", "ema") else v if k in ("draw", "mix", "read") else int(v)
    return name, r


def train_all(specs: list[str], out: Path) -> None:
    import tempfile
    import numpy as np
    import torch
    from nlu import model as M
    from nlu.generate import Example
    from nlu.train import train
    D = json.load(gzip.open(SHIP / "data.json.gz", "rt"))
    labels = D["labels"]
    defaults = json.loads((REPO / "models" / "nlu" / "train_config.json").read_text())
    device = "cuda" if torch.cuda.is_available() else "cpu"
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())
    enc_dir = _full_encoder(tmp)
    bundle: dict[str, np.ndarray] = {}
    k = 0
    for spec in specs:
        name, r = parse_recipe(spec, defaults)
        draws = [r["draw"] or next(iter(D["draws"]))] + ([r["mix"]] if r["mix"] else [])
        if r["read"]:   # "all": every shipped read set; "no-NAME": all but that one (it is then held out)
            draws += [d for d in D["draws"] if d.startswith("r.") and d != f"r.{r['read'][3:]}"]
        examples = [Example(text=" ".join(t), tokens=t, tags=g, intent=i)
                    for d in draws for t, g, i in D["draws"][d][:r["n"] or None]]
        rep = train(examples, tmp / name, epochs=r["epochs"], batch_size=r["bs"], lr=r["lr"], seed=r["seed"],
                    max_len=defaults["max_len"], device=device, encoder_dir=enc_dir, label_smoothing=r["ls"],
                    ema=r["ema"])
        model, tok, _ = M.load(tmp / name)
        model.to(device)
        line = {"name": name, **r, "device": torch.cuda.get_device_name() if device == "cuda" else "cpu",
                "train_s": round(rep.seconds, 1), "dev_intent": round(rep.dev_intent_acc, 4),
                "dev_tag": round(rep.dev_tag_acc, 4)}
        with torch.no_grad():
            for s, rows in D["evals"].items():
                ip = np.zeros((len(rows), len(labels["intents"])), np.float16)
                tp = np.zeros((len(rows), MAX_WORDS, len(labels["tags"])), np.float16)
                for j, (_, words, _) in enumerate(rows):
                    if not words:
                        continue
                    enc, firsts = M.encode_words(tok, [words])
                    li, ls = model(enc["input_ids"].to(device), enc["attention_mask"].to(device))
                    ip[j] = torch.softmax(li[0].float(), -1).cpu().numpy()
                    probs = torch.softmax(ls[0][firsts[0]].float(), -1).cpu().numpy()[:MAX_WORDS]
                    tp[j, :len(probs)] = probs
                bundle[f"{name}|{s}|intent"], bundle[f"{name}|{s}|tags"] = ip, tp
        bundle[f"{name}|meta"] = np.frombuffer(json.dumps(line).encode(), dtype=np.uint8)
        print(json.dumps(line), flush=True)
        if len(bundle) >= (2 * len(D["evals"]) + 1) * 6:   # ~6 trainings a file keeps each under the 16 MiB a returned file may have
            np.savez_compressed(out / f"recipes{k}.npz", **bundle)
            bundle, k = {}, k + 1
    if bundle:
        np.savez_compressed(out / f"recipes{k}.npz", **bundle)


# ---------------------------------------------------------------- step 3 (here)
def ensembles(Z: dict, groups: list[str]) -> None:
    """Add a pseudo-training "ensGROUP.1" per group: the mean of the group's trainings' intent and tag
    probabilities, what averaging those models at inference would hand the reader."""
    import numpy as np
    for g in groups:
        members = sorted({k.split("|")[0] for k in Z if k.split("|")[0].split(".")[0] == g})
        if not members:
            raise SystemExit(f"no trainings of group {g!r} to average")
        name = f"ens{g}.1"
        for key in [k for k in Z if k.startswith(members[0] + "|") and not k.endswith("|meta")]:
            part = key[len(members[0]):]
            Z[name + part] = np.mean([Z[m + part].astype(np.float32) for m in members], 0).astype(np.float16)
        meta = json.loads(bytes(Z[members[0] + "|meta"]).decode())
        meta.update(name=name, members=members, train_s=sum(json.loads(bytes(Z[m + "|meta"]).decode())["train_s"]
                                                            for m in members))
        Z[name + "|meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)


def score(result_dirs: list[Path], names: list[str], ensemble: Optional[list[str]] = None) -> list[dict]:
    import glob
    import numpy as np
    from app.ask import Asker
    from nlu.evaluate import evaluate
    D = json.load(gzip.open(SHIP / "data.json.gz", "rt"))
    labels = D["labels"]
    Z: dict[str, np.ndarray] = {}
    for f in sorted(f for d in result_dirs for f in glob.glob(str(d / "recipes*.npz"))):
        with np.load(f) as z:
            Z.update({k: z[k] for k in z.files})
    ensembles(Z, ensemble or [])
    trained = sorted({k.split("|")[0] for k in Z}, key=lambda n: (n.split(".")[0], n))
    asker = Asker(cached_queries=0)
    if asker.nlu.labels != labels:
        raise SystemExit("the installed model's label space differs from the study's: re-run prep")
    out = []
    for name in [n for n in trained if not names or n in names]:
        table = {}
        sets = json.loads((SHIP / "sets.json").read_text())
        for s in D["evals"]:
            ip, tp = Z[f"{name}|{s}|intent"], Z[f"{name}|{s}|tags"]
            for j, (_, words, _) in enumerate(D["evals"][s]):
                if words:
                    p = ip[j].astype(float)
                    t = tp[j, :len(words)].astype(float)
                    table[tuple(words)] = (labels["intents"][int(p.argmax())], float(p.max()),
                                           [labels["tags"][i] for i in t.argmax(-1).tolist()], t.tolist(), p.tolist())
        missing: list[list[str]] = []

        def answer_from_file(words, table=table, missing=missing):
            if tuple(words) not in table:   # the reader changed since prep: count it, answer "no idea"
                missing.append(words)
                n = len(labels["intents"])
                return "out_of_scope", 0.0, ["O"] * len(words), [[1.0] + [0.0] * (len(labels["tags"]) - 1)] * len(words), [1 / n] * n
            return table[tuple(words)]
        asker.nlu._infer = answer_from_file
        row = {"name": name, "meta": json.loads(bytes(Z[f"{name}|meta"]).decode())}
        for s in D["evals"]:
            rep = evaluate(asker.ask, sets[s])
            row[s] = {"intent": rep.intent_acc, "understood": rep.understood_acc, "slot_f1": rep.slot_f1,
                      "answers": rep.answer_acc or 0.0}
        row["missing"] = len(missing)
        print(json.dumps(row), flush=True)
        out.append(row)
    return out


def table(rows: list[dict]) -> str:
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(r["name"].split(".")[0], []).append(r)
    present = [s for s in rows[0] if isinstance(rows[0][s], dict) and "intent" in rows[0][s]]
    keys = [(s, m) for s in present for m in ("intent", "understood", "slot_f1", "answers")]
    head = "| recipe | trainings | " + " | ".join(f"{'' if s == 'questions' else s + ' '}{m}" for s, m in keys) + \
        " | GPU s / training |"
    lines = [head, "| --- | ---: |" + " ---: |" * (len(keys) + 1)]
    for g, rs in groups.items():
        cells = []
        for s, m in keys:
            v = [r[s][m] * (1 if m == "slot_f1" else 100) for r in rs]
            sd = f" ± {statistics.stdev(v):.{3 if m == 'slot_f1' else 1}f}" if len(v) > 1 else ""
            cells.append(f"{statistics.mean(v):.{4 if m == 'slot_f1' else 2}f}{sd}")
        secs = statistics.mean(r["meta"]["train_s"] for r in rs)
        lines.append(f"| {g} | {len(rs)} | " + " | ".join(cells) + f" | {secs:.0f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    p = sub.add_parser("prep", help="here: training draws, evaluation words and the encoder for the GPU node")
    p.add_argument("--draws", default="13,14,15",
                   help="generator seeds, comma-separated; wN: seed N with nlu/templates_written.txt too")
    p.add_argument("--per-intent", type=int, default=None, help="questions per intent (default: train_config)")
    p.add_argument("--examples", type=Path, help="extra labelled questions, shipped as draw x (recipe key mix:x)")
    p.add_argument("--sets", default=",".join(SETS), help="evaluation sets scored, comma-separated")
    p.add_argument("--read-sets", default="", help="read sets shipped as intent-only training draws r.NAME")
    p.add_argument("--speech", type=int, default=0, metavar="N",
                   help="also a set of the first N evaluation questions as the speech model hears them")
    t = sub.add_parser("train", help="GPU node: train each recipe, write model outputs to $OUT")
    t.add_argument("recipes", nargs="+", metavar="GROUP.K=key:value,...")
    t.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "var/recipes/out")))
    c = sub.add_parser("score", help="here: replay the outputs through the reader, planners and database")
    c.add_argument("dirs", type=Path, nargs="+", metavar="DIR", help="folders with the recipes*.npz of `train`")
    c.add_argument("--ensemble", action="append", default=[], metavar="GROUP",
                   help="also score the mean of a group's trainings' outputs as ensGROUP.1 (repeatable)")
    c.add_argument("--only", default="", help="comma-separated training names")
    c.add_argument("--write", action="store_true", help="replace the nlu-recipes section of bench/RESULTS.md")
    c.add_argument("--command", default="", help="the GPU command line, for the record")
    a = ap.parse_args()
    if a.step == "prep":
        cfg = json.loads((REPO / "models" / "nlu" / "train_config.json").read_text())
        prep([x.strip() for x in a.draws.split(",")], a.per_intent or cfg["examples_per_intent"], a.examples, a.speech,
             tuple(x.strip() for x in a.sets.split(",") if x.strip()),
             tuple(x.strip() for x in a.read_sets.split(",") if x.strip()))
    elif a.step == "train":
        train_all(a.recipes, a.out)
    else:
        rows = score(a.dirs, [x for x in a.only.split(",") if x], a.ensemble)
        body = table(rows)
        print(body)
        if a.write:
            from bench.ingest import machine, replace_section
            D = json.load(gzip.open(SHIP / "data.json.gz", "rt"))
            gpu = {r["meta"].get("device", "") for r in rows}
            text = "\n".join([
                "## Question-model recipes (`bench/nlu_recipes.py`)", "",
                f"- date: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; scored on {machine()}",
                f"- trained on the lent GPU node ({', '.join(sorted(g for g in gpu if g)) or 'one H100'}): "
                f"`python3 bench/nlu_recipes.py train {a.command}`".rstrip(),
                f"- data: `prep` at {D['commit']}, {D['n_per_intent']} questions per intent per draw; "
                "scores through the real reader, planners and database (`score`), encoder in fp32 (no int8)",
                "- mean ± standard deviation over the trainings of a recipe (names GROUP.K); intent = the final "
                "answer's intent", "", body])
            replace_section(REPO / "bench" / "RESULTS.md", "nlu-recipes", text)


if __name__ == "__main__":
    main()
