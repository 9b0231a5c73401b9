// The writer side of the watch latency benches: a fresh process (no garbage from the earlier phases) that
// creates one labelled ConfigMap per millisecond, each carrying its send time, and prints {rate} at the end.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { SENT_AT_ANNOTATION } from './bosun-harness.ts';

const wallNow = () => performance.timeOrigin + performance.now();

function create(port: number, token: string, agent: Agent, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const labels = { app: name.startsWith('warm') ? 'warm-up' : 'watch' };
    const body = JSON.stringify({ metadata: { name, labels, annotations: { [SENT_AT_ANNOTATION]: String(wallNow()) } } });
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`create ${name}: ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function main(): Promise<void> {
  const [portArg, dataDir, countArg] = process.argv.slice(2);
  const port = Number(portArg);
  const count = Number(countArg);
  const token = readFileSync(`${dataDir}/token`, 'utf8').trim();
  const agent = new Agent({ keepAlive: true, maxSockets: 32, ca: readFileSync(`${dataDir}/serving.crt`, 'utf8') });
  // Warm the connections first, so TLS handshakes are not counted as watch latency.
  await Promise.all(Array.from({ length: 8 }, (_, i) => create(port, token, agent, `warm-${i}`)));
  const inflight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const wait = start + i - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inflight.push(create(port, token, agent, `w-${i}`));
  }
  await Promise.all(inflight);
  const rate = (count / (performance.now() - start)) * 1000;
  process.stdout.write(`${JSON.stringify({ rate })}\n`, () => process.exit(0));
}

await main();
