/**
 * Where a streaming run's main-thread time went, by trace event: reads a trace written by the
 * benchmark (`BENCH_TRACE=/tmp/trace npx tsx bench/run.ts --stream-only --sizes=5000
 * --variants=widget,floor --repeat=1`) and prints, for the page's main thread, the self time of each
 * kind of event (time in it, less time in the events nested in it) and how often it ran. With
 * `--long-tasks=MS`, the same for each task of at least MS ms instead, one task at a time, with the
 * task's start (ms after the trace's first event) and the function calls' script and line.
 *
 *   npx tsx bench/trace-summary.ts /tmp/trace/widget-5000.json [rows] [--long-tasks=MS]
 */
import { readFileSync } from 'node:fs';
import { mainThreads, TASK_EVENT, type TraceEvent, traceEvents } from './trace';

const args = process.argv.slice(2);
const longArg = args.find((arg) => arg.startsWith('--long-tasks='));
const [file, rowsArg] = args.filter((arg) => arg !== longArg);
if (!file) throw new Error('trace-summary: give the trace file, e.g. /tmp/trace/widget-5000.json');
const rows = Number(rowsArg ?? (longArg ? 12 : 40));
const limitMs = longArg ? Number(longArg.slice('--long-tasks='.length)) : 0;
if (!(rows > 0) || !(limitMs >= 0)) {
  throw new Error(
    `trace-summary: rows and --long-tasks take a number of rows and of milliseconds (got "${rowsArg ?? ''}", "${longArg ?? ''}"), e.g. 12 --long-tasks=50`,
  );
}
const events = traceEvents(readFileSync(file, 'utf8'));
const [main] = mainThreads(events);
if (!main) throw new Error('trace-summary: no renderer main thread in the trace');

// Complete events of the main thread, outermost first at each start time.
const spans = events
  .filter((event) => event.ph === 'X' && `${event.pid}:${event.tid}` === main && event.dur)
  .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);

// An event listener's type says which (`message`: a worker's answer or the harness's tasks); a
// function call, which script and line (in a long task: what ran).
function keyOf(event: TraceEvent, withScript: boolean): string {
  const data = event.args?.data;
  const script =
    withScript && data?.url
      ? ` ${data.functionName || '(anonymous)'} ${data.url.split('/').pop()}:${data.lineNumber ?? ''}`
      : '';
  return `${event.name}${data?.type ? ` (${data.type})` : ''}${script}`;
}

/** Self time and count of each kind of event among `list` (sorted as `spans`). */
function selfTimes(list: TraceEvent[], withScript: boolean): Map<string, { ms: number; count: number }> {
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
  for (const event of list) {
    close(event.ts);
    const end = event.ts + event.dur!;
    const parent = open[open.length - 1];
    if (parent) parent.children += Math.min(end, parent.end) - event.ts;
    open.push({ end, key: keyOf(event, withScript), start: event.ts, children: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  return self;
}

function print(self: Map<string, { ms: number; count: number }>) {
  for (const [key, { ms, count }] of [...self].sort((a, b) => b[1].ms - a[1].ms).slice(0, rows)) {
    console.log(`${ms.toFixed(1).padStart(9)} ms  ${String(count).padStart(6)}×  ${key}`);
  }
}

if (longArg) {
  const limit = limitMs * 1000;
  const first = spans[0]?.ts ?? 0;
  const tasks = spans.filter((event) => event.name === TASK_EVENT && event.dur! >= limit);
  for (const task of tasks) {
    const end = task.ts + task.dur!;
    console.log(`task at ${((task.ts - first) / 1000).toFixed(0)} ms: ${(task.dur! / 1000).toFixed(1)} ms`);
    print(
      selfTimes(
        spans.filter((event) => event.ts >= task.ts && event.ts + event.dur! <= end),
        true,
      ),
    );
  }
  console.log(`${tasks.length} tasks of ${limit / 1000} ms or more on the main thread`);
} else {
  console.log('self time by event, main thread');
  print(selfTimes(spans, false));
}
