// report_fonts.mjs — opens a report directory's report.html in Debian's
// chromium (headless, puppeteer-core) and writes as JSON on stdout, for
// tests/e2e/report_cjk.sh: every chart <text> holding Han, Hiragana or
// Katakana characters (at most 12), each with the fonts Chromium drew it
// with (DevTools CSS.getPlatformFontsForNode: family and glyph count),
// and every legend entry's full name (its <title>) beside the legend
// text drawn for it. A screenshot of the first chart with such text
// goes to SHOT.
// Usage: node report_fonts.mjs REPORT_DIR SHOT
import puppeteer from "puppeteer-core";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, shot] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage"],
});
const out = { errors: [], texts: [], legends: [] };
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.on("pageerror", (e) => out.errors.push(String(e)));
  await page.goto(pathToFileURL(path.resolve(dir, "report.html")).href, { waitUntil: "load" });
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
  const n = await page.evaluate((re) => {
    const rx = new RegExp(re, "u");
    let k = 0;
    for (const t of document.querySelectorAll("svg.chart text"))
      if (k < 12 && rx.test(t.textContent)) t.setAttribute("data-cjk", String(k++));
    return k;
  }, cjk.source);
  const cdp = await page.createCDPSession();
  await cdp.send("DOM.enable");
  await cdp.send("CSS.enable");
  const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
  for (let k = 0; k < n; k++) {
    const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector: `[data-cjk="${k}"]` });
    const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
    const text = await page.$eval(`[data-cjk="${k}"]`, (t) => t.textContent);
    out.texts.push({ text, fonts: fonts.map((f) => ({ family: f.familyName, glyphs: f.glyphCount })) });
  }
  out.legends = await page.evaluate(() => Array.from(document.querySelectorAll("svg.chart .legend-hit")).map((h) => ({
    name: h.dataset.name, title: h.querySelector("title").textContent })));
  const fig = await page.$("svg.chart:has(text[data-cjk])");
  if (fig) await fig.screenshot({ path: shot });
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(out, null, 1) + "\n");
