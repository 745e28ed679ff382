"""The DOM of a `trainbench report` page as Chromium's --dump-dom wrote it (after the page's
scripts ran): its charts (canvas data-chart, data-points, data-rendered), verdicts, tables by
id, the comparison's rows, and charts said to be missing. Used by check_dom.py (run pages)
and check_job_dom.py (datagen, stage, train, staged-train pages)."""
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.canvases, self.verdicts, self.comparison, self.body = {}, [], [], {}
        self.missing = []
        self.metric_rows = {}  # comparison table: metric -> [(data-value, text, class)]
        self.tables = {}  # id -> rows of cell texts
        self.figures = {}  # a job page's figure rows: key -> [data-value of each result]
        self._figure = None
        self._metric = self._table = self._cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if tag == "canvas" and "data-chart" in a:
            self.canvases[a["data-chart"]] = a
        if "data-chart-missing" in a:
            self.missing.append(a["data-chart-missing"])
        if tag == "div" and "verdict" in a.get("class", "").split():
            self.verdicts.append(a.get("data-passed"))
        if tag == "td" and "data-value" in a:
            self.comparison.append(a["data-value"])
        if tag == "tr" and "data-figure" in a:
            self._figure = a["data-figure"]
            self.figures[self._figure] = []
        if tag == "td" and self._figure and "data-value" in a:
            self.figures[self._figure].append(a["data-value"])
        if tag == "tr" and "data-metric" in a:
            self._metric = a["data-metric"]
            self.metric_rows[self._metric] = []
        if tag == "table":
            self._table = a.get("id")
            if self._table:
                self.tables[self._table] = []
        if tag == "tr" and self._table:
            self.tables[self._table].append([])
        if tag == "td":
            self._cell = [a.get("data-value"), "", a.get("class", "")]

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[1] += data

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            if self._metric and self._cell[0] is not None:
                self.metric_rows[self._metric].append(tuple(self._cell))
            if self._table:
                self.tables[self._table][-1].append(self._cell[1])
            self._cell = None
        if tag == "tr":
            self._metric = None
            self._figure = None
        if tag == "table":
            self._table = None


def close(a, b, tol=1e-6):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))
