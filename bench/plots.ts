/**
 * The streaming benchmark's plots (SVG, no dependency): main-thread script of the widget against
 * the plain-text floor and three times the floor, and the longest task of every run against 50 ms,
 * per answer length. `bench/run.ts` writes them to `bench/results/` beside `results.md`, which shows
 * them. The naive integration is left out: at a minute a run it would flatten the rest.
 */
import type { StreamRun, Variant } from './browser';

const WIDTH = 640;
const HEIGHT = 320;
const MARGIN = { top: 36, right: 150, bottom: 44, left: 64 };
const COLOURS: Partial<Record<Variant, string>> = { widget: '#2563eb', floor: '#16a34a' };
const NAMES: Partial<Record<Variant, string>> = { widget: 'widget', floor: 'floor (plain text)' };

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const round = (value: number) => Math.round(value * 10) / 10;

/** A tick step of 1, 2 or 5 × 10^n giving about five ticks up to `max`. */
function tickStep(max: number): number {
  const rough = max / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= rough) ?? power * 10;
}

interface Series {
  variant: Variant;
  /** Per answer length, every run's value. */
  values: number[][];
}

/**
 * One chart: answer lengths across, each run a dot and the median a line per variant, plus
 * `guide` (a dashed line per answer length: the goal).
 */
function chart(options: {
  title: string;
  unit: string;
  sizes: number[];
  series: Series[];
  guide: { label: string; values: number[] };
}): string {
  const { title, unit, sizes, series, guide } = options;
  const all = [...series.flatMap((s) => s.values.flat()), ...guide.values].filter(Number.isFinite);
  const step = tickStep(Math.max(1, ...all));
  const top = Math.ceil(Math.max(1, ...all) / step) * step;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (index: number) => round(MARGIN.left + ((index + 0.5) * plotW) / sizes.length);
  const y = (value: number) => round(MARGIN.top + plotH - (Math.min(value, top) / top) * plotH);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${MARGIN.left}" y="20" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (let value = 0; value <= top; value += step) {
    out.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y(value)}" y2="${y(value)}" stroke="#e5e7eb"/>`,
      `<text x="${MARGIN.left - 6}" y="${y(value) + 4}" text-anchor="end">${value.toLocaleString('en-US')} ${unit}</text>`,
    );
  }
  sizes.forEach((size, index) => {
    out.push(
      `<text x="${x(index)}" y="${HEIGHT - MARGIN.bottom + 18}" text-anchor="middle">${size.toLocaleString('en-US')} tokens</text>`,
    );
  });
  const halfBand = round(plotW / sizes.length / 3);
  guide.values.forEach((value, index) => {
    if (!Number.isFinite(value)) return;
    out.push(
      `<line x1="${x(index) - halfBand}" x2="${x(index) + halfBand}" y1="${y(value)}" y2="${y(value)}" stroke="#dc2626" stroke-dasharray="5 4" stroke-width="2"/>`,
    );
  });
  series.forEach(({ variant, values }, offset) => {
    const colour = COLOURS[variant] ?? '#6b7280';
    const shift = (offset - (series.length - 1) / 2) * 10;
    const medians = values.map((runs) => {
      const sorted = [...runs].sort((a, b) => a - b);
      return sorted[Math.ceil(sorted.length / 2) - 1];
    });
    const points = medians.flatMap((median, index) =>
      median === undefined ? [] : [`${x(index) + shift},${y(median)}`],
    );
    if (points.length > 1) {
      out.push(`<polyline points="${points.join(' ')}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    }
    values.forEach((runs, index) => {
      for (const value of runs) {
        out.push(
          `<circle cx="${x(index) + shift}" cy="${y(value)}" r="4" fill="${colour}" fill-opacity="0.6"${value > top ? ' stroke="#000"' : ''}/>`,
        );
      }
    });
  });
  const legend = [
    ...series.map(({ variant }) => ({
      colour: COLOURS[variant] ?? '#6b7280',
      label: NAMES[variant] ?? variant,
      dashed: false,
    })),
    { colour: '#dc2626', label: guide.label, dashed: true },
  ];
  legend.forEach(({ colour, label, dashed }, index) => {
    const ly = MARGIN.top + 8 + index * 20;
    const lx = WIDTH - MARGIN.right + 14;
    out.push(
      `<line x1="${lx}" x2="${lx + 20}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="2"${dashed ? ' stroke-dasharray="5 4"' : ''}/>`,
      `<text x="${lx + 26}" y="${ly + 4}">${escapeXml(label)}</text>`,
    );
  });
  out.push(
    `<text x="${MARGIN.left}" y="${HEIGHT - 8}" fill="#6b7280">Dots: each run; line: the median run.</text>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}

/** The two plots of the measured (typing-free) runs: file name and SVG text. */
export function streamPlots(runs: StreamRun[]): { file: string; title: string; svg: string }[] {
  const measured = runs.filter((run) => !run.typing);
  const sizes = [...new Set(measured.map((run) => run.tokens))].sort((a, b) => a - b);
  const values = (variant: Variant, pick: (run: StreamRun) => number) =>
    sizes.map((size) => measured.filter((run) => run.variant === variant && run.tokens === size).map(pick));
  const median = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted.length ? sorted[Math.ceil(sorted.length / 2) - 1]! : Number.NaN;
  };
  const variants = (['widget', 'floor'] as const).filter((variant) =>
    measured.some((run) => run.variant === variant),
  );
  const script = variants.map((variant) => ({ variant, values: values(variant, (run) => run.scriptMs) }));
  const floorScript = values('floor', (run) => run.scriptMs).map((list) => 3 * median(list));
  const tasks = variants.map((variant) => ({ variant, values: values(variant, (run) => run.longestTaskMs) }));
  const titles = {
    script: 'Main-thread script while an answer streams',
    tasks: 'Longest main-thread task of each run',
  };
  return [
    {
      file: 'streaming-script.svg',
      title: titles.script,
      svg: chart({
        title: titles.script,
        unit: 'ms',
        sizes,
        series: script,
        guide: { label: '3× the floor', values: floorScript },
      }),
    },
    {
      file: 'streaming-long-tasks.svg',
      title: titles.tasks,
      svg: chart({
        title: titles.tasks,
        unit: 'ms',
        sizes,
        series: tasks,
        guide: { label: '50 ms', values: sizes.map(() => 50) },
      }),
    },
  ];
}
