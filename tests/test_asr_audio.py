"""Audio in: any format and rate becomes 16 kHz mono; unusable audio is refused with a reason."""
import io
import json
import wave
from pathlib import Path

import numpy as np
import pytest

from asr.audio import MAX_SECONDS, SAMPLE_RATE, AudioError, load, save_wav

AUDIO = Path(__file__).parent / "fixtures" / "audio"


def _wav_bytes(samples: np.ndarray, rate: int, channels: int = 1) -> bytes:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes((np.clip(samples, -1, 1) * 32767).astype("<i2").tobytes())
    return buf.getvalue()


def test_ogg_at_44k_stereo_becomes_16k_mono():
    wav = load(AUDIO / "nvlink_dgx1.ogg")
    assert wav.dtype == np.float32 and wav.ndim == 1
    assert 6.0 < len(wav) / SAMPLE_RATE < 8.0          # the clip is ~6.9 s whatever its rate
    assert 0.05 < np.abs(wav).max() <= 1.0


def test_rate_conversion_keeps_duration_and_pitch():
    rate = 44100
    t = np.arange(int(rate * 1.0)) / rate
    tone = 0.5 * np.sin(2 * np.pi * 440 * t)
    stereo = np.stack([tone, tone], axis=1).reshape(-1)
    wav = load(_wav_bytes(stereo, rate, channels=2))
    assert abs(len(wav) - SAMPLE_RATE) < 200
    spec = np.abs(np.fft.rfft(wav))
    assert abs(np.argmax(spec) * SAMPLE_RATE / len(wav) - 440) < 3


def test_bytes_and_path_agree(tmp_path):
    p = AUDIO / "hops_xmp64.wav"
    assert np.array_equal(load(p), load(p.read_bytes()))


def _bad(d: Path, kind: str) -> Path:
    """One kind of unusable input, written into folder `d`."""
    rng = np.random.default_rng(0)
    files = {
        "empty": ("empty.wav", b""),
        "silent": ("silent.wav", _wav_bytes(np.zeros(SAMPLE_RATE * 2), SAMPLE_RATE)),
        "long": ("long.wav", _wav_bytes(0.1 * rng.standard_normal(int(SAMPLE_RATE * (MAX_SECONDS + 5))), SAMPLE_RATE)),
        "garbage": ("noise.mp3", rng.bytes(5000)),
        "json": ("q.json", json.dumps({"text": "hi"}).encode()),
        "tick": ("tick.wav", _wav_bytes(np.ones(100) * 0.5, SAMPLE_RATE)),
    }
    if kind == "missing":
        return d / "missing.wav"
    if kind == "folder":
        return d
    name, data = files[kind]
    (d / name).write_bytes(data)
    return d / name


@pytest.mark.parametrize("kind, reason", [
    ("empty", "empty"), ("silent", "silent"), ("long", "too long"), ("garbage", "not readable audio"),
    ("json", "not readable audio"), ("missing", "no such file"), ("folder", "is a folder"), ("tick", "too short"),
])
def test_bad_audio_is_refused_with_the_reason(tmp_path, kind, reason):
    with pytest.raises(AudioError, match=reason):
        load(_bad(tmp_path, kind))


def test_empty_bytes_refused():
    with pytest.raises(AudioError, match="empty"):
        load(b"")


def test_save_wav_round_trip(tmp_path):
    x = (0.3 * np.sin(np.arange(SAMPLE_RATE) / 5)).astype(np.float32)
    save_wav(tmp_path / "x.wav", x)
    assert np.allclose(load(tmp_path / "x.wav"), x, atol=1e-4)
