// report_rows.mjs — opens a report directory's report.html in Debian's
// chromium (headless, puppeteer-core) and writes as JSON on stdout what a
// person sees of its runs table and of the page's width, for
// tests/e2e/report_html_rows.sh to check against report.json:
//   rows     the runs table at load: rows in the page, rows shown, the
//            pager's text
//   print    the same printed (print media): every row
//   sort     after a click on the "run" heading and after a second: the
//            run cells shown, the pager's text and the milliseconds from
//            the click to the laid-out page (performance.now, in the page)
//   more     the run cells shown after a click on the pager's button
//   filter   the run cells shown and the pager's text after typing a word
//   narrow   at a 390 px phone viewport: the page's scroll width and
//            client width, and the elements reaching past the right edge
//            (but inside a table box or a chart, which clips its drawing)
//   narrow_tips  at 390 px, per chart the tooltip of its rightmost target
//            focused: its left and right edges, the page's scroll width
//   nojs     with JavaScript off, the runs table's rows shown
// Usage: node report_rows.mjs REPORT_DIR FILTER_WORD
import puppeteer from "puppeteer-core";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, word] = process.argv.slice(2);
const url = pathToFileURL(path.resolve(dir, "report.html")).href;
const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage"],
});
// the run cells shown (a row not hidden and laid out), the pager's text
function seen() {
  const t = document.getElementById("table-runs");
  const col = Array.from(t.tHead.rows[0].cells).findIndex((h) => h.textContent === "run");
  const pager = t.closest(".table-wrap") ? t.closest(".table-wrap").nextElementSibling : null;
  return {
    shown: Array.from(t.tBodies[0].rows).filter((r) => r.getClientRects().length > 0).map((r) => r.cells[col].textContent),
    in_page: t.tBodies[0].rows.length,
    pager: pager && pager.classList.contains("pager") && !pager.hidden ? pager.textContent : null,
  };
}
const out = {};
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(url, { waitUntil: "load", timeout: 300000 });
  out.rows = await page.evaluate(seen);
  await page.emulateMediaType("print");
  out.print = await page.evaluate(seen);
  await page.emulateMediaType("screen");
  const click = () => page.evaluate((src) => {
    const t = document.getElementById("table-runs");
    const th = Array.from(t.tHead.rows[0].cells).find((h) => h.textContent === "run");
    const a = performance.now();
    th.click();
    void document.body.offsetHeight; /* the sorted page laid out */
    return Object.assign({ ms: performance.now() - a }, (0, eval)("(" + src + ")")());
  }, seen.toString());
  out.sort = { asc: await click(), desc: await click() };
  out.more = await page.evaluate((src) => {
    const more = document.querySelector("#table-runs").closest(".table-wrap")?.nextElementSibling?.querySelector("button.more");
    if (more) more.click();
    return (0, eval)("(" + src + ")")();
  }, seen.toString());
  const box = await page.$('input.filter[data-for="table-runs"]');
  await box.type(word);
  out.filter = await page.evaluate(seen);

  await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
  await page.reload({ waitUntil: "load" });
  out.narrow = await page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    return {
      scroll_width: document.documentElement.scrollWidth, client_width: w,
      past_edge: Array.from(document.querySelectorAll("body *"))
        .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > w + 1 && !e.closest(".table-wrap") && !e.ownerSVGElement)
        .slice(0, 10).map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")),
    };
  });
  // the tooltip of each chart's rightmost target, focused at 390 px
  out.narrow_tips = await page.evaluate(() => Array.from(document.querySelectorAll("figure[data-chart]")).map((f) => {
    const hits = Array.from(f.querySelectorAll("svg.chart .hit")).filter((h) => h.getClientRects().length);
    if (!hits.length) return null;
    const h = hits.reduce((a, b) => (b.getBoundingClientRect().right > a.getBoundingClientRect().right ? b : a));
    h.focus();
    const tip = document.getElementById("tip").getBoundingClientRect();
    const r = { chart: f.dataset.chart, tip_left: tip.left, tip_right: tip.right,
      scroll_width: document.documentElement.scrollWidth, client_width: document.documentElement.clientWidth };
    h.blur();
    return r;
  }).filter(Boolean));

  const off = await browser.newPage();
  await off.setJavaScriptEnabled(false);
  await off.goto(url, { waitUntil: "load", timeout: 300000 });
  out.nojs = await off.evaluate(seen);
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(out));
