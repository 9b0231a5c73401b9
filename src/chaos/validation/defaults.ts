// The mutating webhook's changes, as a pure function: upstream's SetDefaults (the configured default duration
// when none is given), the level default its JSON decoding applies, and, on create, the UserInfo annotation.
// On update a UserInfo the new object leaves out is carried over (upstream denies such an update, so that
// `kubectl replace` of the original manifest failed); changing it is still denied by validation.
import type { UserInfo } from '../../apimachinery/admission-review.ts';
import { USER_INFO_ANNOTATION } from '../api/constants.ts';
import type { Disruption } from '../api/types.ts';
import type { ChaosConfig } from '../config.ts';
import { userInfoJson } from './user-info.ts';
import { formatDuration } from '../../apimachinery/duration.ts';
import { durationNs, msToNs } from './values.ts';

export interface DefaultingContext {
  config: ChaosConfig;
  /** Who creates the disruption: recorded on create. */
  creator?: UserInfo;
  /** The stored disruption, on update. */
  previous?: Disruption;
}

/** A copy of the disruption with its defaults set. An unparsable duration is left for validation to report. */
export function defaultDisruption(d: Disruption, context: DefaultingContext): Disruption {
  const out = structuredClone(d);
  out.spec ??= {} as Disruption['spec'];
  const duration = durationNs(out.spec.duration);
  if (duration.ok && duration.value === 0n) out.spec.duration = formatDuration(msToNs(context.config.defaultDurationMs));
  out.spec.level ??= 'pod';
  if (context.creator) out.metadata.annotations = { ...out.metadata.annotations, [USER_INFO_ANNOTATION]: userInfoJson(context.creator) };
  const recorded = context.previous?.metadata.annotations?.[USER_INFO_ANNOTATION];
  if (recorded !== undefined && out.metadata.annotations?.[USER_INFO_ANNOTATION] === undefined) {
    out.metadata.annotations = { ...out.metadata.annotations, [USER_INFO_ANNOTATION]: recorded };
  }
  return out;
}
