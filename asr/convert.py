"""CTranslate2 Whisper <-> Hugging Face `WhisperForConditionalGeneration`.

The packaged models are CTranslate2 directories (float16). Fine-tuning needs PyTorch, so `ct2_to_hf` reads
`model.bin` (CTranslate2's own binary layout: header, then named arrays) and maps every variable back to the
Transformers name it was converted from; `hf_to_ct2` uses CTranslate2's own TransformersConverter for the way
back. Where the CTranslate2 converter fused weights they are split again: encoder and decoder self-attention
q/k/v (`linear_0` = [q; k; v]) and decoder cross-attention k/v (`attention/linear_1` = [k; v]); Whisper's
k projection has no bias, so the fused k bias is zero (checked). The token embedding is tied to `proj_out`.
"""
from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path
from typing import Optional

import numpy as np

_DTYPES = {0: np.float32, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.float16}
_BF16 = 5


class ConvertError(RuntimeError):
    pass


def read_ct2(path: Path) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Variables (name -> array) and aliases of a CTranslate2 model.bin (binary version 6)."""
    buf = Path(path).read_bytes()
    o = 0

    def take(fmt: str):
        nonlocal o
        v = struct.unpack_from(fmt, buf, o)
        o += struct.calcsize(fmt)
        return v[0]

    def string() -> str:
        nonlocal o
        n = take("H")
        s = buf[o:o + n - 1].decode("utf-8")
        o += n
        return s

    version = take("I")
    if version < 5:
        raise ConvertError(f"{path}: CTranslate2 binary version {version} is not supported")
    spec = string()
    if spec != "WhisperSpec":
        raise ConvertError(f"{path} holds a {spec}, not a Whisper model")
    take("I")  # spec revision
    out: dict[str, np.ndarray] = {}
    for _ in range(take("I")):
        name = string()
        shape = [take("I") for _ in range(take("B"))]
        dt = take("B")
        nbytes = take("I")
        raw = buf[o:o + nbytes]
        o += nbytes
        if dt == _BF16:
            a = (np.frombuffer(raw, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)
        else:
            a = np.frombuffer(raw, dtype=_DTYPES[dt])
        out[name] = a.reshape(shape) if shape else a.reshape(())
    aliases = {}
    for _ in range(take("I")):
        a = string()
        aliases[a] = string()
    return out, aliases


def _layers(v: dict[str, np.ndarray], prefix: str) -> int:
    n = 0
    while f"{prefix}/layer_{n}/ffn/linear_0/weight" in v:
        n += 1
    return n


def hf_config(v: dict[str, np.ndarray], ct2_config: dict):
    from transformers import WhisperConfig
    vocab, d = v["decoder/embeddings/weight"].shape
    enc_heads, dec_heads = int(v["encoder/num_heads"]), int(v["decoder/num_heads"])
    multilingual = vocab >= 51865
    sot = 50258 if multilingual else 50257
    cfg = WhisperConfig(
        vocab_size=vocab, num_mel_bins=v["encoder/conv1/weight"].shape[1], d_model=d,
        encoder_layers=_layers(v, "encoder"), decoder_layers=_layers(v, "decoder"),
        encoder_attention_heads=enc_heads, decoder_attention_heads=dec_heads,
        encoder_ffn_dim=v["encoder/layer_0/ffn/linear_0/weight"].shape[0],
        decoder_ffn_dim=v["decoder/layer_0/ffn/linear_0/weight"].shape[0],
        max_source_positions=v["encoder/position_encodings/encodings"].shape[0],
        max_target_positions=v["decoder/position_encodings/encodings"].shape[0],
        pad_token_id=50256, bos_token_id=50256, eos_token_id=50256, decoder_start_token_id=sot,
        suppress_tokens=list(ct2_config.get("suppress_ids", [])),
        begin_suppress_tokens=list(ct2_config.get("suppress_ids_begin", [])),
        tie_word_embeddings=True, scale_embedding=False)
    return cfg


def state_dict(v: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Transformers names -> float32 arrays."""
    f = lambda k: np.asarray(v[k], dtype=np.float32)  # noqa: E731
    sd: dict[str, np.ndarray] = {}

    def lin(dst: str, src: str, bias: bool = True) -> None:
        sd[f"{dst}.weight"] = f(f"{src}/weight")
        if bias:
            sd[f"{dst}.bias"] = f(f"{src}/bias")

    def ln(dst: str, src: str) -> None:
        sd[f"{dst}.weight"], sd[f"{dst}.bias"] = f(f"{src}/gamma"), f(f"{src}/beta")

    def split_qkv(dst: str, src: str, parts: tuple[str, ...]) -> None:
        w, b = f(f"{src}/weight"), f(f"{src}/bias")
        n = w.shape[0] // len(parts)
        for i, p in enumerate(parts):
            sd[f"{dst}.{p}_proj.weight"] = w[i * n:(i + 1) * n]
            if p == "k":
                if np.abs(b[i * n:(i + 1) * n]).max() > 0:
                    raise ConvertError(f"{src}: the k bias is not zero; not a Whisper attention")
            else:
                sd[f"{dst}.{p}_proj.bias"] = b[i * n:(i + 1) * n]

    sd["model.encoder.conv1.weight"], sd["model.encoder.conv1.bias"] = f("encoder/conv1/weight"), f("encoder/conv1/bias")
    sd["model.encoder.conv2.weight"], sd["model.encoder.conv2.bias"] = f("encoder/conv2/weight"), f("encoder/conv2/bias")
    sd["model.encoder.embed_positions.weight"] = f("encoder/position_encodings/encodings")
    for i in range(_layers(v, "encoder")):
        s, d = f"encoder/layer_{i}", f"model.encoder.layers.{i}"
        ln(f"{d}.self_attn_layer_norm", f"{s}/self_attention/layer_norm")
        split_qkv(f"{d}.self_attn", f"{s}/self_attention/linear_0", ("q", "k", "v"))
        lin(f"{d}.self_attn.out_proj", f"{s}/self_attention/linear_1")
        ln(f"{d}.final_layer_norm", f"{s}/ffn/layer_norm")
        lin(f"{d}.fc1", f"{s}/ffn/linear_0")
        lin(f"{d}.fc2", f"{s}/ffn/linear_1")
    ln("model.encoder.layer_norm", "encoder/layer_norm")
    sd["model.decoder.embed_tokens.weight"] = f("decoder/embeddings/weight")
    sd["model.decoder.embed_positions.weight"] = f("decoder/position_encodings/encodings")
    for i in range(_layers(v, "decoder")):
        s, d = f"decoder/layer_{i}", f"model.decoder.layers.{i}"
        ln(f"{d}.self_attn_layer_norm", f"{s}/self_attention/layer_norm")
        split_qkv(f"{d}.self_attn", f"{s}/self_attention/linear_0", ("q", "k", "v"))
        lin(f"{d}.self_attn.out_proj", f"{s}/self_attention/linear_1")
        ln(f"{d}.encoder_attn_layer_norm", f"{s}/attention/layer_norm")
        lin(f"{d}.encoder_attn.q_proj", f"{s}/attention/linear_0")
        split_qkv(f"{d}.encoder_attn", f"{s}/attention/linear_1", ("k", "v"))
        lin(f"{d}.encoder_attn.out_proj", f"{s}/attention/linear_2")
        ln(f"{d}.final_layer_norm", f"{s}/ffn/layer_norm")
        lin(f"{d}.fc1", f"{s}/ffn/linear_0")
        lin(f"{d}.fc2", f"{s}/ffn/linear_1")
    ln("model.decoder.layer_norm", "decoder/layer_norm")
    sd["proj_out.weight"] = sd["model.decoder.embed_tokens.weight"]
    return sd


