// Template engine benchmark: a 200-deploy-item blueprint (nested range, include, toYaml, nindent)
// and one-line templates, each parsed and executed per render, compared with the Go reference
// renderer (timed inside the Go process) when Go is installed. Targets: >= 10,000 simple renders/s,
// blueprint within 5x of Go.
import { blueprintCase, simpleTemplates } from '../scripts/template-golden/lib/blueprint.ts';
import { buildGoref, runGoref } from '../scripts/template-golden/lib/goref.ts';
import { renderCase, type RenderCase } from '../test/template/golden-render.ts';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

function timeTs(c: RenderCase, n: number): number[] {
  const res = renderCase(c);
  if ('error' in res) throw new Error(`benchmark template failed: ${res.error}`);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    renderCase(c);
    out.push(Number(process.hrtime.bigint() - t));
  }
  return out;
}

const blueprint = blueprintCase(200);
const bpRuns = 30;
const simpleRuns = 5000;

// Warm up the JIT before measuring.
timeTs(blueprint, 5);
for (const s of simpleTemplates) timeTs(s, 500);

const tsBlueprint = median(timeTs(blueprint, bpRuns));
const tsSimple = simpleTemplates.map((s) => median(timeTs(s, simpleRuns)));
const tsSimpleNs = tsSimple.reduce((a, b) => a + b, 0) / tsSimple.length;

const fmtMs = (ns: number): string => (ns / 1e6).toFixed(3) + ' ms';
const fmtUs = (ns: number): string => (ns / 1e3).toFixed(1) + ' µs';
console.log(`blueprint (200 deploy items, ${'output' in renderCase(blueprint) ? 'ok' : 'error'}): TS median ${fmtMs(tsBlueprint)}`);
console.log(`simple one-liners: TS median ${fmtUs(tsSimpleNs)} per render = ${Math.round(1e9 / tsSimpleNs)} renders/s (target >= 10000)`);

const goref = buildGoref();
if (goref === undefined) {
  console.log('Go reference not installed: no Go comparison (see scripts/template-golden/README.md)');
} else {
  const [bp, ...simple] = runGoref(goref, [
    { id: 'bp', ...blueprint, bench: bpRuns },
    ...simpleTemplates.map((s, i) => ({ id: `s${i}`, ...s, bench: simpleRuns })),
  ]);
  const goBlueprint = median(bp!.benchNs ?? [0]);
  const goSimpleNs = simple.map((r) => median(r.benchNs ?? [0])).reduce((a, b) => a + b, 0) / simple.length;
  console.log(`blueprint: Go median ${fmtMs(goBlueprint)}; TS/Go = ${(tsBlueprint / goBlueprint).toFixed(2)}x (target <= 5x)`);
  console.log(`simple one-liners: Go median ${fmtUs(goSimpleNs)} per render = ${Math.round(1e9 / goSimpleNs)} renders/s; TS/Go = ${(tsSimpleNs / goSimpleNs).toFixed(2)}x`);
}
