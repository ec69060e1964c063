/**
 * Where a streaming run's main-thread time went, by trace event: reads a trace written by the
 * benchmark (`BENCH_TRACE=/tmp/trace npx tsx bench/run.ts --stream-only --sizes=5000
 * --variants=widget,floor --repeat=1`) and prints, for the page's main thread, the self time of each
 * kind of event (time in it, less time in the events nested in it) and how often it ran.
 *
 *   npx tsx bench/trace-summary.ts /tmp/trace/widget-5000.json [rows]
 */
import { readFileSync } from 'node:fs';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { type?: string } };
}

const [file, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('trace-summary: give the trace file, e.g. /tmp/trace/widget-5000.json');
const rows = Number(rowsArg ?? 40);
const parsed = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
const main = events.find(
  (event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
);
if (!main) throw new Error('trace-summary: no renderer main thread in the trace');

// Complete events of the main thread, outermost first at each start time.
const spans = events
  .filter((event) => event.ph === 'X' && event.pid === main.pid && event.tid === main.tid && event.dur)
  .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);

const self = new Map<string, { ms: number; count: number }>();
const open: { end: number; key: string; start: number; children: number }[] = [];
const close = (until: number) => {
  while (open.length > 0 && open[open.length - 1]!.end <= until) {
    const span = open.pop()!;
    const entry = self.get(span.key) ?? { ms: 0, count: 0 };
    entry.ms += (span.end - span.start - span.children) / 1000;
    entry.count++;
    self.set(span.key, entry);
  }
};
for (const event of spans) {
  close(event.ts);
  const end = event.ts + event.dur!;
  const parent = open[open.length - 1];
  if (parent) parent.children += Math.min(end, parent.end) - event.ts;
  // An event listener's type says which (`message`: a worker's answer or the harness's tasks).
  const type = event.args?.data?.type;
  open.push({ end, key: type ? `${event.name} (${type})` : event.name, start: event.ts, children: 0 });
}
close(Number.POSITIVE_INFINITY);

console.log('self time by event, main thread');
for (const [key, { ms, count }] of [...self].sort((a, b) => b[1].ms - a[1].ms).slice(0, rows)) {
  console.log(`${ms.toFixed(1).padStart(9)} ms  ${String(count).padStart(6)}×  ${key}`);
}
