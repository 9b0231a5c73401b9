// The watching side of the watch latency benches: a separate process, so receive times are not delayed by the
// writer's own event loop. Opens `watchers` watch streams on labelled ConfigMaps, prints "ready" once all are
// open, and at the end one JSON line {delivered, p50, p99}: latency is receipt time minus the send time the
// writer put into each object.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { SENT_AT_ANNOTATION } from './bosun-harness.ts';

const [port, dataDir, resourceVersion, countArg, watchersArg] = process.argv.slice(2);
const count = Number(countArg);
const watchers = Number(watchersArg ?? 1);
const token = readFileSync(`${dataDir}/token`, 'utf8').trim();
const ca = readFileSync(`${dataDir}/serving.crt`, 'utf8');
const latencies: number[] = [];
const wallNow = () => performance.timeOrigin + performance.now();
// The send time is found in the line, not parsed out of it: 100 watchers would otherwise spend this
// process's time on JSON.parse.
const marker = `"${SENT_AT_ANNOTATION}":"`;

let open = 0;
let readyAt = performance.now();
let cpuAtReady = process.cpuUsage();
let done = 0;
const finish = () => {
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  // This process's own CPU while it received, as % of one core: above ~90% its own queue is in the latencies.
  const cpu = process.cpuUsage(cpuAtReady);
  const consumerCpu = ((cpu.user + cpu.system) / 1000 / (performance.now() - readyAt)) * 100;
  process.stdout.write(`${JSON.stringify({ delivered: sorted.length, p50: at(0.5), p99: at(0.99), consumerCpu })}\n`, () => process.exit(0));
};

for (let w = 0; w < watchers; w++) {
  const req = request({
    host: '127.0.0.1',
    port: Number(port),
    path: `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${resourceVersion}&labelSelector=app%3Dwatch`,
    ca,
    agent: false,
    headers: { authorization: `Bearer ${token}` },
  });
  req.on('response', (res) => {
    if (++open === watchers) {
      readyAt = performance.now();
      cpuAtReady = process.cpuUsage();
      console.log('ready');
    }
    let buffer = '';
    let seen = 0;
    res.on('data', (chunk: Buffer) => {
      const now = wallNow();
      buffer += chunk.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const at = line.indexOf(marker) + marker.length;
        latencies.push(now - Number(line.slice(at, line.indexOf('"', at))));
        if (++seen === count && ++done === watchers) finish();
      }
    });
  });
  req.end();
}
setTimeout(finish, 120_000).unref();
