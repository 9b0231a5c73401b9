// Helm's release record (helm.sh/helm/v3/pkg/release.Release) with Helm's JSON field names, and its encoding in
// release storage (pkg/storage/driver/util.go): base64 of the gzipped JSON. A release Bosun writes decodes in
// `helm list`, `helm history` and `helm get`, and one Helm wrote decodes here.
import { gunzipSync, gzipSync, constants as zlib } from 'node:zlib';
import type { Chart } from '../chart.ts';
import type { Hook } from '../sort.ts';

export type ReleaseStatus = 'unknown' | 'deployed' | 'uninstalled' | 'superseded' | 'failed' | 'uninstalling' | 'pending-install' | 'pending-upgrade' | 'pending-rollback';

export interface ReleaseInfo {
  first_deployed: string;
  last_deployed: string;
  /** '' until the release is uninstalled (Helm's zero time). */
  deleted: string;
  description: string;
  status: ReleaseStatus;
  notes?: string;
}

export interface ReleaseHookRecord {
  name: string;
  kind: string;
  path: string;
  manifest: string;
  events: string[];
  last_run: { started_at: string; completed_at: string; phase: string };
  weight: number;
  delete_policies: string[];
  output_log_policies?: string[];
}

/** The chart as a release keeps it: the root chart only (Helm does not serialize subcharts), files as base64. */
export interface ReleaseChart {
  metadata: Record<string, unknown>;
  lock: unknown;
  templates: { name: string; data: string }[];
  values: Record<string, unknown>;
  schema: string | null;
  files: { name: string; data: string }[];
}

export interface Release {
  name: string;
  info: ReleaseInfo;
  chart: ReleaseChart;
  config: Record<string, unknown>;
  manifest: string;
  hooks: ReleaseHookRecord[];
  version: number;
  namespace: string;
  labels?: Record<string, string>;
}

/** bigint values (int64 from --set) as JSON numbers. */
function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value;
}

export function releaseChart(chart: Chart): ReleaseChart {
  const { dependencies: _deps, ...metadata } = chart.metadata;
  return {
    metadata: { ...metadata, ...(chart.metadata.dependencies ? { dependencies: chart.metadata.dependencies } : {}) },
    lock: null,
    templates: chart.templates.map((f) => ({ name: f.name, data: f.data.toString('base64') })),
    values: JSON.parse(JSON.stringify(chart.values, jsonReplacer)) as Record<string, unknown>,
    schema: chart.schema ? chart.schema.toString('base64') : null,
    files: chart.files.map((f) => ({ name: f.name, data: f.data.toString('base64') })),
  };
}

/** A rendered hook as the release records it, not yet run. */
export function hookRecord(hook: Hook): ReleaseHookRecord {
  const kindOf = /^kind:\s*(\S+)/m.exec(hook.content)?.[1] ?? hook.kind;
  return {
    name: hook.hookName,
    kind: kindOf,
    path: hook.name,
    manifest: hook.content,
    events: hook.events,
    last_run: { started_at: '', completed_at: '', phase: '' },
    weight: hook.weight,
    delete_policies: hook.deletePolicies,
    ...(hook.outputLogPolicies.length > 0 ? { output_log_policies: hook.outputLogPolicies } : {}),
  };
}

/** What storage keeps: base64(gzip(JSON)), as Helm's encodeRelease (best compression). */
export function encodeRelease(release: Release): string {
  return gzipSync(Buffer.from(JSON.stringify(release, jsonReplacer)), { level: zlib.Z_BEST_COMPRESSION }).toString('base64');
}

/** Helm's decodeRelease: base64, then gunzip when the bytes carry gzip's magic (older Helm stored plain JSON). */
export function decodeRelease(data: string): Release {
  const bytes = Buffer.from(data, 'base64');
  const json = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  return JSON.parse(json.toString('utf8')) as Release;
}

/** Go's time.Time JSON: RFC 3339 with nanoseconds (Helm writes time.Now()). */
export function helmNow(date = new Date()): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}
