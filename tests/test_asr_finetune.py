"""Fine-tuning is reproducible (the same clips and seed give the same weights, bit for bit), and full fine-tuning
trains what it should, on the encoder states that serving computes."""
import hashlib

import numpy as np

from asr import convert, finetune
from asr.transcribe import Transcriber


def _weights_after_training(base) -> str:
    model = convert.load_hf_from_ct2(base.dir)
    rng = np.random.default_rng(0)
    clips = [finetune.Clip(text=f"what is the allreduce bus bandwidth on the dgx {i}", voice="espeak-ng:test",
                           enc=rng.standard_normal((200, 384)).astype(np.float16)) for i in range(48)]
    stats = finetune.train_decoder(model, base.tokenizer, clips, epochs=1, batch_size=16, lr=1e-4, seed=7,
                                   threads=2)
    assert stats["steps"] == 3
    return _digest(model)


def _digest(model) -> str:
    h = hashlib.sha1()
    for _name, p in sorted(model.named_parameters()):
        h.update(p.detach().numpy().tobytes())
    return h.hexdigest()


def test_two_trainings_on_two_threads_end_at_the_same_weights():
    # without deterministic kernels two threads summed some gradients in varying order: three trainings of
    # this size ended at three different weights
    import torch
    base = Transcriber("tiny.en", bias=False, window="short", correct=False)
    assert _weights_after_training(base) == _weights_after_training(base)
    assert not torch.are_deterministic_algorithms_enabled()   # the setting is restored for the caller


# ------------------------------------------------------------------------------------ full fine-tuning (default)

def test_the_short_window_encoder_is_the_served_one():
    # encode_window must compute what CTranslate2 serves for a window shorter than 30 s, or the decoder
    # learns from encoder states it never sees at serving time
    import json
    from pathlib import Path

    import torch
    audio = Path(__file__).parent / "fixtures" / "audio"
    clip = json.loads((audio / "clips.json").read_text())[0]
    base = Transcriber("tiny.en", bias=False, window="short", correct=False, compute_type="float32")
    from asr.audio import load
    mel = base.mel(load(audio / clip["file"]))
    assert mel.shape[1] < 3000                                # a short window, not Whisper's 30 s
    model = convert.load_hf_from_ct2(base.dir)
    with torch.no_grad():
        ours = finetune.encode_window(model.model.encoder, torch.from_numpy(mel[None])).numpy()
    served = np.array(base.encode(mel[None]))
    assert ours.shape == served.shape
    assert np.abs(ours - served).max() < 1e-3


def _full_training(base, precision: str, spec_augment: int = 0):
    model = convert.load_hf_from_ct2(base.dir)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    rng = np.random.default_rng(0)
    clips = [finetune.MelClip(text=f"nvlink bandwidth between gpu {i} and gpu {i + 1}", voice="espeak-ng:test",
                              mel=rng.standard_normal((80, 200)).astype(np.float16)) for i in range(16)]
    stats = finetune.train_full(model, base.tokenizer, clips, epochs=1, batch_size=8, lr=1e-4, encoder_lr=5e-5,
                                seed=7, threads=2, device="cpu", precision=precision, spec_augment=spec_augment)
    return model, before, stats


def test_full_fine_tuning_moves_encoder_and_decoder_but_not_the_embedding():
    base = Transcriber("tiny.en", bias=False, window="short", correct=False)
    model, before, stats = _full_training(base, "fp32")
    assert stats["steps"] == 2 and stats["trains"] == "encoder and decoder" and stats["precision"] == "fp32"
    moved = {n for n, p in model.named_parameters() if not torch_equal(p, before[n])}
    assert any(n.startswith("model.encoder.layers.") for n in moved)
    assert "model.encoder.conv1.weight" in moved
    assert any(".encoder_attn.k_proj" in n for n in moved)      # cross-attention now sees a changing encoder
    assert "model.decoder.embed_tokens.weight" not in moved     # tied with the output projection: frozen
    assert "model.encoder.embed_positions.weight" not in moved  # Whisper's fixed sinusoids
    assert model.proj_out.weight.data_ptr() == model.model.decoder.embed_tokens.weight.data_ptr()


def test_full_fine_tuning_is_reproducible():
    base = Transcriber("tiny.en", bias=False, window="short", correct=False)
    assert _digest(_full_training(base, "auto")[0]) == _digest(_full_training(base, "auto")[0])


