// One probe of one container run, on its own timer as kubelet's probe workers are: the first attempt after
// initialDelaySeconds, then every periodSeconds; the result flips after successThreshold successes or
// failureThreshold failures in a row. The worker ends with the run (stop) and never overlaps attempts.
import type { Probe } from '../../../apimachinery/api/index.ts';
import { runProbe, type ProbeOutcome, type ProbeTarget } from './probe-check.ts';

export type ProbeKind = 'readiness' | 'liveness' | 'startup';

export interface ProbeTimings {
  initialDelayMs: number;
  periodMs: number;
  timeoutMs: number;
  successThreshold: number;
  failureThreshold: number;
}

/** kubelet's defaults: period 10 s, timeout 1 s, success 1 (always 1 for liveness and startup), failure 3. */
export function probeTimings(probe: Probe, kind: ProbeKind): ProbeTimings {
  return {
    initialDelayMs: (probe.initialDelaySeconds ?? 0) * 1000,
    periodMs: Math.max(1, probe.periodSeconds ?? 10) * 1000,
    timeoutMs: Math.max(1, probe.timeoutSeconds ?? 1) * 1000,
    successThreshold: kind === 'readiness' ? Math.max(1, probe.successThreshold ?? 1) : 1,
    failureThreshold: Math.max(1, probe.failureThreshold ?? 3),
  };
}

export interface ProbeWorkerOptions {
  kind: ProbeKind;
  probe: Probe;
  target: ProbeTarget;
  /** Called when the result flips (and on the first decided result), with the attempt's output. */
  onResult(success: boolean, outcome: ProbeOutcome): void;
  /** Called on every failed attempt, as kubelet records an Unhealthy Event for each. */
  onFailure(outcome: ProbeOutcome): void;
}

export class ProbeWorker {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private successes = 0;
  private failures = 0;
  private result: boolean | undefined;
  private readonly timings: ProbeTimings;

  constructor(private readonly options: ProbeWorkerOptions) {
    this.timings = probeTimings(options.probe, options.kind);
  }

  start(): void {
    this.schedule(this.timings.initialDelayMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.attempt(), delayMs);
  }

  private async attempt(): Promise<void> {
    const outcome = await runProbe(this.options.probe, this.options.target, this.timings.timeoutMs);
    if (this.stopped) return;
    if (outcome.success) {
      this.failures = 0;
      this.successes++;
      if (this.result !== true && this.successes >= this.timings.successThreshold) this.decide(true, outcome);
    } else {
      this.successes = 0;
      this.failures++;
      this.options.onFailure(outcome);
      if (this.result !== false && this.failures >= this.timings.failureThreshold) this.decide(false, outcome);
    }
    // A startup probe stops once it succeeded; a liveness failure ends the run, which stops the worker.
    if (this.options.kind === 'startup' && this.result === true) return;
    this.schedule(this.timings.periodMs);
  }

  private decide(success: boolean, outcome: ProbeOutcome): void {
    this.result = success;
    this.options.onResult(success, outcome);
  }
}
