// CustomResourceDefinitions: registering one serves its resources at once (routes, discovery, OpenAPI) and
// marks it NamesAccepted and Established; deleting one removes every custom resource first, behind the
// customresourcecleanup finalizer, then unregisters it.
import type { KubeObject, StatusCause } from '../../apimachinery/object.ts';
import { nowTime } from '../../apimachinery/time.ts';
import { compileCustomResourceSchema } from '../crd/custom-resource-schema.ts';
import { celEngine } from '../crd/cel-engine.ts';
import { defaultCrd, prepareCrdForCreate, validateCrd } from '../crd/crd-validation.ts';
import { builtinResources } from '../registry/builtin-resources.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import type { StoreEvent } from '../storage/sqlite-store.ts';
import type { PrinterColumn } from '../table/table.ts';
import { ServerController, type ServerParts } from './server-controller.ts';

export const crdStorageKey = 'apiextensions.k8s.io/customresourcedefinitions';
const cleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: { openAPIV3Schema?: Record<string, unknown> };
  subresources?: { status?: object; scale?: object };
  additionalPrinterColumns?: PrinterColumn[];
  selectableFields?: { jsonPath: string }[];
}

interface CrdSpec {
  group: string;
  scope: 'Namespaced' | 'Cluster';
  names: { plural: string; singular?: string; kind: string; listKind?: string; shortNames?: string[]; categories?: string[] };
  versions: CrdVersion[];
}

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function selectable(path: string): (object: KubeObject) => string | undefined {
  const parts = path.replace(/^\./, '').split('.');
  return (object) => {
    let value: unknown = object;
    for (const p of parts) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[p] : undefined;
    return value === undefined || value === null ? undefined : String(value);
  };
}

/** The resource types one CRD serves: one per served version. */
export function typesOfCrd(crd: KubeObject): ResourceType[] {
  const spec = crd['spec'] as CrdSpec;
  const storage = spec.versions.find((v) => v.storage)?.name;
  return spec.versions
    .filter((v) => v.served)
    .map((v) => {
      const schema = v.schema?.openAPIV3Schema;
      const type: ResourceType = {
        group: spec.group,
        version: v.name,
        kind: spec.names.kind,
        listKind: spec.names.listKind ?? `${spec.names.kind}List`,
        plural: spec.names.plural,
        singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
        namespaced: spec.scope === 'Namespaced',
        shortNames: spec.names.shortNames ?? [],
        categories: spec.names.categories ?? [],
        verbs: allVerbs,
        statusSubresource: Boolean(v.subresources?.status),
        tracksGeneration: true,
        strategicMerge: false,
        nameRule: 'dns1123-subdomain',
        fieldSelectors: Object.fromEntries((v.selectableFields ?? []).map((f) => [f.jsonPath.replace(/^\./, ''), selectable(f.jsonPath)])),
        custom: true,
        crdName: crd.metadata.name ?? '',
        printerColumns: v.additionalPrinterColumns ?? [],
        ...(schema ? { customSchema: compileCustomResourceSchema(schema, { cel: celEngine }), openApiSchema: schema } : {}),
        ...(storage ? { storageVersion: storage } : {}),
      };
      return type;
    });
}

/** The CustomResourceDefinition type itself, with the real server's validation and defaulting. */
export function crdResourceType(): ResourceType {
  const base = builtinResources.find((t) => t.kind === 'CustomResourceDefinition')!;
  return {
    ...base,
    prepareForCreate(object) {
      prepareCrdForCreate(defaultCrd(object));
      const finalizers = object.metadata.finalizers ?? [];
      if (!finalizers.includes(cleanupFinalizer)) object.metadata.finalizers = [...finalizers, cleanupFinalizer];
    },
    prepareForUpdate(object) {
      defaultCrd(object);
    },
    validate(object: KubeObject, old: KubeObject | undefined): StatusCause[] {
      return validateCrd(object, old, { cel: celEngine });
    },
  };
}

export class CrdController extends ServerController {
  constructor(parts: ServerParts) {
    super(parts);
    for (const stored of this.store.list(crdStorageKey)) this.register(stored.object);
    this.listen();
  }

  protected observe(event: StoreEvent): void {
    if (event.resource === crdStorageKey) {
      const crd = event.current.object;
      if (event.type === 'DELETED') this.registry.removeCrd(crd.metadata.name ?? '');
      else this.register(crd);
      return;
    }
    if (event.type === 'DELETED') {
      const type = this.registry.byStorageKey(event.resource);
      if (type?.crdName) {
        const crd = this.store.get(crdStorageKey, '', type.crdName);
        if (crd?.object.metadata.deletionTimestamp) this.queue.add(type.crdName);
      }
    }
  }

  /** Synchronous, inside the write that created or changed the CRD: discovery is current before anyone asks. */
  private register(crd: KubeObject): void {
    const name = crd.metadata.name ?? '';
    this.registry.replaceCrd(name, typesOfCrd(crd));
    if (crd.metadata.deletionTimestamp) {
      this.queue.add(name);
      return;
    }
    const status = (crd['status'] ?? {}) as { conditions?: { type: string; status: string }[] };
    const established = status.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    const spec = crd['spec'] as CrdSpec;
    const storedVersions = (status as { storedVersions?: string[] }).storedVersions ?? [];
    const storage = spec.versions.find((v) => v.storage)?.name;
    const namesCurrent = JSON.stringify((status as { acceptedNames?: unknown }).acceptedNames) === JSON.stringify(spec.names);
    if (established && namesCurrent && (!storage || storedVersions.includes(storage))) return;
    const stored = this.store.get(crdStorageKey, '', name);
    const type = this.registry.byStorageKey(crdStorageKey);
    if (!stored || !type) return;
    const now = nowTime();
    this.objects.update(
      type,
      '',
      name,
      {
        ...stored.object,
        status: {
          ...status,
          acceptedNames: spec.names,
          storedVersions: storage && !storedVersions.includes(storage) ? [...storedVersions, storage] : storedVersions,
          conditions: [
            { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: now },
            { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: now },
          ],
        },
      },
      { subresource: 'status', fieldManager: 'bosun-apiextensions' },
    );
  }

  /** Deletes the CRD's objects; once none is left, releases the CRD. */
  protected process(name: string): void {
    const crd = this.store.get(crdStorageKey, '', name);
    const crdType = this.registry.byStorageKey(crdStorageKey);
    if (!crd || !crdType || !crd.object.metadata.deletionTimestamp) return;
    const spec = crd.object['spec'] as CrdSpec;
    const key = `${spec.group}/${spec.names.plural}`;
    const type = this.registry.byStorageKey(key);
    if (type) {
      for (const stored of this.store.list(key)) {
        if (!stored.object.metadata.deletionTimestamp) {
          this.objects.delete(type, stored.object.metadata.namespace ?? '', stored.object.metadata.name ?? '', { propagationPolicy: 'Background' });
        }
      }
    }
    if (this.store.count(key) > 0) return;
    const current = this.store.get(crdStorageKey, '', name);
    if (current) this.objects.mutate(crdType, current, (o) => (o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== cleanupFinalizer)));
  }

}
