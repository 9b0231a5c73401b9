// The Disruption's validation and defaulting as pure functions, shared by the admission webhooks and
// `bosun chaos validate`.
export { removesDisruptionFinalizer, validateCreate, validateUpdate, type CreateContext, type Verdict } from './admission.ts';
export { defaultDisruption, type DefaultingContext } from './defaults.ts';
export { formatSpecError, formatSpecErrors, type SpecError } from './errors.ts';
export { specHash } from './hash.ts';
export { countTooLargeApplies, SAFETY_NETS_HEADER, safetyNets, type SafetyNetContext, type TargetCounts } from './safety-nets.ts';
export { serviceKey, type ServiceInfo, type ServiceLookup } from './services.ts';
export { specKinds, validateSpec, type SpecContext } from './spec.ts';
export { readUserInfo, userInfoJson } from './user-info.ts';
