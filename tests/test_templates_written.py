"""The independently written templates: read strictly, and every one of them usable by the generator."""
import random

import pytest

from nlu import generate as G
from nlu.templates import TEMPLATES, read_written, templates


def test_a_placeholder_the_intent_cannot_fill_is_an_error(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text("# intent: topology\nhow is {src} wired to {dst} on {system}\nthe {metric} of {system}\n")
    with pytest.raises(ValueError, match=r"t.txt:3: topology cannot fill \['metric'\]"):
        read_written(f)
    f.write_text("# intent: weather\nis it raining\n")
    with pytest.raises(ValueError, match="unknown intent 'weather'"):
        read_written(f)
    f.write_text("a template with no header\n")
    with pytest.raises(ValueError, match="before any '# intent:' header"):
        read_written(f)


def test_every_intent_gains_written_templates_kept_apart_from_the_sessions_own():
    written = read_written()
    assert set(written) == set(TEMPLATES)
    everything, own = templates(written=True), templates()
    for intent, ts in written.items():
        assert len(ts) >= 30, intent
        assert own[intent] == TEMPLATES[intent]
        assert len(everything[intent]) == len(own[intent]) + len([t for t in ts if t not in own[intent]])


def test_every_written_template_renders_against_the_real_database(built_con):
    fr = G.Frames(built_con)
    dead = []
    for intent, ts in read_written().items():
        for t in ts:
            names = set(G.PLACEHOLDER.findall(t))
            for k in range(200):
                r = random.Random(f"{intent}:{t}:{k}")
                values = G._frame(intent, names, fr, r)
                if values is not None and G.render(t, values, r, "typed") is not None:
                    break
            else:
                dead.append((intent, t))
    assert not dead


def test_the_question_model_trains_on_the_sessions_templates_only():
    # measured in session 16: the written templates made the question model worse (MODEL_CARD.md)
    assert G.TEMPLATES is TEMPLATES and templates() == TEMPLATES   # the generator's default pool
    written = {t for ts in read_written().values() for t in ts}
    assert not written <= {t for ts in TEMPLATES.values() for t in ts}
