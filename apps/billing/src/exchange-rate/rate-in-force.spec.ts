import { withMarkup, rateInForce, type StoredRates } from './rate-in-force';

const policy = { staleAfterMs: 60_000, configuredRate: '90' };
const now = new Date('2026-11-22T12:00:00Z');
const nothing: StoredRates = { bankRate: null, bankFetchedAt: null, overrideRate: null, overrideSetAt: null };
const secondsAgo = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('rateInForce', () => {
  it('serves the configured rate, marked stale, when the bank has never answered', () => {
    expect(rateInForce(nothing, policy, now)).toEqual({
      usd_rub: '90',
      updated_at: now.getTime() / 1000,
      source: 'config',
      stale: true,
    });
  });

  it('serves a fresh bank rate as not stale, and the same rate as stale once it is too old', () => {
    const fresh = { ...nothing, bankRate: '81.123400', bankFetchedAt: secondsAgo(59) };
    expect(rateInForce(fresh, policy, now)).toEqual({
      usd_rub: '81.1234',
      updated_at: now.getTime() / 1000 - 59,
      source: 'cbr',
      stale: false,
    });
    expect(rateInForce({ ...fresh, bankFetchedAt: secondsAgo(61) }, policy, now)).toMatchObject({
      usd_rub: '81.1234',
      stale: true,
    });
  });

  it('lets an admin override win over the bank', () => {
    const stored = {
      bankRate: '81.1234',
      bankFetchedAt: secondsAgo(1),
      overrideRate: '100.500000',
      overrideSetAt: secondsAgo(3600),
    };
    expect(rateInForce(stored, policy, now)).toMatchObject({
      usd_rub: '100.5',
      source: 'admin',
      stale: false,
    });
  });
});

describe('the operators’ markup on the rate', () => {
  it('raises the rate by the percent, exact to the millionth, rounded half up', () => {
    expect(withMarkup('80', '2.5')).toBe('82');
    expect(withMarkup('81.1234', '0')).toBe('81.1234');
    expect(withMarkup('81.1234', '3')).toBe('83.557102');
    expect(withMarkup('0.000001', '50')).toBe('0.000002');
    expect(withMarkup('90', '100')).toBe('180');
  });
});
