// A separate watching client for bench:apiserver, so receive times are not delayed by the writer's own
// event loop. Prints "ready" once the watch is open, then one JSON object {name: receivedAtMs} at the end.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';

const [port, dataDir, resourceVersion, countArg] = process.argv.slice(2);
const count = Number(countArg);
const token = readFileSync(`${dataDir}/token`, 'utf8').trim();
const ca = readFileSync(`${dataDir}/serving.crt`, 'utf8');
const received: Record<string, number> = {};
let seen = 0;
const wallNow = () => performance.timeOrigin + performance.now();

const req = request({
  host: '127.0.0.1',
  port: Number(port),
  path: `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${resourceVersion}&labelSelector=app%3Dwatch`,
  ca,
  headers: { authorization: `Bearer ${token}` },
});
const finish = () => {
  process.stdout.write(`${JSON.stringify(received)}\n`, () => process.exit(0));
};
req.on('response', (res) => {
  console.log('ready');
  let buffer = '';
  res.on('data', (chunk: Buffer) => {
    const now = wallNow();
    buffer += chunk.toString();
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const name = (JSON.parse(line) as { object: { metadata: { name: string } } }).object.metadata.name;
      received[name] = now;
      if (++seen === count) finish();
    }
  });
});
req.end();
setTimeout(finish, 60_000).unref();
