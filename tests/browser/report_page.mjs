// report_page.mjs — opens a report directory's report.html in Debian's
// chromium (/usr/bin/chromium, headless, driven by puppeteer-core) and
// writes what a person would see as JSON on stdout, for
// tests/e2e/report_html.sh to check against report.json:
//   errors     console errors and uncaught exceptions
//   requests   every request the page made (URL) and the failed ones
//   charts     per figure: its <text> strings, its targets, and the tooltip
//              shown with the mouse over each target (every one on
//              epoch_time, speedup and comparison, eight elsewhere)
//   toggle     per chart with a legend: the first series' visibility
//              before, after one click and after a second click
//   sort       per sortable table and column: the cells after one click
//              on the heading and after a second
//   filter     the runs table's visible rows after typing a word
//   nojs       the same page with JavaScript off: per chart its <text>
//              and target counts, per table its row count
// Screenshots of each chart at a 1280 px wide window go to SHOTDIR.
// Usage: node report_page.mjs REPORT_DIR SHOTDIR [FILTER_WORD]
import puppeteer from "puppeteer-core";
import path from "node:path";
import { pathToFileURL } from "node:url";

// what the page shows with the mouse at (x, y): the target the browser
// finds there (a later one may lie on top) and the tooltip
function seenAt(x, y) {
  const tip = document.getElementById("tip");
  const under = document.elementFromPoint(x, y);
  return { under: under && under.classList.contains("hit") ? Object.assign({}, under.dataset) : null,
           tip: tip.style.display === "block" ? tip.textContent : null };
}

// hover(points, seenAt) runs in the page: the mouse is at the first of
// points; for each later [x, y] it moves to (0, 0) and on to (x, y) as
// chromium would move it: the element at each point is document.elementFromPoint's,
// and the events a real move fires go to it and its ancestors in their
// order: pointer events, then mouse events, each out and leave from the
// innermost of the elements left, over and enter from the outermost of
// those entered, then move.
// Returns seenAt(x, y) after each move to a later point.
function hover(points, seenSrc) {
  const seenAt = (0, eval)("(" + seenSrc + ")");
  const chain = (e) => { const a = []; for (; e; e = e.parentElement) a.push(e); return a; };
  const fire = (e, type, x, y, rel) => {
    const init = { bubbles: !/enter|leave/.test(type), cancelable: true, composed: true,
                   clientX: x, clientY: y, view: window, relatedTarget: rel };
    e.dispatchEvent(type.startsWith("pointer") ? new PointerEvent(type, Object.assign({ pointerId: 1, pointerType: "mouse", isPrimary: true }, init))
                                               : new MouseEvent(type, init));
  };
  const move = (from, to, x, y) => {
    for (const kind of ["pointer", "mouse"]) {
      if (from !== to) {
        const a = chain(from), b = chain(to);
        if (from) fire(from, kind + "out", x, y, to);
        for (const e of a.filter((e) => !b.includes(e))) fire(e, kind + "leave", x, y, to);
        if (to) fire(to, kind + "over", x, y, from);
        for (const e of b.filter((e) => !a.includes(e)).reverse()) fire(e, kind + "enter", x, y, from);
      }
      if (to) fire(to, kind + "move", x, y, null);
    }
  };
  const origin = document.elementFromPoint(0, 0);
  let at = document.elementFromPoint(points[0][0], points[0][1]);
  return points.slice(1).map(([x, y]) => {
    move(at, origin, 0, 0);
    at = document.elementFromPoint(x, y);
    move(origin, at, x, y);
    return seenAt(x, y);
  });
}

