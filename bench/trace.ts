/**
 * Reading a Chromium trace (`browser.startTracing`), for the bench's long-task count
 * (`browser.ts`) and `trace-summary.ts`: the events, the renderer's main threads, and what a task
 * is there.
 */

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: {
    name?: string;
    data?: { type?: string; functionName?: string; url?: string; lineNumber?: number };
  };
}

/** One task of a thread: the outermost event of each, in every category the bench records. */
export const TASK_EVENT = 'ThreadControllerImpl::RunTask';

/** The events of a trace, as written by `stopTracing` (an object with `traceEvents`, or a list). */
export function traceEvents(text: string): TraceEvent[] {
  const parsed = JSON.parse(text) as { traceEvents: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/** `pid:tid` of each renderer main thread in the trace. */
export function mainThreads(events: TraceEvent[]): Set<string> {
  return new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
}
