// The one encoding of an Execution spec's deploy item list, for everyone who writes or reads it (the
// installation writes it, the execution and validation read it). Upstream's ExecutionSpec.MarshalJSON
// always gzips the list into deployItemsCompressed (base64 on the wire) and UnmarshalJSON inflates it,
// so a compressed list wins over a plain one.
import { gunzipSync, gzipSync } from 'node:zlib';
import type { DeployItemTemplate, ExecutionSpec } from './execution.ts';
import { messageOf } from '../../apimachinery/error-message.ts';
import { FrozenCache } from '../frozen-cache.ts';

/** spec.deployItemsCompressed is not gzipped JSON of a deploy item list. */
export class DeployItemsCompressedError extends Error {
  override readonly name = 'DeployItemsCompressedError' as const;
}

/**
 * Decoded lists by their compressed form. Every reconcile of an execution reads the same list, and with
 * 1,000 items gunzip + JSON.parse cost milliseconds each time; the lists are frozen so sharing is safe.
 */
const decoded = new FrozenCache<readonly DeployItemTemplate[]>(64);

/** The deploy item templates of an execution, from either form (a compressed list is decoded once and shared, frozen). */
export function deployItemTemplates(spec: ExecutionSpec | undefined): readonly DeployItemTemplate[] {
  const compressed = spec?.deployItemsCompressed;
  if (compressed !== undefined && compressed !== '') return decoded.get(compressed, () => decodeDeployItemsCompressed(compressed));
  return spec?.deployItems ?? [];
}

export function decodeDeployItemsCompressed(base64: string): DeployItemTemplate[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(gunzipSync(Buffer.from(base64, 'base64')).toString('utf8'));
  } catch (err) {
    throw new DeployItemsCompressedError(`unable to gunzip deployitems of execution spec: ${messageOf(err)}`, { cause: err });
  }
  if (parsed === null) return [];
  if (!Array.isArray(parsed) || !parsed.every((t) => typeof t === 'object' && t !== null && typeof (t as { name?: unknown }).name === 'string')) {
    throw new DeployItemsCompressedError('unable to unmarshal deployitems of execution spec: expected a list of deploy item templates');
  }
  return parsed as DeployItemTemplate[];
}

/** base64(gzip(JSON)) of a deploy item list: the form upstream writes. */
export function encodeDeployItemsCompressed(items: readonly DeployItemTemplate[]): string {
  return gzipSync(Buffer.from(JSON.stringify(items), 'utf8')).toString('base64');
}

/** The spec as upstream writes it: the list compressed, the plain field omitted. */
export function compressExecutionSpec(spec: ExecutionSpec): ExecutionSpec {
  const items = deployItemTemplates(spec);
  const { deployItems: _plain, deployItemsCompressed: _old, ...rest } = spec;
  return items.length > 0 ? { ...rest, deployItemsCompressed: encodeDeployItemsCompressed(items) } : rest;
}