const [dir, shots, word = "fsdp"] = process.argv.slice(2);
const url = pathToFileURL(path.resolve(dir, "report.html")).href;
const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  protocolTimeout: 600000, // a loaded machine: a screenshot may take minutes
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage"],
});
const out = { errors: [], requests: [], failed: [], charts: {}, toggle: {}, sort: {}, filter: null, nojs: null };
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.on("console", (m) => { if (m.type() === "error") out.errors.push(m.text()); });
  page.on("pageerror", (e) => out.errors.push(String(e)));
  page.on("request", (r) => out.requests.push(r.url()));
  page.on("requestfailed", (r) => out.failed.push(r.url()));
  const t0 = Date.now();
  await page.goto(url, { waitUntil: "load" });
  out.load_ms = Date.now() - t0;

  for (const fig of await page.$$("figure[data-chart]")) {
    const name = await fig.evaluate((f) => f.dataset.chart);
    const info = await fig.evaluate((f) => ({
      texts: Array.from(f.querySelectorAll("svg.chart text")).map((t) => t.textContent),
      title: f.querySelector("svg.chart").getAttribute("aria-label"),
      series: f.querySelectorAll("svg.chart g.series").length,
      legend: f.querySelectorAll("svg.chart .legend-hit").length,
    }));
    // the mouse over the centre of each target: the tooltip, and the
    // target the browser finds there (a later one may lie on top)
    await fig.evaluate((f) => f.scrollIntoView({ block: "start" }));
    const centres = await fig.evaluate((f) => Array.from(f.querySelectorAll(".hit")).map((h) => {
      const r = h.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2, attrs: Object.assign({}, h.dataset) };
    }));
    // every target of the charts checked against report.json, else a sample
    const all = ["epoch_time", "speedup", "comparison"].includes(name);
    const step = all ? 1 : Math.max(1, Math.floor(centres.length / 8));
    const picked = centres.map((c, k) => (k % step ? null : k)).filter((k) => k !== null);
    centres.forEach((c, k) => { if (k % step) c.seen = null; });
    // the first with the real mouse (chromium's own input and hit
    // testing), the others in one evaluate: hover() below
    if (picked.length) {
      const c = centres[picked[0]];
      await page.mouse.move(0, 0);
      await page.mouse.move(c.x, c.y);
      c.seen = await page.evaluate(seenAt, c.x, c.y);
    }
    const seen = picked.length < 2 ? [] : await page.evaluate(hover, picked.map((k) => [centres[k].x, centres[k].y]), String(seenAt));
    picked.slice(1).forEach((k, i) => { centres[k].seen = seen[i]; });
    info.hits = centres;
    const svg = await fig.$("svg.chart");
    await svg.screenshot({ path: path.join(shots, name + ".png") });
    out.charts[name] = info;

    // the first legend entry whose series has targets
    const first = await fig.evaluate((f) => {
      for (const b of f.querySelectorAll(".legend-hit"))
        if (f.querySelector('g.series[data-s="' + b.dataset.s + '"] .hit')) return b.dataset.s;
      return null;
    });
    const legend = first === null ? null : await fig.$('.legend-hit[data-s="' + first + '"]');
    if (legend) {
      const shown = () => fig.evaluate((f, s) => {
        const g = f.querySelector('g.series[data-s="' + s + '"]');
        const hits = Array.from(g.querySelectorAll(".hit"));
        return { display: getComputedStyle(g).display, visible_hits: hits.filter((h) => h.getBoundingClientRect().width > 0).length, hits: hits.length };
      }, first);
      const before = await shown();
      await legend.click();
      const after = await shown();
      await legend.click();
      out.toggle[name] = { series: first, before, after, again: await shown() };
    }
  }

  const cells = (id, col) => page.evaluate((i, c) => Array.from(document.getElementById(i).tBodies[0].rows)
    .filter((r) => !r.hidden).map((r) => r.cells[c].textContent), id, col);
  for (const table of await page.$$("table.sortable")) {
    const id = await table.evaluate((t) => t.id);
    const heads = await table.$$("th");
    out.sort[id] = {};
    for (let c = 0; c < heads.length; c++) {
      const head = await heads[c].evaluate((h) => h.textContent);
      await heads[c].click();
      const first = await cells(id, c);
      await heads[c].click();
      out.sort[id][head] = { col: c, asc: first, desc: await cells(id, c) };
    }
  }
  const box = await page.$('input.filter[data-for="table-runs"]');
  if (box) {
    await box.type(word);
    out.filter = { word, rows: await page.evaluate(() => Array.from(document.getElementById("table-runs").tBodies[0].rows)
      .filter((r) => !r.hidden).map((r) => r.textContent)) };
  }

  // the page's screenshot while it is the front tab: behind the JS-off
  // page chromium draws it no more and the capture waited 110-210 s
  await page.screenshot({ path: path.join(shots, "page.png"), fullPage: false });
  const off = await browser.newPage();
  await off.setJavaScriptEnabled(false);
  await off.setViewport({ width: 1280, height: 900 });
  off.on("request", (r) => out.requests.push(r.url()));
  await off.goto(url, { waitUntil: "load" });
  out.nojs = await off.evaluate(() => ({
    charts: Object.fromEntries(Array.from(document.querySelectorAll("figure[data-chart]")).map((f) => [f.dataset.chart, {
      texts: f.querySelectorAll("svg.chart text").length,
      hits: f.querySelectorAll("svg.chart .hit").length,
      height: f.querySelector("svg.chart").getBoundingClientRect().height,
    }])),
    tables: Object.fromEntries(Array.from(document.querySelectorAll("table")).map((t) => [t.id, t.tBodies[0].rows.length])),
  }));
  await off.screenshot({ path: path.join(shots, "page-nojs.png"), fullPage: false });
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(out));
