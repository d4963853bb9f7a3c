"""Every question the UI offers as an example is answered by the real model and database, with the kind of answer
its card names and a picture where that kind has one."""
import pytest

from app.charts import figure
from app.ui.examples import EXAMPLES

KIND_INTENT = {"Topology": "topology", "Two topologies": "topology", "Path": "topology", "Congestion": "congestion",
               "Scaling": "scaling", "Size sweep": "size_sweep", "Pair matrix": "pair_matrix",
               "Comparison": "compare_systems", "Link efficiency": "link_efficiency", "Trace": "trace_breakdown",
               "Lookup": "metric_lookup", "Inventory": "list_data"}


@pytest.mark.parametrize("kind,question", EXAMPLES)
def test_each_example_is_answered_as_its_card_says(asker, kind, question):
    res = asker.ask(question)
    assert res.intent == KIND_INTENT[kind], res.answer
    assert res.rows and not res.error
    if kind != "Inventory":
        assert figure(res) is not None
    if kind == "Two topologies":
        assert len(res.chart["parts"]) == 2
