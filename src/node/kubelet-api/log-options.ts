// The query of GET /containerLogs (core/v1 PodLogOptions): parsed and checked with kube-apiserver's
// validation messages, sinceSeconds turned into a time as kubelet does.
import { parseRfc3339Nano } from './cri-log-lines.ts';
import { KubeletRequestError } from './errors.ts';

export interface LogOptions {
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  /** Lines older than this (nanoseconds since the epoch) are left out. */
  sinceNs?: bigint;
  limitBytes?: number;
}

function flag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new KubeletRequestError(400, `${name}: Invalid value: "${value}": must be a boolean`);
}

function integer(query: URLSearchParams, name: string, min: number, rule: string): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  const number = Number(value);
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(number)) throw new KubeletRequestError(400, `${name}: Invalid value: "${value}": must be an integer`);
  if (number < min) throw new KubeletRequestError(400, `${name}: Invalid value: ${number}: ${rule}`);
  return number;
}

export function parseLogOptions(query: URLSearchParams, nowMs: number = Date.now()): LogOptions {
  const options: LogOptions = { follow: flag(query, 'follow'), previous: flag(query, 'previous'), timestamps: flag(query, 'timestamps') };
  const tailLines = integer(query, 'tailLines', 0, 'must be greater than or equal to 0');
  const limitBytes = integer(query, 'limitBytes', 1, 'must be greater than 0');
  const sinceSeconds = integer(query, 'sinceSeconds', 1, 'must be greater than 0');
  const sinceTime = query.get('sinceTime');
  if (sinceSeconds !== undefined && sinceTime !== null) throw new KubeletRequestError(400, 'sinceSeconds: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
  if (tailLines !== undefined) options.tailLines = tailLines;
  if (limitBytes !== undefined) options.limitBytes = limitBytes;
  if (sinceSeconds !== undefined) options.sinceNs = BigInt(nowMs - sinceSeconds * 1000) * 1_000_000n;
  if (sinceTime !== null) {
    const ns = parseRfc3339Nano(sinceTime);
    if (ns === undefined) throw new KubeletRequestError(400, `sinceTime: Invalid value: "${sinceTime}": must be an RFC 3339 time`);
    options.sinceNs = ns;
  }
  return options;
}
