"""Words of another language mixed into an English question: "lassen hy-fi speedup Skalierung über die GPU-Anzahl",
"latencia del DGX-2", "la bande passante du H200".

Engineers whose first language is German, French, Spanish, Italian or Norwegian often keep the domain's key word in
their own language. The question model never saw these words, so the few that carry the intent or a measure are read
as their English counterparts before anything else reads the question (the answer's notes show it). The list is short
on purpose: only words no English question uses, and phrases matched whole, so nothing English changes.
"""
from __future__ import annotations

# (phrase in lower case, words separated by spaces) -> English; longer phrases first where they overlap
_WORDS: dict[str, str] = {
    # German
    "skalierung": "scaling", "skalierbarkeit": "scalability", "anzahl": "count", "über die": "over the",
    "bandbreite": "bandwidth", "latenz": "latency", "latenzen": "latencies", "durchsatz": "throughput",
    "leistung": "performance", "vergleich": "comparison", "vergleiche": "compare", "geschwindigkeit": "speed",
    "wie viele": "how many", "wie schnell": "how fast", "nachrichtengröße": "message size",
    # French
    "bande passante": "bandwidth", "latence": "latency", "débit": "throughput", "mise à l'échelle": "scaling",
    "passage à l'échelle": "scaling", "comparaison": "comparison", "taille de message": "message size",
    # Spanish, Italian, Portuguese
    "ancho de banda": "bandwidth", "latencia": "latency", "latenza": "latency", "latência": "latency",
    "rendimiento": "performance", "escalado": "scaling", "escalabilidad": "scalability", "larghezza di banda": "bandwidth",
    "scalabilità": "scalability", "largura de banda": "bandwidth",
    # Norwegian
    "båndbredde": "bandwidth", "forsinkelse": "latency", "skalering": "scaling", "ytelse": "performance",
}
_MAX_WORDS = max(len(k.split()) for k in _WORDS)


def in_english(words: list[str]) -> list[str]:
    """`words` with each word or phrase of another language in the list replaced by its English counterpart."""
    out: list[str] = []
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + _MAX_WORDS), i, -1):
            english = _WORDS.get(" ".join(w.lower() for w in words[i:j]))
            if english:
                out.extend(english.split())
                i = j
                break
        else:
            out.append(words[i])
            i += 1
    return out
