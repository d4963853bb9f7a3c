"""Numbers and devices as people write them outside the tools' own notation: "1 048 576-byte messages", "~64MB",
"4e5 bytes", "cuda:0", "GPU #3", "gpu-0", "fan %".

The models and the vocabulary read "1048576", "64MB" and "GPU0"; these rewrites bring the other written forms to
those before anything reads the words, so every later step (the tagger, the size reader, the endpoint joiner) sees
one form. Each rewrite is narrow on purpose: digit groups are joined only where the whole is a size people write
that way (a power of two or a round thousand), so a list of sizes ("128 256 512") stays a list.
"""
from __future__ import annotations

import re

from nlu.vocab import NUMBER_WORDS, TEENS, UNITS

_GROUP = re.compile(r"\d{3}")
_HEAD = re.compile(r"[1-9]\d{0,2}")
_CUDA = re.compile(r"cuda:(\d{1,2})", re.I)
# a device's index said in words, as the digits it stands for ("zero" .. "fifteen": GPU0 .. GPU15 of the DGX-2)
_INDEX_WORDS = {w: str(n) for w, n in {**UNITS, **TEENS}.items() if n <= 15}
_INDEX = re.compile(r"\d{1,2}|" + "|".join(_INDEX_WORDS))
_SCIENTIFIC = re.compile(r"\d+(\.\d+)?[eE]\+?\d{1,2}")


def _round(n: int) -> bool:
    return n > 0 and (n & (n - 1) == 0 or n % 1000 == 0)


def joined_digit_groups(words: list[str]) -> list[str]:
    """"1 048 576" -> "1048576", "65 536" -> "65536": thousands separated by spaces, as SI style writes them."""
    out: list[str] = []
    i = 0
    while i < len(words):
        j = i + 1
        while _HEAD.fullmatch(words[i]) and j < len(words) and _GROUP.fullmatch(words[j]):
            j += 1
        if j > i + 1 and not (j < len(words) and words[j].isdigit()) and _round(int("".join(words[i:j]))):
            out.append("".join(words[i:j]))
            i = j
            continue
        out.append(words[i])
        i += 1
    return out


def without_hedges(words: list[str]) -> list[str]:
    """"~64MB": a tilde says "about"; the size is the one written after it."""
    out = []
    for w in words:
        if w == "~":
            continue
        out.append(w[1:] if len(w) > 1 and w.startswith("~") and w[1].isdigit() else w)
    return out


def indexed_devices(words: list[str]) -> list[str]:
    """"cuda:1" -> "GPU1", "GPU #3" -> "GPU3", "gpu - 0" -> "GPU0": a device's index written as a framework or a
    list writes it."""
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        m = _CUDA.fullmatch(w)
        if m:
            out.append(f"GPU{m.group(1)}")
            i += 1
            continue
        if w.lower() in ("gpu", "ipu") and i + 2 < len(words) and words[i + 1] in ("#", "-") \
                and re.fullmatch(r"\d{1,2}", words[i + 2]):
            out.append(f"{w.upper()}{words[i + 2]}")
            i += 3
            continue
        if w.lower() in ("number", "no", "no.", "#") and i + 1 < len(words) and _INDEX.fullmatch(words[i + 1].lower()) \
                and (out[-1:] and out[-1].lower() in ("gpu", "ipu")
                     or [x.lower() for x in out[-3:]] in (["g", "p", "u"], ["i", "p", "u"])):
            i += 1              # "g p u number three", "gpu no. 3": the index after the device's word
            continue
        out.append(w)
        i += 1
    return out


_SIZE_AFTER = re.compile(r"[kmgt]i?b|b|bytes?|[kmgt]|kilo\w*|mega\w*|giga\w*")


def paired_devices(words: list[str]) -> list[str]:
    """"GPUs 2 and 3", spoken "g p us zero and three": two devices under one plural noun are the two ends of a path,
    read as "GPU2 and GPU3"; the tagger reads a number after a plural device noun as a count. A size said after the
    second number ("gpus 1 and 2 MiB") keeps the words as they are."""
    out: list[str] = []
    i = 0
    while i < len(words):
        lw = [w.lower() for w in words[i:i + 6]]
        width = 1 if lw[:1] in (["gpus"], ["ipus"]) else 3 if lw[:3] in (["g", "p", "us"], ["i", "p", "us"]) else 0
        rest = lw[width:width + 4]
        if width and len(rest) >= 3 and _INDEX.fullmatch(rest[0]) and rest[1] == "and" and _INDEX.fullmatch(rest[2]) \
                and not (len(rest) > 3 and _SIZE_AFTER.fullmatch(rest[3])):
            kind = "GPU" if (lw[0] == "gpus" or lw[0] == "g") else "IPU"
            out += [f"{kind}{_INDEX_WORDS.get(rest[0], rest[0])}", "and", f"{kind}{_INDEX_WORDS.get(rest[2], rest[2])}"]
            i += width + 3
            continue
        out.append(words[i])
        i += 1
    return out


