import { assertValidTopicName } from './topic-name';

describe('assertValidTopicName', () => {
  it('accepts the names Kafka accepts', () => {
    for (const name of ['usage.recorded', 'identity.token.dlq', 'a_b-C9', 'x'.repeat(249)]) {
      expect(() => assertValidTopicName(name)).not.toThrow();
    }
  });

  it('refuses names that are illegal in Kafka or unsafe as file names', () => {
    for (const name of ['', '.', '..', '../etc', 'a/b', 'a b', 'ключ', 'x'.repeat(250)]) {
      expect(() => assertValidTopicName(name)).toThrow(/Invalid topic name/);
    }
  });
});
