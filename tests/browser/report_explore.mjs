// report_explore.mjs — opens a report directory's report.html in Debian's
// chromium (headless, puppeteer-core; one browser session) and writes as
// JSON on stdout what the page's exploring parts show, for
// tests/e2e/report_explore.sh (checked by tests/lib/report_explore_check.py):
//   bands   per chart with interval or prediction bands: each band target's
//           data and, for the first and last of each band (every one on
//           speedup), the tooltip with the mouse over a spot of it that no
//           other target covers (null when every spot is covered)
//   zoom    epoch_time's x axis dragged from n = 2 to n = 8: the point
//           targets and series paths before, after and after "Reset zoom",
//           the tick labels shown, one tooltip while zoomed
//   scale   per chart drawn with log axes: the chart before, after
//           "Linear axes" and after switching back (scales, x tick labels
//           and their places, targets), one tooltip on the linear drawing
//   picker  per picker of any region (under What limits scaling): its list,
//           then after picking the 10th and the last region: the caption,
//           the drawn points, the targets and the tooltips over the measured
//           points and the band's last sample; then back to the first
//   perfetto  the traces section: its text, whether it holds a link, and the
//           traces table's rows (run, rank, path)
//   contrast  WCAG 2 contrast of every visible text: HTML text (and the
//           filter boxes' placeholders, a shown tooltip) against the first
//           opaque background of its ancestors, composited; each SVG <text>
//           against the shapes painted under it (elementsFromPoint at five
//           spots of its box, filled shapes composited over white, the worst
//           spot kept), on every chart and picker and on one linear drawing;
//           with its size in CSS px and weight (large text: 24 px, or 18.66
//           px bold)
// Screenshots go to SHOTDIR.
// Usage: node report_explore.mjs REPORT_DIR SHOTDIR [OTHER_REPORT_DIR...]
// (the other reports, e.g. one with a baseline comparison: contrast only,
// "where" prefixed by the directory's name)
import puppeteer from "puppeteer-core";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, shots, ...others] = process.argv.slice(2);
const url = pathToFileURL(path.resolve(dir, "report.html")).href;
const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  protocolTimeout: 600000,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage"],
});
const out = { errors: [], bands: {}, zoom: null, scale: {}, picker: {}, perfetto: null, contrast: [] };

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


// what an XY chart shows: its scales, tick labels at their places, the
// point targets and the vertices of each series' paths
function chartState(fig) {
  return fig.evaluate((f) => {
    const svg = f.querySelector("svg.chart");
    const ticks = (sel) => Array.from(svg.querySelectorAll(sel)).filter((t) => t.getBoundingClientRect().width > 0)
      .map((t) => ({ text: t.textContent, x: +t.getAttribute("x") + (t.getAttribute("text-anchor") === "middle" ? 0 : +t.getAttribute("textLength") / 2) }));
    return {
      id: svg.id, xscale: svg.dataset.xscale, yscale: svg.dataset.yscale, zoom: svg.dataset.zoom || "",
      plot: svg.dataset.plot.split(" ").map(Number),
      xaxis_shown: getComputedStyle(svg.querySelector("g.xaxis")).display !== "none",
      ticks: ticks("g.xaxis text").concat(ticks("g.xaxis-zoom text")),
      buttons: Array.from(f.querySelectorAll(".tools button")).map((b) => ({ text: b.textContent, disabled: b.disabled })),
      hits: Array.from(svg.querySelectorAll("g.series .hit:not(.band)")).map((h) => ({
        s: h.dataset.s, x: h.dataset.x, v: h.dataset.v, cx: +h.getAttribute("cx"), cy: +h.getAttribute("cy"),
        visible: getComputedStyle(h).visibility !== "hidden" })),
      paths: Array.from(svg.querySelectorAll("g.series")).map((g) => ({ s: g.dataset.s,
        d: Array.from(g.querySelectorAll("path")).map((p) => p.getAttribute("d")) })),
    };
  });
}

// the screen point of SVG user point (x, y)
function screen(fig, x, y) {
  return fig.evaluate((f, px, py) => {
    const svg = f.querySelector("svg.chart"), p = svg.createSVGPoint();
    p.x = px; p.y = py;
    const q = p.matrixTransform(svg.getScreenCTM());
    return { x: q.x, y: q.y };
  }, x, y);
}

