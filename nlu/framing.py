"""Frames a question is said in that name no value of it: the answer's form asked first ("yes or no: ..."), its
items numbered ("1) ... 2) ..."), a range the asker guesses the answer lies in ("..., somewhere between 300 and 350
GB/s?") and a machine pointed back at ("of Lassen and Summit, ... the former"), an item taken out ("the DGX-2 GPUs
other than GPU0"), the data made the speaker ("what does the data show for ...") and a value held fixed ("with the
GPU count fixed at 2", said plainly instead). Each is read off the words before the tagger sees them: a number in a
frame would otherwise be read as a size, a count or an endpoint, and a machine named only to be pointed past would be
compared."""
from __future__ import annotations

import re
from typing import Callable, Iterable, Optional

from nlu.cues import COMPLEMENTS
from nlu.vocab import NUMBER_WORDS

Candidates = Callable[[list[str]], Iterable[tuple[int, int, dict]]]

def _opening(words: list[str], pattern: re.Pattern) -> tuple[int, Optional[re.Match]]:
    """How many words a frame the question opens with takes (0 where it opens with none), and the match; `pattern`
    is matched against the lower-cased words joined by spaces, with a space after the last."""
    m = pattern.match(" ".join(w.lower() for w in words) + " ")
    return (len(m.group(0).split()), m) if m else (0, None)


_YES_OR_NO_FIRST = re.compile(r"^(just |only )?(a )?(yes or no|yes/no|yes-or-no)( only| please| answer)?( [:,;.-])? ")
_YES_OR_NO_LAST = re.compile(r"( [,;:-])? (just |only )?(a )?(yes or no|yes/no|yes-or-no)( only| please)?(?= [?.!]$|$)")


def without_yes_or_no(words: list[str]) -> tuple[list[str], list[str]]:
    """(the question, the form asked for): "Yes or no: is GPU0 joined to GPU3 by NVLink2?" asks what the data
    settles, a link or a value; "no" there is no negation and "or" no choice between readings."""
    n, _ = _opening(words, _YES_OR_NO_FIRST)
    if n:
        return (words[n:], words[:n]) if len(words) - n >= 3 else (words, [])
    joined = " ".join(w.lower() for w in words)
    m = _YES_OR_NO_LAST.search(joined)
    if m:
        a = len(joined[:m.start()].split())
        b = a + len(m.group(0).split())
        if a >= 3:
            return words[:a] + words[b:], words[a:b]
    return words, []


# "what unit does the database use for the p2p efficiency of ...": the unit of a stored value, which its answer gives
_UNIT_ASKED = re.compile(r"^(what|which) units? (does|do|did|is|are|will) (the )?(database|db|data|hpcask|tool|it|you|"
                         r"this|they|each|that) (\w+ )?(use|give|report|store|quote|show|express|list|record|keep)\w* "
                         r"(for|with|on) ")


def without_unit_asked(words: list[str]) -> tuple[list[str], list[str]]:
    """(the question, the frame): "What unit does the database use for the P2P efficiency of the DGX-1 P100?" asks
    for the stored value (its answer prints the unit with it); read as "what is the P2P efficiency of ...", so the
    frame's verb ("use") and its subject ("the database") are no words of the question."""
    n, _ = _opening(words, _UNIT_ASKED)
    if not n or len(words) - n < 2:
        return words, []
    return ["what", "is", *words[n:]], words[:n]


# "please double check ...", "can you verify again that ...": a request to look again at what is stored
_CHECK_REQUEST = re.compile(r"^(please |pls |(can|could|would) you (please )?)?(double[- ]?check|re-?check|check again|"
                            r"re-?verify|verify|confirm)( again| once more| for me)?( that| whether| if| what| how)?"
                            r"( [:,;-])? ")


def without_check_request(words: list[str]) -> tuple[list[str], list[str]]:
    """(the question, the request): "please double check the growth of the H200 pair's all-gather busbw with message
    size" asks the growth; "double" there is no precision and "check" no word of the measure. A question word the
    request ends with ("verify what ...", "check how ...") stays with the question."""
    n, m = _opening(words, _CHECK_REQUEST)
    if m and m.group(6) and m.group(6).strip() in ("what", "how"):
        n -= 1
    if not n or len(words) - n < 3:
        return words, []
    return words[n:], words[:n]


