"""Result -> plotly figure: the one place the UI and the HTML reports get their charts from.

The chart follows the intent (../shared/design/ask-contract.md): topology -> network graph, pair_matrix ->
heatmap, size_sweep -> lines on a log2 byte axis, scaling -> value with the ideal line and parallel
efficiency, congestion -> baseline vs stressed with slowdowns, compare_systems / metric_lookup /
link_efficiency / trace_breakdown -> bars. The planner's result.chart carries hints (kind, unit, title,
nodes/edges/highlight for graphs); the rows carry the numbers. Nothing is drawn for answers that have
nothing to draw (out_of_scope, list_data tables, errors, no rows): figure() returns None.
"""
from __future__ import annotations

from typing import Callable, Optional

import plotly.graph_objects as go

from app import chart_matrix as matrix
from app import chart_plots as plots
from app.chart_panels import side_by_side
from app.chart_topology import network_figure
from app.result import Result

NO_CHART_INTENTS = {"out_of_scope", "list_data"}

def _topology(result: Result) -> Optional[go.Figure]:
    if len((result.chart or {}).get("parts") or []) > 1:   # "the topology of the DGX-1 P100 and the V100"
        names = " and ".join(p.get("system", "") for p in result.chart["parts"])
        return side_by_side(result, network_figure, f"Topology of {names}<br><sup>links coloured by type, "
                                                    "labelled with nominal GB/s per direction; hover for details</sup>")
    return network_figure(result)


def _pair_matrix(result: Result) -> Optional[go.Figure]:
    if len((result.chart or {}).get("parts") or []) > 1:
        return matrix.pair_matrices(result)
    return matrix.pair_matrix(result)


BUILDERS: dict[str, Callable[[Result], Optional[go.Figure]]] = {
    "topology": _topology,
    "pair_matrix": _pair_matrix,
    "congestion": matrix.congestion,
    "size_sweep": plots.size_sweep,
    "scaling": plots.scaling,
    "compare_systems": plots.compare_systems,
    "metric_lookup": plots.metric_lookup,
    "link_efficiency": plots.link_efficiency,
    "trace_breakdown": plots.trace_breakdown,
}


def figure(result: Result) -> Optional[go.Figure]:
    """The figure for one answer, or None when there is nothing to draw."""
    if result.error or result.intent in NO_CHART_INTENTS or not result.rows:
        return None
    if (result.chart or {}).get("kind") in (None, "none", "table"):
        return None
    build = BUILDERS.get(result.intent)
    return build(result) if build else None
