// report_explore.mjs — opens a report directory's report.html in Debian's
// chromium (headless, puppeteer-core; one browser session) and writes as
// JSON on stdout what the page's exploring parts show, for
// tests/e2e/report_explore.sh (checked by tests/lib/report_explore_check.py):
//   bands   per chart with interval or prediction bands: each band target's
//           data and, for the first and last of each band (every one on
//           speedup), the tooltip with the mouse over a spot of it that no
//           other target covers (null when every spot is covered)
// Screenshots go to SHOTDIR.
// Usage: node report_explore.mjs REPORT_DIR SHOTDIR
import puppeteer from "puppeteer-core";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, shots] = process.argv.slice(2);
const url = pathToFileURL(path.resolve(dir, "report.html")).href;
const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  protocolTimeout: 600000,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage"],
});
const out = { errors: [], bands: {} };

// the tooltip with the mouse at (x, y) and the target the browser finds there
async function hover(page, x, y) {
  await page.mouse.move(0, 0);
  await page.mouse.move(x, y);
  return page.evaluate((px, py) => {
    const tip = document.getElementById("tip");
    const under = document.elementFromPoint(px, py);
    return { under: under && under.classList.contains("hit") ? Object.assign({}, under.dataset) : null,
             tip: tip.style.display === "block" ? tip.textContent : null };
  }, x, y);
}

async function bands(page) {
  for (const fig of await page.$$("figure[data-chart]")) {
    const name = await fig.evaluate((f) => f.dataset.chart);
    await fig.evaluate((f) => f.scrollIntoView({ block: "start" }));
    // a spot of each strip where it is on top (a point of another series may lie over its centre)
    const strips = await fig.evaluate((f) => Array.from(f.querySelectorAll("svg.chart .hit.band")).map((h) => {
      const r = h.getBoundingClientRect();
      let at = null;
      for (const fy of [0.5, 0.3, 0.7, 0.15, 0.85, 0.05, 0.95])
        for (const fx of [0.5, 0.25, 0.75]) {
          const x = r.left + r.width * fx, y = r.top + r.height * fy;
          if (!at && document.elementFromPoint(x, y) === h) at = { x, y };
        }
      return { x: at && at.x, y: at && at.y, attrs: Object.assign({}, h.dataset) };
    }));
    if (!strips.length) continue;
    for (let k = 0; k < strips.length; k++) {
      const s = strips[k], prev = strips[k - 1], next = strips[k + 1];
      const edge = !prev || !next || prev.attrs.s !== s.attrs.s || next.attrs.s !== s.attrs.s;
      s.seen = s.x !== null && (name === "speedup" || edge) ? await hover(page, s.x, s.y) : null;
    }
    out.bands[name] = strips;
    if (name === "speedup" || name.startsWith("limits_")) {
      const last = strips.filter((s) => s.x !== null).pop();
      await page.mouse.move(last.x, last.y);
      await page.screenshot({ path: path.join(shots, name + "-band.png"),
        clip: await fig.evaluate((f) => { const r = f.getBoundingClientRect(); return { x: r.left, y: r.top + window.scrollY, width: r.width + 260, height: r.height }; }) });
    }
  }
}

try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.on("console", (m) => { if (m.type() === "error") out.errors.push(m.text()); });
  page.on("pageerror", (e) => out.errors.push(String(e)));
  await page.goto(url, { waitUntil: "load" });
  await bands(page);
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(out));
