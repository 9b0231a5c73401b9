// The reasons of the Events the disruption controller records (upstream's api/v1beta1/events.go).

export const EVENT_CHAOS_POD_CREATED = 'ChaosPodCreated';
export const EVENT_CLEANED = 'Cleaned';
export const EVENT_FINISHED = 'Finished';
export const EVENT_DURATION_OVER = 'DurationOver';
export const EVENT_GC_OVER = 'GCOver';
export const EVENT_NO_MORE_TARGETS = 'NoMoreTargets';
export const EVENT_EMPTY_DISRUPTION = 'EmptyDisruption';
export const EVENT_CREATE_FAILED = 'CreateFailed';
export const EVENT_STUCK_ON_REMOVAL = 'StuckOnRemoval';
export const EVENT_INVALID_LABEL_SELECTOR = 'InvalidLabelSelector';
export const EVENT_NO_TARGETS_FOUND = 'NoTargetsFound';
export const EVENT_INVALID_SPEC = 'InvalidSpec';
/** The spec changed although a disruption is immutable (upstream's controller before its admission webhook). */
export const EVENT_SPEC_MUTATED = 'Mutated';
/** A chaos pod failed before the end (upstream's EventChaosPodFailedState). */
export const EVENT_CHAOS_POD_FAILED = 'ChaosPodWarningState';
/** On the target pod or node. */
export const EVENT_DISRUPTED = 'Disrupted';
