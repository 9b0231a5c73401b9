// The Pod Security Standards' levels and versions, and how a Namespace's pod-security.kubernetes.io labels pick
// the policy of each mode (k8s.io/pod-security-admission/api): a label that is absent takes the cluster default,
// a label that cannot be parsed counts as restricted:latest for enforce and privileged for audit and warn.
import type { StatusCause } from '../../../apimachinery/object.ts';
import { POD_SECURITY_ENFORCE_LABEL } from '../../../apimachinery/pod-security-labels.ts';

export type Level = 'privileged' | 'baseline' | 'restricted';
export const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** A policy version: `latest`, or v1.<minor>. */
export type Version = 'latest' | number;

export interface LevelVersion {
  readonly level: Level;
  readonly version: Version;
}

export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

const LABEL_PREFIX = 'pod-security.kubernetes.io/';
const labelsOf = (mode: 'enforce' | 'audit' | 'warn') => ({
  level: mode === 'enforce' ? POD_SECURITY_ENFORCE_LABEL : `${LABEL_PREFIX}${mode}`,
  version: `${LABEL_PREFIX}${mode}-version`,
});

/** Audit annotations carry the label prefix (api.AuditAnnotationPrefix). */
export const AUDIT_VIOLATIONS_ANNOTATION = `${LABEL_PREFIX}audit-violations`;
export const ENFORCE_POLICY_ANNOTATION = `${LABEL_PREFIX}enforce-policy`;

export function isLevel(value: string): value is Level {
  return (LEVELS as readonly string[]).includes(value);
}

export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${lv.version === 'latest' ? 'latest' : `v1.${lv.version}`}`;
}

/** -1, 0 or 1 as `a` is less, as or more strict than `b`. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(LEVELS.indexOf(a) - LEVELS.indexOf(b));
}

/** The cluster default: every mode at `level`, latest version (PodSecurityConfiguration.defaults). */
export function defaultPolicy(level: Level): Policy {
  const lv = { level, version: 'latest' as const };
  return { enforce: lv, audit: lv, warn: lv };
}

export function fullyPrivileged(policy: Policy): boolean {
  return policy.enforce.level === 'privileged' && policy.audit.level === 'privileged' && policy.warn.level === 'privileged';
}

const VERSION = /^v1\.(0|[1-9][0-9]*)$/;

function invalidLabel(label: string, value: string, why: string): StatusCause {
  return { reason: 'FieldValueInvalid', field: `metadata.labels[${label}]`, message: `Invalid value: ${JSON.stringify(value)}: ${why}` };
}

/**
 * api.PolicyToEvaluate: the policy the labels ask for over `defaults`, and what is wrong with them. warn follows
 * an explicitly stricter enforce level when it has no label of its own.
 */
export function policyFromLabels(labels: Readonly<Record<string, string>> | undefined, defaults: Policy): { policy: Policy; causes: StatusCause[] } {
  const causes: StatusCause[] = [];
  if (!labels) return { policy: defaults, causes };
  const read = (mode: 'enforce' | 'audit' | 'warn', failLevel: Level): { lv: LevelVersion; levelSet: boolean; versionSet: boolean } => {
    const names = labelsOf(mode);
    let { level, version } = defaults[mode];
    const levelValue = labels[names.level];
    let levelSet = false;
    if (levelValue !== undefined) {
      if (isLevel(levelValue)) {
        level = levelValue;
        levelSet = true;
      } else {
        level = failLevel;
        causes.push(invalidLabel(names.level, levelValue, `must be one of ${LEVELS.join(', ')}`));
      }
    }
    const versionValue = labels[names.version];
    if (versionValue !== undefined) {
      const match = VERSION.exec(versionValue);
      if (versionValue === 'latest') version = 'latest';
      else if (match) version = Number(match[1]);
      else {
        version = 'latest';
        causes.push(invalidLabel(names.version, versionValue, 'must be "latest" or "v1.x"'));
      }
    }
    return { lv: { level, version }, levelSet, versionSet: versionValue !== undefined };
  };
  const enforce = read('enforce', 'restricted');
  const audit = read('audit', 'privileged');
  const warn = read('warn', 'privileged');
  let warnLv = warn.lv;
  // A label that was present (even unparseable) counts as set for warn; only a valid enforce level is followed.
  const warnLevelSet = labels[labelsOf('warn').level] !== undefined;
  if (!warnLevelSet && enforce.levelSet && compareLevels(enforce.lv.level, warnLv.level) > 0) {
    warnLv = { level: enforce.lv.level, version: warn.versionSet ? warnLv.version : enforce.lv.version };
  }
  return { policy: { enforce: enforce.lv, audit: audit.lv, warn: warnLv }, causes };
}
