// The HTTP ceiling for bench:apiserver: a Node https server that only parses the JSON body and echoes it,
// with the same certificate, so the bench can tell what TLS + HTTP cost on this machine before Bosun does anything.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';

const [dataDir, port] = process.argv.slice(2);
const server = createServer({ cert: readFileSync(`${dataDir}/serving.crt`), key: readFileSync(`${dataDir}/serving.key`) }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = (chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {}) as Record<string, unknown>;
    const json = JSON.stringify({ ...body, metadata: { ...(body['metadata'] as object), resourceVersion: '1' } });
    res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  });
});
server.listen(Number(port), '127.0.0.1', () => console.log('ready'));