_BIT_WIDTHS = {"16": "fp16", "32": "fp32", "64": "fp64", "sixteen": "fp16"}
# what a width in bits also names that is no floating-point precision ("a 64-bit address", "32-bit integers")
_NOT_PRECISION = {"address", "addresses", "addressing", "os", "linux", "windows", "integer", "integers", "int", "ints",
                  "kernel", "system", "mode", "pointer", "pointers", "build", "binary", "binaries", "version", "bus"}


def bit_widths(words: list[str]) -> list[str]:
    """"64-bit MaxFlops", spoken "sixty four bit max flops": a floating-point precision named by its width in bits is
    read as the vocabulary names it (FP64); the tagger read the number as a 64-byte size. A width of something else
    ("a 64-bit address", "32-bit integers") is left as said."""
    out: list[str] = []
    i = 0
    while i < len(words):
        lw = [w.lower() for w in words[i:i + 4]]
        width, n = None, 0
        if lw[:1] and lw[0] in _BIT_WIDTHS and lw[1:3] == ["-", "bit"]:
            width, n = _BIT_WIDTHS[lw[0]], 3
        elif lw[:1] and lw[0] in _BIT_WIDTHS and lw[1:2] == ["bit"]:
            width, n = _BIT_WIDTHS[lw[0]], 2
        elif lw[:3] in (["sixty", "four", "bit"], ["thirty", "two", "bit"]):
            width, n = ("fp64" if lw[0] == "sixty" else "fp32"), 3
        elif lw[:1] and re.fullmatch(r"(16|32|64)-bit", lw[0]):
            width, n = _BIT_WIDTHS[lw[0][:2]], 1
        nxt = words[i + n].lower() if width and i + n < len(words) else ""
        if width and nxt not in _NOT_PRECISION:
            out.append(width.upper())
            i += n
            continue
        out.append(words[i])
        i += 1
    return out


def host_before_size(words: list[str]) -> list[str]:
    """"gpu15 into host 1 gib": the host end of a copy followed by the copy's size is no host numbered 1; said with
    "at" between ("host at 1 gib"), the number stays the size."""
    return [x for i, w in enumerate(words) for x in (
        [w, "at"] if w.lower() == "host" and i + 2 < len(words) and re.fullmatch(r"\d+(\.\d+)?", words[i + 1])
        and _SIZE_AFTER.fullmatch(words[i + 2].lower()) else [w])]


def dashed_ranges(words: list[str]) -> list[str]:
    """"8–128 GPUs", "64 MB—256 MB": an en or em dash between two numbers (or a number and its unit) is the hyphen
    of a range, as the tagger learnt it."""
    return ["-" if w in ("–", "—") and 0 < i < len(words) - 1 and re.search(r"\d", words[i + 1])
            and re.search(r"\d|[A-Za-z]", words[i - 1]) else w for i, w in enumerate(words)]


# nccl-tests' command-line flags (all_reduce_perf -b 8 -e 1G -g 2): the ones that say what was measured, and the
# words the tagger reads them by; the others (-c check, -n iters, -w warm-ups, -f factor ...) are settings of a run
_FLAG_WORDS = {"-g": "GPUs", "--ngpus": "GPUs", "-t": "threads", "--nthreads": "threads"}
_SIZE_FLAGS = {"-b": "from", "--minbytes": "from", "-e": "to", "--maxbytes": "to"}
_SETTING_FLAGS = {"-c", "--check", "-n", "--iters", "-w", "--warmup_iters", "-f", "--stepfactor", "-i",
                  "--stepbytes", "--agg_iters", "-a", "--average", "-p", "--parallel_init", "-z", "--blocking",
                  # the OSU micro-benchmarks' iterations and warm-ups
                  "-x", "--warmup", "--iterations"}
# the OSU micro-benchmarks' message sizes, "-m MIN:MAX" ("osu_latency -m 1:4096", "osu_bw -m 8K:1M")
_OSU_SIZES = re.compile(r"(\d+)([KMG]?):(\d+)([KMG]?)", re.I)


