// Which objects a list or watch request selects: namespace, label selector, field selector.
import type { KubeObject } from '../../apimachinery/object.ts';
import { FieldSelectorError, matchesFields, parseFieldSelector } from '../../apimachinery/field-selector.ts';
import { LabelSelectorError, matchesLabels, parseLabelSelector } from '../../apimachinery/label-selector.ts';
import { errors } from '../../apimachinery/status-error.ts';
import type { ResourceType } from '../registry/resource-type.ts';

export type Selection = (object: KubeObject) => boolean;

/**
 * A `key=value` requirement of the request's label selector (the first, if several), which the store's
 * label index can answer; the selection still filters what it returns. Call after selectionFor checked it.
 */
export function selectedLabel(query: URLSearchParams): { label: string; value: string } | undefined {
  for (const r of parseLabelSelector(query.get('labelSelector') ?? '')) {
    if (r.op === 'in' && r.values.length === 1) return { label: r.key, value: r.values[0]! };
  }
  return undefined;
}

export function selectionFor(type: ResourceType, namespace: string | undefined, query: URLSearchParams): Selection {
  let labels;
  let fields;
  try {
    labels = parseLabelSelector(query.get('labelSelector') ?? '');
    fields = parseFieldSelector(query.get('fieldSelector') ?? '');
  } catch (error) {
    if (error instanceof LabelSelectorError || error instanceof FieldSelectorError) throw errors.badRequest(error.message);
    throw error;
  }
  for (const f of fields) {
    if (f.field !== 'metadata.name' && f.field !== 'metadata.namespace' && !(f.field in type.fieldSelectors)) {
      throw errors.badRequest(`field label not supported: ${f.field}`);
    }
  }
  const fieldOf = (object: KubeObject) => (field: string) => {
    if (field === 'metadata.name') return object.metadata.name;
    if (field === 'metadata.namespace') return object.metadata.namespace;
    return type.fieldSelectors[field]?.(object);
  };
  return (object) =>
    (namespace === undefined || object.metadata.namespace === namespace) &&
    (labels.length === 0 || matchesLabels(labels, object.metadata.labels)) &&
    (fields.length === 0 || matchesFields(fields, fieldOf(object)));
}
