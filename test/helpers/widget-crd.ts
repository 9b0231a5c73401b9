// The test suites' custom resource: example.com/v1 Widget, namespaced, with the schema and subresources a test needs.
import type { KubeObject } from '../../src/apimachinery/object.ts';

const PRESERVE_UNKNOWN = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

export function widgetCrd(version: Record<string, unknown> = {}, openAPIV3Schema: Record<string, unknown> = PRESERVE_UNKNOWN): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema }, ...version }],
    },
  };
}
