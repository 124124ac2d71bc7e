// report_names.mjs — opens a report directory's report.html in Debian's
// chromium (headless, puppeteer-core) and writes as JSON on stdout what
// tests/e2e/hostile_names.sh checks names against: console errors and
// uncaught exceptions, window.__pwned (set only by a script a name
// smuggled in), the document's title and the text of every element
// without element children (table cells, SVG <text> and <title>, …).
// Usage: node report_names.mjs REPORT_DIR
import puppeteer from "puppeteer-core";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  protocolTimeout: 600000,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage"],
});
const out = { errors: [], pwned: null, title: null, texts: [] };
try {
  const page = await browser.newPage();
  page.on("console", (m) => { if (m.type() === "error") out.errors.push(m.text()); });
  page.on("pageerror", (e) => out.errors.push(String(e)));
  await page.goto(pathToFileURL(path.resolve(dir, "report.html")).href, { waitUntil: "load" });
  Object.assign(out, await page.evaluate(() => ({
    pwned: window.__pwned === undefined ? null : String(window.__pwned),
    title: document.title,
    texts: [...document.querySelectorAll("*")].filter((e) => !e.firstElementChild && e.tagName !== "SCRIPT" && e.tagName !== "STYLE")
      .map((e) => e.textContent).filter((t) => t),
  })));
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(out));