_SIZE_WORD = re.compile(r"\d+(\.\d+)?\s*([kmgt]i?b?|bytes?)", re.I)


def _said_size(words: list[str], i: int) -> bool:
    """A size at words[i]: "1G", "4 GB", "64 MiB", "1024 bytes"."""
    w = words[i]
    nxt = words[i + 1] if i + 1 < len(words) else ""
    return bool(_SIZE_WORD.fullmatch(w) or re.fullmatch(r"\d+(\.\d+)?", w) and _SIZE_WORD.fullmatch("1" + nxt))


def tool_flags(words: list[str]) -> list[str]:
    """"all_gather_perf -g 1 vs -g 2", "-b 8 -e 1G", "osu_bw -m 8K:1M": flags said as the tool takes them, read as
    words ("1 GPUs vs 2 GPUs", "from 8 bytes to 1 GB", "from 8 KB to 1 MB"); a setting's flag and its value ("-c 1", "-n 20") say how the run was made, not
    what to look up, and are left out. The sizes -b and -e give are the curve asked for only where the question names
    no size of its own ("... -b 8 -e 4G: what busbw did the 1G point reach" asks for one point; -b 1M -e 1M is one
    size). A flag is read only with a number after it, so "-g" alone stays a word."""
    flagged = {i + k for i, w in enumerate(words) if w.lower() in _SIZE_FLAGS for k in (1, 2)}
    own_size = any(_said_size(words, i) for i in range(len(words))
                   if i not in flagged and (i == 0 or words[i - 1].lower() not in _SIZE_FLAGS))
    bounds = [(words[i + 1] + (words[i + 2] if i + 2 < len(words) and re.fullmatch(r"[KMGkmg]B?", words[i + 2])
                               else "")).upper() for i, w in enumerate(words[:-1]) if w.lower() in _SIZE_FLAGS]
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i].lower()
        value = words[i + 1] if i + 1 < len(words) else ""
        if w in _FLAG_WORDS and re.fullmatch(r"\d+", value):
            out += [value, _FLAG_WORDS[w]]
            i += 2
            continue
        if w in _SIZE_FLAGS and re.fullmatch(r"\d+[KMGkmg]?", value):
            unit = words[i + 2] if i + 2 < len(words) and re.fullmatch(r"[KMGkmg]B?", words[i + 2]) \
                and value.isdigit() else ""
            size = value + unit.upper().rstrip("B")
            said = [size[:-1], size[-1] + "B"] if size[-1] in "KMG" else [size, "bytes"]
            i += 3 if unit else 2
            if own_size:
                continue            # the run's range; the question names the size it asks about
            if len(bounds) == 2 and bounds[0] == bounds[1]:
                if _SIZE_FLAGS[w] == "from":
                    out += ["at", *said]    # "-b 1M -e 1M": one size
                continue
            # nccl-tests' sizes: bytes, or K/M/G (binary) after the number
            out += [_SIZE_FLAGS[w], *said]
            continue
        if w in ("-m", "--message-size"):
            joined = next(((k, m) for k in range(4, 0, -1) if i + k < len(words)
                           for m in [_OSU_SIZES.fullmatch("".join(words[i + 1:i + 1 + k]))] if m), None)
            if joined:
                k, m = joined
                ends = [[m.group(1), m.group(2).upper() + "B"] if m.group(2) else [m.group(1), "bytes"],
                        [m.group(3), m.group(4).upper() + "B"] if m.group(4) else [m.group(3), "bytes"]]
                if not own_size:
                    out += ["from", *ends[0], "to", *ends[1]] if ends[0] != ends[1] else ["at", *ends[0]]
                i += 1 + k
                continue
        if w in _SETTING_FLAGS and re.fullmatch(r"\d+", value):
            i += 2
            continue
        out.append(words[i])
        i += 1
    return out


_SHIFT = re.compile(r"(\d{1,4})<<(\d{1,2})")


