// metav1.Time is RFC 3339 with second precision; MicroTime keeps microseconds.
export function nowTime(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function nowMicroTime(now: Date = new Date()): string {
  return now.toISOString().replace(/Z$/, '000Z');
}