// the tooltip over the first visible point target
async function tipOnFirst(page, fig) {
  const at = await fig.evaluate((f) => {
    const h = Array.from(f.querySelectorAll("svg.chart g.series .hit:not(.band)")).find((e) => getComputedStyle(e).visibility !== "hidden");
    if (!h) return null;
    const r = h.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  return at ? hover(page, at.x, at.y) : null;
}

async function zoom(page) {
  const fig = await page.$('figure[data-chart="epoch_time"]');
  await fig.evaluate((f) => f.scrollIntoView({ block: "start" }));
  const before = await chartState(fig);
  const [x0, y0, x1, y1] = before.plot;
  const map = await fig.evaluate((f) => {
    const svg = f.querySelector("svg.chart"), r = svg.dataset.xrange.split(" ").map(Number);
    const p = svg.dataset.plot.split(" ").map(Number), t = (v) => svg.dataset.xscale === "log2" ? Math.log2(v) : v;
    return [2, 8].map((v) => p[0] + (t(v) - t(r[0])) / (t(r[1]) - t(r[0])) * (p[2] - p[0]));
  });
  const a = await screen(fig, map[0], (y0 + y1) / 2), b = await screen(fig, map[1], (y0 + y1) / 2);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, a.y, { steps: 3 });
  await page.mouse.move(b.x, b.y);
  await page.mouse.up();
  const zoomed = await chartState(fig);
  const tip = await tipOnFirst(page, fig);
  await page.mouse.move(0, 0);
  await fig.screenshot({ path: path.join(shots, "epoch_time-zoomed.png") });
  for (const btn of await fig.$$(".tools button"))
    if ((await btn.evaluate((e) => e.textContent)) === "Reset zoom") await btn.click();
  out.zoom = { chart: "epoch_time", from: 2, to: 8, before, zoomed, tip, reset: await chartState(fig), x0, x1 };
}

async function scales(page) {
  for (const fig of await page.$$("figure[data-chart]")) {
    const name = await fig.evaluate((f) => f.dataset.chart);
    if (!(await fig.$("button.scale"))) continue;
    if (!["epoch_time", "speedup"].includes(name) && !name.startsWith("limits_")) continue;
    await fig.evaluate((f) => f.scrollIntoView({ block: "start" }));
    const log = await chartState(fig);
    await (await fig.$("button.scale")).click();
    const linear = await chartState(fig);
    const tip = await tipOnFirst(page, fig);
    await page.mouse.move(0, 0);
    if (name.startsWith("limits_")) await fig.screenshot({ path: path.join(shots, name + "-linear.png") });
    await (await fig.$("button.scale")).click();
    out.scale[name] = { log, linear, tip, back: await chartState(fig) };
  }
  out.scale_buttons = await page.evaluate(() => Array.from(document.querySelectorAll("figure[data-chart]"))
    .filter((f) => f.querySelector("button.scale")).map((f) => f.dataset.chart));
}

async function pickers(page) {
  for (const fig of await page.$$("figure.picker")) {
    const name = await fig.evaluate((f) => f.dataset.picker);
    await fig.evaluate((f) => f.scrollIntoView({ block: "start" }));
    const options = await fig.evaluate((f) => Array.from(f.querySelectorAll("select option")).map((o) => o.textContent));
    const res = { options, picks: [] };
    for (const k of [9, options.length - 1]) {
      if (k >= options.length) continue;
      await (await fig.$("select")).select(String(k));
      const st = await fig.evaluate((f) => {
        const svg = f.querySelector("svg.chart");
        const centre = (h) => { const r = h.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; };
        return {
          region: svg.dataset.region,
          caption: f.querySelector(".pick-caption").textContent,
          engine_shown: Array.from(svg.querySelectorAll("g.series:not(.picked)")).some((g) => getComputedStyle(g).display !== "none"),
          dots: Array.from(svg.querySelectorAll("g.picked circle:not(.hit)")).map((c) => [+c.getAttribute("cx"), +c.getAttribute("cy")]),
          paths: svg.querySelectorAll("g.picked path").length,
          targets: Array.from(svg.querySelectorAll("g.picked .hit")).map((h) => Object.assign({ band: h.classList.contains("band"),
            cx: +(h.getAttribute("cx") || 0), cy: +(h.getAttribute("cy") || 0), at: centre(h) }, { attrs: Object.assign({}, h.dataset) })),
        };
      });
      for (const t of st.targets) {
        const last = t.band && t === st.targets.filter((u) => u.band).pop();
        t.seen = !t.band || last ? await hover(page, t.at.x, t.at.y) : null;
      }
      await page.mouse.move(0, 0);
      if (k === 9) await fig.screenshot({ path: path.join(shots, name + "-picked.png") });
      res.picks.push(Object.assign({ index: k }, st));
    }
    await (await fig.$("select")).select("0");
    res.first = await fig.evaluate((f) => ({
      engine_shown: Array.from(f.querySelectorAll("svg.chart g.series:not(.picked)")).every((g) => getComputedStyle(g).display !== "none"),
      picked: f.querySelectorAll("g.picked > *").length,
      caption: f.querySelector(".pick-caption").textContent,
    }));
    out.picker[name] = res;
  }
}

async function perfetto(page) {
  out.perfetto = await page.evaluate(() => {
    const note = document.querySelector("p.perfetto"), table = document.getElementById("table-traces");
    if (!note || !table) return null;
    note.scrollIntoView({ block: "start" });
    return {
      text: note.innerText,
      links: note.querySelectorAll("a").length + table.querySelectorAll("a").length,
      shown: note.getBoundingClientRect().height > 0 && table.getBoundingClientRect().height > 0,
      head: Array.from(table.tHead.rows[0].cells).map((c) => c.textContent),
      rows: Array.from(table.tBodies[0].rows).map((r) => Array.from(r.cells).map((c) => c.textContent)),
    };
  });
  if (out.perfetto) await page.screenshot({ path: path.join(shots, "perfetto.png") });
}

// in the page: colour parsing, compositing, WCAG luminance and the checks
const CONTRAST_LIB = `
window.__contrast = (function () {
  function rgba(s) {
    const m = /rgba?\\(([^)]+)\\)/.exec(s || "");
    if (!m) return s === "transparent" || s === "none" || !s ? null : null;
    const v = m[1].split(/[ ,\\/]+/).filter((x) => x !== "").map(Number);
    return { r: v[0], g: v[1], b: v[2], a: v.length > 3 ? v[3] : 1 };
  }
  function over(top, under) { // top composited over an opaque colour
    const a = top.a;
    return { r: top.r * a + under.r * (1 - a), g: top.g * a + under.g * (1 - a), b: top.b * a + under.b * (1 - a), a: 1 };
  }
  function lum(c) {
    const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  }
  function ratio(a, b) { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); }
  const WHITE = { r: 255, g: 255, b: 255, a: 1 };
  function htmlBackground(el) {
    const stack = [];
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) { stack.push(c); if (c.a >= 1) break; }
    }
    let bg = WHITE;
    for (let i = stack.length - 1; i >= 0; i--) bg = over(stack[i], bg);
    return bg;
  }
  function visible(e) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    for (let x = e; x && x.nodeType === 1; x = x.parentElement) {
      const st = getComputedStyle(x);
      if (st.display === "none" || st.visibility === "hidden" || +st.opacity === 0) return false;
    }
    return true;
  }
  function size(e, px, weight) {
    const w = parseInt(weight, 10) || (weight === "bold" ? 700 : 400);
    return { px, bold: w >= 700, large: px >= 24 || (px >= 18.66 && w >= 700) };
  }
  function html() {
    const out = [], seen = new Set();
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || seen.has(el) || el.closest("svg, script, style, template, noscript")) continue;
      seen.add(el);
      if (!visible(el)) continue;
      const st = getComputedStyle(el), fg = rgba(st.color), bg = htmlBackground(el);
      out.push(Object.assign({ where: "html", tag: el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : ""),
        text: n.textContent.trim().slice(0, 60), fg: st.color, bg: "rgb(" + [bg.r, bg.g, bg.b].map(Math.round) + ")",
        ratio: ratio(over(fg, bg), bg) }, size(el, parseFloat(st.fontSize), st.fontWeight)));
    }
    document.querySelectorAll("input.filter").forEach((i) => {
      if (!visible(i)) return;
      const st = getComputedStyle(i, "::placeholder"), fg = rgba(st.color), bg = htmlBackground(i);
      out.push(Object.assign({ where: "html", tag: "input::placeholder", text: i.placeholder, fg: st.color,
        bg: "rgb(" + [bg.r, bg.g, bg.b].map(Math.round) + ")", ratio: ratio(over(fg, bg), bg) }, size(i, parseFloat(st.fontSize), st.fontWeight)));
    });
    return out;
  }
  function shapeFill(e) {
    if (e.tagName === "text" || e.classList.contains("hit") || e.classList.contains("legend-hit") || e.tagName === "svg" || e.tagName === "g") return null;
    const st = getComputedStyle(e);
    const c = rgba(st.fill);
    if (!c || st.fill === "none") return null;
    c.a *= (+st.fillOpacity) * (+st.opacity);
    return c.a > 0 ? c : null;
  }
  function svgBackground(x, y) {
    const stack = [];
    for (const e of document.elementsFromPoint(x, y)) {
      if (!e.closest("svg.chart")) { stack.push(htmlBackground(e)); break; }
      const c = shapeFill(e);
      if (c) { stack.push(c); if (c.a >= 1) break; }
    }
    let bg = WHITE;
    for (let i = stack.length - 1; i >= 0; i--) bg = over(stack[i], bg);
    return bg;
  }
  function svg(root) {
    const style = document.createElement("style");
    style.textContent = "svg.chart, svg.chart * { pointer-events: visiblePainted !important; }";
    document.head.appendChild(style);
    const out = [];
    root.querySelectorAll("svg.chart text").forEach((t) => {
      if (!t.textContent.trim() || !visible(t)) return;
      const r = t.getBoundingClientRect(), st = getComputedStyle(t), fg = rgba(st.fill);
      fg.a *= +st.fillOpacity;
      const scale = t.closest("svg").getScreenCTM().a;
      let worst = null;
      for (const [fx, fy] of [[0.5, 0.5], [0.2, 0.5], [0.8, 0.5], [0.5, 0.3], [0.5, 0.7]]) {
        const bg = svgBackground(r.left + r.width * fx, r.top + r.height * fy), q = ratio(over(fg, bg), bg);
        if (!worst || q < worst.ratio) worst = { ratio: q, bg: "rgb(" + [bg.r, bg.g, bg.b].map(Math.round) + ")" };
      }
      out.push(Object.assign({ where: root.dataset.chart || (root.dataset.picker ? "picker " + root.dataset.picker : "svg"), tag: "text", text: t.textContent.slice(0, 60),
        fg: st.fill }, worst, size(t, parseFloat(t.getAttribute("font-size")) * scale, t.getAttribute("font-weight") || st.fontWeight)));
    });
    style.remove();
    return out;
  }
  return { html, svg };
})();`;

async function contrast(page) {
  await page.addScriptTag({ content: CONTRAST_LIB }).catch(() => null);
  const hasLib = await page.evaluate(() => !!window.__contrast);
  if (!hasLib) { // the page's CSP forbids added scripts: evaluate it instead
    await page.evaluate(CONTRAST_LIB);
  }
  // a tooltip shown, so that its text is checked too
  const first = await page.$("figure[data-chart] .hit");
  if (first) {
    await first.evaluate((h) => h.closest("figure").scrollIntoView({ block: "start" }));
    const b = await first.boundingBox();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  }
  out.contrast.push(...await page.evaluate(() => window.__contrast.html()));
  await page.mouse.move(0, 0);
  for (const fig of await page.$$("figure[data-chart], figure.picker")) {
    await fig.evaluate((f) => f.scrollIntoView({ block: "start" }));
    out.contrast.push(...await fig.evaluate((f) => window.__contrast.svg(f)));
  }
  // negative controls: a grey paragraph (#aaa on white, 2.3:1) and a white
  // <text> on a chart's white ground must come out failing
  await page.evaluate(() => {
    const p = document.createElement("p");
    p.id = "contrast-probe"; p.style.color = "#aaaaaa"; p.textContent = "contrast probe";
    document.body.appendChild(p);
    const svg = document.querySelector("figure[data-chart] svg.chart");
    const t = document.createElementNS("http://www.w3.org/2000/svg", "text");
    t.setAttribute("x", 40); t.setAttribute("y", 30); t.setAttribute("font-size", 10); t.setAttribute("fill", "#ffffff");
    t.textContent = "contrast probe";
    svg.appendChild(t);
  });
  out.contrast_probe = (await page.evaluate(() => window.__contrast.html())).filter((c) => c.text === "contrast probe")
    .concat(await (await page.$("figure[data-chart]")).evaluate((f) => {
      f.scrollIntoView({ block: "start" });
      return window.__contrast.svg(f).filter((c) => c.text === "contrast probe");
    }));
  await page.evaluate(() => document.querySelectorAll("#contrast-probe, svg.chart text").forEach((e) => { if (e.textContent === "contrast probe") e.remove(); }));
  const lin = await page.$('figure[data-chart^="limits_"] button.scale');
  if (lin) {
    await lin.click();
    const fig = await page.$('figure[data-chart^="limits_"]');
    await fig.evaluate((f) => f.scrollIntoView({ block: "start" }));
    out.contrast.push(...(await fig.evaluate((f) => window.__contrast.svg(f))).map((c) => Object.assign(c, { where: c.where + " (linear)" })));
    await lin.click();
  }
}

try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.on("console", (m) => { if (m.type() === "error") out.errors.push(m.text()); });
  page.on("pageerror", (e) => out.errors.push(String(e)));
  await page.goto(url, { waitUntil: "load" });
  await bands(page);
  await zoom(page);
  await scales(page);
  await pickers(page);
  await perfetto(page);
  await contrast(page);
  for (const other of others) {
    const more = await browser.newPage();
    await more.setViewport({ width: 1280, height: 900 });
    more.on("console", (m) => { if (m.type() === "error") out.errors.push(other + ": " + m.text()); });
    more.on("pageerror", (e) => out.errors.push(other + ": " + String(e)));
    await more.goto(pathToFileURL(path.resolve(other, "report.html")).href, { waitUntil: "load" });
    const seen = out.contrast.length;
    const saved = out.contrast_probe;
    await contrast(more);
    out.contrast_probe = saved;
    out.contrast.slice(seen).forEach((c) => { c.where = path.basename(other) + ": " + c.where; });
    await more.close();
  }
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(out));
