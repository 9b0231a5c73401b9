// A rule a Disruption breaks: where (a dotted field path, empty for the object as a whole) and upstream's message.
export interface SpecError {
  field: string;
  message: string;
}

export function specError(field: string, message: string): SpecError {
  return { field, message };
}

/** "spec.count: count must be a positive integer or a valid percentage value". */
export function formatSpecError(e: SpecError): string {
  return e.field ? `${e.field}: ${e.message}` : e.message;
}

/** Several errors as upstream's multierror prints them. */
export function formatSpecErrors(errors: readonly SpecError[], header?: string): string {
  const lines = errors.map((e) => `\t* ${formatSpecError(e)}`);
  const count = `${errors.length} error${errors.length === 1 ? '' : 's'} occurred:`;
  return [header, count, ...lines].filter((l) => l !== undefined).join('\n');
}
