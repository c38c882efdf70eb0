import {
  ErrorCode,
  TokenStatus,
  UserStatus,
  type IdentityToken,
  type IdentityUser,
} from '@tollgate/contracts';
import type { CompactedTable } from '@tollgate/events';
import { aToken, aUser } from '../../test/support/fixtures';
import { RelayError } from '../errors/relay-error';
import { CallerAccess, servedModel } from './caller-access';
import { ApiKeyHasher, KeyIndex } from './key-index';

const NOW = 1_800_000_000;
const hasher = new ApiKeyHasher(Buffer.alloc(32, 7));
const KEY = 'sk-valid-key';

function accessWith(token: Partial<IdentityToken>, user: Partial<IdentityUser> = {}): CallerAccess {
  const full = aToken({ id: 3, user_id: 7, key_hash: hasher.hash(KEY), ...token });
  const table = {
    entries: () => new Map([['3', full]]).entries(),
    onChange: () => () => undefined,
  } as unknown as CompactedTable<IdentityToken>;
  const owner = { ...aUser(7), ...user };
  return new CallerAccess(
    new KeyIndex(table),
    hasher,
    { get: (id) => (id === '7' ? owner : undefined) },
    () => NOW,
  );
}

function refusal(run: () => unknown): { code: ErrorCode; status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof RelayError)
      return { code: error.code, status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('CallerAccess', () => {
  it('lets a valid key through with its owner and group', () => {
    const caller = accessWith({}).authenticate(KEY, '198.51.100.1', 'openai');
    expect(caller).toMatchObject({ token: { id: 3 }, user: { id: 7 }, group: 'default' });
  });

  it('answers 401 for a missing or unknown key', () => {
    const access = accessWith({});
    expect(refusal(() => access.authenticate(undefined, '::1', 'anthropic'))).toMatchObject({
      status: 401,
      message: expect.stringContaining('x-api-key'),
    });
    expect(refusal(() => access.authenticate('sk-other', '::1', 'openai'))).toMatchObject({
      code: ErrorCode.InvalidApiKey,
      status: 401,
    });
  });

  it('answers 401 for disabled and expired keys, by status or by expiry time', () => {
    expect(
      refusal(() => accessWith({ status: TokenStatus.Disabled }).authenticate(KEY, '::1', 'openai')).status,
    ).toBe(401);
    expect(
      refusal(() => accessWith({ status: TokenStatus.Expired }).authenticate(KEY, '::1', 'openai')).status,
    ).toBe(401);
    expect(
      refusal(() => accessWith({ expired_time: NOW }).authenticate(KEY, '::1', 'openai')).message,
    ).toMatch(/expired/);
    expect(accessWith({ expired_time: NOW + 1 }).authenticate(KEY, '::1', 'openai').token.id).toBe(3);
  });

  it('answers 402 for a limited key with no quota left, never for an unlimited one', () => {
    expect(
      refusal(() =>
        accessWith({ unlimited_quota: false, remain_quota: 0 }).authenticate(KEY, '::1', 'openai'),
      ),
    ).toMatchObject({ code: ErrorCode.InsufficientQuota, status: 402 });
    expect(
      accessWith({ unlimited_quota: true, remain_quota: 0 }).authenticate(KEY, '::1', 'openai'),
    ).toBeDefined();
  });

  it('answers 403 for a disabled owner and for an address outside the allow-list', () => {
    expect(
      refusal(() => accessWith({}, { status: UserStatus.Disabled }).authenticate(KEY, '::1', 'openai'))
        .status,
    ).toBe(403);
    const limited = accessWith({ allow_ips: ['10.0.0.0/8'] });
    expect(limited.authenticate(KEY, '10.1.2.3', 'openai')).toBeDefined();
    expect(refusal(() => limited.authenticate(KEY, '192.0.2.1', 'openai'))).toMatchObject({
      code: ErrorCode.IpNotAllowed,
      status: 403,
    });
  });

  it('answers 403 for a model outside an enabled model list only', () => {
    const limited = accessWith({ model_limits_enabled: true, model_limits: ['gpt-4o-mini'] });
    const caller = limited.authenticate(KEY, '::1', 'openai');
    expect(() => limited.assertModelAllowed(caller, 'gpt-4o-mini')).not.toThrow();
    expect(refusal(() => limited.assertModelAllowed(caller, 'gpt-4o'))).toMatchObject({ status: 403 });
    const open = accessWith({ model_limits_enabled: false, model_limits: ['gpt-4o-mini'] });
    expect(() => open.assertModelAllowed(open.authenticate(KEY, '::1', 'openai'), 'gpt-4o')).not.toThrow();
  });

  it("makes a keyless caller for the chat service in the user's own group, with no key limits", () => {
    const access = accessWith({}, { group: 'vip' });
    const caller = access.chatCaller('7', 'chat #12');
    expect(caller).toMatchObject({ token: null, user: { id: 7 }, group: 'vip', label: 'chat #12' });
    expect(() => access.assertModelAllowed(caller, 'any-model')).not.toThrow();
  });

  it('refuses a chat call for an unknown user (401) or a disabled one (403)', () => {
    expect(refusal(() => accessWith({}).chatCaller('8', 'chat #1')).status).toBe(401);
    expect(
      refusal(() => accessWith({}, { status: UserStatus.Disabled }).chatCaller('7', 'chat #1')).status,
    ).toBe(403);
  });

  it("serves a key in its owner's group, never in a group the key names", () => {
    // Another user's private group typed into the key, or the owner's group before an operator moved them.
    const access = accessWith({ group: 'acme' }, { group: 'default' });
    expect(access.authenticate(KEY, '198.51.100.1', 'openai').group).toBe('default');
    expect(accessWith({ group: '' }, { group: 'vip' }).authenticate(KEY, '::1', 'openai').group).toBe('vip');
  });
});

describe('servedModel', () => {
  const user = aUser(7);
  /** The providers the catalogue prices these models under. */
  const catalogue = {
    providerOf: (model: string) =>
      ({ 'gpt-4o': 'openai', 'gpt-4o-mini': 'openai', 'deepseek-ai/DeepSeek-V3': 'siliconflow' })[model],
  };

  it("serves a key's alias for the model asked, and anything else as asked", () => {
    const caller = { token: aToken({ model_aliases: { 'gpt-4': 'gpt-4o' } }), user, group: 'default' };
    expect(servedModel(caller, 'gpt-4', catalogue)).toBe('gpt-4o');
    expect(servedModel(caller, 'gpt-4o-mini', catalogue)).toBe('gpt-4o-mini');
    expect(servedModel(caller, 'constructor', catalogue)).toBe('constructor');
    expect(servedModel({ token: null, user, group: 'default' }, 'gpt-4', catalogue)).toBe('gpt-4');
  });

  it("serves an OpenRouter name on the model when its prefix is the model's provider, after the key's aliases", () => {
    const caller = {
      token: aToken({ model_aliases: { 'openai/gpt-4o': 'gpt-4o-mini', fast: 'openai/gpt-4o-mini' } }),
      user,
      group: 'default',
    };
    expect(servedModel(caller, 'openai/gpt-4o-mini', catalogue)).toBe('gpt-4o-mini');
    // The key's alias wins over the prefix rule, and an alias may name a model the OpenRouter way.
    expect(servedModel(caller, 'openai/gpt-4o', catalogue)).toBe('gpt-4o-mini');
    expect(servedModel(caller, 'fast', catalogue)).toBe('gpt-4o-mini');
    // Not the model's provider: left as asked, so it is refused as an unknown model.
    expect(servedModel(caller, 'anthropic/gpt-4o', catalogue)).toBe('anthropic/gpt-4o');
  });
});
