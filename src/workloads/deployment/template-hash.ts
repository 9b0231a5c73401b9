// The pod-template-hash of a Deployment's template (controller.ComputeHash): FNV-32a over the template, plus
// the collision count, printed in decimal and encoded with rand.SafeEncodeString's alphabet. Upstream hashes the
// Go struct's printed form; here the hash is over the template's canonical JSON with empty values dropped, the
// same equivalence apimachinery's semantic equality uses (an empty map, list or struct equals an absent one), so a
// template that kubectl round-tripped hashes the same. The values differ from kube-controller-manager's; their
// shape and use (ReplicaSet names, the label) do not.
import type { PodTemplateSpec } from '../../apimachinery/api/index.ts';

export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

export function safeEncodeString(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += alphanums[text.charCodeAt(i) % alphanums.length];
  return out;
}

/** Drops null, empty objects and empty lists; orders keys. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(canonical).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = canonical((value as Record<string, unknown>)[key]);
      if (v !== undefined) out[key] = v;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return value === null ? undefined : value;
}

function fnv32a(bytes: Uint8Array, hash = 0x811c9dc5): number {
  let h = hash;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function computeHash(template: PodTemplateSpec, collisionCount: number | undefined): string {
  let hash = fnv32a(new TextEncoder().encode(JSON.stringify(canonical(template)) ?? ''));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv32a(bytes, hash);
  }
  return safeEncodeString(String(hash));
}

function withoutHash(template: PodTemplateSpec): PodTemplateSpec {
  const copy = structuredClone(template);
  if (copy.metadata?.labels) delete copy.metadata.labels[POD_TEMPLATE_HASH_LABEL];
  return copy;
}

/** deploymentutil.EqualIgnoreHash: the templates are equal apart from the pod-template-hash label. */
export function equalIgnoringHash(a: PodTemplateSpec, b: PodTemplateSpec): boolean {
  return JSON.stringify(canonical(withoutHash(a))) === JSON.stringify(canonical(withoutHash(b)));
}
