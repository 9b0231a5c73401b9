// DataObject (types_dataobject.go): a piece of JSON data passed between installations.
import type { ObjectMeta } from '../../apimachinery/object.ts';
import type { AnyJSON } from './shared.ts';

// A type literal (not an interface) so that it is assignable to KubeObject's index signature.
export type DataObject = {
  apiVersion: 'landscaper.gardener.cloud/v1alpha1';
  kind: 'DataObject';
  metadata: ObjectMeta;
  /** Top level, no spec. */
  data?: AnyJSON;
};
