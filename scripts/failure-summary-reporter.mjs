// A node:test reporter that lists every failed test once the run ends, with its suite path, file and error, so
// the end of a long run's output (all that a CI log may keep) names what failed.
export default async function* failureSummary(source) {
  const paths = new Map(); // file → names of the tests open at each nesting level
  const failures = [];
  for await (const event of source) {
    if (event.type !== 'test:start' && event.type !== 'test:fail') continue;
    const { name, nesting, file = '' } = event.data;
    const path = paths.get(file) ?? [];
    path.length = nesting;
    path.push(name);
    paths.set(file, path);
    if (event.type !== 'test:fail') continue;
    const error = event.data.details?.error;
    if (error?.failureType === 'subtestsFailed') continue; // its failed subtest is listed itself
    const cause = error?.cause ?? error;
    const message = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    failures.push(`not ok ${path.join(' > ')}\n  file: ${file}\n  ${message.split('\n').slice(0, 12).join('\n  ')}\n`);
  }
  yield failures.length === 0 ? '# no failed tests\n' : `# ${failures.length} failed tests:\n${failures.join('')}`;
}
