#!/usr/bin/env node
// Opens a cwdkit-bench HTML report in a real headless Chromium and fails unless it renders, shows the per-runtime summary,
// every measured strategy in the charts of every runtime, every "no difference" speed-up in grey, and its screenshot is
// not blank.
// Usage: node apps/bench/scripts/check-html.mjs <report.html> <report.json>
// Chromium: $CHROMIUM, else chromium / chromium-browser / google-chrome on the PATH (Debian: apt-get install chromium).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const [htmlFile, jsonFile] = process.argv.slice(2);
if (!htmlFile || !jsonFile) {
  console.error('usage: check-html.mjs <report.html> <report.json>');
  process.exit(2);
}

function fail(message) {
  console.error(`check-html: FAIL: ${message}`);
  process.exit(1);
}

function findChromium() {
  const candidates = [process.env.CHROMIUM, 'chromium', 'chromium-browser', 'google-chrome'].filter(Boolean);
  for (const candidate of candidates) {
    if (spawnSync(candidate, ['--version'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return fail(`no Chromium found (tried ${candidates.join(', ')}): apt-get install -y chromium, or set CHROMIUM`);
}

const chromium = findChromium();
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-chromium-'));
const url = pathToFileURL(path.resolve(htmlFile)).href;
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--user-data-dir=${profile}`,
];
const browse = (...args) =>
  execFileSync(chromium, [...FLAGS, ...args, url], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'ignore'],
  });

/** RGB(A) pixels of an 8-bit, non-interlaced PNG, as Chromium writes them. */
function decodePng(buffer) {
  if (buffer.toString('latin1', 1, 4) !== 'PNG') fail('the screenshot is not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const body = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      channels = { 2: 3, 6: 4 }[colour];
      if (depth !== 8 || !channels || interlace !== 0) fail(`unexpected PNG format (depth ${depth}, colour ${colour})`);
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x];
      const left = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const upLeft = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

try {
  const report = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));

  // 1. It renders: the DOM after Chromium parsed and laid it out.
  const dom = browse('--dump-dom');
  if (!dom.includes('<h1>cwdkit benchmark report</h1>'))
    fail('Chromium did not render the report (no title in the DOM)');

  // 2. Every strategy the run measured has a bar in the chart of every scenario and runtime where it has a speed-up
  // (a scenario without a baseline, such as watch-cpu's CPU per ms, is a table only).
  const sections = dom.split(/<section class="scenario" /).slice(1);
  if (sections.length === 0) fail('the report has no scenario section');
  const missing = [];
  const runtimes = new Set(report.summary.map((row) => row.runtime));
  const measured = new Set(report.summary.filter((row) => row.strategy).map((row) => row.strategy));
  const expected = new Set(
    report.summary
      .filter((row) => row.strategy && row.speedup)
      .map((row) => `${row.runtime}|${row.scenario}|${row.strategy}`),
  );
  for (const key of expected) {
    const [runtime, scenario, strategy] = key.split('|');
    const section = sections.find((text) => text.startsWith(`data-runtime="${runtime}" data-scenario="${scenario}"`));
    const labels = [...(section ?? '').matchAll(/<text[^>]*class="label"[^>]*>([^<]*)</g)].map((match) => match[1]);
    if (!labels.some((label) => label.replace(/( [*!])+$/, '') === strategy || label.startsWith(`${strategy}: `))) {
      missing.push(`${strategy} in ${scenario} on ${runtime}`);
    }
  }
  if (missing.length > 0) fail(`no bar for ${missing.join(', ')}`);
  const svgs = (dom.match(/<svg /g) ?? []).length;

  // 3. The summary at the top names every runtime of the run, before the first scenario.
  const summary = dom.indexOf('id="summary"');
  if (summary < 0 || summary > dom.indexOf('<section class="scenario"')) fail('no summary before the scenarios');
  const summaryText = dom.slice(summary, dom.indexOf('</section>', summary));
  const absent = [...runtimes].filter((runtime) => !summaryText.includes(`<td>${runtime} `));
  if (absent.length > 0) fail(`the summary has no line for ${absent.join(', ')}`);

  // 4. A strategy's speed-up whose interval holds 1 is drawn grey ("no difference"), and only those.
  const holdsOne = (interval) => interval?.low !== undefined && interval.low <= 1 && interval.high >= 1;
  // A bimodal row (its `modes`) has a bar for each mode, grey when that mode's interval holds 1.
  const same = report.summary
    .filter((row) => row.role === 'subject' && row.speedup)
    .reduce((sum, row) => sum + (row.modes ?? [row.speedup]).filter(holdsOne).length, 0);
  const grey = (dom.match(/class="bar same"/g) ?? []).length;
  if (grey !== same) fail(`${same} strategy rows show no difference, but ${grey} bars are grey`);

  // 5. The screenshot is not blank: enough pixels differ from the white page, in more than a handful of colours.
  const shot = path.join(profile, 'report.png');
  browse('--hide-scrollbars', '--window-size=1200,2400', `--screenshot=${shot}`);
  const { width, height, channels, pixels } = decodePng(fs.readFileSync(shot));
  let inked = 0;
  const colours = new Set();
  for (let i = 0; i < pixels.length; i += channels) {
    const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
    if (r < 235 || g < 235 || b < 235) inked++;
    colours.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
  }
  const share = inked / (width * height);
  if (share < 0.01 || colours.size < 8) {
    fail(`the screenshot looks blank: ${(share * 100).toFixed(2)}% inked pixels, ${colours.size} colours`);
  }
  console.log(
    `check-html: ok: a summary, ${sections.length} scenario sections, ${svgs} charts, ${grey} grey bars, ` +
      `${measured.size} strategies on ${[...runtimes].join(', ')}; ` +
      `screenshot ${width}×${height}, ${(share * 100).toFixed(1)}% inked, ${colours.size} colours`,
  );
} finally {
  fs.rmSync(profile, { recursive: true, force: true });
}