# "1)", "(1)", "1." at the start of an item; spoken "number one ... number two"
_DEVICE_BEFORE = {"gpu", "gpus", "ipu", "ipus", "rank", "ranks", "node", "nodes", "card", "cards", "device", "core",
                  "cores", "chip", "chips", "tile", "tiles", "socket", "board", "cpu", "u", "step", "figure", "table",
                  "listing", "section", "page", "row", "column", "version", "#"}
_SPOKEN_ORDINALS = ["one", "two", "three", "four", "five", "six"]


def _marker_at(words: list[str], i: int, n: int) -> int:
    """How many words a marker of item n takes at words[i] ("1 )", "( 1 )", "1 ." before a word), 0 if none."""
    lw = [w.lower() for w in words]
    if i + 2 < len(lw) and lw[i] == "(" and lw[i + 1] == str(n) and lw[i + 2] == ")":
        return 3
    if i + 1 < len(lw) and lw[i] == str(n) and lw[i + 1] in (")", ".") and (i == 0 or lw[i - 1] not in _DEVICE_BEFORE)\
            and i + 2 < len(lw) and re.match(r"[a-z(]", lw[i + 2]):
        return 2
    if i + 1 < len(lw) and lw[i] == "number" and lw[i + 1] == _SPOKEN_ORDINALS[n - 1] \
            and (i == 0 or lw[i - 1] not in _DEVICE_BEFORE and not lw[i - 1].endswith("gpu")):
        return 2
    return 0


def without_item_numbers(words: list[str]) -> tuple[list[str], int]:
    """(the question, how many items were numbered): "For Mini Summit, give me 1) the FP32 MaxFlops of GPU0 and 2)
    the MD5Hash throughput" numbers its items; the numbers are no size, count or GPU. Only a run numbered from one,
    two at least, in order, is a list ("GPU number one" and "1) only" are not); the last item gets an "and" where none
    joins it."""
    found: list[tuple[int, int]] = []
    i, n = 0, 1
    while i < len(words) and n <= len(_SPOKEN_ORDINALS):
        k = _marker_at(words, i, n)
        if k:
            found.append((i, k))
            i, n = i + k, n + 1
        else:
            i += 1
    if len(found) < 2:
        return words, 0
    out: list[str] = []
    starts = {a: k for a, k in found}
    last = found[-1][0]
    i = 0
    while i < len(words):
        if i in starts:
            if i == last and out and out[-1].lower() not in ("and", "or", "&"):
                if out[-1] in (",", ";"):
                    out[-1] = "and"
                else:
                    out.append("and")
            i += starts[i]
            continue
        out.append(words[i])
        i += 1
    return out, len(found)


_NUMBER_WORDS = NUMBER_WORDS | {"point", "half", "a"}
# the units a guessed answer is given in (a measure's, not a size's or a count's)
_ANSWER_UNITS = re.compile(r"^([kmgtp]?b/s|[kmgt]i?bps|gbit/s|gigabytes?|megabytes?|giga|mega|bytes?|per|second|"
                           r"seconds|[mµu]s|us|ns|micro|milli|microseconds?|milliseconds?|nanoseconds?|percent|%|"
                           r"[gtp]?flop/s|[gtp]?flops|gflop|tflop|ghash/s|hash(es)?|x|times|mhz|ghz|watts?|w|degrees|"
                           r"celsius|c|teps|gteps|s)$")
_GUESS_OPENERS = {"somewhere", "roughly", "probably", "maybe", "perhaps", "likely", "presumably"}


def _numbers_from(lw: list[str], i: int) -> int:
    """The end of the number said from lw[i] (digits, or number words: "one hundred fifty"); i if none."""
    if i < len(lw) and re.fullmatch(r"[~≈]?\d[\d,]*(\.\d+)?%?", lw[i]):
        return i + 1
    j = i
    while j < len(lw) and lw[j] in _NUMBER_WORDS and not (lw[j] == "a" and j > i):
        j += 1
    return j if j > i and lw[i] != "a" else i


