// kubelet's MakePayload for configMap and secret volumes (and their projected sources): every key as a file
// named after it, or only the listed items at their paths; an item whose key is missing fails the volume
// unless the source is optional.
import type { Payload } from './atomic-writer.ts';
import type { KeyToPath } from '../../../apimachinery/api/index.ts';
import { volumeSetUpError } from './volume-errors.ts';

export interface KeyedSource {
  volumeName: string;
  /** "configmap references non-existent config key" / "references non-existent secret key" (kubelet's words). */
  missingKey: string;
  entries: ReadonlyMap<string, Buffer>;
  items: readonly KeyToPath[] | undefined;
  defaultMode: number;
  optional: boolean;
}

export function keyedPayload(source: KeyedSource): Payload {
  const payload: Payload = new Map();
  if (source.items === undefined || source.items.length === 0) {
    for (const [key, content] of source.entries) payload.set(key, { content, mode: source.defaultMode });
    return payload;
  }
  for (const item of source.items) {
    const content = source.entries.get(item.key);
    if (content === undefined) {
      if (source.optional) continue;
      throw volumeSetUpError(source.volumeName, `${source.missingKey}: ${item.key}`);
    }
    payload.set(item.path, { content, mode: item.mode ?? source.defaultMode });
  }
  return payload;
}