def torch_equal(a, b) -> bool:
    import torch
    return bool(torch.equal(a.detach(), b.detach()))


def test_retrain_asr_decoder_only_flag_selects_the_old_recipe(capsys):
    # `hpcask retrain --asr --decoder-only` trains like sessions 7-19 (half the CPU time); without --asr it is an
    # error rather than silently retraining the question model
    from app.cli import asr_overrides, build_parser, main
    p = build_parser()
    assert asr_overrides(p.parse_args(["retrain", "--asr", "--decoder-only"])) == {"train_encoder": 0}
    assert asr_overrides(p.parse_args(["retrain", "--asr"])) is None
    assert main(["retrain", "--decoder-only"]) == 2
    assert "--decoder-only goes with --asr" in capsys.readouterr().err


def test_a_build_records_what_its_training_audio_was():
    # two builds of one recipe gave different weights (session 26): the digest of the clips and the engines'
    # versions tell a changed input from changed arithmetic
    from asr.speech_data import engine_versions
    clips = [("gpu zero", "espeak-ng:en-us", np.zeros(1600, np.float32)), ("nvlink", "flite:slt", np.ones(800, np.float32))]
    d = finetune.clips_digest(clips)
    assert d == finetune.clips_digest([(t, v, w.copy()) for t, v, w in clips]) and len(d) == 64
    louder = [clips[0], (clips[1][0], clips[1][1], clips[1][2] * 1.001)]
    assert finetune.clips_digest(louder) != d                       # one sample's value changes it
    assert finetune.clips_digest(clips[::-1]) != d                  # and the order
    v = engine_versions()
    assert v["espeak-ng"] != "missing" and v["flite"] != "missing"


def test_spec_augment_hides_bands_and_spans_the_same_way_for_a_seed():
    mel = np.random.default_rng(3).standard_normal((80, 300)).astype(np.float32)
    masked = finetune.spec_masks(mel, np.random.default_rng(5), 2)
    again = finetune.spec_masks(mel, np.random.default_rng(5), 2)
    assert np.array_equal(masked, again) and masked.shape == mel.shape
    hidden = masked != mel
    assert 0 < hidden.mean() < 0.35                                   # two bands of <= 10 channels, two short spans
    assert np.allclose(masked[hidden], mel.mean())                    # hidden parts read as the clip's mean
    assert np.array_equal(mel, np.random.default_rng(3).standard_normal((80, 300)).astype(np.float32))  # a copy
    base = Transcriber("tiny.en", bias=False, window="short", correct=False)
    plain, augmented = _full_training(base, "fp32")[0], _full_training(base, "fp32", spec_augment=2)[0]
    assert _digest(plain) != _digest(augmented)
    assert _digest(augmented) == _digest(_full_training(base, "fp32", spec_augment=2)[0])


def test_more_decoder_epochs_move_the_decoder_only_and_repeat_exactly(tmp_path):
    # session 53's stage after the full epoch: the candidate's own int8 encoder encodes each clip once, then the
    # decoder alone trains; the encoder's stored weights must come back unchanged, and two runs must agree
    import shutil

    from asr.build import more_decoder_epochs
    from asr.weights import model_dir
    src = model_dir("tiny.en")
    rng = np.random.default_rng(3)
    clips = [(f"nvlink bandwidth on the dgx {i}", "espeak-ng:test", (0.05 * rng.standard_normal(16000 * 2)).astype(
        np.float32)) for i in range(32)]
    cfg = {"decoder_epochs": 1, "batch_size": 16, "lr": 1e-4, "decoder_lr": 1e-4, "seed": 7, "threads": 2}
    digests = []
    for k in range(2):
        cand = tmp_path / f"cand{k}"
        shutil.copytree(src, cand)
        stats = more_decoder_epochs(cand, src, clips, cfg, log=lambda _m: None)
        assert stats["steps"] == 2 and stats["trains"] == "decoder"
        before, _ = convert.read_ct2(src / "model.bin")
        after, _ = convert.read_ct2(cand / "model.bin")
        enc = [k for k in before if k.startswith("encoder/")]
        dec = [k for k in before if k.startswith("decoder/layer_")]
        assert enc and all(np.array_equal(before[k], after[k]) for k in enc)
        assert any(not np.array_equal(before[k], after[k]) for k in dec)
        digests.append(hashlib.sha256((cand / "model.bin").read_bytes()).hexdigest())
    assert digests[0] == digests[1]