def without_guessed_range(words: list[str]) -> tuple[list[str], list[str]]:
    """(the question, the range the asker guesses): "What fan speed does the GTX 980 desktop show, somewhere between
    20 and 30 percent?" asks the fan speed; "20 and 30" is no size, count or range of the data. Said with an opener
    of uncertainty ("somewhere", "roughly", "probably") before "between", the two numbers and their unit, if any."""
    lw = [w.lower() for w in words]
    for i in range(len(lw) - 4):
        if lw[i] not in _GUESS_OPENERS or lw[i + 1] != "between":
            continue
        j = _numbers_from(lw, i + 2)
        while j < len(lw) and _ANSWER_UNITS.match(lw[j]) and lw[j] != "and":
            j += 1
        if j == i + 2 or j >= len(lw) or lw[j] != "and":
            continue
        k = _numbers_from(lw, j + 1)
        if k == j + 1:
            continue
        while k < len(lw) and _ANSWER_UNITS.match(lw[k]):
            k += 1
        if k < len(lw) and lw[k] not in ("?", ".", ",", "!", ";", ")"):
            continue           # "somewhere between 1 and 4 GPUs": a range of the data, said so
        a = i - 1 if i > 0 and lw[i - 1] in (",", "-", "–", "—", ";") else i
        rest = words[:a] + words[k:]
        if len([w for w in rest if w not in ("?", ".", "!")]) >= 3:
            return rest, words[i:k]
    return words, []


_POINTERS = {"former": 0, "latter": 1}
_MACHINE_NOUNS = {"desktop", "cluster", "node", "system", "machine", "box", "server", "pair", "workstation", "testbed",
                  "supercomputer", "rig"}
_JOINERS = {"and", "or", "vs", "vs.", "versus", ",", "&", "the", "to"}
_OPENERS = {"of", "for", "between", "among", "with", "i", "'m", "am", "looking", "at", "considering", "comparing",
            "take", "given", "on", "about", "we", "have", "there", "are", "two", "machines", "systems", ":", "-", "–",
            "in", "'re", "re", "talking", "so"}
_QUESTION_START = re.compile(r"^(what|which|how|hwo|waht|whcih|who|whose|where|when|why|is|are|does|do|did|can|could|"
                             r"show|shwo|give|list|plot|draw|tell|compare|rank|print|lay|chart|get|find)$")


def pointed_back(words: list[str], candidates: Candidates) -> tuple[list[str], str]:
    """(the question, the machine pointed at): "Of Lassen and Summit, who operates the former?" asks about Lassen; the
    other machine is named only to be pointed past. Two machines named side by side before one "former" or "latter"
    (not both: "the latter's ... against the former's" compares them); the pair said first, ended by a mark or by
    the question's first word, is left out; otherwise the machine pointed past and its joiner."""
    lw = [w.lower() for w in words]
    pointers = [i for i, w in enumerate(lw) if w in _POINTERS]
    if len(pointers) != 1:
        return words, ""
    k = pointers[0]
    spans: list[tuple[int, int]] = []
    for a, b, found in sorted(candidates(words[:k]), key=lambda c: (c[0], -(c[1] - c[0]))):
        if "system" in found and (not spans or a >= spans[-1][1]):
            while b < k and lw[b] in _MACHINE_NOUNS:
                b += 1          # "the g t x nine eighty desktop": the name read, then what the machine is
            spans.append((a, b))
    pair = next(((s1, s2) for s1, s2 in zip(spans, spans[1:])
                 if all(w in _JOINERS for w in lw[s1[1]:s2[0]])
                 and any(w in ("and", "or", "vs", "vs.", "versus", "&", ",") for w in lw[s1[1]:s2[0]])), None)
    if pair is None:
        return words, ""
    (a1, b1), (a2, b2) = pair
    chosen = words[a1:b1] if _POINTERS[lw[k]] == 0 else words[a2:b2]
    if chosen and chosen[0].lower() == "the":
        chosen = chosen[1:]
    # the pointer ("the former", "former", "the latter 's") replaced by the machine's words
    replaced = [*words[:k], *chosen, *words[k + 1:]]
    lead_free = all(w in _OPENERS for w in lw[:a1])
    after = b2
    while after < k and lw[after] in (",", ":", "-", "–", "—", ";"):
        after += 1
    if lead_free and (after > b2 or after < k and _QUESTION_START.match(lw[after])):
        question = replaced[after:]        # "Of Yme and Mini Summit, what ... the latter ...": the pair said first
    else:
        drop_a, drop_b = (b1, b2) if _POINTERS[lw[k]] == 0 else (a1, a2)
        question = replaced[:drop_a] + replaced[drop_b:]
    if len([w for w in question if w not in ("?", ".")]) < 3:
        return words, ""
    return question, " ".join(chosen)


