import { ErrorCode } from '@tollgate/contracts';
import { RelayError } from '../errors/relay-error';
import { RateLimitedError } from '../limits/rate-limiter';
import type { ChatCompletionRequest } from '../canonical';
import { QuotaRefusedError } from '../quota/quota-reservations';
import { takeModelFallbacks, worthAnotherModel } from './model-fallbacks';

describe('takeModelFallbacks', () => {
  it('tries model, then each of models once, and takes models off the request', () => {
    const request = {
      model: 'a',
      models: ['b', 'a', 'c', 'b'],
      messages: [],
    } as unknown as ChatCompletionRequest;
    expect(takeModelFallbacks(request)).toEqual(['a', 'b', 'c']);
    expect(request).toEqual({ model: 'a', messages: [] });
    expect(takeModelFallbacks({ model: 'x', messages: [] } as unknown as ChatCompletionRequest)).toEqual([
      'x',
    ]);
  });
});

describe('worthAnotherModel', () => {
  it('moves on when the model cannot serve, not when the caller is refused', () => {
    expect(worthAnotherModel(new RelayError(ErrorCode.ModelNotFound, 'x'))).toBe(true);
    expect(worthAnotherModel(new RelayError(ErrorCode.ModelNotAllowed, 'x'))).toBe(true);
    expect(worthAnotherModel(new RelayError(ErrorCode.NoChannelAvailable, 'x'))).toBe(true);
    expect(worthAnotherModel(new RelayError(ErrorCode.UpstreamError, 'x'))).toBe(true);
    expect(worthAnotherModel(new RelayError(ErrorCode.RateLimited, 'provider busy'))).toBe(true);
    expect(worthAnotherModel(new RateLimitedError('rpm', 'key', 1, 60))).toBe(false);
    expect(worthAnotherModel(new QuotaRefusedError('user_balance'))).toBe(false);
    expect(worthAnotherModel(new RelayError(ErrorCode.ValidationFailed, 'x'))).toBe(false);
    expect(worthAnotherModel(new Error('x'))).toBe(false);
  });
});
