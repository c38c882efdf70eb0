import {
  optionDecimal,
  optionFlag,
  optionInteger,
  optionList,
  optionText,
  settingProblem,
  SETTINGS_CATALOGUE,
} from './settings';

describe('settings as new-api keeps them', () => {
  it('reads true/false (and 1/0) as flags, anything else as not set', () => {
    expect(optionFlag('true')).toBe(true);
    expect(optionFlag(' FALSE ')).toBe(false);
    expect(optionFlag('1')).toBe(true);
    expect(optionFlag('0')).toBe(false);
    expect(optionFlag('maybe')).toBeUndefined();
    expect(optionFlag(undefined)).toBeUndefined();
  });

  it('reads comma-separated lists without blanks, and an unset option as undefined', () => {
    expect(optionList(' gpt-4o, ,claude-haiku ')).toEqual(['gpt-4o', 'claude-haiku']);
    expect(optionList('')).toEqual([]);
    expect(optionList(undefined)).toBeUndefined();
  });
});

describe('the settings catalogue', () => {
  it('accepts good values and unsetting, and explains a bad one', () => {
    expect(settingProblem('RegisterEnabled', 'false')).toBeUndefined();
    expect(settingProblem('RegisterEnabled', 'nope')).toBe('must be true or false');
    expect(settingProblem('QuotaForNewUser', '500000')).toBeUndefined();
    expect(settingProblem('QuotaForNewUser', '-1')).toBe('must be a whole number');
    expect(settingProblem('QuotaForNewUser', '1.5')).toBe('must be a whole number');
    expect(settingProblem('AffiliateRewardPercent', '12.5')).toBeUndefined();
    expect(settingProblem('AffiliateRewardPercent', '101')).toBe('must be at most 100');
    expect(settingProblem('LogRetentionDays', '36501')).toBe('must be at most 36500');
    expect(settingProblem('SMTPFrom', 'Tollgate <no-reply@tollgate.ru>')).toBeUndefined();
    expect(settingProblem('SMTPFrom', 'not an address')).toMatch(/must be an address/);
    expect(settingProblem('ServerAddress', 'ftp://x')).toBe('must be an http(s) address');
    expect(settingProblem('GitHubClientId', 'Iv1.abc 123')).toBe(
      'must be one word of at most 256 characters',
    );
    expect(settingProblem('QuotaForNewUser', '')).toBeUndefined();
    expect(settingProblem('SomethingElse', 'anything')).toBeUndefined();
  });

  it('reads numbers and text back', () => {
    expect(optionInteger(' 42 ')).toBe(42);
    expect(optionInteger('4.2')).toBeUndefined();
    expect(optionDecimal('012.50')).toBe('12.5');
    expect(optionDecimal('7')).toBe('7');
    expect(optionDecimal('7.000')).toBe('7');
    expect(optionDecimal('x')).toBeUndefined();
    expect(optionText('  ')).toBeUndefined();
    expect(optionText(' id ')).toBe('id');
  });

  it('names every catalogued key once', () => {
    const keys = SETTINGS_CATALOGUE.map((setting) => setting.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