# "except (for)", "other than", "apart from", "besides": what follows is taken out of what is asked about (the
# system reader's `_EXCLUDING` is made of these and three words it reads only before a machine)
EXCLUSION_MARKERS = (("except", "for"), ("except",), ("excluding",), ("other", "than"), ("apart", "from"),
                      ("aside", "from"), ("besides",), ("not", "counting"), ("leaving", "out"))
# words between the marker and the item it takes out ("except for sizes under 4 KiB", "other than the ...")
_BEFORE_ITEM = {"the", "a", "an", "those", "any", "for", "sizes", "size", "messages", "message", "transfers", "copies",
                "under", "below", "above", "over", "smaller", "larger", "bigger", "than", "of", "at", "with", "on"}
# a plain noun the item may end with ("except for single-GPU runs", "besides p2p-disabled runs", "nccl kernels")
_AFTER_ITEM = {"runs", "run", "results", "rows", "numbers", "data", "measurements", "mode", "ones", "one", "kernels",
               "kernel", "traffic", "sizes", "cases", "case", "values", "settings", "tests", "copies", "transfers",
               "messages", "pairs", "links", "link", "gpus", "gpu", "bytes", "calls", "time", "setting"}


# a setting with one other side: "other than in-place" asks the out-of-place rows (nlu.cues.COMPLEMENTS), so it stays
_TWO_SIDED = set(COMPLEMENTS) | set(COMPLEMENTS.values())


def without_excluded(words: list[str], candidates: Candidates) -> tuple[list[str], list[str]]:
    """(the question, the words of the item taken out): "What FP64 MaxFlops do the DGX-2 GPUs other than GPU0 reach?"
    asks about the other GPUs, so GPU0 is no endpoint of it; "dgx2 qtc time over gpu counts except 2 gpus" asks the
    curve, with no count of 2. The item is what the vocabulary reads right after the marker (past a few words like
    "the" or "sizes under"), with the plain nouns after it ("runs", "kernels"); a machine taken out is left in, where
    the system reader sets it aside (`excluded_systems`: "which systems apart from the DGX-2 ..."), and so is a setting
    with one other side, which the reader turns over ("other than in-place": out-of-place). The answer is not
    narrowed by the exclusion: it covers the item too, said so in its notes."""
    lw = [w.lower() for w in words]
    cands: Optional[list] = None     # the vocabulary's readings, looked up once and only where a marker is said
    for m in range(len(lw)):
        marker = next((mk for mk in EXCLUSION_MARKERS if tuple(lw[m:m + len(mk)]) == mk), None)
        if marker is None:
            continue
        k = m + len(marker)
        while k < len(lw) and k - m < 5 and lw[k] in _BEFORE_ITEM:
            k += 1
        cands = list(candidates(words)) if cands is None else cands
        found = [(a, b, f) for a, b, f in cands if a == k]
        if not found or any("system" in f or f.get("condition") in _TWO_SIDED for _, _, f in found):
            continue
        e = max(b for _, b, _ in found)
        while e > k + 1 and not re.search(r"\w", lw[e - 1]):
            e -= 1               # "other than NVLink2 ?": the mark ends the question, not the item
        while e < len(lw) and e - m < 9:
            after = [b for a, b, f in cands if a == e and "system" not in f]
            if lw[e] in _AFTER_ITEM:
                e += 1
            elif after and re.search(r"\w", lw[e]):
                e = max(after)   # "apart from nccl all-reduce kernels": the item said in more than one name
            else:
                break
        a = m - 1 if m > 0 and lw[m - 1] in (",", "-", ";") else m
        b = e + 1 if m == 0 and e < len(lw) and lw[e] == "," else e
        rest = words[:a] + words[b:]
        if len([w for w in rest if re.search(r"\w", w)]) >= 3:
            return rest, words[m:e]
    return words, []