def shifted_sizes(words: list[str]) -> list[str]:
    """"1<<30 bytes", "1 << 22 B": a size written as a C shift, as people who write the loops write it, is the
    number it makes ("1073741824")."""
    out: list[str] = []
    i = 0
    while i < len(words):
        m = _SHIFT.fullmatch(words[i])
        if m:
            out.append(str(int(m.group(1)) << int(m.group(2))))
            i += 1
            continue
        for shift in (["<<"], ["<", "<"]):
            j = i + 1 + len(shift)
            if words[i].isdigit() and len(words[i]) <= 4 and words[i + 1:j] == shift and j < len(words) \
                    and words[j].isdigit() and len(words[j]) <= 2:
                out.append(str(int(words[i]) << int(words[j])))
                i = j + 1
                break
        else:
            out.append(words[i])
            i += 1
    return out


def written_forms(words: list[str]) -> list[str]:
    return plus_as_comma(paired_devices(indexed_devices(without_hedges(joined_digit_groups(dashed_ranges(shifted_sizes(
        host_before_size(bit_widths(paused_ranges(words))))))))))


def paused_ranges(words: list[str]) -> list[str]:
    """"scale from one, to 4 GPUs": a comma between a range's two ends is a pause the speech model wrote down
    (as it hears a breath), not two phrases; the range is read as one."""
    return [w for i, w in enumerate(words) if not (
        w == "," and 2 <= i < len(words) - 1 and words[i - 2].lower() in ("from", "between")
        and (words[i - 1].isdigit() or _INDEX.fullmatch(words[i - 1].lower()))
        and words[i + 1].lower() in ("to", "through", "till", "until", "and"))]


def plus_as_comma(words: list[str]) -> list[str]:
    """"lassen runs + sources": a plus sign standing between two words lists them, as a comma does (a "+" inside a
    name, "Speech2Text+JointBERT", is one word and stays; "and" would set two machines side by side)."""
    return [("," if w == "+" and 0 < i < len(words) - 1 and words[i - 1].isalpha() and words[i + 1].isalpha()
             else w) for i, w in enumerate(words)]


def percent_sign_said(words: list[str]) -> list[str]:
    """"gtx980 fan %": a percent sign ending the question after a word, not a number, says the measure in percent
    ("fan percent"), as the vocabulary writes such a measure; "41 %" stays a number with its unit, and "nvlink % of
    link rate" a share."""
    return [("percent" if w == "%" and i > 0 and re.fullmatch(r"[A-Za-z][\w-]*", words[i - 1])
             and words[i - 1].lower() not in ("as", "in", "a", "the", "of", "per", "what", "which")
             and (i + 1 == len(words) or re.fullmatch(r"[^\w\s]+", words[i + 1])) else w)
            for i, w in enumerate(words)]


def plain_scientific(words: list[str]) -> list[str]:
    """"4e5", "2.58e8": a whole number in scientific notation written out ("400000"), as the tools print sizes;
    a fraction ("1.5e-3") stays as it is."""
    out = []
    for w in words:
        if _SCIENTIFIC.fullmatch(w):
            v = float(w)
            if v == int(v) and v < 1e15:
                w = str(int(v))
        out.append(w)
    return out


# a number said as a collective noun: "a pair of GPUs", "a trio of cards", "a dozen", "half a dozen"
COLLECTIVE_COUNTS = {"pair": 2, "trio": 3, "dozen": 12}
# the words before a pair of devices that ran something ("on a pair of GPUs", "up to a trio of GPUs"); "between a
# pair of GPUs" and "a pair of GPUs reaches" are a pair's two ends
_RAN_ON = {"on", "with", "using", "across", "over", "from", "to", "onto", "at"}
_COUNTED = re.compile(r"(gpus|ipus|cards|nodes|devices|ranks|processes|cores|tiles|[a-z]\d{2,3}s)", re.I)


def counted_collectives(words: list[str]) -> list[str]:
    """"a pair of GPUs" -> "2 GPUs", "up to a dozen" -> "up to 12", "half a dozen nodes" -> "6 nodes": how many
    devices ran, as the count readers read a number. Only a pair or trio *of devices* that something ran on is a
    count ("which pair of GPUs", "between a pair of GPUs", "the H200 pair" stay pairs); a dozen is twelve of whatever
    follows, or of the devices counted before it."""
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i].lower()
        nxt = [x.lower() for x in words[i + 1:i + 5]]
        if w in ("a", "one") and nxt[:2] in (["pair", "of"], ["trio", "of"]) and len(nxt) > 2 \
                and i > 0 and words[i - 1].lower() in _RAN_ON and (
                _COUNTED.fullmatch(nxt[2]) or nxt[2:4] in (["g", "p"], ["i", "p"])):
            out.append(str(COLLECTIVE_COUNTS[nxt[0]]))
            i += 3
            continue
        if w == "half" and nxt[:2] == ["a", "dozen"]:
            out.append("6")
            i += 3 + (nxt[2:3] == ["of"])
            continue
        if w == "a" and nxt[:1] == ["dozen"]:
            out.append("12")
            i += 2 + (nxt[1:2] == ["of"])
            continue
        out.append(words[i])
        i += 1
    return out


