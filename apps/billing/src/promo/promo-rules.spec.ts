import {
  belowMinAmount,
  promoBonusQuota,
  promoDescription,
  promoRefusal,
  type PromoUsability,
} from './promo-rules';

const now = new Date('2026-11-22T12:00:00Z');
const usable: PromoUsability = {
  active: true,
  deleted: false,
  startsAt: null,
  expiresAt: null,
  maxUses: 1,
  perUserLimit: 1,
  heldUses: 0,
  heldByUser: 0,
};

describe('promoRefusal', () => {
  it('accepts an active code within its dates and limits', () => {
    expect(promoRefusal(usable, now)).toBeUndefined();
    expect(
      promoRefusal({ ...usable, maxUses: 0, perUserLimit: 0, heldUses: 99, heldByUser: 99 }, now),
    ).toBeUndefined();
  });

  it.each<[string, Partial<PromoUsability>, string]>([
    ['inactive', { active: false }, 'inactive'],
    ['deleted', { deleted: true }, 'inactive'],
    ['not yet started', { startsAt: new Date(now.getTime() + 1000) }, 'not_started'],
    ['expired at this very second', { expiresAt: now }, 'expired'],
    ['used up by consumed uses and reservations', { maxUses: 3, heldUses: 3 }, 'exhausted'],
    ['used up by this user', { perUserLimit: 2, heldByUser: 2, maxUses: 0 }, 'user_limit'],
  ])('refuses a code %s', (_name, change, refusal) => {
    expect(promoRefusal({ ...usable, ...change }, now)).toBe(refusal);
  });
});

describe('promo amounts', () => {
  it('compares the top-up with the minimum exactly, in kopecks', () => {
    expect(belowMinAmount('99.99', '100.00')).toBe(true);
    expect(belowMinAmount('100', '100.00')).toBe(false);
  });

  it('gives a percent of the top-up quota or fixed rubles at the payment rate, rounded down', () => {
    expect(promoBonusQuota('percent', '10.00', 1_000_005, '90')).toBe(100_000);
    expect(promoBonusQuota('fixed', '90.00', 1_000_000, '90')).toBe(500_000);
  });

  it('describes the bonus in Russian', () => {
    expect(promoDescription('percent', '10.00', '0.00', 'ru')).toBe('Бонус +10% к пополнению');
    expect(promoDescription('fixed', '500.00', '1000.00', 'ru')).toBe('Бонус +500 ₽ к пополнению от 1000 ₽');
    expect(promoDescription('percent', '2.50', '300.00', 'ru')).toBe('Бонус +2.5% к пополнению от 300 ₽');
  });

  it('describes the bonus in English to an English caller', () => {
    expect(promoDescription('percent', '10.00', '0.00', 'en')).toBe('Bonus +10% on your top-up');
    expect(promoDescription('fixed', '500.00', '1000.00', 'en')).toBe(
      'Bonus +500 ₽ on your top-up of 1000 ₽ or more',
    );
  });
});
