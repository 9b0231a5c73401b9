// CLI start-up benchmark: the median wall time of `bosun --help` (bin/bosun.js, as `npx bosun` and `npm start`
// run it) against `node -e 0` measured in the same run, so a slow or busy machine shows in both.
// Target: `bosun --help` under 0.5 s. The CLI is built first, as `npm ci` does.
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const runs = 21;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

function timeRun(args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr.toString()}`);
  return elapsed;
}

execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs')], { stdio: 'inherit' });

const bosun: number[] = [];
const node: number[] = [];
// Interleaved, so that load on the machine weighs on both alike.
for (let i = 0; i < runs; i++) {
  bosun.push(timeRun([join(root, 'bin', 'bosun.js'), '--help']));
  node.push(timeRun(['-e', '0']));
}

const target = 0.5;
const bosunMedian = median(bosun);
const nodeMedian = median(node);
console.log(`bosun --help: median ${bosunMedian.toFixed(3)} s over ${runs} runs (target < ${target} s: ${bosunMedian < target ? 'met' : 'MISSED'})`);
console.log(`node -e 0:    median ${nodeMedian.toFixed(3)} s (the floor: Node's own start)`);
console.log(`bosun's own share: ${(bosunMedian - nodeMedian).toFixed(3)} s`);
if (bosunMedian >= target) process.exitCode = 1;
