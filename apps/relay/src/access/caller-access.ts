import {
  ErrorCode,
  TOKEN_NEVER_EXPIRES,
  TokenStatus,
  UserStatus,
  type ApiProtocol,
  type IdentityToken,
  type IdentityUser,
} from '@tollgate/contracts';
import { RelayError } from '../errors/relay-error';
import { withoutProviderPrefix, type ModelProviders } from '../models/provider-prefix';
import { missingKeyMessage } from './api-key';
import { IpAllowList } from './ip-allow-list';
import type { ApiKeyHasher, KeyIndex } from './key-index';

/**
 * Who is calling: the key, its owner, and the group whose channels and prices apply. A signed-in
 * user's call from the chat service has no key (`token` null) and names its chat in `label`.
 */
export interface Caller {
  token: IdentityToken | null;
  user: IdentityUser;
  group: string;
  /** The usage log's token name for a keyless call (`chat #12`). */
  label?: string;
}

export interface UserLookup {
  get(userId: string): IdentityUser | undefined;
}

/**
 * The model a call is served by: the key's alias for the name asked for (a client's `gpt-4` →
 * `gpt-4o`), else the name itself; then an OpenRouter name's provider prefix taken off when it is the
 * model's provider (`openai/gpt-4o-mini` → `gpt-4o-mini`, see withoutProviderPrefix). Everything after
 * (the key's model list, price, channels, usage log) sees the served model.
 */
export function servedModel(caller: Caller, asked: string, catalogue: ModelProviders): string {
  const aliases = caller.token?.model_aliases;
  const model = aliases !== undefined && Object.hasOwn(aliases, asked) ? aliases[asked]! : asked;
  return withoutProviderPrefix(model, catalogue);
}

/**
 * Decides from memory alone whether a key may make a call: known, enabled, not expired, quota left,
 * owner enabled, client address allowed. Every refusal is a RelayError with the status.
 */
export class CallerAccess {
  private readonly allowLists = new WeakMap<IdentityToken, IpAllowList>();

  constructor(
    private readonly keys: KeyIndex,
    private readonly hasher: ApiKeyHasher,
    private readonly users: UserLookup,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  authenticate(
    apiKey: string | undefined,
    clientIp: string,
    protocol: ApiProtocol,
  ): Caller & { token: IdentityToken } {
    if (apiKey === undefined) throw new RelayError(ErrorCode.InvalidApiKey, missingKeyMessage(protocol));
    const token = this.keys.find(this.hasher.hash(apiKey));
    if (token === undefined) throw new RelayError(ErrorCode.InvalidApiKey, 'Invalid API key');
    this.assertUsable(token);
    const user = this.users.get(String(token.user_id));
    if (user === undefined) throw new RelayError(ErrorCode.InvalidApiKey, 'Invalid API key');
    if (user.status !== UserStatus.Enabled)
      throw new RelayError(ErrorCode.Forbidden, 'The account this API key belongs to is disabled');
    if (!this.allowListOf(token).allows(clientIp))
      throw new RelayError(ErrorCode.IpNotAllowed, 'This API key may not be used from this IP address');
    // The owner's group, whatever group the key names: only an operator gives a group (to the user),
    // and a key naming another (the owner's earlier group, or one typed in) must not open that group's
    // private channels and prices to whoever holds the key.
    return { token, user, group: user.group };
  }

  /**
   * A signed-in user's call that the chat service makes for them (the service token was checked by
   * the route): no key, so no key limits; the user's own group and balance apply.
   */
  chatCaller(userId: string, label: string): Caller {
    const user = this.users.get(userId);
    if (user === undefined) throw new RelayError(ErrorCode.Unauthenticated, 'Unknown user');
    if (user.status !== UserStatus.Enabled)
      throw new RelayError(ErrorCode.Forbidden, 'This account is disabled');
    return { token: null, user, group: user.group, label };
  }

  /** The key's model list, when it has one enabled, must name the model. */
  assertModelAllowed(caller: Caller, model: string): void {
    const { token } = caller;
    if (token !== null && token.model_limits_enabled && !token.model_limits.includes(model)) {
      throw new RelayError(ErrorCode.ModelNotAllowed, `This API key may not use the model ${model}`);
    }
  }

  private assertUsable(token: IdentityToken): void {
    switch (token.status) {
      case TokenStatus.Enabled:
        break;
      case TokenStatus.Expired:
        throw new RelayError(ErrorCode.InvalidApiKey, 'This API key has expired');
      case TokenStatus.Exhausted:
        throw new RelayError(ErrorCode.InsufficientQuota, 'This API key has used up its quota');
      default:
        throw new RelayError(ErrorCode.InvalidApiKey, 'This API key is disabled');
    }
    if (token.expired_time !== TOKEN_NEVER_EXPIRES && token.expired_time <= this.nowSeconds()) {
      throw new RelayError(ErrorCode.InvalidApiKey, 'This API key has expired');
    }
    if (!token.unlimited_quota && token.remain_quota <= 0) {
      throw new RelayError(ErrorCode.InsufficientQuota, 'This API key has used up its quota');
    }
  }

  private allowListOf(token: IdentityToken): IpAllowList {
    let list = this.allowLists.get(token);
    if (list === undefined) {
      list = new IpAllowList(token.allow_ips);
      this.allowLists.set(token, list);
    }
    return list;
  }
}
