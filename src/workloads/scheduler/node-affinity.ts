// nodeSelector and required node affinity (component-helpers' nodeaffinity): terms are ORed, the expressions of
// a term ANDed; matchFields may only name metadata.name.
import type { Node, NodeSelectorRequirement, Pod } from '../../apimachinery/api/index.ts';

function matchRequirement(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1 || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(values[0] ?? '')) return false;
      const [have, want] = [Number(value), Number(values[0])];
      return r.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

export function matchesNodeAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [key, value] of Object.entries(pod.spec.nodeSelector ?? {})) if (labels[key] !== value) return false;
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms === undefined) return true;
  return terms.some((term) => {
    const expressions = term.matchExpressions ?? [];
    const fields = term.matchFields ?? [];
    // An empty term matches nothing.
    if (expressions.length === 0 && fields.length === 0) return false;
    return (
      expressions.every((r) => matchRequirement(r, labels[r.key])) &&
      fields.every((r) => r.key === 'metadata.name' && matchRequirement(r, node.metadata.name))
    );
  });
}
