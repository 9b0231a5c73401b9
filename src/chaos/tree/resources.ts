// What a Disruption's tree is built from: the disruptions and target pods of its namespace, the chaos pods of the
// chaos namespace (they carry no owner reference: they are found by their labels) and the nodes (node level).
import { nodesResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import type { SnapshotResources } from '../../runtime/index.ts';
import { disruptionsResource } from '../api/resources.ts';

export type DisruptionTreeKey = 'disruptions' | 'pods' | 'chaosPods' | 'nodes';

export function disruptionTreeResources(chaosNamespace: string): SnapshotResources<DisruptionTreeKey> {
  return {
    disruptions: disruptionsResource,
    pods: podsResource,
    chaosPods: { resource: podsResource, namespace: chaosNamespace },
    nodes: { resource: nodesResource, namespace: null },
  };
}
