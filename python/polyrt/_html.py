"""HTML for Jupyter: a batch's preview table and the _repr_html_ of
Program and Batch. Self-contained markup (no script, no network); text is
escaped, None is shown distinctly, long text is cut."""

from __future__ import annotations

import html

_MAX_CELL = 60  # characters shown of a long text cell


def _cell(value) -> str:
    if value is None:
        return '<td style="color:#888"><i>None</i></td>'
    if isinstance(value, (bytes, bytearray)):
        value = value.hex()
    text = str(value)
    if len(text) > _MAX_CELL:
        text = text[: _MAX_CELL - 1] + "…"
    align = "right" if isinstance(value, (int, float)) and not isinstance(value, bool) else "left"
    return f'<td style="text-align:{align}">{html.escape(text)}</td>'


def table(names, types, rows, caption: str) -> str:
    """An HTML table: a header of names with their types, one row per tuple."""
    head = "".join(
        f"<th>{html.escape(n)}<br><small>{html.escape(t)}</small></th>" for n, t in zip(names, types)
    )
    body = "".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in rows)
    return (
        f"<table><caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def definition(title: str, fields) -> str:
    """A small definition list: the title, then name: value lines."""
    items = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
                    for k, v in fields)
    return f"<table><caption>{html.escape(title)}</caption>{items}</table>"


class Preview:
    """The first rows of a batch: a text table in a terminal (repr), an HTML
    table in Jupyter (_repr_html_)."""

    def __init__(self, names, types, rows, start: int):
        self.names, self.types, self.rows, self.start = list(names), list(types), rows, start

    def _repr_html_(self) -> str:
        return table(self.names, self.types, self.rows, f"{len(self.rows)} rows from {self.start}")

    def __repr__(self) -> str:
        cells = [[("None" if v is None else str(v)) for v in row] for row in self.rows]
        widths = [
            max([len(n), len(t)] + [min(len(r[c]), _MAX_CELL) for r in cells])
            for c, (n, t) in enumerate(zip(self.names, self.types))
        ]

        def line(values):
            return " | ".join(
                (v if len(v) <= _MAX_CELL else v[: _MAX_CELL - 1] + "…").ljust(w) for v, w in zip(values, widths)
            )

        rule = "-+-".join("-" * w for w in widths)
        out = [line(self.names), line(self.types), rule] + [line(r) for r in cells]
        return "\n".join(out) + f"\n{len(self.rows)} rows from {self.start}"
