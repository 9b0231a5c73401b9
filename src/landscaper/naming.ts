// Upstream names and labels of the objects Landscaper derives from installations:
// DataObjects and Targets of imports/exports (apis/core/v1alpha1/helper/dataobjects.go,
// pkg/landscaper/dataobjects), the execution's export DataObject and the template-state Secrets.
import { createHash } from 'node:crypto';
import {
  DATA_OBJECT_CONTEXT_LABEL,
  DATA_OBJECT_HASH_ANNOTATION,
  DATA_OBJECT_INDEX_LABEL,
  DATA_OBJECT_JOB_ID_LABEL,
  DATA_OBJECT_KEY_LABEL,
  DATA_OBJECT_SOURCE_LABEL,
  DATA_OBJECT_SOURCE_TYPE_LABEL,
  DATA_OBJECT_TARGET_MAP_KEY_LABEL,
  EXECUTION_PREFIX,
  INSTALLATION_PREFIX,
  NON_CONTEXTIFIED_PREFIX,
  type DataObjectSourceType,
} from './api/constants.ts';
import type { AnyJSON } from './api/shared.ts';
import { goJSONMarshalIndent } from './go-json.ts';

const BASE32_LOWER = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 with a lowercase alphabet and no padding (Kubernetes-safe names). */
export function base32LowerNoPad(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_LOWER[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32_LOWER[(value << (5 - bits)) & 31];
  return out;
}

const sha1 = (s: string | Uint8Array): Buffer => createHash('sha1').update(s).digest();

const DNS_SUBDOMAIN = /^([a-z0-9]|([a-z0-9][a-z0-9.-]*[a-z0-9]))$/;

/**
 * GenerateDataObjectName: "#name" → name (not contextified); root scope ("" context) keeps
 * DNS-subdomain names as they are; otherwise base32(SHA-1("<context>/<name>")).
 */
export function generateDataObjectName(context: string, name: string): string {
  if (name.startsWith(NON_CONTEXTIFIED_PREFIX)) return name.slice(NON_CONTEXTIFIED_PREFIX.length);
  if (context === '' && DNS_SUBDOMAIN.test(name)) return name;
  return base32LowerNoPad(sha1(`${context}/${name}`));
}

/** Name of the index-th Target of a targetList import ("<name>[<index>]"). */
export function generateDataObjectNameWithIndex(context: string, name: string, index: number): string {
  return generateDataObjectName(context, `${name}[${index}]`);
}

/** Name of a targetMap import's Target for one key ("<name>[<key>]"). */
export function generateTargetNameWithKey(context: string, name: string, key: string): string {
  return generateDataObjectName(context, `${name}[${key}]`);
}

/** Source/context label value of an installation: "Inst.<name>". */
export function installationSource(installationName: string): string {
  return INSTALLATION_PREFIX + installationName;
}

/** Source/context label value of an execution: "Exec.<name>". */
export function executionSource(executionName: string): string {
  return EXECUTION_PREFIX + executionName;
}

/**
 * The scope an installation imports from and exports to: "" for a root, "Inst.<parent>" otherwise.
 * Its own imports (for its subinstallations) live in installationSource(name).
 */
export function installationScopeContext(parentName: string | undefined): string {
  return parentName === undefined || parentName === '' ? '' : installationSource(parentName);
}

/** The DataObject into which an execution collects its deploy items' exports. */
export function executionExportDataObjectName(executionName: string): string {
  return generateDataObjectName(executionSource(executionName), '');
}

export interface DataObjectMetadata {
  context: string;
  sourceType?: DataObjectSourceType;
  source?: string;
  key?: string;
  /** targetList member index. */
  index?: number;
  targetMapKey?: string;
  jobID?: string;
}

/** The labels of a Landscaper-managed DataObject or Target (empty values are left out, as upstream). */
export function dataObjectLabels(meta: DataObjectMetadata): Record<string, string> {
  const labels: Record<string, string> = {};
  if (meta.context !== '') labels[DATA_OBJECT_CONTEXT_LABEL] = meta.context;
  if (meta.sourceType !== undefined) labels[DATA_OBJECT_SOURCE_TYPE_LABEL] = meta.sourceType;
  if (meta.source !== undefined && meta.source !== '') labels[DATA_OBJECT_SOURCE_LABEL] = meta.source;
  if (meta.key !== undefined && meta.key !== '') labels[DATA_OBJECT_KEY_LABEL] = meta.key;
  if (meta.index !== undefined) labels[DATA_OBJECT_INDEX_LABEL] = String(meta.index);
  if (meta.targetMapKey !== undefined) labels[DATA_OBJECT_TARGET_MAP_KEY_LABEL] = meta.targetMapKey;
  if (meta.jobID !== undefined && meta.jobID !== '') labels[DATA_OBJECT_JOB_ID_LABEL] = meta.jobID;
  return labels;
}

/** SHA-1 hex of raw stored bytes (the data.landscaper.gardener.cloud/hash annotation). */
export function dataHash(raw: string | Uint8Array): string {
  return createHash('sha1').update(raw).digest('hex');
}

/** A DataObject's stored data (Go json.MarshalIndent) and its hash annotation. */
export function encodeDataObjectData(data: AnyJSON): { raw: string; annotations: Record<string, string> } {
  const raw = goJSONMarshalIndent(data);
  return { raw, annotations: { [DATA_OBJECT_HASH_ANNOTATION]: dataHash(raw) } };
}

export type TemplateStateKind = 'deploy' | 'export';

/**
 * Name of the Secret (key "config", owner = installation) holding a GoTemplate execution's state:
 * base32(SHA-1("<installation>/<deploy|export><execution name>")). Subinstallation executions use
 * the "deploy" prefix, as upstream does.
 */
export function templateStateSecretName(installationName: string, kind: TemplateStateKind, executionName: string): string {
  return base32LowerNoPad(sha1(`${installationName}/${kind}${executionName}`));
}
