// What a controller reports; src/runtime/metrics.ts implements it with prom-client under controller-runtime's names.

export type ReconcileResult = 'success' | 'error' | 'requeue' | 'requeue_after';

export interface ControllerMetrics {
  reconciled(result: ReconcileResult, seconds: number): void;
  errored(terminal: boolean): void;
  panicked(): void;
  activeWorkers(delta: number): void;
  maxConcurrentReconciles(n: number): void;
}

export const noControllerMetrics: ControllerMetrics = {
  reconciled() {},
  errored() {},
  panicked() {},
  activeWorkers() {},
  maxConcurrentReconciles() {},
};
