// The soak's curves as a small SVG, written by hand (no plotting dependency): one panel per measure (heap
// after GC, RSS, open descriptors, CLI processes) against minutes, a line per host lifetime, a dashed mark
// where the host was SIGKILLed and reopened.

export interface PlotSample {
  readonly t: number;
  readonly host: number;
  readonly heapMB: number;
  readonly rssMB: number;
  readonly fds: number;
  readonly cliProcesses: number;
}

const PANELS: { key: keyof Omit<PlotSample, 't' | 'host'>; title: string; color: string }[] = [
  { key: 'heapMB', title: 'heap used after GC (MB)', color: '#1f6feb' },
  { key: 'rssMB', title: 'RSS (MB)', color: '#8250df' },
  { key: 'fds', title: 'open file descriptors', color: '#1a7f37' },
  { key: 'cliProcesses', title: 'real CLI processes', color: '#bf8700' },
];

const WIDTH = 720;
const PANEL_HEIGHT = 130;
const LEFT = 56;
const RIGHT = 16;
const TOP = 28;
const GAP = 34;

export function renderSoakSvg(samples: readonly PlotSample[], caption: string): string {
  const tMax = Math.max(1, ...samples.map((s) => s.t));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const x = (t: number): number => LEFT + (t / tMax) * plotWidth;
  const height = TOP + PANELS.length * (PANEL_HEIGHT + GAP) + 10;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${LEFT}" y="16" font-size="12" font-weight="bold">${escape(caption)}</text>`,
  ];
  const restarts = samples.filter((s, i) => i > 0 && s.host !== samples[i - 1]!.host).map((s) => s.t);
  PANELS.forEach((panel, index) => {
    const top = TOP + index * (PANEL_HEIGHT + GAP) + 14;
    const values = samples.map((s) => s[panel.key]);
    const vMax = niceMax(Math.max(1, ...values));
    const y = (v: number): number => top + PANEL_HEIGHT - (v / vMax) * PANEL_HEIGHT;
    parts.push(`<text x="${LEFT}" y="${top - 4}">${escape(panel.title)}</text>`);
    parts.push(
      `<rect x="${LEFT}" y="${top}" width="${plotWidth}" height="${PANEL_HEIGHT}" fill="none" stroke="#d0d7de"/>`,
    );
    for (const fraction of [0, 0.5, 1]) {
      const v = vMax * fraction;
      parts.push(
        `<text x="${LEFT - 6}" y="${y(v) + 4}" text-anchor="end">${formatNumber(v)}</text>`,
        `<line x1="${LEFT}" x2="${LEFT + plotWidth}" y1="${y(v)}" y2="${y(v)}" stroke="#eaeef2"/>`,
      );
    }
    for (const t of restarts)
      parts.push(
        `<line x1="${x(t)}" x2="${x(t)}" y1="${top}" y2="${top + PANEL_HEIGHT}" stroke="#cf222e" stroke-dasharray="4 3"/>`,
      );
    for (const host of new Set(samples.map((s) => s.host))) {
      const points = samples
        .filter((s) => s.host === host)
        .map((s) => `${x(s.t).toFixed(1)},${y(s[panel.key]).toFixed(1)}`);
      parts.push(
        `<polyline fill="none" stroke="${panel.color}" stroke-width="1.5" points="${points.join(' ')}"/>`,
      );
    }
    const bottom = top + PANEL_HEIGHT + 13;
    for (const fraction of [0, 0.25, 0.5, 0.75, 1])
      parts.push(
        `<text x="${x(tMax * fraction)}" y="${bottom}" text-anchor="${fraction === 0 ? 'start' : fraction === 1 ? 'end' : 'middle'}">${formatNumber(
          (tMax * fraction) / 60_000,
        )} min</text>`,
      );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function niceMax(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (value <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
