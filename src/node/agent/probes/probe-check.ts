// One probe attempt as kubelet's prober makes it: exec in the container (success is exit code 0), an HTTP
// GET (success is a status from 200 to 399; redirects are not followed), or a TCP connect. Each attempt
// ends within the probe's timeout.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import type { RunningContainer } from '../container-runtime.ts';
import type { ContainerPort, HTTPGetAction, Probe, TCPSocketAction } from '../../../apimachinery/api/index.ts';

export interface ProbeOutcome {
  success: boolean;
  /** What kubelet puts after "Readiness probe failed: ". */
  output: string;
}

export interface ProbeTarget {
  handle: RunningContainer;
  /** podIP, or 127.0.0.1 for a pod on the host's network. */
  host: string;
  ports: readonly ContainerPort[];
}

const MAX_OUTPUT = 10 * 1024;

function resolvePort(port: number | string, ports: readonly ContainerPort[]): number {
  if (typeof port === 'number') return port;
  const named = ports.find((p) => p.name === port);
  if (named) return named.containerPort;
  const number = Number(port);
  if (Number.isInteger(number) && number > 0) return number;
  throw new Error(`unable to find port "${port}" in the container's ports`);
}

async function execProbe(argv: string[], target: ProbeTarget, timeoutMs: number): Promise<ProbeOutcome> {
  const process_ = await target.handle.exec(argv);
  let output = '';
  const collect = (chunk: Buffer) => {
    if (output.length < MAX_OUTPUT) output += chunk.toString('utf8');
  };
  process_.stdout.on('data', collect);
  process_.stderr.on('data', collect);
  // The output arrives on its own channels: what the command wrote may come after its exit is known.
  const outputEnded = Promise.all([process_.stdout, process_.stderr].map((stream) => new Promise((resolve) => stream.once('end', resolve).once('close', resolve))));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const result = await Promise.race([process_.exited, timedOut]);
  // A daemon the command left behind may hold the output open: wait for it no longer than the probe's timeout.
  if (result !== 'timeout') await Promise.race([outputEnded, timedOut]);
  clearTimeout(timer);
  if (result === 'timeout') {
    // The helper leads its own process group: kill what the probe started.
    if (process_.pid !== undefined) {
      try {
        process.kill(-process_.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    return { success: false, output: `command ${JSON.stringify(argv.join(' '))} timed out` };
  }
  return { success: result.exitCode === 0, output: output.trim() };
}

function httpProbe(action: HTTPGetAction, target: ProbeTarget, timeoutMs: number): Promise<ProbeOutcome> {
  const scheme = action.scheme === 'HTTPS' ? 'https' : 'http';
  const host = action.host ?? target.host;
  const port = resolvePort(action.port, target.ports);
  const path = action.path ?? '/';
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${path.startsWith('/') ? path : `/${path}`}`;
  const headers: Record<string, string> = { 'user-agent': 'kube-probe/bosun', accept: '*/*' };
  for (const h of action.httpHeaders ?? []) headers[h.name.toLowerCase()] = h.value;
  const send = scheme === 'https' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(url, { method: 'GET', headers, timeout: timeoutMs, rejectUnauthorized: false }, (res) => {
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(code >= 200 && code < 400 ? { success: true, output: '' } : { success: false, output: `HTTP probe failed with statuscode: ${code}` });
    });
    req.on('timeout', () => req.destroy(new Error('context deadline exceeded (Client.Timeout exceeded while awaiting headers)')));
    req.on('error', (error) => resolve({ success: false, output: `Get "${url}": ${error.message}` }));
    req.end();
  });
}

function tcpProbe(action: TCPSocketAction, target: ProbeTarget, timeoutMs: number): Promise<ProbeOutcome> {
  const host = action.host ?? target.host;
  const port = resolvePort(action.port, target.ports);
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    const done = (outcome: ProbeOutcome) => {
      socket.destroy();
      resolve(outcome);
    };
    socket.once('connect', () => done({ success: true, output: '' }));
    socket.once('timeout', () => done({ success: false, output: `dial tcp ${host}:${port}: i/o timeout` }));
    socket.once('error', (error) => done({ success: false, output: `dial tcp ${host}:${port}: ${error.message}` }));
  });
}

export async function runProbe(probe: Probe, target: ProbeTarget, timeoutMs: number): Promise<ProbeOutcome> {
  try {
    if (probe.exec?.command) return await execProbe(probe.exec.command, target, timeoutMs);
    if (probe.httpGet) return await httpProbe(probe.httpGet, target, timeoutMs);
    if (probe.tcpSocket) return await tcpProbe(probe.tcpSocket, target, timeoutMs);
    return { success: false, output: 'the probe names no exec, httpGet or tcpSocket handler' };
  } catch (error) {
    return { success: false, output: (error as Error).message };
  }
}
