"""polyrt stats against numpy over the same evaluated columns: counts,
min, max and the quantiles exactly (numpy's method="lower" order
statistics), mean and deviation within summation error, histograms,
distinct counts and top values exactly, a documented share analytically."""
import collections
import json
import os
import re

import numpy as np
import pytest

import polyrt
from conftest import run_cli

ROWS = 300_000
FIRST = 12_345


def stats_of(cli, path, *args):
    return json.loads(run_cli(cli, "stats", str(path), "--cycles", f"{FIRST}..{FIRST + ROWS}", "--json", *args))


def test_numeric_columns_match_numpy(polyrt_cli, examples):
    path = examples / "users.polydat"
    report = stats_of(polyrt_cli, path, "--outputs", "age,score,signup_ms,seed")
    assert report["count"] == ROWS and report["first"] == FIRST and report["passes"] >= 3
    columns = polyrt.compile(path).batch(["age", "score", "signup_ms", "seed"]).evaluate(FIRST, FIRST + ROWS)
    for entry in report["columns"]:
        values = columns[entry["name"]]
        n = entry["numeric"]
        assert n["finite"] == ROWS and n["nan"] == 0 and entry["nones"] == 0
        assert n["min"] == values.min() and n["max"] == values.max()
        for p in (1, 5, 25, 50, 75, 95, 99):
            assert n["quantiles"][f"p{p}"] == np.quantile(values, p / 100, method="lower"), (entry["name"], p)
        as_float = values.astype(np.float64)
        assert n["mean"] == pytest.approx(as_float.mean(), rel=1e-12)
        assert n["stddev"] == pytest.approx(as_float.std(), rel=1e-9)
        assert sum(n["histogram"]) == ROWS
        edges = n["histogram_edges"]
        assert len(edges) == len(n["histogram"]) + 1 and edges[0] == pytest.approx(float(values.min()))
        if entry["type"] == "f64":
            expected, numpy_edges = np.histogram(values, bins=40, range=(values.min(), values.max()))
            assert n["histogram"] == expected.tolist()
            assert edges == pytest.approx(numpy_edges.tolist(), rel=1e-12)
        elif values.max() < 2**53:  # integer bins [edges[b], edges[b + 1]), exact as doubles
            expected, _ = np.histogram(values, bins=np.array(edges))
            assert n["histogram"] == expected.tolist() and edges[-1] <= values.max() + 1 + (edges[1] - edges[0])


def test_text_and_bool_columns(polyrt_cli, tmp_path):
    path = tmp_path / "t.polydat"
    path.write_text(
        "input cycle\n"
        "extern on: bool\n"
        "coin := unfair_coin(cycle, 0.15)\n"
        "flag := on\n"
        "city := one_of(hash(cycle), \"oslo\", \"lima\", \"pune\", \"kyiv\", \"\")\n"
        "id := \"u\" + format_u64(mod(hash(cycle), 50000))\n"
    )
    report = stats_of(polyrt_cli, path, "--set", "on=true")
    by_name = {c["name"]: c for c in report["columns"]}
    columns = polyrt.compile(path).batch(externs={"on": True}).evaluate(FIRST, FIRST + ROWS)
    assert by_name["flag"]["trues"] == ROWS and by_name["flag"]["true_share"] == 1
    coin = by_name["coin"]["numeric"]  # unfair_coin gives u64 0/1
    assert coin["mean"] == pytest.approx(columns["coin"].mean(), rel=1e-12)
    assert coin["mean"] == pytest.approx(0.15, abs=0.005)  # the documented share
    for name in ("city", "id"):
        text = by_name[name]["text"]
        counts = collections.Counter(columns[name].tolist())
        assert text["distinct"] == len(counts) and text["distinct_exact"]
        lengths = [len(v.encode()) for v in columns[name]]
        assert (text["min_length"], text["max_length"]) == (min(lengths), max(lengths))
        # Under the exact bound: the whole top 10, exact counts, ties in order of first appearance.
        assert top_of(text) == most_frequent(columns[name].tolist(), 0)
        assert text["top_share_bound"] == 0