# "what does the data show for ...", "what do the numbers say about ...": the stored numbers asked to speak
_DATA_SAYS = re.compile(r"^(so |ok |okay )?(what|whats|what's) (do|does|did) (the |our |your |all the |these )?(data|"
                        r"numbers|measurements|results|figures|rows|stored numbers|stored data|benchmarks?) (say|show|"
                        r"tell( us| me)?|report|give|have|reveal|indicate)( for| about| on| regarding| of)? ")


def without_data_says(words: list[str], candidates: Candidates) -> tuple[list[str], list[str]]:
    """(the question, the frame): "what does the data show for dgx2 maxflops fp64 gpu0" asks the FP64 MaxFlops of
    GPU0, as "what is ..." would; the data that "shows" is no inventory of it. With nothing but machines after the
    frame ("what does the data show for the ipu system") the machine's inventory is asked, said so."""
    n, _ = _opening(words, _DATA_SAYS)
    rest = words[n:]
    if not n or len([w for w in rest if re.search(r"\w", w)]) < 2:
        return words, []
    machines = {i for a, b, f in candidates(rest) if "system" in f for i in range(a, b)}
    if machines and all(i in machines or w.lower() in ("the", "a", "an", "all", "of") or not re.search(r"\w", w)
                        for i, w in enumerate(rest)):
        return ["what", "is", "stored", "for", *rest], words[:n]
    return ["what", "is", *rest], words[:n]


# "with the GPU count fixed at 2", "keeping the message size at 1 GiB", "holding the tile count at 1216", "gpu count
# fixed at 1": one dimension held at a value while the question asks about another
_HOLDERS = {"with", "keeping", "holding", "keep", "hold", "fixing"}
_HELD_VERBS = {"fixed", "held", "kept", "constant", "pinned", "set", "locked", "frozen"}
_COUNTED = {"gpu": "gpus", "gpus": "gpus", "tile": "tiles", "tiles": "tiles", "ipu": "ipus", "ipus": "ipus",
            "node": "nodes", "nodes": "nodes", "rank": "ranks", "ranks": "ranks", "core": "cores", "cores": "cores",
            "process": "processes", "processes": "processes", "thread": "threads", "threads": "threads",
            "device": "gpus", "devices": "gpus", "card": "gpus", "cards": "gpus"}
_SIZE_NOUNS = {"size", "length"}
_SIZE_BEFORE = {"message", "msg", "buffer", "transfer", "data", "payload", "copy", "packet"}
_SIZE_UNIT = re.compile(r"^([kmgt]i?b|b|bytes?|[kmgt]|kilo|mega|giga|kibi|mebi|gibi|(kilo|mega|giga|tera|kibi|mebi|"
                        r"gibi)?bytes?)$")


def _held_dimension(lw: list[str], i: int) -> tuple[int, Optional[str]]:
    """(the end of a held dimension's name from lw[i], the plural it counts or "size"); (i, None) if none."""
    j = i + 1 if i < len(lw) and lw[i] == "the" else i
    if j + 2 < len(lw) and lw[j:j + 3] == ["g", "p", "u"] and lw[j + 3:j + 4] == ["count"]:
        return j + 4, "gpus"
    if j + 1 < len(lw) and lw[j] in _COUNTED and lw[j + 1] in ("count", "number"):
        return j + 2, _COUNTED[lw[j]]
    if j + 2 < len(lw) and lw[j:j + 2] == ["number", "of"] and lw[j + 2] in _COUNTED:
        return j + 3, _COUNTED[lw[j + 2]]
    k = j + 1 if j < len(lw) and lw[j] in _SIZE_BEFORE else j
    if k < len(lw) and lw[k] in _SIZE_NOUNS:
        return k + 1, "size"
    return i, None


