import { identityUserV1 } from '@tollgate/contracts';
import { User } from './user.entity';
import { chosenCurrency, identityUserEvent } from './user-events';

describe('chosenCurrency', () => {
  it('is the currency the user saved, as their settings show it', () => {
    expect(chosenCurrency('{"default_currency":"USD","language":"en"}')).toBe('USD');
    expect(chosenCurrency('{"default_currency":"RUB"}')).toBe('RUB');
    // Anything but RUB or USD reads as RUB, as /api/user/self shows it.
    expect(chosenCurrency('{"default_currency":"EUR"}')).toBe('RUB');
  });

  it('is nothing for a user who never chose, so the platform default applies', () => {
    expect(chosenCurrency('')).toBeUndefined();
    expect(chosenCurrency('{"language":"en"}')).toBeUndefined();
    expect(chosenCurrency('not json')).toBeUndefined();
    expect(chosenCurrency('null')).toBeUndefined();
  });
});

describe('identityUserEvent', () => {
  const aUser = (setting: string): User =>
    Object.assign(new User(), {
      id: 7,
      username: 'anna',
      displayName: 'Anna',
      role: 1,
      status: 1,
      group: 'default',
      inviterId: null,
      setting,
      createdAt: new Date(1_700_000_000_000),
      updatedAt: new Date(1_700_000_000_000),
    });

  it('leaves default_currency out for a user who never chose, so the stored event still passes the contract', () => {
    const { value } = identityUserEvent(aUser(''));
    // The outbox's JSON column stores an undefined field as null, which identityUserV1 refuses.
    expect(Object.keys(value as object)).not.toContain('default_currency');
    expect(identityUserV1.safeParse(JSON.parse(JSON.stringify(value))).success).toBe(true);
  });

  it('carries the currency the user chose', () => {
    expect(identityUserEvent(aUser('{"default_currency":"USD"}')).value).toMatchObject({
      default_currency: 'USD',
    });
  });
});