def most_frequent(values, above):
    """The 10 values of more than `above` occurrences, by count and then first appearance."""
    counts = collections.Counter(values)
    first = {}
    for i, v in enumerate(values):
        first.setdefault(v, i)
    frequent = sorted((v for v, c in counts.items() if c > above), key=lambda v: (-counts[v], first[v]))
    return [(v, counts[v]) for v in frequent[:10]]


def top_of(text):
    return [(t["value"], t["count"]) for t in text["top"]]


def test_text_past_the_exact_bound(polyrt_cli, tmp_path):
    # Over a million distinct values: a HyperLogLog estimate, and the values
    # of more than 1/1024 of the rows listed with exact counts (12, 3, none).
    path = tmp_path / "h.polydat"
    path.write_text(
        "input cycle\n"
        "v := mod(hash(cycle), 100)\n"
        'many := select_str(v < 12, "hot" + format_u64(v), format_u64(hash(cycle + 1)))\n'
        'few := select_str(v < 3, "hot" + format_u64(v), format_u64(hash(cycle + 2)))\n'
        "unique := format_u64(hash(cycle + 3))\n"
    )
    rows = 1_500_000
    names = ["many", "few", "unique"]
    report = json.loads(run_cli(polyrt_cli, "stats", str(path), "--cycles", f"0..{rows}", "--json", "--outputs", ",".join(names)))
    columns = polyrt.compile(path).batch(names).evaluate(0, rows)
    for entry in report["columns"]:
        values = columns[entry["name"]].tolist()
        text = entry["text"]
        distinct = len(set(values))
        assert not text["distinct_exact"] and distinct > 1_000_000
        assert abs(text["distinct"] - distinct) <= 5 * text["distinct_standard_error"] * distinct
        expected = most_frequent(values, rows // 1024)
        assert top_of(text) == expected and len(expected) == {"many": 10, "few": 3, "unique": 0}[entry["name"]]
        assert text["top_share_bound"] == (0 if len(expected) == 10 else 1 / 1024)
    # A column of distinct values needs no second pass: no value can be frequent.
    assert report["pass_log"][1] == {"purpose": "histograms and top counts", "columns": ["many", "few"]}


def test_special_floats_and_bad_ranges(polyrt_cli, tmp_path):
    path = tmp_path / "f.polydat"
    # cycle % 5: 0 and 1 give -inf, 2 gives 0, 3 and 4 +inf; y is NaN where x is infinite
    path.write_text("input cycle\nx := ((cycle % 5) as f64 - 2.0) * 1e308 * 10.0\ny := x - x\n")
    report = stats_of(polyrt_cli, path)
    x, y = (c["numeric"] for c in report["columns"])
    assert x["positive_infinity"] == ROWS * 2 // 5 and x["negative_infinity"] == ROWS * 2 // 5
    assert x["finite"] == ROWS // 5 and x["quantiles"]["p50"] == 0 and x["min"] == 0
    assert y["nan"] == ROWS * 4 // 5 and y["finite"] == ROWS // 5
    empty = json.loads(run_cli(polyrt_cli, "stats", str(path), "--cycles", "5..5", "--json"))
    assert empty["count"] == 0 and empty["columns"][0]["numeric"]["min"] is None


def test_batch_stats_is_the_commands_report(polyrt_cli, examples):
    path = examples / "users.polydat"
    batch = polyrt.compile(path).batch(["age", "region"])
    report = batch.stats(FIRST, FIRST + 50_000)
    command = json.loads(
        run_cli(polyrt_cli, "stats", str(path), "--cycles", f"{FIRST}..{FIRST + 50_000}", "--json", "--outputs", "age,region")
    )
    assert report == command
    with pytest.raises(polyrt.WriteError):
        batch.stats(10, 5)


def test_html_report_is_self_contained_and_never_partial(polyrt_cli, examples, tmp_path):
    import html.parser
    import subprocess

    report = tmp_path / "users.html"
    run_cli(polyrt_cli, "stats", str(examples / "users.polydat"), "--cycles", "0..20000", "--html", str(report))

    class Parser(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags = collections.Counter()

        def handle_starttag(self, tag, attrs):
            self.tags[tag] += 1

    page = report.read_text()
    parser = Parser()
    parser.feed(page)
    columns = polyrt.compile(examples / "users.polydat").outputs
    # A section per column, a linear and a log chart per numeric one, the
    # program text at the end; nothing fetched: one inline script (the view switch).
    numeric = [name for name, kind in columns.items() if kind not in ("str", "bool")]
    assert parser.tags["section"] == len(columns) and parser.tags["svg"] == 2 * len(numeric)
    assert parser.tags["script"] == 1 and "<script src" not in page
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "label      := &quot;user-&quot;" in page and page.rstrip().endswith("</html>")
    for bad in (tmp_path / "missing" / "r.html", "/dev/full"):
        result = subprocess.run(
            [polyrt_cli, "stats", str(examples / "users.polydat"), "--cycles", "0..10", "--html", str(bad)],
            capture_output=True, text=True,
        )
        assert result.returncode != 0 and "--html" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["users.html"]  # no temporary left


# Columns a report must render whole: nulls, NaN and infinities only, one
# value, a million distinct values, very long values, a skewed amount, times.
HOSTILE_REPORT = """
input cycle
extern missing: str
all_none    := missing
special     := ((cycle % 3) as f64 - 1.0) * 1e308 * 10.0
constant    := 7
distinct    := "id-{cycle}"
long        := "w" + zero_pad_u64(cycle % 3, 4000) + zero_pad_u64(cycle, 1000)
amount      := sample_lognormal(unit_interval(hash(cycle)), 3.0, 1.2)
placed_at   := (1704067200000 + hash(cycle + 1) % 31536000000) as timestamp
maybe       := null_if(cycle % 10 == 0, cycle % 2 == 0)
"""


def render(report, shot):
    """The page in headless Chromium (Debian's package, driven by Playwright):
    what it measured of the page, with the console's errors."""
    import shutil

    from conftest import BUILD

    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        message = "no chromium: the set-up installs Debian's chromium package"
        if "POLYRT_BUILD_DIR" in os.environ:
            pytest.fail(message)
        pytest.skip(message)
    artifacts = BUILD / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(report.as_uri())
        page.screenshot(path=str(artifacts / shot), full_page=True)
        measured = page.evaluate("""() => {
          const shown = (e) => e.getBoundingClientRect().width > 0;
          const views = [...document.querySelectorAll('.views')].map((v) => ({
            column: v.closest('section').id,
            shown: [...v.querySelectorAll('svg')].filter(shown).map((s) => s.dataset.scale),
            ticks: v.querySelectorAll('svg .tick').length,
            grid: v.querySelectorAll('svg .grid').length,
          }));
          const bars = [...document.querySelectorAll('table.shares tr')].slice(1).filter((r) =>
            r.querySelector('.fill')).map((r) => ({
            fill: r.querySelector('.fill').getBoundingClientRect().width,
            track: r.querySelector('.track').getBoundingClientRect().width,
            share: parseFloat(r.querySelector('td.num').textContent),
          }));
          const clipped = [...document.querySelectorAll('.label, td, th')].filter((e) =>
            e.scrollWidth > e.clientWidth + 1).length;
          return {views, bars, clipped,
                  overflow: document.documentElement.scrollWidth - window.innerWidth,
                  overview: [...document.querySelectorAll('table.overview tr')].slice(1).map((r) =>
                    [...r.children].map((c) => c.textContent))};
        }""")
        switched = None
        if measured["views"]:
            first = page.locator(".views").first
            other = "log" if measured["views"][0]["shown"] == ["linear"] else "linear"
            first.locator(f"button[data-scale={other}]").click()
            switched = first.evaluate(
                "v => [...v.querySelectorAll('svg')].filter((s) => s.getBoundingClientRect().width > 0)"
                ".map((s) => s.dataset.scale)")
            switched = (other, switched)
        browser.close()
    return measured, errors, switched


def test_html_report_renders_in_chromium(polyrt_cli, examples, tmp_path):
    """The report a colleague reads: an overview table first, every chart
    with ticks and gridlines and a working linear/log switch (a skewed
    column opens on the log view), bars as wide as their share of 0-100 %,
    counts with thousands separators, times as dates, nothing clipped, no
    console error. The screenshots are kept in build/test-artifacts."""
    report = tmp_path / "orders.html"
    run_cli(polyrt_cli, "stats", str(examples / "orders.polydat"), "--cycles", "0..200000", "--html", str(report))
    measured, errors, switched = render(report, "stats_report.png")
    assert not errors, errors
    columns = list(polyrt.compile(examples / "orders.polydat").outputs)
    assert [row[0] for row in measured["overview"]] == columns
    rows = {row[0]: row for row in measured["overview"]}
    assert all(row[2] == "200,000" for row in measured["overview"])
    assert re.fullmatch(r"2\d{3}-\d\d-\d\dT.*", rows["placed_at"][5])  # a timestamp as a date
    assert rows["email"][3].endswith("%)")  # nulls with their share
    for view in measured["views"]:
        assert len(view["shown"]) == 1 and view["ticks"] >= 8 and view["grid"] >= 3, view
    views = {v["column"]: v["shown"][0] for v in measured["views"]}
    assert views["column-amount"] == "log" and views["column-order_id"] == "linear"
    other, shown = switched
    assert shown == [other]
    assert measured["bars"]
    for bar in measured["bars"]:
        assert bar["fill"] == pytest.approx(bar["track"] * bar["share"] / 100, abs=1.5), bar
    assert measured["clipped"] == 0 and measured["overflow"] <= 0


def test_hostile_columns_render_whole(polyrt_cli, tmp_path):
    program = tmp_path / "hostile.polydat"
    program.write_text(HOSTILE_REPORT)
    for name, cycles in (("empty", "5..5"), ("million", "0..1000000")):
        report = tmp_path / f"{name}.html"
        run_cli(polyrt_cli, "stats", str(program), "--cycles", cycles, "--html", str(report))
        measured, errors, _ = render(report, f"stats_report_{name}.png")
        assert not errors, errors
        assert len(measured["overview"]) == 8
        assert measured["clipped"] == 0 and measured["overflow"] <= 0, (name, measured)
    by_name = {row[0]: row for row in measured["overview"]}
    assert by_name["all_none"][3] == "1,000,000 (100.00%)"
    assert by_name["distinct"][4] == "1,000,000" and by_name["constant"][5] == "7"
    assert "…" in by_name["long"][5] or "…" in by_name["long"][6] or by_name["long"][5] == "—"


def test_batch_stats_as_frames(examples):
    batch = polyrt.compile(examples / "users.polydat").batch(["age", "score", "region"])
    report = batch.stats(0, 20_000)
    pandas_frame = batch.stats(0, 20_000, frame="pandas")
    polars_frame = batch.stats(0, 20_000, frame="polars")
    assert list(pandas_frame["name"]) == ["age", "score", "region"] == polars_frame["name"].to_list()
    age = report["columns"][0]["numeric"]
    assert pandas_frame.loc[0, "p50"] == age["quantiles"]["p50"] and polars_frame["max"][0] == age["max"]
    assert pandas_frame.loc[2, "distinct"] == report["columns"][2]["text"]["distinct"]
    with pytest.raises(ValueError):
        batch.stats(0, 10, frame="excel")