def without_held_fixed(words: list[str]) -> tuple[list[str], list[str]]:
    """(the question, the held phrase): "With the GPU count fixed at 2, how does the all-to-all busbw of the H200 pair
    change with message size?" asks the sweep on 2 GPUs; "count" is no measure and "2" no size. The held value is read
    as if said plainly ("on 2 gpus", "at 64 MiB"), put at the end of the question; a setting held with no value
    ("keeping the rack fixed") is left as said."""
    # a pause the speech model writes as a comma inside the phrase ("with the GPU count, fixed at 2", "at 64, MiB")
    # is read past: the phrase is found in the words without commas, and the commas in it go with it
    keep = [k for k, w in enumerate(words) if w != ","]
    cw = [words[k] for k in keep]
    lw = [w.lower() for w in cw]
    for i in range(len(lw)):
        opener = lw[i] in _HOLDERS
        held: list[list[str]] = []
        j = i + 1 if opener else i
        while True:
            k, kind = _held_dimension(lw, j)
            if kind is None:
                break
            verb = k < len(lw) and lw[k] in _HELD_VERBS
            k += verb
            # "with" alone opens a held value only with a verb of holding ("grow with buffer size at 8 GPUs" is
            # the sweep's axis, then its count)
            if k >= len(lw) or lw[k] not in ("at", "to") or not (verb or held or (opener and lw[i] != "with")):
                break
            end = _numbers_from(lw, k + 1)
            if end == k + 1:
                break
            if kind == "size":
                unit = end
                while end < len(lw) and _SIZE_UNIT.match(lw[end]) and end < unit + 3:
                    end += 1
                if end == unit:
                    break      # a size is held at an amount of data, not at a bare number ("at 1216 tiles")
                held.append(["at", *cw[k + 1:end]])
            else:
                if end < len(lw) and _SIZE_UNIT.match(lw[end]):
                    break      # "with g p u count at one megabyte": a size said after the axis, no count
                held.append(["on", *cw[k + 1:end], kind])
            j = end
            if j < len(lw) and lw[j] == "and" and _held_dimension(lw, j + 1)[1]:
                j += 1
                continue
            break
        if not held:
            continue
        start, stop = keep[i], keep[j - 1] + 1
        if stop < len(words) and words[stop] == ",":
            stop += 1
        cut = start - 1 if start > 0 and words[start - 1] == "," else start
        rest = words[:cut] + words[stop:]
        tail = len(rest)
        while tail and rest[tail - 1] in ("?", ".", "!"):
            tail -= 1
        return rest[:tail] + [w for h in held for w in h] + rest[tail:], words[start:stop]
    return words, []


_TAKE = {"take", "takes", "took", "taking"}


def without_dummy_it(words: list[str]) -> list[str]:
    """"How long does it take GPU15 of the DGX-2 to copy 1 MiB to the host", "time it takes yme to copy host to
    gpu1": the one who takes the time is said after "it takes"; put first ("how long does GPU15 of the DGX-2 take to
    copy ..."), it is read as the sender of the copy and the measure as a time. With nobody after "take" ("how long
    does it take to ship a DGX-2") the words are left as said."""
    lw = [w.lower() for w in words]
    for i in range(1, len(lw) - 3):
        if lw[i] != "it" or lw[i + 1] not in _TAKE or lw[i - 1] not in ("does", "did", "will", "would", "can",
                                                                           "time", "long", "that", "much"):
            continue
        to = next((k for k in range(i + 2, min(len(lw), i + 14)) if lw[k] == "to"), None)
        if to is None or to == i + 2 or any(w in ("?", ".", ",", ";") for w in lw[i + 2:to]):
            continue
        return words[:i] + words[i + 2:to] + [words[i + 1]] + words[to:]
    return words


