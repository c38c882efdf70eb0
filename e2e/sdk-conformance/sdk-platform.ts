import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { KafkaEventBus } from '@tollgate/events';
import { startDistributed, type DistributedPlatform } from '@tollgate/launcher';
import {
  eventually,
  newRunId,
  startFakeUpstream,
  TEST_OPERATOR_ENV,
  type FakeUpstream,
} from '@tollgate/testing';
import { RelayWorld } from '../../apps/relay/test/support/relay-world';
import { infrastructureEnv, relaySpoolDir, REPO_ROOT } from '../support/e2e-env';
import type { SdkSettings } from './cases';

const ANTHROPIC_CHANNEL = 14;
const GEMINI_CHANNEL = 24;

export interface SdkPlatform {
  /** What the SDK runs are given. */
  settings: SdkSettings;
  stop(): Promise<void>;
}

/**
 * Gateway and relay as production runs them (separate processes on real Kafka, Redis and PostgreSQL)
 * in front of a fake upstream serving an OpenAI, an Anthropic and a Gemini channel, with one funded
 * key that may use every model of the run. Keys, channels, prices and the balance are published on
 * their topics as auth, admin and billing would (as in e2e/relay-hot-path.spec.ts); billing itself is
 * not needed, since nothing here reads a charge back.
 */
export async function startSdkPlatform(): Promise<SdkPlatform> {
  const infra = infrastructureEnv();
  const id = newRunId();
  const bus = new KafkaEventBus({ brokers: infra.kafkaBrokers.split(','), clientId: `e2e-sdk-${id}` });
  const world = new RelayWorld(bus, id);
  const models: SdkSettings['models'] = {
    openai_chat: world.model('gpt'),
    openai_embedding: world.model('text-embedding'),
    anthropic: world.model('claude'),
    gemini: world.model('gemini'),
    // google-genai (Python) takes any other 'gemini…' name for a multimodal embedding model, whose list
    // of texts is one content of several parts and so one vector; gemini-embedding-001 embeds each text.
    gemini_embedding: world.model('gemini-embedding-001'),
  };
  let upstream: FakeUpstream | undefined;
  let platform: DistributedPlatform | undefined;
  const spool = relaySpoolDir();
  const stop = async () => {
    await platform?.stop();
    await upstream?.close();
    await bus.close();
    spool.remove();
  };
  try {
    upstream = await startFakeUpstream({ completionTokens: 8, chunks: 4 });
    platform = await startDistributed({
      repoRoot: REPO_ROOT,
      env: {
        ...TEST_OPERATOR_ENV,
        TOLLGATE_INTERNAL_TOKEN_SECRET: randomBytes(32).toString('hex'),
        TOLLGATE_ENCRYPTION_KEY: world.encryptionKey,
        LOG_LEVEL: 'info',
        RELAY_USAGE_SPOOL_DIR: spool.dir,
      },
      ...infra,
      databasePrefix: `e2e_${id}`,
      logDir: join(REPO_ROOT, 'reports', 'e2e-logs', `sdk-conformance-${id}`),
      skip: ['auth', 'billing', 'chat', 'admin'],
    });
    await Promise.all(Object.values(models).map((model) => world.price(model)));
    await world.channel({
      key: 'sk-fake-openai-key',
      base_url: upstream.url,
      models: [models.openai_chat, models.openai_embedding],
      model_mapping: {
        [models.openai_chat]: 'gpt-4o-mini',
        [models.openai_embedding]: 'text-embedding-3-small',
      },
    });
    await world.channel({
      type: ANTHROPIC_CHANNEL,
      key: 'sk-ant-fake-anthropic-key',
      base_url: upstream.url,
      models: [models.anthropic],
      model_mapping: { [models.anthropic]: 'claude-sonnet-4-5' },
    });
    await world.channel({
      type: GEMINI_CHANNEL,
      key: 'fake-gemini-key',
      base_url: upstream.url,
      models: [models.gemini, models.gemini_embedding],
      model_mapping: {
        [models.gemini]: 'gemini-2.5-flash',
        [models.gemini_embedding]: 'gemini-embedding-001',
      },
    });
    const key = await world.key(500_000_000);
    const origin = platform.url;
    // Relay has the key, the balance and every channel once its model list names all the run's models.
    await eventually(
      'relay to serve the key every model of the run',
      async () => {
        const res = await fetch(`${origin}/v1/models`, {
          headers: { authorization: `Bearer ${key.apiKey}` },
        });
        if (res.status !== 200) return undefined;
        const listed = new Set(((await res.json()) as { data: { id: string }[] }).data.map((m) => m.id));
        return Object.values(models).every((model) => listed.has(model)) ? true : undefined;
      },
      30_000,
    );
    return {
      settings: { origin, api_key: key.apiKey, wrong_key: `sk-${randomBytes(24).toString('hex')}`, models },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
