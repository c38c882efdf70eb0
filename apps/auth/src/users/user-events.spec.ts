import { chosenCurrency } from './user-events';

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