# the plural nouns a partitive picks one item out of, with the singular each is read as
_PICKED_FROM = {"pairs": "pair", "sizes": "size", "libraries": "library", "gpus": "gpu", "ipus": "ipu",
                "links": "link", "benchmarks": "benchmark", "kernels": "kernel", "counts": "count", "runs": "run",
                "tools": "tool", "applications": "application", "apps": "app", "ranks": "rank", "boards": "board",
                "collectives": "collective", "operations": "operation", "modes": "mode", "tiles": "tile",
                "nodes": "node", "cards": "card", "codes": "code", "models": "model", "networks": "network"}


# verbs in the plural, after which a partitive picks several items
_MANY_PICKED = {"are", "do", "have", "were", "give", "show", "reach", "take", "get", "run", "use", "hold", "carry",
                "share", "suffer", "dominate", "join", "connect", "see", "need", "spend", "hit", "lead"}


def without_partitive(words: list[str]) -> list[str]:
    """"Which of the GPU pairs on Yme gives the peak ...", "which of the message sizes ...": one item picked out of a
    set, said as "which GPU pair", the question every earlier reading answers (the one item at the extreme). The set
    is a plural noun at most four words after "which of the"; "which of the two" (machines named before), a
    partitive with no such noun and several items picked ("which of the links ... are") are left as said."""
    lw = [w.lower() for w in words]
    for i in range(len(lw) - 3):
        if lw[i] not in ("which", "whcih", "whihc") or lw[i + 1:i + 3] != ["of", "the"]:
            continue
        noun = next((k for k in range(i + 3, min(len(lw), i + 8)) if lw[k] in _PICKED_FROM), None)
        if noun is None or any(not w.isalnum() and w not in ("-", "_") or w in ("two", "three", "four", "and", "or")
                               for w in lw[i + 3:noun]):
            continue
        if any(w in _MANY_PICKED for w in lw[noun + 1:noun + 12]):
            continue    # "which of the links at GPU0 are NVLink2": several picked, not one
        single = _PICKED_FROM[lw[noun]]
        said = single.upper() if words[noun].isupper() else single
        return words[:i + 1] + words[i + 3:noun] + [said] + words[noun + 1:]
    return words


_OPEN_LIST_END = (("and", "so", "on"), ("and", "so", "forth"), ("et", "cetera"), ("etc", "."), ("etc",), ("etc.",))
_LIST_COUNTED = {"gpu": "gpu", "gpus": "gpu", "ipu": "ipu", "ipus": "ipu", "tile": "tile", "tiles": "tile",
                 "node": "node", "nodes": "node", "rank": "rank", "ranks": "rank", "core": "core", "cores": "core"}


def without_open_list(words: list[str]) -> list[str]:
    """"busbw at 1 MiB, 2 MiB, 4 MiB etc on 2 GPUs", "2 gpus 3 gpus and so on": values listed and left open ask for
    the whole run of them, the curve over message sizes or over counts; said as "across message sizes" / "across gpu
    counts", the listed values are no size or count of the question. A list of fewer than two numbers is left as
    said."""
    lw = [w.lower() for w in words]
    for end in range(1, len(lw)):
        marker = next((m for m in _OPEN_LIST_END if tuple(lw[end:end + len(m)]) == m), None)
        if marker is None:
            continue
        start = end
        while start > 0 and (lw[start - 1] in (",", "and") or lw[start - 1] in _LIST_COUNTED
                             or _SIZE_UNIT.match(lw[start - 1]) or re.fullmatch(r"\d+(\.\d+)?", lw[start - 1])
                             or lw[start - 1] in NUMBER_WORDS):
            start -= 1
        listed = lw[start:end]
        numbers = [w for w in listed if re.fullmatch(r"\d+(\.\d+)?", w) or w in NUMBER_WORDS]
        if len(numbers) < 2:
            continue
        counted = [_LIST_COUNTED[w] for w in listed if w in _LIST_COUNTED]
        sized = any(_SIZE_UNIT.match(w) for w in listed)
        if sized == bool(counted):
            continue           # neither or both: no one axis said
        axis = ["message", "sizes"] if sized else [counted[0], "counts"]
        if start and lw[start - 1] in ("at", "on", "for", "with", "of", "from"):
            start -= 1
        return words[:start] + ["across", *axis] + words[end + len(marker):]
    return words
