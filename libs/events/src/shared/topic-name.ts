const LEGAL_TOPIC = /^[a-zA-Z0-9._-]{1,249}$/;

/** Kafka's own rule for topic names; the in-process bus also uses them as file names. */
export function assertValidTopicName(name: string): void {
  if (!LEGAL_TOPIC.test(name) || name === '.' || name === '..') {
    throw new Error(`Invalid topic name "${name}": use 1-249 characters of [a-zA-Z0-9._-]`);
  }
}
