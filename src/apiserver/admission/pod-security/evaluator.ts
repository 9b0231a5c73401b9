// Which checks a level and version run, in kube's order (baseline checks, then restricted, each by id), and the
// verdict they add up to (policy/registry.go, policy/checks.go). Versions past the server's own minor evaluate as
// the server's (latest): a v1.40 label on a 1.32 server gets the 1.32 checks, as kube-apiserver clamps to its version.
import { serverVersion } from '../../discovery/version.ts';
import { baselineChecks } from './baseline-checks.ts';
import type { LevelVersion } from './policy-levels.ts';
import type { Check, CheckPod, PodParts } from './pod-fields.ts';
import { restrictedChecks } from './restricted-checks.ts';

const LATEST_MINOR = Number(serverVersion.minor);

/** The version of a check in force at `minor`, if the check exists yet. */
function versionAt(check: Check, minor: number): Check['versions'][number] | undefined {
  return check.versions.filter((v) => v.minimum <= minor).at(-1);
}

const byId = (a: Check, b: Check) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const baselineOrdered = [...baselineChecks].sort(byId);
const restrictedOrdered = [...restrictedChecks].sort(byId);

const cache = new Map<string, CheckPod[]>();

function checksFor(level: 'baseline' | 'restricted', minor: number): CheckPod[] {
  const key = `${level}:${minor}`;
  const known = cache.get(key);
  if (known) return known;
  const restricted = level === 'restricted' ? restrictedOrdered.flatMap((c) => versionAt(c, minor) ?? []) : [];
  const overridden = new Set(restricted.flatMap((v) => v.overrides ?? []));
  const baseline = baselineOrdered.filter((c) => !overridden.has(c.id)).flatMap((c) => versionAt(c, minor) ?? []);
  const checks = [...baseline, ...restricted].map((v) => v.check);
  cache.set(key, checks);
  return checks;
}

/** The failed checks' reasons and details, in order; empty when the pod is allowed. */
export interface Verdict {
  readonly reasons: readonly string[];
  /** `reason (detail), reason (detail)`: AggregateCheckResult.ForbiddenDetail. */
  readonly detail: string;
}

export function evaluatePod(lv: LevelVersion, pod: PodParts): Verdict {
  if (lv.level === 'privileged') return { reasons: [], detail: '' };
  const minor = lv.version === 'latest' ? LATEST_MINOR : Math.min(lv.version, LATEST_MINOR);
  const failed = checksFor(lv.level, minor).flatMap((check) => check(pod) ?? []);
  return {
    reasons: failed.map((f) => f.reason || 'unknown forbidden reason'),
    detail: failed.map((f) => `${f.reason || 'unknown forbidden reason'}${f.detail ? ` (${f.detail})` : ''}`).join(', '),
  };
}
