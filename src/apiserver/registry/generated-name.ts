// metadata.generateName: a random suffix after the prefix, retried while the name is taken (names.SimpleNameGenerator
// and KEP-4420's RetryGenerateName).
/** A generated name is at most 63 characters: the prefix is cut to leave room for the suffix. */
const maxGeneratedPrefixLength = 63 - 5;
/** KEP-4420 (RetryGenerateName, on by default since 1.32): 8 attempts in all before AlreadyExists. */
export const maxNameGenerationAttempts = 8;

/** names.SimpleNameGenerator's five characters (no vowels, so no words). */
export function randomSuffix(): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (let i = 0; i < 5; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

/** A name from `prefix` that is free now; after too many taken ones, the last (the create then answers AlreadyExists). */
export function generatedName(prefix: string, taken: (name: string) => boolean): string {
  let name = '';
  for (let attempt = 0; attempt < maxNameGenerationAttempts; attempt++) {
    name = `${prefix.slice(0, maxGeneratedPrefixLength)}${randomSuffix()}`;
    if (!taken(name)) break;
  }
  return name;
}
