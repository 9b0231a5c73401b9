// meta.k8s.io/v1 Table rendering, as apiextensions' tableconvertor and the built-in printers produce it.
import { findResults, formatJsonPathValue, parseJsonPath, type JsonPath } from '../../apimachinery/jsonpath.ts';
import type { KubeObject, ListMeta } from '../../apimachinery/object.ts';

/** A CRD's additionalPrinterColumns entry. */
export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: 'meta.k8s.io/v1';
  metadata: KubeObject['metadata'];
}

export interface TableRow {
  cells: unknown[];
  /** null for includeObject=None: Go's empty RawExtension marshals as null. */
  object: KubeObject | PartialObjectMetadata | null;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  /** null when headers were not asked for (the Go field has no omitempty). */
  columnDefinitions: TableColumnDefinition[] | null;
  rows: TableRow[];
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  includeObject: IncludeObject;
  now: Date;
  listMeta?: ListMeta;
  /** false when the client sent noHeaders (watch events after the first). Default true. */
  includeHeaders?: boolean;
}

/** Columns plus a function that turns one object into its cells; built-in kinds supply their own. */
export interface RowPrinter {
  readonly columnDefinitions: readonly TableColumnDefinition[];
  cells(obj: KubeObject, now: Date): unknown[];
}

export class PrinterColumnError extends Error {
  override readonly name = 'PrinterColumnError' as const;
}

export const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

export const CREATION_TIMESTAMP_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** The column a CRD gets when it declares no additionalPrinterColumns. */
export const DEFAULT_AGE_COLUMN: PrinterColumn = {
  name: 'Age',
  type: 'date',
  description: CREATION_TIMESTAMP_DESCRIPTION,
  jsonPath: '.metadata.creationTimestamp',
};

const printerCache = new WeakMap<readonly PrinterColumn[], RowPrinter>();

/** Compiles printer columns once (JSONPath parsing) and caches by array identity. */
export function customResourcePrinter(columns: readonly PrinterColumn[]): RowPrinter {
  const cached = printerCache.get(columns);
  if (cached) return cached;
  const effective = columns.length > 0 ? columns : [DEFAULT_AGE_COLUMN];
  const paths: JsonPath[] = [];
  const defs: TableColumnDefinition[] = [{ name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 }];
  for (const col of effective) {
    try {
      paths.push(parseJsonPath(`{${col.jsonPath}}`));
    } catch {
      throw new PrinterColumnError(`unrecognized column definition "${col.jsonPath}"`);
    }
    defs.push({
      name: col.name,
      type: col.type,
      format: col.format ?? '',
      description: col.description || `Custom resource definition column (in JSONPath format): ${col.jsonPath}`,
      priority: col.priority ?? 0,
    });
  }
  const printer: RowPrinter = {
    columnDefinitions: defs,
    cells(obj, now) {
      const cells: unknown[] = [obj.metadata.name ?? ''];
      paths.forEach((path, i) => {
        const results = findResults(path, obj);
        const first = results[0];
        if (!first || first.length === 0) {
          cells.push(null);
          return;
        }
        const value = first[0];
        const type = effective[i]?.type ?? 'string';
        if (type === 'string') cells.push(value === null || value === undefined ? null : formatJsonPathValue(value));
        else cells.push(cellForJsonValue(type, value, now));
      });
      return cells;
    },
  };
  printerCache.set(columns, printer);
  return printer;
}

/** tableconvertor's cellForJSONValue: a value of the wrong JSON type becomes null. */
export function cellForJsonValue(type: string, value: unknown, now: Date): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      if (value === '' || value === 'null') return '<unknown>'; // Go's zero metav1.Time
      const t = parseRfc3339(value);
      if (t === undefined) return '<invalid>';
      return humanDuration(now.getTime() - t);
    }
    default:
      return null;
  }
}

function parseRfc3339(s: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s)) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

/** metatable.ConvertToHumanReadableDateType / kubectl's translateTimestampSince. */
export function age(timestamp: string | undefined, now: Date): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(now.getTime() - t);
}

/** apimachinery's duration.HumanDuration, for a duration in milliseconds. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

function rowObject(obj: KubeObject, include: IncludeObject): TableRow['object'] {
  if (include === 'None') return null;
  if (include === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

/**
 * Renders objects as a Table. `columns` is a CRD version's additionalPrinterColumns (empty → Name + Age)
 * or a built-in RowPrinter.
 */
export function toTable(objects: readonly KubeObject[], columns: readonly PrinterColumn[] | RowPrinter, opts: TableOptions): Table {
  const printer = isRowPrinter(columns) ? columns : customResourcePrinter(columns);
  const metadata: ListMeta = {};
  if (opts.listMeta?.resourceVersion !== undefined) metadata.resourceVersion = opts.listMeta.resourceVersion;
  if (opts.listMeta?.continue) metadata.continue = opts.listMeta.continue;
  if (opts.listMeta?.remainingItemCount !== undefined) metadata.remainingItemCount = opts.listMeta.remainingItemCount;
  const columnDefinitions = opts.includeHeaders === false ? null : printer.columnDefinitions.map((c) => ({ ...c }));
  const table: Table = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata, columnDefinitions, rows: [] };
  for (const obj of objects) table.rows.push({ cells: printer.cells(obj, opts.now), object: rowObject(obj, opts.includeObject) });
  return table;
}

function isRowPrinter(c: readonly PrinterColumn[] | RowPrinter): c is RowPrinter {
  return !Array.isArray(c);
}
