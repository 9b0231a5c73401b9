// The mutating webhook's changes, as a pure function: upstream's SetDefaults (the configured default duration
// when none is given), the level default its JSON decoding applies, and, on create, the UserInfo annotation.
import type { UserInfo } from '../../apimachinery/admission-review.ts';
import { USER_INFO_ANNOTATION } from '../api/constants.ts';
import type { Disruption } from '../api/types.ts';
import type { ChaosConfig } from '../config.ts';
import { userInfoJson } from './user-info.ts';
import { durationNs, goDuration, msToNs } from './values.ts';

export interface DefaultingContext {
  config: ChaosConfig;
  /** Who creates the disruption: recorded on create, left alone on update. */
  creator?: UserInfo;
}

/** A copy of the disruption with its defaults set. An unparsable duration is left for validation to report. */
export function defaultDisruption(d: Disruption, context: DefaultingContext): Disruption {
  const out = structuredClone(d);
  out.spec ??= {} as Disruption['spec'];
  const duration = durationNs(out.spec.duration);
  if (duration.ok && duration.value === 0n) out.spec.duration = goDuration(msToNs(context.config.defaultDurationMs));
  out.spec.level ??= 'pod';
  if (context.creator) out.metadata.annotations = { ...out.metadata.annotations, [USER_INFO_ANNOTATION]: userInfoJson(context.creator) };
  return out;
}
