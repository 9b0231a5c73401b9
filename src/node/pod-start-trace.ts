// BOSUN_POD_START_TRACE=FILE: the node agent appends one JSON line per step of a pod's start to FILE, {pod (uid),
// step, at (epoch ms, sub-millisecond)}, so that `npm run bench:images` can say where a start's time goes (and
// `npm run bench:node`, which writes its burst's pods beside the file, FILE.burst.json, to join by uid). Unset,
// as always outside those benchmarks, every call is one comparison.
import { appendFileSync } from 'node:fs';

const traceFile = process.env['BOSUN_POD_START_TRACE'];

/** Records that the pod's start reached `step` now. */
export function tracePodStart(podUid: string, step: string): void {
  if (traceFile === undefined || traceFile === '') return;
  appendFileSync(traceFile, `${JSON.stringify({ pod: podUid, step, at: performance.timeOrigin + performance.now() })}\n`);
}
