// The writer side of bench:apiserver's watch latency: a fresh process (no garbage from the earlier phases)
// that creates one labelled ConfigMap per millisecond and prints {name: sentAtMs} at the end.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';

const [port, dataDir, countArg] = process.argv.slice(2);
const count = Number(countArg);
const token = readFileSync(`${dataDir}/token`, 'utf8').trim();
const agent = new Agent({ keepAlive: true, maxSockets: 32, ca: readFileSync(`${dataDir}/serving.crt`, 'utf8') });
const wallNow = () => performance.timeOrigin + performance.now();

function create(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ metadata: { name, labels: { app: name.startsWith('warm') ? 'warm-up' : 'watch' } } });
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(port),
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

// Warm the connections first, so TLS handshakes are not counted as watch latency.
await Promise.all(Array.from({ length: 8 }, (_, i) => create(`warm-${i}`)));
const sent: Record<string, number> = {};
const inflight: Promise<void>[] = [];
const start = performance.now();
for (let i = 0; i < count; i++) {
  const wait = start + i - performance.now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  const name = `w-${i}`;
  sent[name] = wallNow();
  inflight.push(create(name));
}
await Promise.all(inflight);
const rate = (count / (performance.now() - start)) * 1000;
process.stdout.write(`${JSON.stringify({ rate, sent })}\n`, () => process.exit(0));