def load_hf_from_ct2(ct2_dir: Path):
    """A float32 WhisperForConditionalGeneration with the weights of a CTranslate2 Whisper directory."""
    import torch
    from transformers import GenerationConfig, WhisperForConditionalGeneration
    ct2_dir = Path(ct2_dir)
    v, _aliases = read_ct2(ct2_dir / "model.bin")
    ct2_cfg = json.loads((ct2_dir / "config.json").read_text())
    cfg = hf_config(v, ct2_cfg)
    model = WhisperForConditionalGeneration(cfg)
    sd = {k: torch.from_numpy(np.ascontiguousarray(a)) for k, a in state_dict(v).items()}
    missing, unexpected = model.load_state_dict(sd, strict=False)
    # HF's k_proj has no bias and proj_out is tied: nothing else may be missing
    if unexpected or [m for m in missing if m != "proj_out.weight"]:
        raise ConvertError(f"weights do not match the Whisper architecture: missing {missing}, unexpected {unexpected}")
    gen = GenerationConfig(decoder_start_token_id=cfg.decoder_start_token_id, eos_token_id=50256, pad_token_id=50256,
                           bos_token_id=50256, suppress_tokens=cfg.suppress_tokens,
                           begin_suppress_tokens=cfg.begin_suppress_tokens,
                           alignment_heads=[list(x) for x in ct2_cfg.get("alignment_heads", [])])
    model.generation_config = gen
    model.eval()
    return model


def save_hf(model, ct2_dir: Path, out_dir: Path) -> Path:
    """Save a Transformers checkpoint with the source's tokenizer (what TransformersConverter reads back)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir)
    shutil.copy(Path(ct2_dir) / "tokenizer.json", out_dir / "tokenizer.json")
    (out_dir / "tokenizer_config.json").write_text(json.dumps(
        {"tokenizer_class": "WhisperTokenizer", "model_max_length": 1024, "errors": "replace",
         "bos_token": "<|endoftext|>", "eos_token": "<|endoftext|>", "unk_token": "<|endoftext|>",
         "pad_token": "<|endoftext|>", "add_prefix_space": False}, indent=1))
    return out_dir


def ct2_to_hf(ct2_dir: Path, out_dir: Path) -> Path:
    return save_hf(load_hf_from_ct2(ct2_dir), ct2_dir, out_dir)


def hf_to_ct2(hf_dir: Path, out_dir: Path, source_ct2: Optional[Path] = None, quantization: str = "float16") -> Path:
    """Convert back with CTranslate2's TransformersConverter (tokenizer.json copied along). `source_ct2`: the
    model it came from; its config (alignment heads, suppressed and language token ids, which fine-tuning does
    not change) and vocabulary are kept, so the served model decodes exactly like the original."""
    import ctranslate2
    out_dir = Path(out_dir)
    if out_dir.exists():
        shutil.rmtree(out_dir)
    conv = ctranslate2.converters.TransformersConverter(str(hf_dir), copy_files=["tokenizer.json"])
    conv.convert(str(out_dir), quantization=quantization, force=True)
    if source_ct2 is not None:
        for name in ("config.json", "vocabulary.txt"):
            src = Path(source_ct2) / name
            if src.exists():
                new = out_dir / name
                if name == "vocabulary.txt" and new.exists() and new.read_text() != src.read_text():
                    raise ConvertError("the converted vocabulary differs from the source model's")
                shutil.copy(src, new)
    return out_dir