_SIZED = re.compile(r"\d+(\.\d+)?\s?([kmgt]i?b|bytes?)", re.I)


def worth_of_data(words: list[str], units) -> list[str]:
    """"a kilobyte's worth of data", "sixty four megabytes worth", "a gigabyte of data": a message size said as an
    amount of data is the size ("a kilobyte", "sixty four megabytes"), which the size readers take."""
    out: list[str] = []
    i = 0
    while i < len(words):
        out.append(words[i])
        w = words[i].lower()
        if w in units or _SIZED.fullmatch(w):
            j = i + 1
            if j < len(words) and words[j] in ("'s", "’s"):
                j += 1
            worth = j < len(words) and words[j].lower() == "worth"
            j += worth
            if j + 1 < len(words) and [x.lower() for x in words[j:j + 2]] == ["of", "data"]:
                j += 2
            elif not worth:
                j = i + 1
            i = j
            continue
        i += 1
    return out


_NUMBER_PLURALS = {"ones": "one", "twos": "two", "threes": "three", "fours": "four", "fives": "five", "sixes": "six",
                   "sevens": "seven", "eights": "eight", "nines": "nine", "tens": "ten", "sixteens": "sixteen",
                   "hundreds": "hundred"}


def spelled_possessive(words: list[str]) -> list[str]:
    """"the d g x twos scope reduce bandwidth": a spelled name's possessive as the speech model writes it (no
    apostrophe on its last number word) is the name's ("d g x two 's"); "twos" after anything but spelled letters
    stays."""
    out: list[str] = []
    for i, w in enumerate(words):
        base = _NUMBER_PLURALS.get(w.lower())
        if base and i >= 2 and all(len(x) == 1 and x.isalpha() for x in words[i - 2:i]):
            out += [base, "'s"]
        else:
            out.append(w)
    return out


# a multiple of a size or count said before it ("twice 512 MiB", "double 32 MiB", "4 times 256 MiB")
_MULTIPLIERS = {"twice": 2, "double": 2, "triple": 3, "thrice": 3, "quadruple": 4}
_TIMES = {"2": 2, "two": 2, "3": 3, "three": 3, "4": 4, "four": 4, "8": 8, "eight": 8}
_QUANTITY_AFTER = re.compile(r"([kmgt]i?b|bytes?|kilobytes?|megabytes?|gigabytes?|kibibytes?|mebibytes?|gibibytes?|"
                             r"kilobits?|megabits?|gigabits?|bits?|gpus?|ipus?|nodes?|cards?|ranks?|cores?|tiles?|"
                             r"threads?|processes|g)", re.I)


def multiplied_quantities(words: list[str], number) -> list[str]:
    """"at twice 512 MiB" -> "at 1024 MiB", "on twice 2 GPUs" -> "on 4 GPUs", "up to 4 times 256 MiB" -> "up to 1024
    MiB": the size or count meant, as the readers of sizes and counts read one number. Only a multiplier right before
    a number and its unit or counted noun ("double check", "twice as fast", "double precision" stay as said).
    `number`: the normaliser's reader of a number said in digits or words ("sixty four")."""
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i].lower()
        factor, skip = _MULTIPLIERS.get(w), 1
        if factor is None and w in _TIMES and i + 1 < len(words) and words[i + 1].lower() == "times":
            factor, skip = _TIMES[w], 2
        if factor is not None:
            j = i + skip + (1 if i + skip < len(words) and words[i + skip].lower() == "the" else 0)
            for k in range(min(len(words), j + 5), j, -1):      # the longest number said from j
                if not all(re.fullmatch(r"\d+(\.\d+)?", x) or x.lower() in NUMBER_WORDS for x in words[j:k]):
                    continue
                n = number(" ".join(words[j:k]))
                if isinstance(n, (int, float)) and n > 0 and k < len(words) and _QUANTITY_AFTER.fullmatch(words[k]):
                    value = n * factor
                    out.append(str(int(value)) if float(value).is_integer() else str(value))
                    i = k
                    break
            else:
                out.append(words[i])
                i += 1
            continue
        out.append(words[i])
        i += 1
    return out
