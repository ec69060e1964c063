/**
 * The insights panel's charts: one small inline SVG line per series (questions, uncertain share,
 * satisfaction per day), each an image whose name says its figures, and the same days as a table
 * for readers who want the numbers.
 */
import { useId } from 'react';
import type { InsightsPanelLabels } from './labels.js';
import type { InsightsDay, InsightsStats } from './types.js';

/** Drawing height of a chart in viewBox units (the width is one unit per day). */
const HEIGHT = 100;

const numberFormat = new Intl.NumberFormat('en-US');
export const formatNumber = (value: number): string => numberFormat.format(value);
/** A share (0 to 1) in whole percent; `—` when there is none. */
export const formatShare = (value: number | null | undefined): string =>
  value === null || value === undefined || !Number.isFinite(value) ? '—' : `${Math.round(value * 100)}%`;

export const uncertainShareOf = (day: InsightsDay): number | null =>
  day.questions ? day.uncertain / day.questions : null;
export const satisfactionOf = (day: InsightsDay): number | null =>
  day.up + day.down ? day.up / (day.up + day.down) : null;

interface Series {
  title: string;
  values: (number | null)[];
  /** The top of the scale: shares are drawn on 0 to 1. */
  max: number;
  format: (value: number) => string;
}

/** The figures of a series in words: its total or mean, lowest and highest day, and last day. */
function figuresOf(series: Series, days: InsightsDay[], share: boolean): string {
  const known = series.values.flatMap((value, i) => (value === null ? [] : [{ value, date: days[i]!.date }]));
  if (known.length === 0) return '—';
  const low = known.reduce((a, b) => (b.value < a.value ? b : a));
  const high = known.reduce((a, b) => (b.value > a.value ? b : a));
  const sum = known.reduce((total, item) => total + item.value, 0);
  const overall = share ? `mean ${series.format(sum / known.length)}` : `total ${series.format(sum)}`;
  return `${overall}, lowest ${series.format(low.value)} on ${low.date}, highest ${series.format(high.value)} on ${high.date}`;
}

/** The line's segments: a day without a value (no question, no vote) breaks the line. */
function segmentsOf(values: (number | null)[], max: number): string[] {
  const segments: string[][] = [[]];
  values.forEach((value, i) => {
    if (value === null) segments.push([]);
    else segments.at(-1)!.push(`${i},${(HEIGHT - (value / (max || 1)) * HEIGHT).toFixed(2)}`);
  });
  return segments.filter((points) => points.length > 0).map((points) => points.join(' '));
}

function TrendChart({
  series,
  days,
  share,
  labels,
}: {
  series: Series;
  days: InsightsDay[];
  share: boolean;
  labels: InsightsPanelLabels;
}) {
  const titleId = useId();
  const first = days[0]?.date ?? '';
  const last = days.at(-1)?.date ?? '';
  const width = Math.max(days.length - 1, 1);
  const summary = labels.chartSummary(series.title, first, last, figuresOf(series, days, share));
  return (
    <figure data-insights="chart" aria-labelledby={titleId}>
      <figcaption id={titleId}>{series.title}</figcaption>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`-1 -4 ${width + 2} ${HEIGHT + 8}`}
        preserveAspectRatio="none"
        focusable="false"
      >
        <line x1={0} x2={width} y1={HEIGHT} y2={HEIGHT} data-insights="axis" />
        {segmentsOf(series.values, series.max).map((points) =>
          points.includes(' ') ? (
            <polyline key={points} points={points} vectorEffect="non-scaling-stroke" />
          ) : (
            // A lone day between gaps: a dot, or it would not show.
            <circle key={points} cx={points.split(',')[0]} cy={points.split(',')[1]} r={1.5} />
          ),
        )}
      </svg>
      <p data-insights="chart-figures" aria-hidden="true">
        {figuresOf(series, days, share)}
      </p>
    </figure>
  );
}

/** Questions, uncertain share and satisfaction per day, and the days as a table. */
export function Trends({ stats, labels }: { stats: InsightsStats; labels: InsightsPanelLabels }) {
  const days = stats.daily;
  const questions = days.map((day) => day.questions);
  const charts: { series: Series; share: boolean }[] = [
    {
      series: {
        title: labels.questions,
        values: questions,
        max: Math.max(1, ...questions),
        format: formatNumber,
      },
      share: false,
    },
    {
      series: {
        title: labels.uncertainShare,
        values: days.map(uncertainShareOf),
        max: 1,
        format: formatShare,
      },
      share: true,
    },
    {
      series: { title: labels.satisfaction, values: days.map(satisfactionOf), max: 1, format: formatShare },
      share: true,
    },
  ];
  return (
    <>
      <div data-insights="charts">
        {charts.map(({ series, share }) => (
          <TrendChart key={series.title} series={series} days={days} share={share} labels={labels} />
        ))}
      </div>
      <details data-insights="daily">
        <summary>{labels.dailyTable}</summary>
        <DailyTable days={days} labels={labels} />
      </details>
    </>
  );
}

function DailyTable({ days, labels }: { days: InsightsDay[]; labels: InsightsPanelLabels }) {
  const columns = [labels.questions, labels.conversations, labels.readers, labels.searches];
  return (
    <table>
      <caption>{labels.dailyTable}</caption>
      <thead>
        <tr>
          <th scope="col">{labels.date}</th>
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
          <th scope="col">{labels.uncertainShare}</th>
          <th scope="col">{labels.satisfaction}</th>
        </tr>
      </thead>
      <tbody>
        {days.map((day) => (
          <tr key={day.date}>
            <th scope="row">{day.date}</th>
            {[day.questions, day.conversations, day.readers, day.searches].map((value, i) => (
              <td key={columns[i]}>{formatNumber(value)}</td>
            ))}
            <td>{formatShare(uncertainShareOf(day))}</td>
            <td>{formatShare(satisfactionOf(day))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
