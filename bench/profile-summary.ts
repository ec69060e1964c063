/**
 * Where a streaming run's main-thread time went: reads a CPU profile written by the benchmark
 * (`BENCH_PROFILE=/tmp/prof npx tsx bench/run.ts --stream-only --sizes=20000 --variants=widget,floor
 * --repeat=1`, which also builds the pages unminified so functions keep their names) and prints the
 * functions with the most time, by self time and by total time (each function counted once per
 * sample, however deep the recursion).
 *
 *   npx tsx bench/profile-summary.ts /tmp/prof/widget-20000.cpuprofile [rows]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, rowsArg] = process.argv.slice(2);
if (!file)
  throw new Error('profile-summary: give the .cpuprofile file, e.g. /tmp/prof/widget-20000.cpuprofile');
const rows = Number(rowsArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
const name = (node: ProfileNode) =>
  `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').pop() ?? ''}:${node.callFrame.lineNumber + 1}`;

// Sample time per node (µs): the delta after a sample belongs to it.
const sampled = new Map<number, number>();
profile.samples.forEach((id, index) => {
  sampled.set(id, (sampled.get(id) ?? 0) + (profile.timeDeltas[index + 1] ?? 0));
});

const self = new Map<string, number>();
const total = new Map<string, number>();
for (const [id, time] of sampled) {
  const leaf = nodes.get(id)!;
  self.set(name(leaf), (self.get(name(leaf)) ?? 0) + time);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
    const key = name(nodes.get(at)!);
    if (seen.has(key)) continue;
    seen.add(key);
    total.set(key, (total.get(key) ?? 0) + time);
  }
}

const table = (title: string, times: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, time] of [...times].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${(time / 1000).toFixed(1).padStart(9)} ms  ${key}`);
  }
};
table('self time', self);
table('total time (callees included)', total);
