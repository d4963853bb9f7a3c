"""Audio in: any container/codec PyAV (FFmpeg) reads, at any rate -> 16 kHz mono float32 in [-1, 1].

Whisper is trained on 16 kHz mono, so everything is converted here, once, and bad input is refused before a
model sees it: a clear AudioError for unreadable, empty, silent or too long audio (a question is a few seconds;
a long recording is a mistake, not a question).
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import Union

import numpy as np

SAMPLE_RATE = 16000
MAX_SECONDS = 30.0     # one Whisper window; longer input is not a question
MIN_SECONDS = 0.2
SILENCE_PEAK = 1e-3    # ~ -60 dBFS: below this nothing was said (or the microphone was muted)

AudioInput = Union[str, Path, bytes, bytearray, np.ndarray]


class AudioError(ValueError):
    """The audio cannot be used as a question; the message says why, in words a user can act on."""


def load(audio: AudioInput, *, max_seconds: float = MAX_SECONDS, name: str | None = None) -> np.ndarray:
    """16 kHz mono float32 samples of `audio` (a path, the bytes of a file, or samples already at 16 kHz)."""
    if isinstance(audio, np.ndarray):
        wav = np.asarray(audio, dtype=np.float32).reshape(-1)
        label = name or "the audio samples"
    else:
        label = name or (str(audio) if isinstance(audio, (str, Path)) else "the audio data")
        wav = _decode(audio, label, max_seconds)
    return check(wav, label, max_seconds)


def check(wav: np.ndarray, label: str = "the audio", max_seconds: float = MAX_SECONDS) -> np.ndarray:
    seconds = len(wav) / SAMPLE_RATE
    if len(wav) == 0:
        raise AudioError(f"{label} is empty: it holds no sound")
    if seconds < MIN_SECONDS:
        raise AudioError(f"{label} is too short ({seconds:.2f} s): record the whole question")
    if seconds > max_seconds:
        raise AudioError(f"{label} is too long ({seconds:.1f} s > {max_seconds:.0f} s): ask one question at a time")
    if not np.all(np.isfinite(wav)):
        raise AudioError(f"{label} contains invalid samples (NaN or infinity)")
    if float(np.max(np.abs(wav))) < SILENCE_PEAK:
        raise AudioError(f"{label} is silent: nothing was said (is the microphone muted?)")
    return wav


def _decode(audio: Union[str, Path, bytes, bytearray], label: str, max_seconds: float) -> np.ndarray:
    import av
    if isinstance(audio, (bytes, bytearray)):
        if not audio:
            raise AudioError(f"{label} is empty: it holds no sound")
        src = io.BytesIO(bytes(audio))
    else:
        p = Path(audio)
        if not p.exists():
            raise AudioError(f"{label}: no such file")
        if p.is_dir():
            raise AudioError(f"{label} is a folder, not an audio file")
        if p.stat().st_size == 0:
            raise AudioError(f"{label} is empty: it holds no sound")
        src = str(p)
    limit = int((max_seconds + 1) * SAMPLE_RATE)
    chunks: list[np.ndarray] = []
    got = 0
    try:
        with av.open(src, mode="r", metadata_errors="ignore") as container:
            if not container.streams.audio:
                raise AudioError(f"{label} has no audio stream")
            stream = container.streams.audio[0]
            resampler = av.audio.resampler.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
            for frame in container.decode(stream):
                for out in resampler.resample(frame):
                    a = out.to_ndarray().reshape(-1)
                    chunks.append(a)
                    got += len(a)
                if got > limit:                      # stop reading: it is too long anyway
                    break
            for out in resampler.resample(None):
                chunks.append(out.to_ndarray().reshape(-1))
    except AudioError:
        raise
    except (av.error.FFmpegError, ValueError, OSError, UnicodeDecodeError) as e:
        raise AudioError(f"{label} is not readable audio ({type(e).__name__}: {e})") from None
    if not chunks:
        raise AudioError(f"{label} is empty: it holds no sound")
    return (np.concatenate(chunks).astype(np.float32) / 32768.0)


def save_wav(path: Path, wav: np.ndarray, rate: int = SAMPLE_RATE) -> None:
    """16-bit PCM WAV (the format of the test fixtures and of synthesized training clips)."""
    import wave
    pcm = (np.clip(wav, -1.0, 1.0) * 32767.0).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())
